"""Products and running totals: prod (of all elements or along a dim), cumsum and cumprod.

Integers and bools give int64, as in PyTorch; `dtype=` casts the input first (and the engine casts the gradient
back, as PyTorch's does). The backward of a product divides by the input, which fails at zeros: there PyTorch
switches to products of the other elements, and so does minigrad, with PyTorch's formulas, in Tensor ops (so
that they differentiate again).
"""
import numpy as np

from ..core.forward_ad import from_backward, linear
from ..core.function import Function
from ._common import dim_index, quiet, wrap
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
