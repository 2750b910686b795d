"""What `tensor(data)` and `from_numpy(array)` accept, and the dtype PyTorch gives the result.

A numpy array keeps its dtype. Nested lists get the dtype PyTorch infers (`_dtype.infer`), which is not always
numpy's: Python floats are float32, and `[np.float16(1), 2]` is float16. Each misuse gets PyTorch's error.
"""
import warnings

import numpy as np

from ..compat.batched import ITEM, refuse
from ..core import dtype as _dtype
from .settings_functions import is_warn_always_enabled
from ..core.tensor import TensorBase


def numpy_dtype(array, shares_memory=True, warn_if_read_only=False):
    """The dtype of a numpy array that a tensor can wrap, or PyTorch's error.

    PyTorch refuses negative strides (`a[::-1]`) even where it copies; minigrad refuses them only where the tensor
    would share the array's memory (`from_numpy`, `as_tensor`), and copies them in `tensor`.
    """
    if not array.dtype.isnative:
        raise ValueError("given numpy array has byte order different from the native byte order. Conversion "
                         "between byte orders is currently not supported.")
    if shares_memory and any(s < 0 for s in array.strides):
        raise ValueError("At least one stride in the given numpy array is negative, and tensors with negative "
                         "strides are not currently supported. (You can probably work around this by making a copy "
                         "of your array  with array.copy().) ")
    if warn_if_read_only and not array.flags.writeable:
        _warn_once("The given NumPy array is not writable, and PyTorch does not support non-writable tensors. This "
                   "means writing to this tensor will result in undefined behavior. You may want to copy the array to "
                   "protect its data or make it writable before converting it to a tensor. This type of warning will "
                   "be suppressed for the rest of this program.", stacklevel=3)
    return _dtype.from_numpy_dtype(array.dtype)


def from_python(data, dtype):
    """The array of a number or nested sequence, with the dtype PyTorch infers (see `_dtype.infer`)."""
    if isinstance(data, list) and data and isinstance(data[0], np.ndarray):
        _warn_once("Creating a tensor from a list of numpy.ndarrays is extremely slow. Please consider converting "
                   "the list to a single numpy.ndarray with numpy.array() before converting to a tensor.", stacklevel=3)
    kinds = _number_kinds(data)
    if kinds is not None:       # perf: the common case, Python numbers only, needs no dtype inference
        try:
            np_type = np.int64 if int in kinds else np.bool_
            if float in kinds or not kinds:     # a float given for another dtype converts from the double itself
                target = dtype or _dtype.default_float()
                np_type = np.float32 if target.np_type == np.float32 else np.float64
                if dtype is None and target.np_type == np.float16:      # set_default_dtype(torch.float16)
                    np_type = np.float16
            array = np.array(data, np_type)
        except OverflowError:
            raise ValueError("Overflow when unpacking long long") from None
        except ValueError:
            _ragged(data)
            raise
    else:
        array = _from_other_data(data)
    if dtype is not None and not dtype.is_floating_point and dtype is not _dtype.bool and array.size:
        info = np.iinfo(dtype.np_type)              # PyTorch checks each Python number against the range
        with np.errstate(invalid="ignore"):
            if not ((array >= info.min) & (array <= info.max)).all():
                raise RuntimeError(f"value cannot be converted to type {dtype.name} without overflow")
    return array


_NUMBERS = {int, float, bool}


def _number_kinds(data):
    """The types of the leaves of nested lists that hold Python numbers only, else None."""
    if not isinstance(data, (list, tuple)):
        return {type(data)} if type(data) in _NUMBERS else None
    kinds = set(map(type, data))
    if kinds <= _NUMBERS:
        return kinds
    if not all(k is list or k is tuple for k in kinds):
        return None
    found = set()
    for item in data:
        inner = _number_kinds(item)
        if inner is None:
            return None
        found |= inner
    return found


