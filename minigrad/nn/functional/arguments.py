"""Small helpers shared by the layer ops and their functional forms: the undefined-tensor placeholder, argument
normalisation (`_pair`) and PyTorch's names for dtypes in messages."""
import numpy as np

from ...core import dtype as _dtype
from ..._tensor.tensor import Tensor

# An optional tensor argument left out (a conv without bias, a layer norm without weight). PyTorch's node still
# has an edge for it, `(None, 0)`; minigrad gives an edge to every tensor argument, so the ops get this
# placeholder instead of None, and test `bias is UNDEFINED`.
UNDEFINED = Tensor._make(np.zeros(0, np.float32))


def defined(t):
    """`t`, or UNDEFINED for None: what an op with an optional tensor argument receives."""
    return UNDEFINED if t is None else t


def pair(value):
    """An int or a sequence of ints as a tuple of two, as torch's `_pair` (a 1-sequence repeated)."""
    if isinstance(value, (tuple, list)):
        return tuple(value) * 2 if len(value) == 1 else tuple(value)
    return (value, value)


C_TYPE_NAMES = {"float32": "float", "float64": "double", "int64": "long int", "int32": "int", "int16": "short int",
                "int8": "signed char", "uint8": "unsigned char", "bool": "bool", "float16": "c10::Half"}


scalar_name = _dtype.scalar_name       # PyTorch's ScalarType name of a tensor's dtype: 'Float', 'Long', ...


def sizes(shape):
    """A shape as PyTorch's messages print it: [2, 3, 8, 8]."""
    return "[" + ", ".join(str(s) for s in shape) + "]"
