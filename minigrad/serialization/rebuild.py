"""What the names in a PyTorch file are in minigrad: `torch._utils._rebuild_tensor_v2`, `torch.FloatStorage`, ...

A file that `torch.save` writes is a pickle that calls PyTorch's functions by name: each tensor is
`torch._utils._rebuild_tensor_v2(storage, storage_offset, size, stride, requires_grad, backward_hooks)`, each
storage a persistent id `('storage', torch.FloatStorage, '0', 'cpu', numel)`. `TORCH_GLOBALS` maps those names
to minigrad's objects, so that minigrad reads PyTorch's files and writes files that PyTorch reads (serialization.py
writes these names for minigrad's objects; weights_only.py allows exactly them).
"""
import numpy as np

from .._tensor.tensor import Tensor
from ..core import dtype as _dtype
from ..core.device import device
from ..core.dtype import Size
from ..nn.parameter import Parameter


class StorageType:
    """A legacy storage class of PyTorch (`torch.FloatStorage`) as a pickle names it: it stands for its dtype.

    Mirrors `torch.serialization.StorageType`. `dtype` is None for a dtype minigrad lacks (bfloat16, complex).
    """

    def __init__(self, name, dtype, torch_dtype):
        self.name, self.dtype, self.torch_dtype = name, dtype, torch_dtype

    def __repr__(self):
        return f"StorageType(dtype={self.torch_dtype})"


# PyTorch's legacy storage class of each dtype; uint16, uint32 and uint64 have none: their tensors name a storage of
# bytes (UntypedStorage) and their dtype (_rebuild_tensor_v3)
STORAGE_TYPES = {name: StorageType(name, dt, f"torch.{torch_name}") for name, dt, torch_name in [
    ("FloatStorage", _dtype.float32, "float32"), ("DoubleStorage", _dtype.float64, "float64"),
    ("HalfStorage", _dtype.float16, "float16"), ("ByteStorage", _dtype.uint8, "uint8"),
    ("CharStorage", _dtype.int8, "int8"), ("ShortStorage", _dtype.int16, "int16"),
    ("IntStorage", _dtype.int32, "int32"), ("LongStorage", _dtype.int64, "int64"),
    ("BoolStorage", _dtype.bool, "bool"), ("UntypedStorage", _dtype.uint8, "uint8"),
    ("BFloat16Storage", None, "bfloat16"), ("ComplexFloatStorage", None, "complex64"),
    ("ComplexDoubleStorage", None, "complex128")]}
STORAGE_OF_DTYPE = {st.dtype: st for st in STORAGE_TYPES.values()
                    if st.dtype is not None and st.name != "UntypedStorage"}


def _rebuild_tensor_v2(storage, storage_offset, size, stride, requires_grad, backward_hooks, metadata=None):
    """Return a tensor over `storage`'s memory (no copy) with that offset, shape and strides, in elements.

    Mirrors `torch._utils._rebuild_tensor_v2`; tensors rebuilt from one storage share their memory.
    """
    array = storage.array
    itemsize = array.itemsize
    view = np.lib.stride_tricks.as_strided(array[storage_offset:], tuple(size), tuple(s * itemsize for s in stride))
    t = Tensor._make(view)
    t.requires_grad = requires_grad
    return t


def _rebuild_tensor_v3(storage, storage_offset, size, stride, requires_grad, backward_hooks, dtype, metadata=None):
    """A tensor of `dtype` over a storage of bytes. Mirrors `torch._utils._rebuild_tensor_v3`."""
    typed = type(storage)(storage.array.view(dtype.np_type))
    return _rebuild_tensor_v2(typed, storage_offset, size, stride, requires_grad, backward_hooks)


def _rebuild_tensor(storage, storage_offset, size, stride):
    """The first version of `_rebuild_tensor_v2`, without requires_grad. Mirrors `torch._utils._rebuild_tensor`."""
    return _rebuild_tensor_v2(storage, storage_offset, size, stride, False, None)


def _rebuild_parameter(data, requires_grad, backward_hooks):
    """Return `Parameter(data, requires_grad)`, sharing data's memory. Mirrors `torch._utils._rebuild_parameter`."""
    return Parameter(data, requires_grad)


def _rebuild_parameter_with_state(data, requires_grad, backward_hooks, state):
    """A Parameter with Python attributes. Mirrors `torch._utils._rebuild_parameter_with_state`."""
    return _set_obj_state(_rebuild_parameter(data, requires_grad, backward_hooks), state)


def _rebuild_from_type_v2(func, new_type, args, state):
    """A tensor with Python attributes (`state`). Mirrors `torch._tensor._rebuild_from_type_v2` for plain tensors."""
    return _set_obj_state(func(*args), state)


def _set_obj_state(obj, state):
    dict_state, slots_state = state if isinstance(state, tuple) else (state, None)
    for key, value in list((dict_state or {}).items()) + list((slots_state or {}).items()):
        setattr(obj, key, value)
    return obj


def _get_layout(name):
    """`torch.strided` is the one layout minigrad has: a pickled layout comes back as its name."""
    return name


TORCH_GLOBALS = {
    "torch._utils._rebuild_tensor_v2": _rebuild_tensor_v2,
    "torch._utils._rebuild_tensor_v3": _rebuild_tensor_v3,
    "torch._utils._rebuild_tensor": _rebuild_tensor,
    "torch._utils._rebuild_parameter": _rebuild_parameter,
    "torch._utils._rebuild_parameter_with_state": _rebuild_parameter_with_state,
    "torch._tensor._rebuild_from_type_v2": _rebuild_from_type_v2,
    "torch.serialization._get_layout": _get_layout,
    "torch.nn.parameter.Parameter": Parameter,
    "torch.Tensor": Tensor,
    "torch.Size": Size,
    "torch.device": device,
    **{f"torch.{d.name}": d for d in _dtype.ALL},
    **{f"torch.{name}": st for name, st in STORAGE_TYPES.items()},
    "torch.storage.UntypedStorage": STORAGE_TYPES["UntypedStorage"],    # the name minigrad writes for it
}
# the name minigrad writes for each of its objects (torch.float32, not the alias torch.float)
TORCH_NAME = {id(obj): name for name, obj in TORCH_GLOBALS.items()}
