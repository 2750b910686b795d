"""Products and running totals: prod (of all elements or along a dim), cumsum and cumprod; the running extremes
cummax and cummin (with the index each came from), and logcumsumexp.

Integers and bools give int64, as in PyTorch; `dtype=` casts the input first (and the engine casts the gradient
back, as PyTorch's does). The backward of a product divides by the input, which fails at zeros: there PyTorch
switches to products of the other elements, and so does minigrad, with PyTorch's formulas, in Tensor ops (so
that they differentiate again).
"""
import numpy as np

from ..core.forward_ad import from_backward, linear
from ..core.function import Function
from ..core.dtype import scalar_name
from ._common import dim_index, quiet, wrap
from .scatter import ScatterAdd
from .unary import Where
from .indexing import Index, Slice
from .join import Cat, Stack


def _result_dtype(a, dtype):
    """The numpy dtype a product or running total is computed in: `dtype`, else int64 for integers and bools."""
    if dtype is not None:
        return dtype.np_type
    return np.dtype(np.int64) if a.dtype.kind in "biu" else a.dtype


class Prod(Function):
    """z = the product of all elements;  dz/dx_i = z / x_i, i.e. the product of the other elements"""
    node_name = "ProdBackward0"
    saved_names = ("self", "result")

    @staticmethod
    @quiet
    def forward(x, dtype=None):
        a = x._data
        return wrap(a.astype(_result_dtype(a, dtype), copy=False).prod())

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0], output)

    @staticmethod
    @quiet
    def backward(ctx, grad):
        x, z = ctx.saved_tensors
        if x.dim() == 0:
            return grad, None
        if not (x._data == 0).any():
            return grad * (z / x), None
        return prod_safe_zeros_backward(grad, x.reshape(-1), 0).reshape(x.shape), None

    jvp = from_backward


class ProdDim(Function):
    """z = the product along `dim`;  dz/dx_i = the product of the other elements of x_i's slice"""
    node_name = "ProdBackward1"
    saved_names = ("self", "result")
    saved_attrs = {"dim": "dim", "keepdim": "keepdim"}

    @staticmethod
    @quiet
    def forward(x, dim, keepdim=False, dtype=None):
        a = x._data
        d = dim_index(dim, a.ndim)
        a = a.astype(_result_dtype(a, dtype), copy=False)
        return wrap(a.prod(axis=d, keepdims=keepdim) if a.ndim else a.copy())

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, ctx.dim, ctx.keepdim = inputs[:3]
        ctx.save_for_backward(x, output)

    @staticmethod
    @quiet
    def backward(ctx, grad):
        x, z = ctx.saved_tensors
        if x.dim() == 0:
            return grad, None, None, None
        d = dim_index(ctx.dim, x.dim())
        if not ctx.keepdim:
            grad, z = grad.unsqueeze(d), z.unsqueeze(d)
        if not (x._data == 0).any():
            g = grad * (z / x)
        else:
            g = prod_safe_zeros_backward(grad, x, d)
        return g, None, None, None

    jvp = from_backward


def prod_safe_zeros_backward(grad, x, d):
    """The gradient of a product along `d` that is right at zeros too. Mirrors ATen's function.

    For x = [a, b, c] the product of the others is [1, a, ab] * [bc, c, 1]: two exclusive running products, one
    from each end, with no division.
    """
    n = x.shape[d]
    if x.numel() == 0:
        return grad.expand(x.shape)
    ones = _ones_along(x, d)
    before = Cumprod.apply(Cat.apply(d, ones, _narrow(x, d, 0, n - 1)), d)
    after = _flip(Cumprod.apply(Cat.apply(d, ones, _flip(_narrow(x, d, 1, n - 1), d)), d), d)
    return grad * (before * after)


