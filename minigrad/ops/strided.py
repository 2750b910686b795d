"""Reading and writing a view's positions inside its base: what the in-place-through-a-view nodes compute with.

`where` = (storage offset, size, stride), in elements of the base laid out in row-major order (see
`autograd/views.py`). The two ops are each other's backward, so the gradients that `CopySlices` and
`AsStridedBackward0` give can be differentiated again.
"""
import numpy as np

from ..autograd.function import Function
from ..autograd.views import located
from ._common import wrap


class AsStridedGather(Function):
    """z = the part of x at `where` = (storage offset, size, stride), as `x.as_strided(size, stride, offset)` reads
    it from x laid out in row-major order;  dz/dx = the gradient put back there, zeros elsewhere"""
    node_name = "AsStridedBackward0"
    saved_attrs = {"size": "size", "stride": "stride", "storage_offset": "storage_offset"}

    @staticmethod
    def forward(x, where):
        return wrap(located(x._data, where).copy())

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, ctx.where = inputs
        ctx.storage_offset, ctx.size, ctx.stride = ctx.where
        ctx.shape = x._data.shape

    @staticmethod
    def backward(ctx, grad):
        return AsStridedScatter.apply(wrap(np.zeros(ctx.shape, grad._data.dtype)), grad, ctx.where), None


class AsStridedScatter(Function):
    """z = x with its part at `where` replaced by src (torch.as_strided_scatter);  dz/dx = the gradient with that
    part zeroed,  dz/dsrc = the gradient's part there"""
    node_name = "AsStridedScatterBackward0"
    saved_attrs = {"size": "size", "stride": "stride", "storage_offset": "storage_offset"}

    @staticmethod
    def forward(x, src, where):
        out = x._data.copy()            # row-major, as `where` counts
        located(out, where)[...] = src._data
        return wrap(out)

    @staticmethod
    def setup_context(ctx, inputs, output):
        _, src, ctx.where = inputs
        ctx.storage_offset, ctx.size, ctx.stride = ctx.where
        ctx.src_dtype = src._data.dtype

    @staticmethod
    def backward(ctx, grad):
        needs_x, needs_src, _ = ctx.needs_input_grad
        # torch's `as_strided_scatter(grad, zeros)`: the replaced part got nothing from x
        gx = AsStridedScatter.apply(grad, wrap(np.zeros(ctx.size, ctx.src_dtype)), ctx.where) if needs_x else None
        gsrc = AsStridedGather.apply(grad, ctx.where) if needs_src else None
        return gx, gsrc, None
