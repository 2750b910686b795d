"""Reading and writing a view's positions inside its base: what the in-place-through-a-view nodes compute with.

`where` = (storage offset, size, stride), in elements of the base laid out in row-major order (see
`_tensor/views.py`). The two ops are each other's backward, so the gradients that `CopySlices` and
`AsStridedBackward0` give can be differentiated again.
"""
import numpy as np

from ..core.forward_ad import linear
from ..core.function import Function
from ._common import wrap


def locate(base, view):
    """Where `view` (a numpy view into `base`'s memory) sits inside `base`: (offset, shape, strides); None if
    `base` is not laid out plainly in memory (then the position cannot be replayed on another array)."""
    if not base.flags.c_contiguous:
        return None
    item = base.itemsize
    start = view.__array_interface__["data"][0] - base.__array_interface__["data"][0]
    if start % item or any(s % item for s in view.strides):
        return None
    return start // item, view.shape, tuple(s // item for s in view.strides)


def located(array, where):
    """The part of `array` (shaped like the base) at `where`, as a numpy view (writable if `array` is contiguous)."""
    offset, shape, strides = where
    # an expanded gradient has stride 0: as_strided must read a real row-major copy, not memory beyond it
    flat = np.ascontiguousarray(array).reshape(-1)
    return np.lib.stride_tricks.as_strided(flat[offset:], shape, tuple(s * array.itemsize for s in strides))


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

    jvp = linear


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

    jvp = linear
