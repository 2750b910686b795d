"""`Tensor.unfold(dim, size, step)`: every window of `size` elements along `dim`, `step` apart, as a new last dim
of a view (numpy's strides, as PyTorch's: no copy). Its backward adds each window's gradient back onto the
places it came from (`unfold_backward`), whose own backward is the unfold again: every order exists."""
import numpy as np
from numpy.lib.stride_tricks import as_strided

from ..core.forward_ad import linear
from ..core.function import Function
from ._common import dim_index, view_of, wrap


class Unfold(Function):
    """z[..., i, ..., k] = x[..., i * step + k, ...] (a view);  dz/dx = the windows' gradients added back"""
    node_name = "UnfoldBackward0"
    saved_attrs = {"dimension": "dim", "self_sym_sizes": "shape", "size": "size", "step": "step"}

    @staticmethod
    def forward(x, dim, size, step):
        a = x._data
        if a.ndim == 0:
            return view_of(x, a.reshape(1))
        d = dim_index(dim, a.ndim)
        count = (a.shape[d] - size) // step + 1
        shape = a.shape[:d] + (count,) + a.shape[d + 1:] + (size,)
        strides = a.strides[:d] + (a.strides[d] * step,) + a.strides[d + 1:] + (a.strides[d],)
        return view_of(x, as_strided(a, shape, strides, writeable=a.flags.writeable))

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, dim, ctx.size, ctx.step = inputs
        ctx.shape, ctx.dim = x._data.shape, dim_index(dim, max(x.dim(), 1))

    @staticmethod
    def backward(ctx, grad):
        return UnfoldBackward.apply(grad, ctx.shape, ctx.dim, ctx.size, ctx.step), None, None, None

    jvp = linear


class UnfoldBackward(Function):
    """gI = zeros of the input's shape with each window's gradient added where it was read;  linear in g, and its
    vector-Jacobian product is the unfold of G"""
    node_name = "UnfoldBackwardBackward0"

    @staticmethod
    def forward(grad, shape, dim, size, step):
        g = grad._data
        out = np.zeros(shape, g.dtype)
        if not shape:
            return wrap(g.reshape(()).copy())
        for k in range(size):                       # one vectorised add per window offset
            moved = np.moveaxis(g[..., k], dim, -1)          # (..., count)
            target = np.moveaxis(out, dim, -1)
            target[..., k:k + step * (moved.shape[-1] - 1) + 1:step] += moved
        return wrap(out)

    @staticmethod
    def setup_context(ctx, inputs, output):
        _, _, ctx.dim, ctx.size, ctx.step = inputs

    @staticmethod
    def backward(ctx, grad):
        return Unfold.apply(grad, ctx.dim, ctx.size, ctx.step), None, None, None, None

    jvp = linear


def check_unfold(x, dim, size, step):
    """ATen's unfold checks, in its words."""
    d = dim_index(dim, max(x.dim(), 1))
    length = x.shape[d] if x.dim() else 1
    if size > length:
        raise RuntimeError(f"maximum size for tensor at dimension {d} is {length} but size is {size}")
    if step <= 0:
        raise RuntimeError(f"step is {step} but must be > 0")
    if size < 0:
        raise RuntimeError(f"size is {size} but must be >= 0")
