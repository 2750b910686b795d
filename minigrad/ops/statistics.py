"""More reductions: var and std (and var_mean, std_mean: one node for both results), logsumexp, amax/amin,
and topk (the k largest or smallest along a dim).

Each backward is PyTorch's formula (tools/autograd/derivatives.yaml and FunctionsManual.cpp), in Tensor ops.
"""
import math
import warnings

import numpy as np

from ..core.forward_ad import from_backward
from ..core.function import Function
from ._common import as_operand, dim_index, float_dtype_of, quiet, wrap
from .reduction import _axes, _saved_dims, _unsqueeze
from .scatter import value_selecting_reduction_backward
from .unary import Exp, Where


class Var(Function):
    """z = sum((x - mean)**2) / (n - correction) over `dim` (all elements if None; correction None means 1);
    dz/dx = 2 (x - mean) / (n - correction)"""
    node_name = "VarBackward0"
    saved_names = ("self",)
    saved_attrs = {"correction": "correction", "dim": "saved_dim", "keepdim": "keepdim"}

    @staticmethod
    def forward(x, dim, correction, keepdim):
        return wrap(_variance(x._data, dim, correction, keepdim, "var"))

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, dim, ctx.correction, ctx.keepdim = inputs
        ctx.save_for_backward(x)
        _save_dims(ctx, x, dim)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return var_backward(ctx, grad, x), None, None, None

    jvp = from_backward


class Std(Function):
    """z = sqrt(var(x));  dz/dx = dvar/dx / (2 z)  (0 where z = 0)"""
    node_name = "StdBackward0"
    saved_names = ("self", "result")
    saved_attrs = {"correction": "correction", "dim": "saved_dim", "keepdim": "keepdim"}

    @staticmethod
    def forward(x, dim, correction, keepdim):
        return wrap(_variance(x._data, dim, correction, keepdim, "std"))

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, dim, ctx.correction, ctx.keepdim = inputs
        ctx.save_for_backward(x, output)
        _save_dims(ctx, x, dim)

    @staticmethod
    @quiet
    def backward(ctx, grad):
        x, z = ctx.saved_tensors
        grad_var = Where.apply(z._data == 0, as_operand(0, grad), grad / (z * 2))
        return var_backward(ctx, grad_var, x), None, None, None

    jvp = from_backward


class VarMean(Function):
    """(var(x), mean(x)) over `dim`, one node for both;  dx = dvar/dx * g_var + g_mean / n"""
    node_name = "VarMeanBackward0"
    saved_names = ("self",)
    saved_attrs = {"correction": "correction", "dim": "saved_dim", "keepdim": "keepdim"}
    spread = "var"

    @classmethod
    @quiet
    def forward(cls, x, dim, correction, keepdim):
        a = x._data
        spread = _variance(a, dim, correction, keepdim, cls.spread)
        axes = _all_dims(dim, a.ndim)
        return wrap(spread), wrap((a.sum(axis=axes, keepdims=keepdim) / math.prod(a.shape[d] for d in axes))
                                  .astype(a.dtype, copy=False))

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, dim, ctx.correction, ctx.keepdim = inputs
        ctx.save_for_backward(x)
        _save_dims(ctx, x, dim)

    @staticmethod
    def backward(ctx, grad_var, grad_mean):
        (x,) = ctx.saved_tensors
        return var_backward(ctx, grad_var, x) + _mean_backward(ctx, grad_mean, x), None, None, None

    jvp = from_backward


class StdMean(VarMean):
    """(std(x), mean(x)) over `dim`, one node for both;  dx = dstd/dx * g_std + g_mean / n"""
    node_name = "StdMeanBackward0"
    saved_names = ("self", "result0")
    spread = "std"

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, dim, ctx.correction, ctx.keepdim = inputs
        ctx.save_for_backward(x, output[0])
        _save_dims(ctx, x, dim)

    @staticmethod
    @quiet
    def backward(ctx, grad_std, grad_mean):
        x, z = ctx.saved_tensors
        grad_var = Where.apply(z._data == 0, as_operand(0, grad_std), grad_std / (z * 2))
        return var_backward(ctx, grad_var, x) + _mean_backward(ctx, grad_mean, x), None, None, None


def _mean_backward(ctx, grad, x):
    """The gradient of mean(x) over ctx.axes: grad / n, spread back over the reduced dims."""
    if not ctx.keepdim and not ctx.over_all:
        grad = _unsqueeze(grad, ctx.axes)
    return grad.expand(x.shape) / math.prod(x.shape[d] for d in ctx.axes)


def _all_dims(dim, ndim):
    """The numpy axes of a var/std/logsumexp: all of them for None or an empty list, as in PyTorch."""
    return tuple(range(ndim)) if dim is None or (not isinstance(dim, int) and not len(dim)) else _axes(dim, ndim)


