"""`Unfold` and `Fold`: the layers of `F.unfold` (image patches as columns) and `F.fold` (columns summed back
into an image). No parameters. Mirrors `torch.nn.Unfold` and `torch.nn.Fold`."""
from .. import functional as F
from ..module import Module

__all__ = ["Fold", "Unfold"]


class Fold(Module):
    """Sum (N, C * prod(kernel_size), L) columns back into (N, C, *output_size) images (see `F.fold`).

    Example:
        >>> nn.Fold((3, 3), 2)(torch.ones(1, 4, 4)).shape
        torch.Size([1, 1, 3, 3])
    """

    def __init__(self, output_size, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__()
        self.output_size, self.kernel_size = output_size, kernel_size
        self.dilation, self.padding, self.stride = dilation, padding, stride

    def forward(self, input):
        return F.fold(input, self.output_size, self.kernel_size, self.dilation, self.padding, self.stride)

    def extra_repr(self):
        return (f"output_size={self.output_size}, kernel_size={self.kernel_size}, dilation={self.dilation}, "
                f"padding={self.padding}, stride={self.stride}")


class Unfold(Module):
    """Cut (N, C, H, W) images into their sliding patches, one column each (see `F.unfold`)."""

    def __init__(self, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__()
        self.kernel_size, self.dilation, self.padding, self.stride = kernel_size, dilation, padding, stride

    def forward(self, input):
        return F.unfold(input, self.kernel_size, self.dilation, self.padding, self.stride)

    def extra_repr(self):
        return f"kernel_size={self.kernel_size}, dilation={self.dilation}, padding={self.padding}, stride={self.stride}"
