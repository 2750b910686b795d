"""Ops built on the p-norm: `dist` (the norm of a difference, broadcast) and `renorm` (each slice scaled down to a
largest norm). Their backwards are PyTorch's (FunctionsManual.cpp), made of `norm_backward` (reduction.py), so
every order of derivative exists."""
import numpy as np

from ..core.forward_ad import from_backward
from ..core.function import Function
from ._common import dim_index, grad_to, operands, wrap
from .reduction import norm_backward
from .unary import Where


def _pnorm(a, p, axes, keepdims):
    """numpy: (sum |a|**p) ** (1/p) over `axes` (p = 0 counts the non-zeros; +-inf the largest / smallest |a|)."""
    if p == 0:
        return (a != 0).sum(axis=axes, keepdims=keepdims).astype(a.dtype)
    if p == float("inf"):
        return np.abs(a).max(axis=axes, keepdims=keepdims)
    if p == float("-inf"):
        return np.abs(a).min(axis=axes, keepdims=keepdims)
    if p == 2:
        return np.sqrt((a * a).sum(axis=axes, keepdims=keepdims))
    return (np.abs(a) ** p).sum(axis=axes, keepdims=keepdims) ** (1.0 / p)


class Dist(Function):
    """z = the p-norm of x - y (broadcast);  dz/dx = norm_backward(g, x - y, p, z),  dz/dy = minus that"""
    node_name = "DistBackward0"
    saved_names = ("other", "p", "result", "self")

    @staticmethod
    def forward(x, y, p):
        a, b = operands(x, y)
        return wrap(np.asarray(_pnorm(a - b, p, None, False), a.dtype))

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, y, ctx.p = inputs
        ctx.save_for_backward(y, wrap(np.asarray(ctx.p)), output, x)
        ctx.shapes = (x._data.shape, y._data.shape)

    @staticmethod
    def backward(ctx, grad):
        y, _, z, x = ctx.saved_tensors
        diff = x - y
        axes = tuple(range(diff.dim()))
        g = norm_backward(grad.reshape((1,) * diff.dim()), diff, ctx.p, z.reshape((1,) * diff.dim()), axes)
        needs_x, needs_y = ctx.needs_input_grad[:2]
        return (grad_to(g, ctx.shapes[0]) if needs_x else None, grad_to(-g, ctx.shapes[1]) if needs_y else None,
                None)

    jvp = from_backward


class Renorm(Function):
    """z = each slice along `dim` (over the other dims) with p-norm n scaled by maxnorm / (n + 1e-7) where
    n > maxnorm, unchanged elsewhere;  the gradient is ATen's renorm_backward"""
    node_name = "RenormBackward0"
    saved_names = ("self",)
    saved_attrs = {"p": "p", "dim": "dim", "maxnorm": "maxnorm"}

    @staticmethod
    def forward(x, p, dim, maxnorm):
        a = x._data
        axes = tuple(d for d in range(a.ndim) if d != dim)
        n = np.asarray(_pnorm(a, p, axes, True), a.dtype)
        factor = np.where(n > maxnorm, a.dtype.type(maxnorm) / (n + a.dtype.type(1e-7)), a.dtype.type(1))
        return wrap((a * factor).astype(a.dtype))

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, ctx.p, ctx.dim, ctx.maxnorm = inputs
        ctx.save_for_backward(x)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        axes = tuple(d for d in range(x.dim()) if d != ctx.dim)
        norm = x.norm(ctx.p, axes, keepdim=True)
        nb = norm_backward((x * grad).sum(axes, keepdim=True) if axes else x * grad, x, ctx.p, norm, axes)
        invnorm = (norm + 1e-7).reciprocal()
        factor = invnorm * ctx.maxnorm
        return Where.apply(norm._data > ctx.maxnorm, factor * grad - factor * invnorm * nb, grad), None, None, None

    jvp = from_backward


def check_renorm(x, p, dim, maxnorm):
    """ATen's renorm checks; the dim counted from 0."""
    if p <= 0:
        raise RuntimeError("renorm: non-positive-norm not supported")
    if maxnorm < 0:
        raise RuntimeError(f"renorm: expected maxnorm to be >= 0 but got {maxnorm:g}")  # C++ prints -1.0 as -1
    if x.dim() <= 1:
        raise RuntimeError(f"renorm: input needs at least 2 dimensions, got {x.dim()} dimensions")
    return dim_index(dim, x.dim())
