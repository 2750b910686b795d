"""dtypes, `Size`, and PyTorch's type-promotion rule for the four dtypes minigrad supports."""
import builtins

import numpy as np


class dtype:
    """A tensor element type. Prints as PyTorch prints it (`torch.float32`), so outputs read alike."""

    def __init__(self, name, np_type, is_floating_point, tensor_type):
        self.name = name
        self.np_type = np.dtype(np_type)
        self.is_floating_point = is_floating_point
        self._tensor_type = tensor_type   # the legacy type name used in error messages

    def __repr__(self):
        return f"torch.{self.name}"

    def __reduce__(self):
        return self.name


float32 = dtype("float32", np.float32, True, "torch.FloatTensor")
float64 = dtype("float64", np.float64, True, "torch.DoubleTensor")
int64 = dtype("int64", np.int64, False, "torch.LongTensor")
bool = dtype("bool", np.bool_, False, "torch.BoolTensor")  # noqa: A001 - PyTorch's name
float = float32  # noqa: A001
double = float64
long = int64

_BY_NUMPY = {d.np_type: d for d in (float32, float64, int64, bool)}
_CATEGORY = {bool: 0, int64: 1, float32: 2, float64: 2}


def from_numpy_dtype(np_dtype):
    """Map a numpy dtype to minigrad's; other ints become int64 and other floats float32, as torch.tensor does."""
    found = _BY_NUMPY.get(np_dtype)
    if found is not None:
        return found
    if np.issubdtype(np_dtype, np.floating):
        return float32
    if np.issubdtype(np_dtype, np.integer):
        return int64
    raise TypeError(f"can't convert np.ndarray of type {np_dtype}. The only supported types are: "
                    "float64, float32, int64, and bool.")


def scalar_dtype(value):
    """The dtype a Python number gets when it becomes a tensor."""
    if isinstance(value, (builtins.bool, np.bool_)):
        return bool
    if isinstance(value, (int, np.integer)):
        return int64
    return float32


def promote(a, b):
    """Return the result dtype of a binary op, by PyTorch's rule.

    Categories rank bool < integer < floating. A higher category wins; within a category the tensor that
    has dimensions beats a 0-d tensor or a Python number, and otherwise the wider dtype wins.
    """
    (da, rank_a), (db, rank_b) = a, b    # rank: 2 = tensor with dims, 1 = 0-d tensor, 0 = Python number
    ca, cb = _CATEGORY[da], _CATEGORY[db]
    if ca != cb:
        return da if ca > cb else db      # a Python number's dtype is already the default one (float32/int64)
    if rank_a != rank_b:
        return da if rank_a > rank_b else db
    return da if da is db or da is float64 else db


class Size(tuple):
    """A tensor's shape: a tuple that prints as `torch.Size([2, 3])`."""

    __slots__ = ()

    def __repr__(self):
        return f"torch.Size({list(self)})"

    __str__ = __repr__

    def numel(self):
        n = 1
        for s in self:
            n *= s
        return n
