"""Shuffle layers: `PixelShuffle`, `PixelUnshuffle`, `ChannelShuffle` (no parameters; each calls its `F.` function).
Mirrors `torch.nn.modules.pixelshuffle` and `torch.nn.modules.channelshuffle`."""
from .. import functional as F
from ..module import Module

__all__ = ["PixelShuffle", "PixelUnshuffle", "ChannelShuffle"]


class PixelShuffle(Module):
    """Rearrange (*, C r^2, H, W) into (*, C, H r, W r). Mirrors `torch.nn.PixelShuffle`.

    Example:
        >>> nn.PixelShuffle(3)(torch.randn(1, 9, 4, 4)).shape
        torch.Size([1, 1, 12, 12])
    """

    def __init__(self, upscale_factor):
        super().__init__()
        self.upscale_factor = upscale_factor

    def forward(self, input):
        return F.pixel_shuffle(input, self.upscale_factor)

    def extra_repr(self):
        return f"upscale_factor={self.upscale_factor}"


class PixelUnshuffle(Module):
    """Rearrange (*, C, H r, W r) into (*, C r^2, H, W): the inverse of `PixelShuffle`."""

    def __init__(self, downscale_factor):
        super().__init__()
        self.downscale_factor = downscale_factor

    def forward(self, input):
        return F.pixel_unshuffle(input, self.downscale_factor)

    def extra_repr(self):
        return f"downscale_factor={self.downscale_factor}"


class ChannelShuffle(Module):
    """Interleave the channels of `groups` groups (ShuffleNet). Mirrors `torch.nn.ChannelShuffle`."""

    def __init__(self, groups):
        super().__init__()
        self.groups = groups

    def forward(self, input):
        return F.channel_shuffle(input, self.groups)

    def extra_repr(self):
        return f"groups={self.groups}"
