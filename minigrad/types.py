"""`torch.types`: the type aliases that PyTorch's signatures use (`Number`, `Device`, `_size`, ...), for programs
that annotate with them."""
from typing import Union

from .core.device import device as _device
from .core.dtype import Size, dtype as _dtype  # noqa: F401 - torch.types names these _dtype, _layout, _device too
from .ops.memory_format import layout as _layout  # noqa: F401
from ._tensor.tensor import Tensor

_bool, _int, _float, _complex, _str, _bytes = bool, int, float, complex, str, bytes
Number = Union[int, float, bool]
_Number = Number
Device = Union[_device, str, int, None]
_size = Union[Size, list, tuple]
_TensorOrTensors = Union[Tensor, tuple]
__all__ = ["Number", "Device", "Size", "Tensor"]
