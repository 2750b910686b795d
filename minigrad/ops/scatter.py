"""Gather and scatter along a dim: how a gradient goes back to the positions that max(dim) and sort picked.

These are internal ops (minigrad has no `Tensor.gather` yet) with PyTorch's node names. Each one's backward is
the other one, so the gradients of max(dim) and sort can be differentiated any number of times.
"""
import numpy as np

from ..autograd.function import Function
from ._common import dim_index, wrap


def value_selecting_reduction_backward(grad, dim, indices, shape, keepdim):
    """Send each gradient to the position its value was taken from (zeros elsewhere), for max/min(dim) and sort.

    Mirrors ATen's `value_selecting_reduction_backward`: `zeros(shape).scatter(dim, indices, grad)`.

    Args:
        grad: the gradient of the values; indices: the int64 indices tensor the op returned.
        dim, keepdim: as given to the op; shape: the input's shape.
    """
    if not shape:                   # a 0-d input is its own max (or sort), at index 0
        return grad
    index = indices._data
    if not keepdim:
        grad, index = grad.unsqueeze(dim), np.expand_dims(index, dim)
    return Scatter.apply(wrap(np.zeros(shape, grad._data.dtype)), dim, index, grad)


def _along(index, dim, ndim):
    """The numpy index of the places `index` points at along `dim` (elsewhere, the position in `index` itself).

    Like torch's, `index` may be smaller than the tensor in the other dims; `src` has the shape of `index`.
    """
    grid = list(np.indices(index.shape, sparse=True))
    grid[dim_index(dim, ndim)] = index
    return tuple(grid)


class Gather(Function):
    """z = x picked along `dim` at `index` (z[i][j] = x[i][index[i][j]] for dim 1);  dz/dx = g scatter-added back"""
    node_name = "GatherBackward0"
    saved_attrs = {"dim": "dim"}

    @staticmethod
    def forward(x, dim, index):
        return wrap(x._data[_along(index, dim, x.dim())])

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, ctx.dim, ctx.index = inputs      # the index is a plain int64 array: like PyTorch's, no edge for it
        ctx.shape = x._data.shape

    @staticmethod
    def backward(ctx, grad):
        zeros = wrap(np.zeros(ctx.shape, grad._data.dtype))
        return ScatterAdd.apply(zeros, ctx.dim, ctx.index, grad), None, None


class Scatter(Function):
    """z = x with z[i][index[i][j]] = src[i][j] (for dim 1);  dz/dx = g, zero where src was written,  dz/dsrc =
    g gathered at `index`"""
    node_name = "ScatterBackward0"
    saved_attrs = {"dim": "dim"}

    @staticmethod
    def forward(x, dim, index, src):
        out = x._data.copy()
        out[_along(index, dim, out.ndim)] = src._data
        return wrap(out)

    @staticmethod
    def setup_context(ctx, inputs, output):
        _, ctx.dim, ctx.index, _ = inputs

    @staticmethod
    def backward(ctx, grad):
        needs_x, _, _, needs_src = ctx.needs_input_grad
        # torch's `grad.scatter(dim, index, 0)`: the written places got nothing from x
        gx = (Scatter.apply(grad, ctx.dim, ctx.index, wrap(np.zeros(ctx.index.shape, grad._data.dtype)))
              if needs_x else None)
        gsrc = Gather.apply(grad, ctx.dim, ctx.index) if needs_src else None
        return gx, None, None, gsrc


class ScatterAdd(Scatter):
    """z = x with z[i][index[i][j]] += src[i][j] (for dim 1);  dz/dx = g,  dz/dsrc = g gathered at `index`"""
    node_name = "ScatterAddBackward0"

    @staticmethod
    def forward(x, dim, index, src):
        out = x._data.copy()
        np.add.at(out, _along(index, dim, out.ndim), src._data)    # add.at, not assignment: an index may repeat
        return wrap(out)

    @staticmethod
    def backward(ctx, grad):
        needs_x, _, _, needs_src = ctx.needs_input_grad
        gsrc = Gather.apply(grad, ctx.dim, ctx.index) if needs_src else None
        return (grad if needs_x else None), None, None, gsrc