class Cumsum(Function):
    """z_k = x_1 + ... + x_k along `dim`;  the gradient of x_k is the sum of the gradients of z_k, z_k+1, ..."""
    node_name = "CumsumBackward0"
    saved_attrs = {"dim": "dim"}

    @staticmethod
    def forward(x, dim, dtype=None):
        a = x._data
        d = dim_index(dim, a.ndim)
        a = a.astype(_result_dtype(a, dtype), copy=False)
        return wrap(np.cumsum(a, axis=d) if a.ndim else a.copy())

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.dim = inputs[1]

    @staticmethod
    def backward(ctx, grad):
        d = dim_index(ctx.dim, grad.dim())
        if grad.numel() <= 1 or grad.shape[d] == 1:
            return grad, None, None
        return _reversed_cumsum(grad, d), None, None

    jvp = linear


class Cumprod(Function):
    """z_k = x_1 * ... * x_k along `dim`;  the gradient of x_k is sum over j >= k of g_j z_j / x_k (without the
    division where x has zeros)"""
    node_name = "CumprodBackward0"
    saved_names = ("self", "result")
    saved_attrs = {"dim": "dim"}

    @staticmethod
    @quiet
    def forward(x, dim, dtype=None):
        a = x._data
        d = dim_index(dim, a.ndim)
        a = a.astype(_result_dtype(a, dtype), copy=False)
        return wrap(np.cumprod(a, axis=d) if a.ndim else a.copy())

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, ctx.dim = inputs[:2]
        ctx.save_for_backward(x, output)

    @staticmethod
    @quiet
    def backward(ctx, grad):
        x, z = ctx.saved_tensors
        d = dim_index(ctx.dim, x.dim())
        if x.numel() <= 1 or x.shape[d] == 1:
            return grad, None, None
        if not (x._data == 0).any():
            return _reversed_cumsum(z * grad, d) / x, None, None
        return _cumprod_backward_at_zeros(grad, x, d), None, None

    jvp = from_backward


class Cummax(Function):
    """values_k = max(x_1..x_k) along `dim`, indices_k = where it came from (the latest of equal values; from a
    nan on, nan, at the latest nan);  the gradient of each value goes back to its index, summed"""
    node_name = "CummaxBackward0"
    saved_names = ("indices", "self")
    saved_attrs = {"dim": "dim"}
    running = np.fmax, np.maximum         # (nan ignored, nan kept): see _running_extreme

    @classmethod
    def forward(cls, x, dim):
        a = x._data
        d = dim_index(dim, a.ndim)
        if a.ndim == 0:
            return wrap(a.copy()), wrap(np.zeros((), np.int64))
        values, indices = _running_extreme(np.moveaxis(a, d, -1), *cls.running)
        return wrap(np.moveaxis(values, -1, d)), wrap(np.moveaxis(indices, -1, d))

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, ctx.dim = inputs
        ctx.mark_non_differentiable(output[1])
        ctx.save_for_backward(output[1], x)

    @staticmethod
    def backward(ctx, grad, _grad_indices):
        indices, x = ctx.saved_tensors
        if x.numel() == 0:
            return grad, None
        zeros = wrap(np.zeros(x._data.shape, grad._data.dtype))
        return ScatterAdd.apply(zeros, dim_index(ctx.dim, max(x.dim(), 1)), indices._data, grad), None

    jvp = from_backward


class Cummin(Cummax):
    """values_k = min(x_1..x_k) along `dim`, with indices as cummax's"""
    node_name = "CumminBackward0"
    running = np.fmin, np.minimum


def _running_extreme(a, ignoring_nan, keeping_nan):
    """Running max (or min) along the last axis of `a` and the index of each: a value equal to the running one
    takes over its index; every nan takes over, and nothing else after it (ATen's cummax_cummin_helper)."""
    values = keeping_nan.accumulate(a, axis=-1)
    plain = ignoring_nan.accumulate(a, axis=-1)
    positions = np.broadcast_to(np.arange(a.shape[-1]), a.shape)
    nan = np.isnan(a) if a.dtype.kind == "f" else np.zeros(a.shape, bool)
    takes_over = nan | ((np.cumsum(nan, axis=-1) == 0) & (a == plain))
    return values, np.maximum.accumulate(np.where(takes_over, positions, 0), axis=-1).astype(np.int64)


