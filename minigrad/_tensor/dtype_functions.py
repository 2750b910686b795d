"""Module-level functions about dtypes, devices and layouts (`torch.promote_types`, `torch.result_type`,
`torch.iinfo`, `torch.device`, `torch.strided`, `torch.channels_last`, ...), the whole-tensor comparisons (`torch.equal`, `torch.allclose`, `torch.isclose`) and the integer
ops (`torch.floor_divide`, `torch.remainder`, `torch.bitwise_and`, ...)."""
from ..core import dtype as _dtype
from ..core.device import device, get_default_device, set_default_device
from ..ops.memory_format import (channels_last, channels_last_3d, contiguous_format, layout,
                                 legacy_contiguous_format, memory_format, preserve_format, strided)
from .dtype_info import finfo, iinfo
from .tensor import Tensor
from .conversion import _expect_tensor
from .legacy_types import (BoolTensor, ByteTensor, CharTensor, DoubleTensor, FloatTensor, HalfTensor, IntTensor,
                           LongTensor, ShortTensor)

__all__ = ["BoolTensor", "ByteTensor", "CharTensor", "DoubleTensor", "FloatTensor", "HalfTensor", "IntTensor",
           "LongTensor", "ShortTensor", "allclose", "bitwise_and", "bitwise_not", "bitwise_or", "bitwise_xor",
           "can_cast", "device", "equal", "finfo", "floor_divide", "get_default_device", "iinfo", "is_floating_point",
           "isclose", "numel", "promote_types", "remainder", "result_type", "set_default_device", "layout",
           "memory_format", "strided", "contiguous_format", "legacy_contiguous_format", "preserve_format",
           "channels_last", "channels_last_3d", "get_device", "get_device_module", "is_storage", "is_distributed",
           "FatalError", "bitwise_left_shift", "bitwise_right_shift", "gcd", "gcd_", "lcm", "lcm_"]

equal, allclose, isclose = Tensor.equal, Tensor.allclose, Tensor.isclose
floor_divide = Tensor.floor_divide
bitwise_left_shift, bitwise_right_shift = Tensor.bitwise_left_shift, Tensor.bitwise_right_shift
gcd, gcd_, lcm, lcm_ = Tensor.gcd, Tensor.gcd_, Tensor.lcm, Tensor.lcm_
bitwise_and, bitwise_or, bitwise_xor, bitwise_not = (Tensor.bitwise_and, Tensor.bitwise_or, Tensor.bitwise_xor,
                                                     Tensor.bitwise_not)


def remainder(input, other):
    """input - other * floor(input / other), elementwise; `input` may be a number. Mirrors `torch.remainder`."""
    if isinstance(input, Tensor):
        return input.remainder(other)
    return other.__rmod__(input)


def is_floating_point(input):
    _expect_tensor("is_floating_point", "input", 1, input)
    return input.dtype.is_floating_point


def numel(input):
    _expect_tensor("numel", "input", 1, input)
    return input.numel()


def _check_dtype(fn, name, position, value):
    if not isinstance(value, _dtype.dtype):
        raise TypeError(f"{fn}(): argument '{name}' (position {position}) must be torch.dtype, not "
                        f"{type(value).__name__}")


def promote_types(type1, type2):
    """The dtype that both convert to without losing their category (bool < integer < floating).

    Example:
        >>> torch.promote_types(torch.uint8, torch.int8)
        torch.int16
    """
    _check_dtype("promote_types", "type1", 1, type1)
    _check_dtype("promote_types", "type2", 2, type2)
    return _dtype.promote_types(type1, type2)


def result_type(tensor, other):
    """The dtype of an arithmetic op on `tensor` and `other` (tensors or Python numbers). A tensor with dimensions
    decides over a 0-d tensor, which decides over a number, unless the lower one is of a higher category.

    Example:
        >>> torch.result_type(torch.tensor([1], dtype=torch.int8), 2.5)
        torch.float32
    """
    return _dtype.result_type(_operand(tensor), _operand(other))


def _operand(value):
    if isinstance(value, Tensor):
        return value.dtype, 2 if value.dim() else 1
    return _dtype.scalar_dtype(value), 0


def can_cast(from_, to):
    """True if a `from_` value may be written into a `to` tensor (no float into int, no number into bool)."""
    _check_dtype("can_cast", "from_", 1, from_)
    _check_dtype("can_cast", "to", 2, to)
    return _dtype.can_cast(from_, to)


# ---- devices: minigrad has the CPU only ---------------------------------------------------------------------
def get_device(input):
    """-1, PyTorch's device index of a CPU tensor."""
    return input.get_device()


def is_distributed(input):
    return False


def is_storage(obj):
    """False: minigrad tensors are numpy arrays, with no PyTorch storage objects."""
    return False


def get_device_module(device=None):
    """The module of a device type: `torch.cpu` (the default here) or `torch.cuda`."""
    from .. import cpu, cuda
    name = device if isinstance(device, str) else getattr(device, "type", "cpu")
    modules = {"cpu": cpu, "cuda": cuda}
    if name.split(":")[0] not in modules:
        raise RuntimeError(f"Device '{name}' does not have a corresponding module registered as 'torch.{name}'.")
    return modules[name.split(":")[0]]


class FatalError(Exception):
    """PyTorch raises it for an unrecoverable internal error; minigrad never does, but programs may catch it."""
