"""Small helpers shared by the op modules."""
import numpy as np

from .._dtype import promote
from .._tensor import Tensor, sum_to


def wrap(array):
    """Make a tensor from an op's numpy result (a numpy scalar becomes a 0-d array)."""
    if type(array) is not np.ndarray:
        array = np.asarray(array)
    return Tensor._make(array)


def view_of(x, array):
    """A tensor over `array`, a numpy view of `x`'s memory: it shares x's version counter, as views do."""
    t = Tensor._make(array)
    t._vc = x._shared_version_counter()
    return t


def _rank(t):
    return 0 if t._wrapped_number else (2 if t._data.ndim else 1)


def operands(x, y):
    """Return the numpy arrays of x and y, both cast to PyTorch's promoted dtype."""
    a, b = x._data, y._data
    if a.dtype == b.dtype:
        return a, b
    dt = promote((x.dtype, _rank(x)), (y.dtype, _rank(y))).np_type
    return a.astype(dt, copy=False), b.astype(dt, copy=False)


def grad_to(array, shape):
    """A gradient tensor for an input of `shape`, summing over axes that broadcasting added."""
    return Tensor._make(sum_to(array, shape))


def float_dtype_of(array):
    """Ops like exp and true division turn integer tensors into float32 (PyTorch's default dtype)."""
    return array if array.dtype.kind == "f" else array.astype(np.float32)
