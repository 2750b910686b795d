"""Reductions: sum, mean, max/min, norm, and sort (which reorders rather than reduces)."""
import math

import numpy as np

from ..core.forward_ad import from_backward, linear
from ..core.function import Function
from ..core.dtype import scalar_name
from ._common import as_operand, dim_index, wrap
from .scatter import value_selecting_reduction_backward
from .unary import Where


def _axes(dim, ndim):
    """The numpy axes for `dim` (an int or a tuple), checked as PyTorch checks them; a 0-d tensor has none."""
    dims = (dim,) if isinstance(dim, int) else tuple(dim)
    axes = tuple(dim_index(d, ndim) for d in dims)
    for k, d in enumerate(axes):
        if d in axes[:k]:
            raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
    return axes if ndim else ()


def _saved_dims(dim):
    """`dim` as torch's `grad_fn._saved_dim` shows it: always a tuple."""
    return (dim,) if isinstance(dim, int) else tuple(dim)


def _unsqueeze(g, axes):
    """Put the reduced axes back as size 1 (as torch's `unsqueeze_multiple`): the gradient broadcasts over them."""
    for axis in sorted(axes):
        g = g.unsqueeze(axis)
    return g


class Sum(Function):
    """z = sum(x);  dz/dx = 1 for every element"""
    node_name = "SumBackward0"
    saved_attrs = {"self_sym_sizes": "shape"}

    @staticmethod
    def forward(x):
        a = x._data
        return wrap(a.sum(dtype=np.int64 if a.dtype.kind in "bu" else None))   # torch: bool, uint8.. in int64

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.shape = inputs[0]._data.shape

    @staticmethod
    def backward(ctx, grad):
        return grad.expand(ctx.shape)

    jvp = linear


class SumDim(Function):
    """z = x summed over `dim`;  dz/dx = 1, broadcast back over the summed axes"""
    node_name = "SumBackward1"
    saved_attrs = {"dim": "saved_dim", "keepdim": "keepdim", "self_sym_sizes": "shape"}

    @staticmethod
    def forward(x, dim, keepdim=False):
        a = x._data
        return wrap(a.sum(axis=_axes(dim, a.ndim), keepdims=keepdim,
                          dtype=np.int64 if a.dtype.kind in "bu" else None))

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, dim, *keepdim = inputs
        ctx.shape, ctx.axes, ctx.keepdim = x._data.shape, _axes(dim, x.dim()), bool(keepdim and keepdim[0])
        ctx.saved_dim = _saved_dims(dim)

    @staticmethod
    def backward(ctx, grad):
        return (grad if ctx.keepdim else _unsqueeze(grad, ctx.axes)).expand(ctx.shape), None, None

    jvp = linear


class Mean(Function):
    """z = mean(x);  dz/dx = 1 / n for every element"""
    node_name = "MeanBackward0"
    saved_attrs = {"self_sym_numel": "numel", "self_sym_sizes": "shape"}

    @staticmethod
    def forward(x):
        return wrap(_mean(x._data))

    @staticmethod
    def setup_context(ctx, inputs, output):
        a = inputs[0]._data
        ctx.shape, ctx.numel = a.shape, a.size

    @staticmethod
    def backward(ctx, grad):
        # divided before it is expanded, the gradient stays a broadcast view (torch divides after: same values)
        return (grad / max(ctx.numel, 1)).expand(ctx.shape)

    jvp = linear


class MeanDim(Function):
    """z = mean of x over `dim`;  dz/dx = 1 / n, broadcast back over the averaged axes"""
    node_name = "MeanBackward1"
    saved_attrs = {"dim": "saved_dim", "keepdim": "keepdim", "self_sym_numel": "numel", "self_sym_sizes": "shape"}

    @staticmethod
    def forward(x, dim, keepdim=False):
        a = x._data
        return wrap(_mean(a, _axes(dim, a.ndim), keepdim))

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, dim, *keepdim = inputs
        ctx.shape, ctx.axes, ctx.keepdim = x._data.shape, _axes(dim, x.dim()), bool(keepdim and keepdim[0])
        ctx.numel, ctx.saved_dim = x._data.size, _saved_dims(dim)

    @staticmethod
    def backward(ctx, grad):
        g = grad / math.prod(ctx.shape[a] for a in ctx.axes)
        return (g if ctx.keepdim else _unsqueeze(g, ctx.axes)).expand(ctx.shape), None, None

    jvp = linear


def _mean(a, axes=None, keepdim=False):
    """numpy's mean (the sum over n), checked as torch checks it, and nan without a warning for an empty slice."""
    if a.dtype.kind != "f":
        raise RuntimeError("mean(): could not infer output dtype. Input dtype must be either a floating "
                           f"point or complex dtype. Got: {scalar_name(a)}")
    with np.errstate(invalid="ignore"):
        return a.sum(axis=axes, keepdims=keepdim) / (a.size if axes is None else math.prod(a.shape[d] for d in axes))