class Logcumsumexp(Function):
    """z_k = log(exp(x_1) + ... + exp(x_k)) along `dim`;  dz_j/dx_k = exp(x_k - z_j) for j >= k"""
    node_name = "LogcumsumexpBackward0"
    saved_names = ("self", "result")
    saved_attrs = {"dim": "dim"}

    @staticmethod
    @quiet
    def forward(x, dim):
        a = x._data
        if a.dtype.kind != "f":
            raise NotImplementedError(f'"logcumsumexp_out_cpu" not implemented for \'{scalar_name(a)}\'')
        d = dim_index(dim, a.ndim)
        return wrap(np.logaddexp.accumulate(a, axis=d) if a.ndim and a.size else a.copy())

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, ctx.dim = inputs
        ctx.save_for_backward(x, output)

    @staticmethod
    @quiet
    def backward(ctx, grad):
        x, z = ctx.saved_tensors
        if x.dim() == 0 or x.numel() == 0:
            return grad, None
        # PyTorch's formula: the sums of g_j exp(-z_j) from the far end, in log space, for the positive and the
        # negative gradients apart (a log of a negative number does not exist)
        d = dim_index(ctx.dim, x.dim())
        lowest = wrap(np.array(np.finfo(grad._data.dtype).min, grad._data.dtype))
        log_abs = grad.abs().log()
        positive = Where.apply(grad._data > 0, log_abs, lowest)
        negative = Where.apply(grad._data < 0, log_abs, lowest)

        def from_the_end(t):
            return _flip(Logcumsumexp.apply(_flip(t, d), d), d)

        return (from_the_end(positive - z) + x).exp() - (from_the_end(negative - z) + x).exp(), None

    @staticmethod
    def jvp(ctx, tx, _tdim):
        """PyTorch's logcumsumexp_jvp: running sums of t * exp(x - max), over the running sums of exp(x - max)."""
        x = ctx.primals[0]
        if x.dim() == 0 or x.numel() == 0:
            return tx
        d = dim_index(ctx.dim, x.dim())
        e = (x - x.amax(d, keepdim=True)).exp()
        return (tx * e).cumsum(d) / e.cumsum(d)


def _cumprod_backward_at_zeros(grad, x, d):
    """PyTorch's O(n**2) gradient of cumprod, right at zeros: for each k, dz_j/dx_k is the product of x_1..x_j
    without x_k, which is (x_1 ... x_k-1) times a running product from x_k+1 on."""
    n = x.shape[d]
    ones = _ones_along(x, d)
    parts = []
    for k in range(n):
        if k == 0:
            omitted = Cat.apply(d, ones, Cumprod.apply(_narrow(x, d, 1, n - 1), d))
        else:
            until = ProdDim.apply(_narrow(x, d, 0, k), d, True)
            if k == n - 1:
                omitted = until
            else:
                omitted = Cat.apply(d, until, until * Cumprod.apply(_narrow(x, d, k + 1, n - k - 1), d))
        parts.append((_narrow(grad, d, k, n - k) * omitted).sum(d))
    return Stack.apply(d, *parts)


def _reversed_cumsum(t, d):
    """Running totals from the far end along `d` (torch's reversed_cumsum): flip, cumsum, flip back."""
    return _flip(Cumsum.apply(_flip(t, d), d), d)


def _narrow(t, d, start, length):
    """t[start:start + length] along dim `d`, differentiably (a view, as torch's narrow)."""
    return Slice.apply(t, d, slice(start, start + length))


def _flip(t, d):
    """t reversed along dim `d`, differentiably (an index with n-1, ..., 0)."""
    return Index.apply(t, (slice(None),) * d + (np.arange(t.shape[d] - 1, -1, -1),))


def _ones_along(x, d):
    """Ones shaped like x but of size 1 along `d`: the empty product that starts an exclusive running product."""
    shape = list(x.shape)
    shape[d] = 1
    return wrap(np.ones(shape, x._data.dtype))
