"""Padding layers: `ZeroPad1d`, `ConstantPad2d`, `ReflectionPad3d`, ... (no parameters; each calls `F.pad`).

A layer of n dims takes one int (the same amount on every side) or a tuple of 2n amounts, (left, right, top,
bottom, front, back), as `F.pad` reads them. Mirrors `torch.nn.modules.padding`.
"""
from collections.abc import Iterable

from .. import functional as F
from ..module import Module

__all__ = ["ZeroPad1d", "ZeroPad2d", "ZeroPad3d", "ConstantPad1d", "ConstantPad2d", "ConstantPad3d",
           "ReflectionPad1d", "ReflectionPad2d", "ReflectionPad3d", "ReplicationPad1d", "ReplicationPad2d",
           "ReplicationPad3d", "CircularPad1d", "CircularPad2d", "CircularPad3d"]


def _amounts(padding, dims):
    """PyTorch's `_ntuple(2 * dims)`: an int repeated on every side, any iterable as a tuple (unchecked)."""
    return tuple(padding) if isinstance(padding, Iterable) else (padding,) * (2 * dims)


class _PadNd(Module):
    """Pad with `F.pad(input, self.padding, mode)`; subclasses set the mode and the number of padded dims. Each
    layer writes out its own `__init__`, so that a missing argument names that layer, as in PyTorch."""
    mode, dims = None, None

    def __init__(self, padding):
        super().__init__()
        self.padding = _amounts(padding, self.dims)

    def forward(self, input):
        return F.pad(input, self.padding, self.mode)

    def extra_repr(self):
        return f"{self.padding}"


class _ConstantPadNd(_PadNd):
    """Pad with a constant `value`. Example:
        >>> nn.ConstantPad1d(2, 3.5)(torch.tensor([[1., 2.]]))
        tensor([[3.5000, 3.5000, 1.0000, 2.0000, 3.5000, 3.5000]])
    """
    mode = "constant"

    def __init__(self, padding, value):
        super().__init__(padding)
        self.value = value

    def forward(self, input):
        return F.pad(input, self.padding, "constant", self.value)

    def extra_repr(self):
        return f"padding={self.padding}, value={self.value}"


class ConstantPad1d(_ConstantPadNd):
    dims = 1

    def __init__(self, padding, value):
        super().__init__(padding, value)


class ConstantPad2d(_ConstantPadNd):
    dims = 2

    def __init__(self, padding, value):
        super().__init__(padding, value)


class ConstantPad3d(_ConstantPadNd):
    dims = 3

    def __init__(self, padding, value):
        super().__init__(padding, value)


class ZeroPad1d(ConstantPad1d):
    """Pad with zeros. Mirrors `torch.nn.ZeroPad1d` (a `ConstantPad1d` of value 0., printed without it)."""

    def __init__(self, padding):
        super().__init__(padding, 0.0)

    def extra_repr(self):
        return f"{self.padding}"


class ZeroPad2d(ConstantPad2d):
    """Pad with zeros. Mirrors `torch.nn.ZeroPad2d`."""

    def __init__(self, padding):
        super().__init__(padding, 0.0)

    def extra_repr(self):
        return f"{self.padding}"


class ZeroPad3d(ConstantPad3d):
    """Pad with zeros. Mirrors `torch.nn.ZeroPad3d`."""

    def __init__(self, padding):
        super().__init__(padding, 0.0)

    def extra_repr(self):
        return f"{self.padding}"


class ReflectionPad1d(_PadNd):
    """Pad with the mirror image of the input, its edge not repeated: [1 2 3] -> [3 2 | 1 2 3 | 2 1]."""
    mode, dims = "reflect", 1

    def __init__(self, padding):
        super().__init__(padding)


class ReflectionPad2d(_PadNd):
    mode, dims = "reflect", 2

    def __init__(self, padding):
        super().__init__(padding)


class ReflectionPad3d(_PadNd):
    mode, dims = "reflect", 3

    def __init__(self, padding):
        super().__init__(padding)


class ReplicationPad1d(_PadNd):
    """Pad with copies of the edge: [1 2 3] -> [1 1 | 1 2 3 | 3 3]."""
    mode, dims = "replicate", 1

    def __init__(self, padding):
        super().__init__(padding)


class ReplicationPad2d(_PadNd):
    mode, dims = "replicate", 2

    def __init__(self, padding):
        super().__init__(padding)


class ReplicationPad3d(_PadNd):
    mode, dims = "replicate", 3

    def __init__(self, padding):
        super().__init__(padding)


class _CircularPadNd(_PadNd):
    """Pad with the other end of the input, as if it wrapped around: [1 2 3] -> [2 3 | 1 2 3 | 1 2].
    Unlike the other layers, it checks the input's number of dims itself, with its own ValueError."""
    mode = "circular"

    def forward(self, input):
        if input.dim() not in (self.dims + 1, self.dims + 2):
            raise ValueError(f"expected {self.dims + 1}D or {self.dims + 2}D input (got {input.dim()}D input)")
        return F.pad(input, self.padding, "circular")


class CircularPad1d(_CircularPadNd):
    dims = 1

    def __init__(self, padding):
        super().__init__(padding)


class CircularPad2d(_CircularPadNd):
    dims = 2

    def __init__(self, padding):
        super().__init__(padding)


class CircularPad3d(_CircularPadNd):
    dims = 3

    def __init__(self, padding):
        super().__init__(padding)
