"""The reductions of `Tensor` beyond sum/mean/max/min: std, var, prod, cumsum, cumprod, logsumexp, amax, amin,
all, any and topk.

Each differentiable one applies a built-in `Function` from `minigrad/ops/` (reduce_more.py, cumulative.py);
`all` and `any` give bool tensors and, like comparisons, are never recorded.
"""
import numpy as np

from ._tensor import Tensor
from ._tensor_ops import _ReturnType
from .ops import cumulative, reduce_more
from .ops.reduction import _axes


class TensorMathReductions:
    """Methods of `Tensor`: statistics, products, running totals, and the k largest elements."""

    # ---- spread: var and std ------------------------------------------------------------------------------
    def var(self, dim=None, unbiased=None, keepdim=False, *, correction=None):
        """Return the variance over `dim` (all elements by default): the mean squared deviation, divided by
        n - correction. correction=1 (the default, or unbiased=True) is Bessel's; 0 (unbiased=False) the plain
        mean."""
        return reduce_more.Var.apply(self, *_var_args("var", dim, unbiased, keepdim, correction))

    def std(self, dim=None, unbiased=None, keepdim=False, *, correction=None):
        """Return the standard deviation, sqrt(var), with `var`'s arguments."""
        return reduce_more.Std.apply(self, *_var_args("std", dim, unbiased, keepdim, correction))

    # ---- products and running totals ---------------------------------------------------------------------
    def prod(self, dim=None, keepdim=False, *, dtype=None):
        """Return the product of all elements, or along `dim` (an int, as in PyTorch)."""
        if dim is None:
            return cumulative.Prod.apply(self, dtype)
        return cumulative.ProdDim.apply(self, dim, keepdim, dtype)

    def cumsum(self, dim, *, dtype=None):
        """Return the running totals along `dim`: z_k = x_1 + ... + x_k."""
        return cumulative.Cumsum.apply(self, dim, dtype)

    def cumprod(self, dim, *, dtype=None):
        """Return the running products along `dim`: z_k = x_1 * ... * x_k."""
        return cumulative.Cumprod.apply(self, dim, dtype)

    def cumsum_(self, dim, *, dtype=None):
        _check_inplace_dtype(self, dtype)
        return self._inplace(cumulative.Cumsum, dim, None)

    def cumprod_(self, dim, *, dtype=None):
        _check_inplace_dtype(self, dtype)
        return self._inplace(cumulative.Cumprod, dim, None)

    # ---- smooth and exact maxima -------------------------------------------------------------------------
    def logsumexp(self, dim, keepdim=False):
        """Return log(sum(exp(x))) over `dim`, computed so that exp cannot overflow."""
        if dim is None:
            raise TypeError("logsumexp(): argument 'dim' (position 1) must be tuple of ints, not NoneType")
        return reduce_more.Logsumexp.apply(self, dim, keepdim)

    def amax(self, dim=(), keepdim=False):
        """Return the largest element over `dim` (all dims by default); unlike max(dim), ties share the gradient."""
        return reduce_more.Amax.apply(self, _dims(dim), keepdim)

    def amin(self, dim=(), keepdim=False):
        """Return the smallest element over `dim` (all dims by default); ties share the gradient."""
        return reduce_more.Amin.apply(self, _dims(dim), keepdim)

    def topk(self, k, dim=-1, largest=True, sorted=True):
        """Return (values, indices) of the k largest elements along `dim` (the smallest if largest=False)."""
        return _ReturnType("topk", *reduce_more.Topk.apply(self, k, dim, largest, sorted))

    # ---- logic: never recorded -----------------------------------------------------------------------------
    def all(self, dim=None, keepdim=False):
        """Return True where every element (over `dim`, or all of them) is nonzero, as a bool tensor."""
        return _logical(self, np.all, dim, keepdim)

    def any(self, dim=None, keepdim=False):
        """Return True where some element (over `dim`, or any at all) is nonzero, as a bool tensor."""
        return _logical(self, np.any, dim, keepdim)


def _var_args(name, dim, unbiased, keepdim, correction):
    """(dim, correction, keepdim) from any of PyTorch's spellings: var(dim, unbiased, keepdim), var(unbiased),
    var(dim, correction=c, keepdim=k)."""
    if isinstance(dim, bool):               # x.var(False) is x.var(unbiased=False)
        dim, unbiased = None, dim
    if unbiased is not None and correction is not None:
        raise TypeError(f"{name}() received an invalid combination of arguments: unbiased and correction cannot "
                        "be given together")
    if correction is None and unbiased is not None:
        correction = 1 if unbiased else 0           # None stays None: torch's grad_fn._saved_correction shows it
    return (dim if dim is None or isinstance(dim, int) else tuple(dim)), correction, bool(keepdim)


def _dims(dim):
    """amax/amin's dim: an int or a tuple; None and [] mean every dim, as ()."""
    if dim is None:
        return ()
    return dim if isinstance(dim, int) else tuple(dim)


_CPP_NAMES = {"float32": "float", "float64": "double", "int64": "long int", "bool": "bool", "int32": "int",
              "int16": "short int", "int8": "signed char", "uint8": "unsigned char", "float16": "c10::Half"}


def _check_inplace_dtype(t, dtype):
    """cumsum_/cumprod_ write into t, so a `dtype=` other than t's is refused, with PyTorch's C++ type names."""
    if dtype is not None and dtype is not t.dtype:
        raise RuntimeError(f"Bad in-place call: input tensor dtype {_CPP_NAMES[str(t._data.dtype)]} and output "
                           f"tensor dtype {_CPP_NAMES[str(dtype.np_type)]} should match")


def _logical(t, reduce, dim, keepdim):
    """all/any: bool results (uint8 for uint8 input, as in PyTorch); dim=None reduces everything, an empty tuple
    nothing."""
    a = t._data
    out = np.asarray(reduce(a, axis=None if dim is None else _axes(dim, a.ndim), keepdims=keepdim))
    return Tensor._make(out.astype(np.uint8) if a.dtype == np.uint8 else out)