@quiet
def _variance(a, dim, correction, keepdim, name):
    """var (or std) in float64 for precision, with PyTorch's checks; dividing by n - correction <= 0 warns."""
    if a.dtype.kind != "f":
        raise RuntimeError("std and var only support floating point and complex dtypes")
    axes = _all_dims(dim, a.ndim)
    n = math.prod(a.shape[d] for d in axes)
    correction = 1 if correction is None else correction
    if n - correction <= 0:
        warnings.warn(f"{name}(): degrees of freedom is <= 0. Correction should be strictly less than the "
                      "reduction factor (input numel divided by output numel).", UserWarning, stacklevel=4)
    b = a.astype(np.float64)
    deviation = b - b.sum(axis=axes, keepdims=True) / n
    out = (deviation * deviation).sum(axis=axes, keepdims=keepdim) / max(n - correction, 0)
    return (np.sqrt(out) if name == "std" else out).astype(a.dtype)


def _save_dims(ctx, x, dim):
    """Keep var/std's dims for backward: as torch shows them, and as numpy axes."""
    ctx.saved_dim = None if dim is None else _saved_dims(dim)     # torch shows None, or a tuple
    ctx.axes = _all_dims(dim, x.dim())
    ctx.over_all = dim is None or x.dim() == 0


@quiet
def var_backward(ctx, grad, x):
    """The gradient of var(x) over ctx.axes: 2 (x - mean) / (n - correction) times grad. Mirrors ATen's function,
    including its inf or nan where n <= correction."""
    correction = 1 if ctx.correction is None else ctx.correction
    if ctx.over_all:
        dof = x.numel() - correction
        if dof <= 0:
            a = x._data
            return grad * wrap(np.where(a == a.sum() / a.size, np.nan, np.inf).astype(a.dtype))
        return (2.0 / dof) * grad * (x - x.mean())
    if not ctx.keepdim:
        grad = _unsqueeze(grad, ctx.axes)
    dof = math.prod(x.shape[d] for d in ctx.axes) - correction
    return float(np.divide(2.0, dof)) * grad * (x - x.mean(ctx.axes, keepdim=True))


class Logsumexp(Function):
    """z = log(sum(exp(x))) over `dim`, computed as m + log(sum(exp(x - m))) with m the max, so that exp does not
    overflow;  dz/dx = exp(x - z), the softmax of x"""
    node_name = "LogsumexpBackward0"
    saved_names = ("self", "result")
    saved_attrs = {"dim": "saved_dim", "keepdim": "keepdim"}

    @staticmethod
    @quiet
    def forward(x, dim, keepdim=False):
        a = float_dtype_of(x._data)
        axes = _all_dims(dim, a.ndim)
        if a.size == 0:
            return wrap(np.log(np.exp(a).sum(axis=axes, keepdims=keepdim)))
        m = a.max(axis=axes, keepdims=True)
        m = np.where(np.isinf(m), 0, m)       # all -inf (or an inf) stays -inf (or inf), not nan
        out = np.log(np.exp(a - m).sum(axis=axes, keepdims=True)) + m
        return wrap(out if keepdim else out.reshape([s for d, s in enumerate(a.shape) if d not in axes]))

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, dim, *keepdim = inputs
        ctx.save_for_backward(x, output)
        ctx.saved_dim, ctx.axes = _saved_dims(dim), _all_dims(dim, x.dim())
        ctx.keepdim = bool(keepdim and keepdim[0])

    @staticmethod
    @quiet
    def backward(ctx, grad):
        x, z = ctx.saved_tensors
        if not ctx.keepdim:
            grad, z = _unsqueeze(grad, ctx.axes), _unsqueeze(z, ctx.axes)
        return grad * Exp.apply(x - z), None, None

    jvp = from_backward


class Amax(Function):
    """z = the largest element over `dim` (all dims by default);  ties share the gradient evenly"""
    node_name = "AmaxBackward0"
    saved_names = ("self", "result")
    saved_attrs = {"dim": "saved_dim", "keepdim": "keepdim"}
    name, reduce = "amax", staticmethod(np.max)

    @classmethod
    def _forward(cls, x, dim, keepdim):
        a = x._data
        axes = _all_dims(dim, a.ndim)
        if a.size == 0:
            if dim == ():
                raise RuntimeError(f"{cls.name}(): Expected reduction dim to be specified for input.numel() == 0. "
                                   "Specify the reduction dim with the 'dim' argument.")
            for d in (dim,) if isinstance(dim, int) else dim:
                if a.shape[d] == 0:         # torch names the dim as it was given
                    raise IndexError(f"{cls.name}(): Expected reduction dim {d} to have non-zero size.")
        return wrap(cls.reduce(a, axis=axes, keepdims=keepdim))

    @staticmethod
    def forward(x, dim=(), keepdim=False):
        return Amax._forward(x, dim, keepdim)

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, dim, *keepdim = inputs
        ctx.save_for_backward(x, output)
        ctx.saved_dim = _saved_dims(dim)
        ctx.axes = _all_dims(dim, x.dim())
        ctx.keepdim = bool(keepdim and keepdim[0])

    @staticmethod
    @quiet
    def backward(ctx, grad):
        x, z = ctx.saved_tensors
        if not ctx.keepdim:
            grad, z = _unsqueeze(grad, ctx.axes), _unsqueeze(z, ctx.axes)
        # torch's scale_grad_by_count: the gradient is split among the elements equal to the result (the mask
        # and the count are constants: a comparison has no derivative)
        hit = x._data == z._data
        count = hit.sum(axis=ctx.axes, keepdims=True)
        return grad / wrap(count.astype(grad._data.dtype)) * wrap(hit.astype(grad._data.dtype)), None, None

    jvp = from_backward