class MaxAll(Function):
    """z = max(x);  dz/dx splits the gradient evenly among the elements equal to the max"""
    node_name = "MaxBackward1"
    saved_names = ("self", "result")

    @staticmethod
    def forward(x):
        if x._data.size == 0:
            raise RuntimeError("max(): Expected reduction dim to be specified for input.numel() == 0. Specify the "
                               "reduction dim with the 'dim' argument.")
        return wrap(x._data.max())

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0], output)

    @staticmethod
    def backward(ctx, grad):
        x, z = ctx.saved_tensors
        a, m = x._data, z._data
        # torch's evenly_distribute_backward: ties share the gradient, and a nan max is every nan's
        hit = np.isnan(a) if np.isnan(m) else a == m
        return grad / int(hit.sum()) * wrap(hit.astype(a.dtype))

    jvp = from_backward


class MinAll(MaxAll):
    """z = min(x);  dz/dx splits the gradient evenly among the elements equal to the min"""
    node_name = "MinBackward1"

    @staticmethod
    def forward(x):
        if x._data.size == 0:
            raise RuntimeError("min(): Expected reduction dim to be specified for input.numel() == 0. Specify the "
                               "reduction dim with the 'dim' argument.")
        return wrap(x._data.min())


class MaxDim(Function):
    """values, indices = max of x along `dim`;  the gradient goes to the position of each max"""
    node_name = "MaxBackward0"
    saved_names = ("indices",)
    saved_attrs = {"dim": "dim", "keepdim": "keepdim", "self_sym_sizes": "shape"}
    pick = staticmethod(np.argmax)

    @classmethod
    def _forward(cls, x, dim, keepdim):
        a = x._data
        dim = dim_index(dim, a.ndim)
        if a.ndim == 0:             # a 0-d tensor is its own max, at index 0
            return wrap(a.copy()), wrap(np.zeros((), np.int64))
        idx = np.expand_dims(cls.pick(a, axis=dim), dim)
        values = np.take_along_axis(a, idx, axis=dim)
        if not keepdim:
            values, idx = values.squeeze(dim), idx.squeeze(dim)
        return wrap(values), wrap(idx.astype(np.int64, copy=False))    # numpy's intp is int32 on some platforms

    @staticmethod
    def forward(x, dim, keepdim=False):
        return MaxDim._forward(x, dim, keepdim)

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, dim, *keepdim = inputs
        ctx.mark_non_differentiable(output[1])
        ctx.save_for_backward(output[1])
        ctx.shape, ctx.dim, ctx.keepdim = x._data.shape, dim, bool(keepdim and keepdim[0])

    @staticmethod
    def backward(ctx, grad, _grad_indices):
        (indices,) = ctx.saved_tensors
        return value_selecting_reduction_backward(grad, ctx.dim, indices, ctx.shape, ctx.keepdim), None, None

    jvp = from_backward


class MinDim(MaxDim):
    """values, indices = min of x along `dim`;  the gradient goes to the position of each min"""
    node_name = "MinBackward0"
    pick = staticmethod(np.argmin)

    @staticmethod
    def forward(x, dim, keepdim=False):
        return MinDim._forward(x, dim, keepdim)


class Norm(Function):
    """z = (sum |x|**p) ** (1/p) over `dim` (all elements by default);  for p = 2, dz/dx = x / z"""
    node_name = "LinalgVectorNormBackward0"
    saved_names = ("self", "result")
    saved_attrs = {"dim": "saved_dim", "keepdim": "keepdim", "ord": "p"}

    @staticmethod
    def forward(x, p=2, dim=None, keepdim=False):
        a = x._data
        if a.dtype.kind != "f":
            raise RuntimeError("linalg.vector_norm: Expected a floating point or complex tensor as input. Got "
                               f"{scalar_name(a)}")
        axes = None if dim is None else _axes(dim, a.ndim)
        if p == 2:
            out = np.sqrt((a * a).sum(axis=axes, keepdims=keepdim))
        elif p == float("inf"):
            out = np.abs(a).max(axis=axes, keepdims=keepdim)
        else:
            out = (np.abs(a) ** p).sum(axis=axes, keepdims=keepdim) ** (1.0 / p)
        return wrap(out.astype(a.dtype, copy=False))

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, ctx.p, dim, ctx.keepdim = inputs     # Tensor.norm always passes all four
        ctx.axes = tuple(range(x.dim())) if dim is None else _axes(dim, x.dim())
        ctx.saved_dim = None if dim is None else _saved_dims(dim)
        ctx.save_for_backward(x, output)

    @staticmethod
    def backward(ctx, grad):
        x, z = ctx.saved_tensors
        if not ctx.keepdim:
            grad, z = _unsqueeze(grad, ctx.axes), _unsqueeze(z, ctx.axes)
        return norm_backward(grad, x, ctx.p, z, ctx.axes), None, None, None

    jvp = from_backward


