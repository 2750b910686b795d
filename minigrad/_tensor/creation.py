"""Making tensors: `tensor`, `zeros`, `ones`, `randn`, `arange`, ..., and the random seed."""
import warnings

import numpy as np

from ..core import device as _device, dtype as _dtype
from . import from_data as _from_data, ranges as _ranges
from ..core.tensor import TensorBase


# The random functions and the generator live in _random*.py; these names are imported from here too.
from ..random.functions import Generator, manual_seed, rand, randint, randn, randperm  # noqa: E402,F401


def _finish(array, dtype, requires_grad):
    if dtype is not None:
        array = array.astype(dtype.np_type, copy=False)
    t = TensorBase._make(array)
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


def tensor(data, dtype=None, device=None, requires_grad=False, pin_memory=False):
    """Make a new tensor holding a copy of `data` (a number, nested lists, a numpy array, or a tensor).

    Python floats give float32, ints int64, bools bool; numpy arrays and scalars keep their dtype; a mix promotes,
    unless `dtype` says otherwise. Mirrors `torch.tensor`.

    Example:
        >>> torch.tensor([[1., -2.], [3., 4.]], requires_grad=True)
    """
    _device.check(device)
    if isinstance(data, TensorBase):
        warnings.warn("To copy construct from a tensor, it is recommended to use sourceTensor.clone().detach() "
                      "or sourceTensor.clone().detach().requires_grad_(True), rather than "
                      "torch.tensor(sourceTensor).", UserWarning, stacklevel=2)
        array = data._data.copy()
    elif isinstance(data, np.ndarray):
        array = data.astype(_from_data.numpy_dtype(data, shares_memory=False).np_type)
    else:
        array = _from_data.from_python(data, dtype)
    if dtype is not None and array.dtype != dtype.np_type:
        with np.errstate(over="ignore", invalid="ignore"):     # to float16 overflows to inf; nan to int wraps
            array = array.astype(dtype.np_type)
    return _finish(array, None, requires_grad)


def as_tensor(data, dtype=None, device=None):
    """Return `data` as a tensor, sharing memory where it can: a tensor is returned as it is, a numpy array is wrapped
    without copying (unless `dtype` differs). Mirrors `torch.as_tensor`."""
    _device.check(device)
    if isinstance(data, TensorBase):
        return data if dtype in (None, data.dtype) else data.to(dtype)
    if isinstance(data, np.ndarray) and dtype in (None, _from_data.numpy_dtype(data)):
        return from_numpy(data)
    return tensor(data, dtype)


def from_numpy(ndarray):
    """Wrap a numpy array without copying (they share memory), keeping its dtype. Mirrors `torch.from_numpy`."""
    if not isinstance(ndarray, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {type(ndarray).__name__})")
    _from_data.numpy_dtype(ndarray, warn_if_read_only=True)
    return TensorBase._make(ndarray)


def zeros(*sizes, size=None, dtype=None, requires_grad=False, device=None, layout=None, pin_memory=False, out=None):
    """A tensor of zeros (float32 unless `dtype` says otherwise). Mirrors `torch.zeros`."""
    return _filled(np.zeros, _sizes("zeros", sizes, size), dtype, requires_grad, device,
                   "zeros: Dimension size must be non-negative.")


def ones(*sizes, size=None, dtype=None, requires_grad=False, device=None, layout=None, pin_memory=False, out=None):
    """A tensor of ones (float32 unless `dtype` says otherwise). Mirrors `torch.ones`."""
    return _filled(np.ones, _sizes("ones", sizes, size), dtype, requires_grad, device)


def empty(*sizes, size=None, dtype=None, requires_grad=False, device=None, layout=None, pin_memory=False, out=None,
          memory_format=None):
    """A tensor whose values are not set yet. Mirrors `torch.empty`; here it holds zeros, so that the book's
    outputs never show leftover memory."""
    return _filled(np.zeros, _sizes("empty", sizes, size), dtype, requires_grad, device)


def full(size, fill_value, *, dtype=None, requires_grad=False, device=None, layout=None, pin_memory=False,
         out=None):
    """A tensor filled with `fill_value`; its dtype follows the value (bool, int64 or float32) unless `dtype` is
    given. Mirrors `torch.full`."""
    if not isinstance(size, (tuple, list)):
        raise TypeError(f"full(): argument 'size' (position 1) must be tuple of ints, not {type(size).__name__}")
    dtype = dtype or _dtype.scalar_dtype(fill_value)
    return _filled(lambda shape, np_type: np.full(shape, fill_value, np_type), _sizes("full", (size,), None),
                   dtype, requires_grad, device)


