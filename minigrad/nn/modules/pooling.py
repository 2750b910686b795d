"""Pooling layers: `MaxPool2d`, `AvgPool2d`, `AdaptiveAvgPool2d` and their 1-D forms (no parameters; each calls
its `F.` function)."""
from .. import functional as F
from ..functional.arguments import pair
from ..module import Module

__all__ = ["MaxPool2d", "AvgPool2d", "AdaptiveAvgPool2d", "MaxPool1d", "AvgPool1d", "AdaptiveAvgPool1d"]


class MaxPool2d(Module):
    """Keep the largest value of each window. Mirrors `torch.nn.MaxPool2d`; see `F.max_pool2d` for the arguments.

    Example:
        >>> nn.MaxPool2d(2)(torch.randn(1, 6, 28, 28)).shape
        torch.Size([1, 6, 14, 14])
    """

    def __init__(self, kernel_size, stride=None, padding=0, dilation=1, return_indices=False, ceil_mode=False):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding, self.dilation = padding, dilation
        self.return_indices, self.ceil_mode = return_indices, ceil_mode

    def forward(self, input):
        return F.max_pool2d(input, self.kernel_size, self.stride, self.padding, self.dilation,
                            ceil_mode=self.ceil_mode, return_indices=self.return_indices)

    def extra_repr(self):
        return (f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}, "
                f"dilation={self.dilation}, ceil_mode={self.ceil_mode}")


class AvgPool2d(Module):
    """Average each window. Mirrors `torch.nn.AvgPool2d`; see `F.avg_pool2d` for the arguments."""

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
                 divisor_override=None):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding, self.ceil_mode = padding, ceil_mode
        self.count_include_pad, self.divisor_override = count_include_pad, divisor_override

    def forward(self, input):
        return F.avg_pool2d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                            self.count_include_pad, self.divisor_override)

    def extra_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class AdaptiveAvgPool2d(Module):
    """Average over windows sized so that the output is `output_size`, whatever the input's size.
    Mirrors `torch.nn.AdaptiveAvgPool2d`. `AdaptiveAvgPool2d(1)` is global average pooling."""

    def __init__(self, output_size):
        super().__init__()
        self.output_size = output_size

    def forward(self, input):
        return F.adaptive_avg_pool2d(input, self.output_size)

    def extra_repr(self):
        return f"output_size={self.output_size}"


# ---- 1-D pools: the layers of `F.max_pool1d`, `F.avg_pool1d`, `F.adaptive_avg_pool1d` -----------------------
class MaxPool1d(MaxPool2d):
    """Keep the largest value of each window of (N, C, L) inputs. Mirrors `torch.nn.MaxPool1d` (its options and
    repr are MaxPool2d's)."""

    def forward(self, input):
        return F.max_pool1d(input, self.kernel_size, self.stride, self.padding, self.dilation,
                            ceil_mode=self.ceil_mode, return_indices=self.return_indices)


def _single(value):
    """PyTorch's `_single`: any iterable as a tuple, anything else as a 1-tuple."""
    return tuple(value) if isinstance(value, (tuple, list)) else (value,)


class AvgPool1d(AvgPool2d):
    """Average each window of (N, C, L) inputs. Mirrors `torch.nn.AvgPool1d`, which keeps its sizes as 1-tuples."""

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
        super().__init__(_single(kernel_size), _single(stride if stride is not None else kernel_size),
                         _single(padding), ceil_mode, count_include_pad)
        del self.divisor_override       # PyTorch's AvgPool1d has none

    def forward(self, input):
        return F.avg_pool1d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                            self.count_include_pad)


class AdaptiveAvgPool1d(AdaptiveAvgPool2d):
    """Average over windows sized so that the last dim becomes `output_size`. Mirrors `torch.nn.AdaptiveAvgPool1d`."""

    def forward(self, input):
        return F.adaptive_avg_pool1d(input, self.output_size)


# ---- adaptive max pools: the layers of `F.adaptive_max_pool1d` and `F.adaptive_max_pool2d` -----------------------
class AdaptiveMaxPool2d(Module):
    """Keep the largest value of each window, the windows sized so that the output is `output_size`; with
    `return_indices`, also where each is (for `MaxUnpool2d`). Mirrors `torch.nn.AdaptiveMaxPool2d`."""

    def __init__(self, output_size, return_indices=False):
        super().__init__()
        self.output_size, self.return_indices = output_size, return_indices

    def forward(self, input):
        return F.adaptive_max_pool2d(input, self.output_size, self.return_indices)

    def extra_repr(self):
        return f"output_size={self.output_size}"


class AdaptiveMaxPool1d(AdaptiveMaxPool2d):
    """Keep the largest value of each adaptive window along the last dim. Mirrors `torch.nn.AdaptiveMaxPool1d`."""

    def forward(self, input):
        return F.adaptive_max_pool1d(input, self.output_size, self.return_indices)


# ---- unpooling and power-average pooling: the layers of `F.max_unpool1d/2d` and `F.lp_pool1d/2d` --------------
class MaxUnpool2d(Module):
    """Put each value that `MaxPool2d(return_indices=True)` kept back where it was, zeros elsewhere. Mirrors
    `torch.nn.MaxUnpool2d`; `forward(input, indices, output_size=None)`."""
    _tuple = staticmethod(pair)
    _unpool = staticmethod(F.max_unpool2d)

    def __init__(self, kernel_size, stride=None, padding=0):
        super().__init__()
        self.kernel_size = self._tuple(kernel_size)
        self.stride = self._tuple(stride if stride is not None else kernel_size)
        self.padding = self._tuple(padding)

    def forward(self, input, indices, output_size=None):
        return self._unpool(input, indices, self.kernel_size, self.stride, self.padding, output_size)

    def extra_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class MaxUnpool1d(MaxUnpool2d):
    """Put each value that `MaxPool1d(return_indices=True)` kept back where it was. Mirrors `torch.nn.MaxUnpool1d`."""
    _tuple = staticmethod(_single)
    _unpool = staticmethod(F.max_unpool1d)


class LPPool2d(Module):
    """Pool each window to (sum of x**norm_type) ** (1 / norm_type). Mirrors `torch.nn.LPPool2d`."""
    _pool = staticmethod(F.lp_pool2d)

    def __init__(self, norm_type, kernel_size, stride=None, ceil_mode=False):
        super().__init__()
        self.norm_type, self.kernel_size, self.stride, self.ceil_mode = norm_type, kernel_size, stride, ceil_mode

    def forward(self, input):
        return self._pool(input, float(self.norm_type), self.kernel_size, self.stride, self.ceil_mode)

    def extra_repr(self):
        return (f"norm_type={self.norm_type}, kernel_size={self.kernel_size}, stride={self.stride}, "
                f"ceil_mode={self.ceil_mode}")


class LPPool1d(LPPool2d):
    """Pool each window along the last dim to (sum of x**norm_type) ** (1 / norm_type). Mirrors
    `torch.nn.LPPool1d`."""
    _pool = staticmethod(F.lp_pool1d)
