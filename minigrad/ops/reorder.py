"""Ops that move the elements around without changing them: flip and roll (copies, not views)."""
import numpy as np

from ..core.forward_ad import linear
from ..core.function import Function
from ._common import dim_index, wrap


class Flip(Function):
    """z = x with the order of its elements reversed along each of `dims`;  dz/dx = the gradient flipped back"""
    node_name = "FlipBackward0"
    saved_attrs = {"dims": "dims"}

    @staticmethod
    def forward(x, dims):
        a = x._data
        axes = []
        for d in dims:
            axis = dim_index(d, a.ndim)
            if axis in axes:
                raise RuntimeError(f"dim {axis} appears multiple times in the list of dims")
            axes.append(axis)
        return wrap(np.flip(a, tuple(axes) if a.ndim else ()).copy())

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.dims = tuple(inputs[1])

    @staticmethod
    def backward(ctx, grad):
        return Flip.apply(grad, ctx.dims), None

    jvp = linear


class Roll(Function):
    """z = x with its elements shifted cyclically by shifts[i] along dims[i] (with no dims: along the flattened
    tensor, as one ring);  dz/dx = the gradient shifted back"""
    node_name = "RollBackward0"
    saved_attrs = {"shifts": "shifts", "dims": "dims"}

    @staticmethod
    def forward(x, shifts, dims):
        a = x._data
        if not shifts:
            raise RuntimeError("`shifts` required")
        if len(shifts) != len(dims) and not (len(dims) == 0 and len(shifts) == 1):
            raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, dims:{len(dims)}")
        if not dims:
            return wrap(np.roll(a, shifts[0]))
        for d in dims:
            if a.ndim == 0:
                raise IndexError(f"Dimension specified as {d} but tensor has no dimensions")
            dim_index(d, a.ndim)
        return wrap(np.roll(a, shifts, dims))

    @staticmethod
    def setup_context(ctx, inputs, output):
        _, ctx.shifts, ctx.dims = inputs

    @staticmethod
    def backward(ctx, grad):
        return Roll.apply(grad, tuple(-s for s in ctx.shifts), ctx.dims), None, None

    jvp = linear


class Rot90(Function):
    """z = x rotated by k quarter turns in the plane of `dims`, from dims[0] toward dims[1];  dz/dx = the gradient
    rotated back (-k turns)"""
    node_name = "Rot90Backward0"
    saved_attrs = {"k": "k", "dims": "dims"}

    @staticmethod
    def forward(x, k, dims):
        a = x._data
        if len(dims) != 2:
            raise RuntimeError(f"expected total rotation dims == 2, but got dims = {len(dims)}")
        if a.ndim < 2:
            raise RuntimeError(f"expected total dims >= 2, but got total dims = {a.ndim}")
        d0, d1 = dim_index(dims[0], a.ndim), dim_index(dims[1], a.ndim)
        if d0 == d1:
            raise RuntimeError(f"expected rotation dims to be different, but got dim0 = {d0} and dim1 = {d1}")
        # ATen's rot90 is a flip then a transpose, so odd turns give a transposed (non-contiguous) copy
        turns = k % 4
        if turns == 1:
            return wrap(np.swapaxes(np.flip(a, d1).copy(), d0, d1))
        if turns == 2:
            return wrap(np.flip(a, (d0, d1)).copy())
        if turns == 3:
            return wrap(np.swapaxes(np.flip(a, d0).copy(), d0, d1))
        return wrap(np.ascontiguousarray(a).copy())

    @staticmethod
    def setup_context(ctx, inputs, output):
        _, ctx.k, dims = inputs
        ctx.dims = tuple(dims)

    @staticmethod
    def backward(ctx, grad):
        return Rot90.apply(grad, -ctx.k, ctx.dims), None, None

    jvp = linear