def _from_other_data(data):
    """`from_python` for data with numpy scalars or arrays, tensors, or what makes no tensor."""
    numbers = _tensors_as_numbers(data) if _holds_tensors(data) else data
    try:
        array = np.array(numbers)
    except ValueError:
        _ragged(numbers)
        raise
    kind = array.dtype.kind
    if kind in "OUSc":
        _unknown_leaf(numbers, kind)
    if kind == "f" or (kind in "iu" and array.dtype != np.int64) or numbers is not data:
        inferred = _dtype.infer(data)               # numpy's promotion differs from PyTorch's here
        if array.dtype == np.uint64 and inferred is _dtype.int64:
            raise ValueError("Overflow when unpacking long long")
        array = array.astype(inferred.np_type)
    return array


def _holds_tensors(data):
    if isinstance(data, TensorBase):
        return True
    if not isinstance(data, (list, tuple)):
        return False
    kinds = set(map(type, data))      # perf: a list of numbers is looked at once, in C
    return any(issubclass(k, TensorBase) or (issubclass(k, (list, tuple)) and any(_holds_tensors(d) for d in data))
               for k in kinds)


def _tensors_as_numbers(data):
    """The nested lists with each tensor in them replaced by its one number, as PyTorch reads them."""
    if isinstance(data, (list, tuple)):
        return [_tensors_as_numbers(d) for d in data]
    if not isinstance(data, TensorBase):
        return data
    refuse(data, ITEM)      # under vmap: torch.tensor([x[0], x[1]]) would read each sample's value
    if data.numel() != 1:
        if data.dtype.is_floating_point:
            raise ValueError("only one element tensors can be converted to Python scalars")
        raise TypeError("only integer tensors of a single element can be converted to an index")
    if data.requires_grad:
        _warn_once("Converting a tensor with requires_grad=True to a scalar may lead to unexpected behavior.\n"
                   "Consider using tensor.detach() first.", stacklevel=4)
    return data._data.reshape(()).item()


def _ragged(data):
    """Raise PyTorch's error for nested lists of unequal lengths: the sizes are those of the first elements."""
    sizes, d = [], data
    while isinstance(d, (list, tuple)):
        sizes.append(len(d))
        d = d[0] if d else None

    def check(seq, dim):
        if dim == len(sizes):
            if isinstance(seq, (list, tuple)):
                raise TypeError(f"must be real number, not {type(seq).__name__}" if isinstance(d, float) else
                                f"'{type(seq).__name__}' object cannot be interpreted as an integer")
            return
        if not isinstance(seq, (list, tuple)):
            raise TypeError("not a sequence")
        if len(seq) != sizes[dim]:
            raise ValueError(f"expected sequence of length {sizes[dim]} at dim {dim} (got {len(seq)})")
        for item in seq:
            check(item, dim + 1)
    check(data, 0)


def _unknown_leaf(data, kind):
    """Raise PyTorch's error for data that holds something other than numbers."""
    stack = [data]
    while stack:
        item = stack.pop(0)
        if isinstance(item, (list, tuple)):
            stack[:0] = item
        elif isinstance(item, (str, bytes)):
            raise TypeError(f"new(): invalid data type '{type(item).__name__}'")
        elif isinstance(item, complex) or kind == "c":
            raise TypeError("minigrad has no complex dtypes: can't make a tensor of complex numbers")
        elif isinstance(item, int) and not isinstance(item, bool):
            if not -2 ** 63 <= item < 2 ** 64:
                raise ValueError("Overflow when unpacking long long")
        elif not isinstance(item, (float, bool, np.generic, np.ndarray, TensorBase)):
            raise RuntimeError(f"Could not infer dtype of {type(item).__name__}")
    raise RuntimeError(f"Could not infer dtype of {type(data).__name__}")


_warned = set()


def _warn_once(message, stacklevel):
    # PyTorch gives these warnings once per process, or every time after torch.set_warn_always(True)
    if message not in _warned or is_warn_always_enabled():
        _warned.add(message)
        warnings.warn(message, UserWarning, stacklevel=stacklevel + 1)
