"""Making tensors: `tensor`, `zeros`, `ones`, `randn`, `arange`, ..., and the random seed."""
import warnings

import numpy as np

from . import _dtype
from ._tensor import Tensor


class Generator:
    """The source of random numbers; `manual_seed` resets it. Wraps a numpy Generator."""

    def __init__(self, seed=None):
        self.rng = np.random.default_rng(seed)
        self._seed = seed

    def initial_seed(self):
        return self._seed

    def __repr__(self):
        return f"<torch._C.Generator object at {hex(id(self))}>"


_default = Generator()


def _generator():
    return _default.rng


def manual_seed(seed):
    """Seed the random number generator, so `randn` and friends repeat. Mirrors `torch.manual_seed`."""
    global _default
    _default = Generator(int(seed))
    return _default


def _finish(array, dtype, requires_grad):
    if dtype is not None:
        array = array.astype(dtype.np_type, copy=False)
    t = Tensor._make(array)
    if requires_grad:
        if not t.dtype.is_floating_point:
            raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
        t._requires_grad = True
    return t


def _size(size):
    """Accept `zeros(2, 3)`, `zeros((2, 3))` and `zeros(torch.Size([2, 3]))`."""
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        return tuple(size[0])
    return tuple(size)


def tensor(data, dtype=None, requires_grad=False):
    """Make a new tensor holding a copy of `data` (a number, nested lists, a numpy array, or a tensor).

    Python floats give float32, ints int64, bools bool, unless `dtype` says otherwise. Mirrors `torch.tensor`.

    Example:
        >>> torch.tensor([[1., -2.], [3., 4.]], requires_grad=True)
    """
    if isinstance(data, Tensor):
        warnings.warn("To copy construct from a tensor, it is recommended to use sourceTensor.clone().detach() "
                      "or sourceTensor.clone().detach().requires_grad_(True), rather than "
                      "torch.tensor(sourceTensor).", UserWarning, stacklevel=2)
        array = data._data.copy()
    elif isinstance(data, np.ndarray):
        array = data.astype(_dtype.from_numpy_dtype(data.dtype).np_type)
    else:
        array = np.array(data)
        if array.dtype.kind == "f":
            array = array.astype(np.float32)
        elif array.dtype.kind in "iu":
            array = array.astype(np.int64)
        elif array.dtype.kind == "O":
            raise TypeError(f"Could not infer dtype of {type(data).__name__}")
        elif array.dtype.kind != "b":
            raise TypeError(f"new(): invalid data type '{type(data).__name__}'")
    return _finish(array, dtype, requires_grad)


def as_tensor(data, dtype=None):
    return data if isinstance(data, Tensor) and dtype in (None, data.dtype) else tensor(data, dtype)


def from_numpy(array):
    """Wrap a numpy array without copying (they share memory). Mirrors `torch.from_numpy`."""
    return Tensor._make(array if array.dtype in _dtype._BY_NUMPY else array.astype(np.float32))


def zeros(*size, dtype=None, requires_grad=False):
    return _finish(np.zeros(_size(size), np.float32), dtype, requires_grad)


def ones(*size, dtype=None, requires_grad=False):
    return _finish(np.ones(_size(size), np.float32), dtype, requires_grad)


def empty(*size, dtype=None, requires_grad=False):
    # numpy's empty would show leftover memory; zeros keeps the book's outputs reproducible
    return zeros(*size, dtype=dtype, requires_grad=requires_grad)


def full(size, fill_value, dtype=None, requires_grad=False):
    if dtype is None:
        dtype = _dtype.scalar_dtype(fill_value)
    return _finish(np.full(tuple(size), fill_value), dtype, requires_grad)


def zeros_like(t, dtype=None, requires_grad=False):
    return _finish(np.zeros_like(t._data), dtype, requires_grad)


def ones_like(t, dtype=None, requires_grad=False):
    return _finish(np.ones_like(t._data), dtype, requires_grad)


def full_like(t, fill_value, dtype=None, requires_grad=False):
    return _finish(np.full_like(t._data, fill_value), dtype, requires_grad)


def randn(*size, dtype=None, requires_grad=False, generator=None):
    """Standard normal samples of the given shape (float32). Seed with `manual_seed`."""
    rng = (generator or _default).rng
    return _finish(rng.standard_normal(_size(size), dtype=np.float32), dtype, requires_grad)


def rand(*size, dtype=None, requires_grad=False, generator=None):
    """Uniform samples from [0, 1) of the given shape (float32)."""
    rng = (generator or _default).rng
    return _finish(rng.random(_size(size), dtype=np.float32), dtype, requires_grad)


def randint(low, high=None, size=(), dtype=None, generator=None):
    if high is None:
        low, high = 0, low
    rng = (generator or _default).rng
    return _finish(rng.integers(low, high, tuple(size), dtype=np.int64), dtype, False)


def randperm(n, dtype=None, generator=None):
    rng = (generator or _default).rng
    return _finish(rng.permutation(n).astype(np.int64), dtype, False)


def arange(start, end=None, step=1, dtype=None, requires_grad=False):
    """Values from start (default 0) up to, not including, end. Ints give int64, floats float32."""
    if end is None:
        start, end = 0, start
    is_float = any(isinstance(v, float) for v in (start, end, step))
    array = np.arange(start, end, step, dtype=np.float32 if is_float else np.int64)
    return _finish(array, dtype, requires_grad)


def linspace(start, end, steps, dtype=None, requires_grad=False):
    """`steps` evenly spaced values from start to end, both included (float32)."""
    return _finish(np.linspace(start, end, steps, dtype=np.float64).astype(np.float32), dtype, requires_grad)


def eye(n, m=None, dtype=None, requires_grad=False):
    return _finish(np.eye(n, m, dtype=np.float32), dtype, requires_grad)


def is_tensor(obj):
    return isinstance(obj, Tensor)


def get_default_dtype():
    return _dtype.float32