class AtenNorm(Norm):
    """z = (sum |x|**p) ** (1/p) over dim, as ATen's `norm(x, p, dim, keepdim)` (p = 0 counts the non-zeros);
    the gradient is linalg.vector_norm's"""
    node_name = "NormBackward1"

    @staticmethod
    def forward(x, p=2, dim=None, keepdim=False):
        if p == 0:
            return wrap((x._data != 0).sum(axis=dim, keepdims=keepdim).astype(x._data.dtype))
        return Norm.forward(x, p, dim, keepdim)


def norm_backward(grad, x, p, z, axes):
    """The gradient of z = the p-norm of x over `axes` (grad and z keep those axes). Mirrors ATen's function.

    Only `grad`, `x` and `z` enter differentiably; sign(x) and the masks are constants (their derivative is 0).
    """
    a, n = x._data, z._data
    sign = np.nan_to_num(np.sign(a))     # torch's sgn, which is 0 for nan
    if p == 1:
        return wrap(sign) * grad
    if p == 2:
        return grad * _zero_where(n == 0, x / _nonzero(n == 0, z))
    if p == float("inf"):
        # the gradient is shared by the elements where |x| reaches the max (and by the nans, as in torch)
        hit = (np.abs(a) == n) | np.isnan(a)
        return grad / wrap(hit.sum(axis=axes, keepdims=True)) * wrap(sign * hit)
    if p < 1:
        return wrap(sign) * _zero_where(a == 0, x.abs() ** (p - 1)) * grad * z ** (1 - p)
    scaled = wrap(sign) * x.abs() ** (p - 1) if p < 2 else x * x.abs() ** (p - 2)
    return scaled * _zero_where(n == 0, grad / _nonzero(n == 0, z) ** (p - 1))


def _nonzero(mask, z):
    """z with ones where `mask` is True: a divisor that is never 0, so that the derivative of the division at the
    masked places is 0, not 0/0 = nan (a gradient of a gradient at a zero norm, as torch gives it)."""
    return Where.apply(mask, wrap(np.ones((), z._data.dtype)), z)


def _zero_where(mask, t):
    """t with zeros where `mask` (a numpy bool array) is True: torch's `t.masked_fill_(mask, 0)`, differentiably."""
    return Where.apply(mask, wrap(np.zeros((), t._data.dtype)), t)


class Sort(Function):
    """values, indices = sort(x, dim);  the gradient is scattered back to where each value came from"""
    node_name = "SortBackward0"
    saved_names = ("indices",)
    saved_attrs = {"dim": "dim", "self_sym_sizes": "shape"}

    @staticmethod
    def forward(x, dim=-1, descending=False):
        a = x._data
        dim = dim_index(dim, a.ndim)
        if a.ndim == 0:
            return wrap(a.copy()), wrap(np.zeros((), np.int64))
        idx = np.argsort(-a if descending else a, axis=dim, kind="stable")
        return wrap(np.take_along_axis(a, idx, axis=dim)), wrap(idx.astype(np.int64, copy=False))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.mark_non_differentiable(output[1])
        ctx.save_for_backward(output[1])
        x, ctx.dim, _descending = inputs        # Tensor.sort always passes all three
        ctx.shape = x._data.shape

    @staticmethod
    def backward(ctx, grad, _grad_indices):
        (indices,) = ctx.saved_tensors
        return value_selecting_reduction_backward(grad, ctx.dim, indices, ctx.shape, True), None, None

    jvp = from_backward


class Nansum(Function):
    """z = the sum over `dim` (all elements for ()) with nans counted as 0;  dz/dx = 1, and 0 at the nans"""
    node_name = "NansumBackward0"
    saved_names = ("self",)
    saved_attrs = {"dim": "saved_dim", "keepdim": "keepdim"}

    @staticmethod
    def forward(x, dim=(), keepdim=False):
        a = x._data
        axes = tuple(range(a.ndim)) if dim == () else _axes(dim, a.ndim)
        return wrap(np.nansum(a, axis=axes, keepdims=keepdim, dtype=np.int64 if a.dtype.kind in "bu" else None))

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, dim, *keepdim = inputs
        ctx.save_for_backward(x)
        ctx.axes = tuple(range(x.dim())) if dim == () else _axes(dim, x.dim())
        ctx.keepdim, ctx.saved_dim = bool(keepdim and keepdim[0]), _saved_dims(dim)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        grad = (grad if ctx.keepdim else _unsqueeze(grad, ctx.axes)).expand(x.shape)
        return Where.apply(np.isnan(x._data), as_operand(0, grad), grad), None, None

    jvp = from_backward
