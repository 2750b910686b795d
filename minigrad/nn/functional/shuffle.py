"""Shuffles: `pixel_shuffle` / `pixel_unshuffle` (move channels into space and back, for sub-pixel convolution)
and `channel_shuffle` (interleave the channels of groups, as in ShuffleNet). Mirrors `torch.nn.functional`.

Each is a reshape and a permutation of elements, so its backward is the inverse permutation: pixel_shuffle and
pixel_unshuffle by the same factor are each other's backward, and channel_shuffle into g groups is undone by
channel_shuffle into C / g groups. Linear, so the forward-mode tangent goes through the same op.
"""
from ...core.forward_ad import linear
from ...core.function import Function
from ...ops._common import wrap
from .arguments import sizes

__all__ = ["pixel_shuffle", "pixel_unshuffle", "channel_shuffle"]


def _shuffle_pixels(a, r):
    """numpy: (*, C r r, H, W) -> (*, C, H r, W r); output[c, h r + i, w r + j] = input[c r r + i r + j, h, w]."""
    *lead, c, h, w = a.shape
    a = a.reshape(*lead, c // (r * r), r, r, h, w)
    n = len(lead)
    a = a.transpose(*range(n), n, n + 3, n + 1, n + 4, n + 2)
    return a.reshape(*lead, c // (r * r), h * r, w * r)


def _unshuffle_pixels(a, r):
    """numpy: the inverse, (*, C, H r, W r) -> (*, C r r, H, W)."""
    *lead, c, h, w = a.shape
    a = a.reshape(*lead, c, h // r, r, w // r, r)
    n = len(lead)
    a = a.transpose(*range(n), n, n + 2, n + 4, n + 1, n + 3)
    return a.reshape(*lead, c * r * r, h // r, w // r)


class _PixelRearrange(Function):
    """A rearrangement of pixels whose backward is its inverse rearrangement, by the same factor."""
    rearrange, inverse = None, None

    @classmethod
    def forward(cls, x, factor):
        return wrap(cls.rearrange(x._data, factor))

    @staticmethod
    def setup_context(ctx, inputs, output):
        _, ctx.factor = inputs

    @classmethod
    def backward(cls, ctx, grad):
        return cls.inverse.apply(grad, ctx.factor), None

    jvp = linear


class PixelShuffle(_PixelRearrange):
    """z = x's channel blocks of r * r spread over r x r pixels;  dz/dx = pixel_unshuffle(g, r)"""
    node_name, rearrange = "PixelShuffleBackward0", staticmethod(_shuffle_pixels)
    saved_attrs = {"upscale_factor": "factor"}


class PixelUnshuffle(_PixelRearrange):
    """z = x's r x r pixel blocks gathered into channels;  dz/dx = pixel_shuffle(g, r)"""
    node_name, rearrange = "PixelUnshuffleBackward0", staticmethod(_unshuffle_pixels)
    saved_attrs = {"downscale_factor": "factor"}


PixelShuffle.inverse, PixelUnshuffle.inverse = PixelUnshuffle, PixelShuffle


class ChannelShuffle(Function):
    """z[:, j (C / g) + i] = x[:, i g + j]...: channels read as (g, C / g), transposed;  dz/dx = the same with
    C / g groups"""
    node_name = "ChannelShuffleBackward0"
    saved_attrs = {"groups": "groups"}

    @staticmethod
    def forward(x, groups):
        a = x._data
        n, c = a.shape[:2]
        return wrap(a.reshape(n, groups, c // groups, *a.shape[2:]).swapaxes(1, 2).reshape(a.shape))

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, ctx.groups = inputs
        ctx.channels = x._data.shape[1]

    @staticmethod
    def backward(ctx, grad):
        return ChannelShuffle.apply(grad, ctx.channels // ctx.groups), None

    jvp = linear


def pixel_shuffle(input, upscale_factor):
    """Rearrange (*, C r^2, H, W) into (*, C, H r, W r), r = upscale_factor. Mirrors
    `torch.nn.functional.pixel_shuffle`.

    Example:
        >>> F.pixel_shuffle(torch.arange(4.).view(1, 4, 1, 1), 2)
        tensor([[[[0., 1.],
                  [2., 3.]]]])
    """
    _at_least_3d("pixel_shuffle", input)
    if upscale_factor <= 0:
        raise RuntimeError(f"pixel_shuffle expects a positive upscale_factor, but got {upscale_factor}")
    c = input.shape[-3]
    if c % (upscale_factor * upscale_factor):
        raise RuntimeError("pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of "
                           f"upscale_factor, but input.size(-3)={c} is not divisible by {upscale_factor ** 2}")
    return PixelShuffle.apply(input, upscale_factor)


def pixel_unshuffle(input, downscale_factor):
    """Rearrange (*, C, H r, W r) into (*, C r^2, H, W), r = downscale_factor: the inverse of `pixel_shuffle`."""
    _at_least_3d("pixel_unshuffle", input)
    if downscale_factor <= 0:
        raise RuntimeError(f"pixel_unshuffle expects a positive downscale_factor, but got {downscale_factor}")
    for name, dim in (("height", -2), ("width", -1)):
        if input.shape[dim] % downscale_factor:
            raise RuntimeError(f"pixel_unshuffle expects {name} to be divisible by downscale_factor, but "
                               f"input.size({dim})={input.shape[dim]} is not divisible by {downscale_factor}")
    return PixelUnshuffle.apply(input, downscale_factor)


def channel_shuffle(input, groups):
    """Split the C channels into `groups` and interleave them: (N, C, *) with channel order
    0, C/g, 2 C/g, ..., 1, C/g + 1, ... Mirrors `torch.nn.functional.channel_shuffle`."""
    if input.dim() <= 2:
        raise RuntimeError(f"channel_shuffle expects input with > 2 dims, but got input with sizes "
                           f"{sizes(input.shape)}")
    if groups <= 0:
        raise RuntimeError(f"Number of groups to divide channels in must be positive. Value of groups:{groups}")
    c = input.shape[1]
    if c % groups:
        raise RuntimeError(f"Number of channels must be divisible by groups. Got {c} channels and {groups} groups.")
    return ChannelShuffle.apply(input, groups)


def _at_least_3d(fn, input):
    if input.dim() < 3:
        raise RuntimeError(f"{fn} expects input to have at least 3 dimensions, but got input with {input.dim()} "
                           "dimension(s)")