class Amin(Amax):
    """z = the smallest element over `dim` (all dims by default);  ties share the gradient evenly"""
    node_name = "AminBackward0"
    name, reduce = "amin", staticmethod(np.min)

    @staticmethod
    def forward(x, dim=(), keepdim=False):
        return Amin._forward(x, dim, keepdim)


class Topk(Function):
    """values, indices = the k largest (or smallest) elements along `dim`, in order;  the gradient goes back to
    where each value came from"""
    node_name = "TopkBackward0"
    saved_names = ("indices",)
    saved_attrs = {"dim": "dim", "self_sym_sizes": "shape"}

    @staticmethod
    def forward(x, k, dim=-1, largest=True, sorted=True):
        a = x._data
        d = dim_index(dim, a.ndim)
        if a.dtype.kind == "b":
            raise RuntimeError("topk does not support bool dtypes on CPU")
        if not 0 <= k <= (a.shape[d] if a.ndim else 1):
            raise RuntimeError("selected index k out of range")
        if a.ndim == 0:
            return wrap(a.copy()), wrap(np.zeros((), np.int64))
        idx = np.take(_order(a, d, largest), np.arange(k), axis=d)
        return wrap(np.take_along_axis(a, idx, axis=d)), wrap(idx.astype(np.int64, copy=False))

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, _k, ctx.dim = inputs[:3]
        ctx.mark_non_differentiable(output[1])
        ctx.save_for_backward(output[1])
        ctx.shape = x._data.shape

    @staticmethod
    def backward(ctx, grad, _grad_indices):
        (indices,) = ctx.saved_tensors
        return value_selecting_reduction_backward(grad, ctx.dim, indices, ctx.shape, True), None, None, None, None

    jvp = from_backward


def _order(a, d, largest):
    """The indices that sort `a` along `d`, largest first (nan counts as the largest, as in PyTorch) or smallest
    first. Ties keep their order; PyTorch's order of ties is unspecified (its partial sort is not stable)."""
    if not largest:
        return np.argsort(a, axis=d, kind="stable")
    key = -a.astype(np.int64) if a.dtype.kind == "u" else -a
    return np.lexsort((key, ~np.isnan(a)), axis=d) if a.dtype.kind == "f" else np.argsort(key, axis=d, kind="stable")


class Aminmax(Function):
    """min, max = amin and amax of x over `dim` (all elements for None), one node for both;  each gradient is
    amin's or amax's: split evenly among the elements equal to the result"""
    node_name = "AminmaxBackward0"
    saved_names = ("self", "min", "max")
    saved_attrs = {"dim": "dim", "keepdim": "keepdim"}

    @staticmethod
    def forward(x, dim=None, keepdim=False):
        a = x._data
        if a.size == 0:
            raise RuntimeError("aminmax(): cannot compute aminmax over an empty dimension as the operation has no "
                               "identity.")
        axes = tuple(range(a.ndim)) if dim is None else (dim_index(dim, a.ndim),)
        if dim is not None and a.ndim:
            keep = keepdim
        else:
            keep = keepdim and a.ndim > 0
        return wrap(a.min(axis=axes, keepdims=keep)), wrap(a.max(axis=axes, keepdims=keep))

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, dim, *keepdim = inputs
        ctx.save_for_backward(x, *output)
        ctx.dim, ctx.keepdim = dim, bool(keepdim and keepdim[0])
        ctx.axes = tuple(range(x.dim())) if dim is None else (dim_index(dim, max(x.dim(), 1)),) if x.dim() else ()

    @staticmethod
    @quiet
    def backward(ctx, grad_min, grad_max):
        x, low, high = ctx.saved_tensors
        total = None
        for grad, z in ((grad_min, low), (grad_max, high)):
            if grad is None:
                continue
            if not ctx.keepdim:
                grad, z = _unsqueeze(grad, ctx.axes), _unsqueeze(z, ctx.axes)
            hit = x._data == z._data
            count = hit.sum(axis=ctx.axes, keepdims=True)
            part = grad / wrap(count.astype(grad._data.dtype)) * wrap(hit.astype(grad._data.dtype))
            total = part if total is None else total + part
        return total, None, None

    jvp = from_backward
