"""`iinfo` and `finfo`: the limits of the integer and floating dtypes. Mirror `torch.iinfo` and `torch.finfo`."""
import numpy as np

from ..core import dtype as _dtype


def _check(d, what):
    if not isinstance(d, _dtype.dtype):
        raise TypeError(f"{what}(): argument 'type' (position 1) must be torch.dtype, not {type(d).__name__}")


def _g(value):
    # PyTorch prints these through a C++ stream: six significant digits, like "%g" (so 2147483647 is 2.14748e+09)
    return format(float(value), "g")


class iinfo:
    """The range of an integer dtype: `bits`, `min`, `max`, `dtype`.

    Example:
        >>> torch.iinfo(torch.uint8).max
        255
    """

    def __init__(self, type):  # noqa: A002 - PyTorch's name
        _check(type, "iinfo")
        if type is _dtype.bool:
            raise TypeError("torch.bool is not supported by torch.iinfo")
        if type.is_floating_point:
            raise TypeError("torch.iinfo() requires an integer input type. Use torch.finfo to handle 'torch.iinfo'")
        info = np.iinfo(type.np_type)
        self.bits, self.min, self.max, self.dtype = info.bits, int(info.min), int(info.max), type.name

    def __eq__(self, other):
        return isinstance(other, iinfo) and (self.bits, self.min, self.max, self.dtype) == (
            other.bits, other.min, other.max, other.dtype)

    __hash__ = object.__hash__

    def __repr__(self):
        return f"iinfo(min={_g(self.min)}, max={_g(self.max)}, dtype={self.dtype})"


class finfo:
    """The limits of a floating dtype (float32, the default, without an argument): `bits`, `eps`, `max`, `min`,
    `tiny` (= `smallest_normal`), `resolution`, `dtype`.

    Example:
        >>> torch.finfo(torch.float16).max
        65504.0
    """

    def __init__(self, type=None):  # noqa: A002 - PyTorch's name
        type = _dtype.float32 if type is None else type
        _check(type, "finfo")
        if not type.is_floating_point:
            raise TypeError("torch.finfo() requires a floating point input type. Use torch.iinfo to handle "
                            "'torch.finfo'")
        info = np.finfo(type.np_type)
        self.bits, self.dtype = info.bits, type.name
        self.eps, self.max, self.min = float(info.eps), float(info.max), float(info.min)
        self.tiny = self.smallest_normal = float(info.smallest_normal)
        self.resolution = 10.0 ** -info.precision      # PyTorch computes it in double: 0.001, not float16(0.001)

    def __eq__(self, other):
        return isinstance(other, finfo) and self.dtype == other.dtype

    __hash__ = object.__hash__

    def __repr__(self):
        return (f"finfo(resolution={_g(self.resolution)}, min={_g(self.min)}, max={_g(self.max)}, eps={_g(self.eps)}, "
                f"smallest_normal={_g(self.smallest_normal)}, tiny={_g(self.tiny)}, dtype={self.dtype})")
