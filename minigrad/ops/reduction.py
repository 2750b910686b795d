"""Reductions: sum, mean, max/min, norm, and sort (which reorders rather than reduces)."""
import numpy as np

from ..autograd.function import Function
from ._common import dim_index, wrap


def _axes(dim, ndim):
    """The numpy axes for `dim` (an int or a tuple), checked as PyTorch checks them; a 0-d tensor has none."""
    dims = (dim,) if isinstance(dim, int) else tuple(dim)
    axes = tuple(dim_index(d, ndim) for d in dims)
    for k, d in enumerate(axes):
        if d in axes[:k]:
            raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
    return axes if ndim else ()


def _unsqueeze_to(g, axes, keepdim):
    """Put the reduced axes back as size 1, so a gradient broadcasts over what was reduced."""
    return g if keepdim else np.expand_dims(g, axes)


class Sum(Function):
    """z = sum(x);  dz/dx = 1 for every element"""
    node_name = "SumBackward0"

    @staticmethod
    def forward(x):
        a = x._data
        return wrap(a.sum(dtype=np.int64 if a.dtype.kind == "b" else None))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.shape = inputs[0]._data.shape

    @staticmethod
    def backward(ctx, grad):
        return wrap(np.broadcast_to(grad._data, ctx.shape))


class SumDim(Function):
    """z = x summed over `dim`;  dz/dx = 1, broadcast back over the summed axes"""
    node_name = "SumBackward1"

    @staticmethod
    def forward(x, dim, keepdim=False):
        a = x._data
        return wrap(a.sum(axis=_axes(dim, a.ndim), keepdims=keepdim,
                          dtype=np.int64 if a.dtype.kind == "b" else None))

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, dim, *keepdim = inputs
        ctx.shape, ctx.axes, ctx.keepdim = x._data.shape, _axes(dim, x.dim()), bool(keepdim and keepdim[0])

    @staticmethod
    def backward(ctx, grad):
        g = _unsqueeze_to(grad._data, ctx.axes, ctx.keepdim)
        return wrap(np.broadcast_to(g, ctx.shape)), None, None


class Mean(Function):
    """z = mean(x);  dz/dx = 1 / n for every element"""
    node_name = "MeanBackward0"

    @staticmethod
    def forward(x):
        a = x._data
        if a.dtype.kind != "f":
            raise RuntimeError("mean(): could not infer output dtype. Input dtype must be either a floating "
                               f"point or complex dtype. Got: {_NAMES[a.dtype.kind]}")
        return wrap(a.mean())

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.shape = inputs[0]._data.shape

    @staticmethod
    def backward(ctx, grad):
        n = max(int(np.prod(ctx.shape)), 1)
        return wrap(np.broadcast_to(grad._data / n, ctx.shape))


class MeanDim(Function):
    """z = mean of x over `dim`;  dz/dx = 1 / n, broadcast back over the averaged axes"""
    node_name = "MeanBackward1"

    @staticmethod
    def forward(x, dim, keepdim=False):
        a = x._data
        if a.dtype.kind != "f":
            raise RuntimeError("mean(): could not infer output dtype. Input dtype must be either a floating "
                               f"point or complex dtype. Got: {_NAMES[a.dtype.kind]}")
        return wrap(a.mean(axis=_axes(dim, a.ndim), keepdims=keepdim))

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, dim, *keepdim = inputs
        ctx.shape, ctx.axes, ctx.keepdim = x._data.shape, _axes(dim, x.dim()), bool(keepdim and keepdim[0])

    @staticmethod
    def backward(ctx, grad):
        n = int(np.prod([ctx.shape[a] for a in ctx.axes]))
        g = _unsqueeze_to(grad._data / n, ctx.axes, ctx.keepdim)
        return wrap(np.broadcast_to(g, ctx.shape)), None, None


_NAMES = {"i": "Long", "b": "Bool"}


class MaxAll(Function):
    """z = max(x);  dz/dx splits the gradient evenly among the elements equal to the max"""
    node_name = "MaxBackward1"

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
        hit = x._data == z._data
        return wrap(grad._data * hit / hit.sum())


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
        return wrap(values), wrap(idx.astype(np.int64))

    @staticmethod
    def forward(x, dim, keepdim=False):
        return MaxDim._forward(x, dim, keepdim)

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, dim, *keepdim = inputs
        ctx.mark_non_differentiable(output[1])
        ctx.shape, ctx.dim, ctx.keepdim = x._data.shape, dim % max(x.dim(), 1), bool(keepdim and keepdim[0])
        ctx.indices = output[1]._data

    @staticmethod
    def backward(ctx, grad, _grad_indices):
        g, idx = grad._data, ctx.indices
        if not ctx.shape:
            return wrap(np.array(g)), None, None
        if not ctx.keepdim:
            g, idx = np.expand_dims(g, ctx.dim), np.expand_dims(idx, ctx.dim)
        out = np.zeros(ctx.shape, g.dtype)
        np.put_along_axis(out, idx, g, axis=ctx.dim)
        return wrap(out), None, None


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

    @staticmethod
    def forward(x, p=2, dim=None, keepdim=False):
        a = x._data
        if a.dtype.kind != "f":
            raise RuntimeError("linalg.vector_norm: Expected a floating point or complex tensor as input. Got "
                               f"{_NAMES[a.dtype.kind]}")
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
        ctx.save_for_backward(x, output)

    @staticmethod
    def backward(ctx, grad):
        x, z = ctx.saved_tensors
        a, n, g = x._data, z._data, grad._data
        if not ctx.keepdim:
            n, g = np.expand_dims(n, ctx.axes), np.expand_dims(g, ctx.axes)
        p = ctx.p
        with np.errstate(divide="ignore", invalid="ignore"):
            if p == 2:
                d = np.where(n == 0, 0, a / n)
            elif p == 1:
                d = np.sign(a)
            elif p == float("inf"):
                hit = np.abs(a) == n
                d = np.sign(a) * hit / hit.sum(axis=ctx.axes, keepdims=True)
            else:
                d = np.where(n == 0, 0, np.sign(a) * np.abs(a) ** (p - 1) / n ** (p - 1))
        return wrap((g * d).astype(a.dtype, copy=False)), None, None, None


class Sort(Function):
    """values, indices = sort(x, dim);  the gradient is scattered back to where each value came from"""
    node_name = "SortBackward0"

    @staticmethod
    def forward(x, dim=-1, descending=False):
        a = x._data
        dim = dim_index(dim, a.ndim)
        if a.ndim == 0:
            return wrap(a.copy()), wrap(np.zeros((), np.int64))
        idx = np.argsort(-a if descending else a, axis=dim, kind="stable")
        return wrap(np.take_along_axis(a, idx, axis=dim)), wrap(idx.astype(np.int64))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.mark_non_differentiable(output[1])
        x, ctx.dim, _descending = inputs        # Tensor.sort always passes all three
        ctx.shape, ctx.indices = x._data.shape, output[1]._data

    @staticmethod
    def backward(ctx, grad, _grad_indices):
        if not ctx.shape:
            return wrap(np.array(grad._data)), None, None
        out = np.zeros(ctx.shape, grad._data.dtype)
        np.put_along_axis(out, ctx.indices, grad._data, axis=ctx.dim)
        return wrap(out), None, None