def zeros_like(input, *, dtype=None, requires_grad=False, device=None, layout=None, memory_format=None):
    """Zeros shaped like `input`, of its dtype unless `dtype` says otherwise. Mirrors `torch.zeros_like`."""
    return _like(np.zeros, input, dtype, requires_grad, device)


def ones_like(input, *, dtype=None, requires_grad=False, device=None, layout=None, memory_format=None):
    """Ones shaped like `input`. Mirrors `torch.ones_like`."""
    return _like(np.ones, input, dtype, requires_grad, device)


def empty_like(input, *, dtype=None, requires_grad=False, device=None, layout=None, memory_format=None):
    """An unset tensor shaped like `input` (zeros here, as `empty`). Mirrors `torch.empty_like`."""
    return _like(np.zeros, input, dtype, requires_grad, device)


def full_like(input, fill_value, *, dtype=None, requires_grad=False, device=None, layout=None, memory_format=None):
    """`fill_value` everywhere, shaped like `input` and of its dtype unless `dtype` says otherwise."""
    return _like(lambda shape, np_type: np.full(shape, fill_value, np_type), input, dtype, requires_grad, device)


def arange(start, end=None, step=1, *, dtype=None, requires_grad=False, device=None, layout=None, pin_memory=False,
           out=None):
    """Values from start (default 0) up to, not including, end, `step` apart. Ints give int64, floats float32.

    The values are PyTorch's to the last bit (see `ranges.py`). Mirrors `torch.arange`.
    """
    _device.check(device)
    if end is None:
        start, end = 0, start
    return _finish(_ranges.arange_values(start, end, step, dtype), None, requires_grad)


def linspace(start, end, steps, *, dtype=None, requires_grad=False, device=None, layout=None, pin_memory=False,
             out=None):
    """`steps` evenly spaced values from start to end, both included (float32 unless `dtype` says otherwise).

    The values are PyTorch's to the last bit (see `ranges.py`). Mirrors `torch.linspace`.
    """
    _device.check(device)
    return _finish(_ranges.linspace_values(start, end, steps, dtype), None, requires_grad)


def eye(n, m=None, *, dtype=None, requires_grad=False, device=None, layout=None, pin_memory=False, out=None):
    """The n x m identity matrix (m = n by default): ones on the diagonal. Mirrors `torch.eye`."""
    for name, value in (("n", n), ("m", m)):
        if value is not None and value < 0:
            raise RuntimeError(f"{name} must be greater or equal to 0, got {value}")
    return _filled(lambda shape, np_type: np.eye(shape[0], shape[1], dtype=np_type), (n, n if m is None else m),
                   dtype, requires_grad, device)


def _sizes(name, sizes, size):
    """The shape of `zeros(2, 3)`, `zeros((2, 3))`, `zeros([2, 3])`, `zeros(torch.Size([2, 3]))` or `zeros(size=...)`."""
    if size is not None:
        sizes = (size,)
    shape = _size(sizes)
    if len(sizes) > 1 and any(isinstance(s, (tuple, list)) for s in sizes):
        raise TypeError(f"{name}() takes 1 positional argument but {len(sizes)} were given")
    for s in shape:
        if isinstance(s, bool) or not isinstance(s, (int, np.integer)):
            raise TypeError(f"{name}(): argument 'size' (position 1) must be tuple of ints, not {type(s).__name__}")
    return tuple(int(s) for s in shape)


def _filled(make, shape, dtype, requires_grad, device, negative_message=None):
    """make(shape, numpy dtype), with PyTorch's error for a negative size."""
    _device.check(device)
    bad = next((s for s in shape if s < 0), None)
    if bad is not None:
        raise RuntimeError(negative_message or f"Trying to create tensor with negative dimension {bad}: {list(shape)}")
    return _finish(make(shape, (dtype or _dtype.default_float()).np_type), None, requires_grad)


def _like(make, input, dtype, requires_grad, device):
    _device.check(device)
    a = input._data
    out = make(a.shape, (dtype or input.dtype).np_type)
    if a.ndim > 1 and 0 not in a.strides and not a.flags.c_contiguous:
        # PyTorch's preserve_format: a permuted tensor (a transpose) gives one laid out in the same order, so that
        # what fills it in memory order (dropout's mask, bernoulli_) fills the same elements as in PyTorch
        laid_out = np.empty_like(a, dtype=out.dtype, order="K")
        laid_out[...] = out
        out = laid_out
    return _finish(out, None, requires_grad)


def is_tensor(obj):
    return isinstance(obj, TensorBase)


def get_default_dtype():
    """The dtype of Python floats in tensors and of factories without a dtype (float32 unless
    `torch.set_default_dtype` changed it). Mirrors `torch.get_default_dtype`."""
    return _dtype.default_float()
