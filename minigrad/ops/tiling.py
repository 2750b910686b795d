"""Ops that copy a tensor's values several times over: `repeat`."""
import numpy as np

from ..core.forward_ad import linear
from ..core.function import Function
from ._common import wrap


class Repeat(Function):
    """z = x tiled `repeats[i]` times along dim i (new leading dims first);
    dz/dx = the gradient summed over the copies"""
    node_name = "RepeatBackward0"
    saved_attrs = {"repeats": "repeats", "self_sym_sizes": "shape"}

    @staticmethod
    def forward(x, repeats):
        if len(repeats) < x._data.ndim:
            raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number of dimensions "
                               "of tensor")
        padded = (1,) * (len(repeats) - x._data.ndim) + x._data.shape
        size = [n * r for n, r in zip(padded, repeats)]
        negative = [n for n in size if n < 0]
        if negative:
            raise RuntimeError(f"Trying to create tensor with negative dimension {negative[0]}: {size}")
        return wrap(np.tile(x._data, [max(r, 0) for r in repeats]))     # an empty dim may repeat -1 times

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, ctx.repeats = inputs
        ctx.shape = x._data.shape

    @staticmethod
    def backward(ctx, grad):
        # split every dim of the gradient into (copy, original) and add the copies up
        padded = (1,) * (len(ctx.repeats) - len(ctx.shape)) + tuple(ctx.shape)
        split = tuple(n for r, s in zip(ctx.repeats, padded) for n in (r, s))
        copies = tuple(range(0, len(split), 2))
        return grad.reshape(split).sum(copies).reshape(ctx.shape), None

    jvp = linear
