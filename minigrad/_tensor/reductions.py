"""The reductions of `Tensor`: sum, mean, max/min, argmax, sort, norm, var/std, prod, cumsum, logsumexp, topk,
all/any. Each applies a built-in `Function` from `minigrad/ops/` (reduction.py, statistics.py, cumulative.py).
"""
import numpy as np

from ..compat.batched import like
from ..core.dtype import cpp_name
from ..core.tensor import TensorBase
from ..ops import cumulative, histogram as _histogram, norms, reduction, softmax as _softmax, statistics
from ..ops._common import as_operand as _as_tensor_operand
from ..ops._common import dim_index
from ..ops.reduction import _axes
from .integer import _result
from ..return_types import make as _named


_MISSING = object()


class TensorReductions:
    """Methods of `Tensor`: sums and means, extremes and sorting, norms, statistics, products, running totals."""

    # ---- reductions ----------------------------------------------------------------------------------------
    def sum(self, dim=None, keepdim=False, *, keepdims=None):
        if keepdims is not None:        # numpy's spelling, which PyTorch accepts too
            keepdim = keepdims
        if dim is None and not keepdim:
            return reduction.Sum.apply(self)
        # dim=None with keepdim=True keeps every dim, at size 1
        return reduction.SumDim.apply(self, tuple(range(self.dim())) if dim is None else dim, keepdim)

    def mean(self, dim=None, keepdim=False, *, keepdims=None):
        if keepdims is not None:
            keepdim = keepdims
        if dim is None and not keepdim:
            return reduction.Mean.apply(self)
        return reduction.MeanDim.apply(self, tuple(range(self.dim())) if dim is None else dim, keepdim)

    def max(self, dim=None, keepdim=False):
        if dim is None:
            return reduction.MaxAll.apply(self)
        return _named("max", *reduction.MaxDim.apply(self, dim, keepdim))

    def min(self, dim=None, keepdim=False):
        if dim is None:
            return reduction.MinAll.apply(self)
        return _named("min", *reduction.MinDim.apply(self, dim, keepdim))

    def argmax(self, dim=None, keepdim=False):
        """Return the index of the largest value (of the flattened tensor, or along `dim`), as int64."""
        return _arg(self, np.argmax, dim, keepdim)

    def argmin(self, dim=None, keepdim=False):
        """Return the index of the smallest value (of the flattened tensor, or along `dim`), as int64."""
        return _arg(self, np.argmin, dim, keepdim)

    def sort(self, dim=-1, descending=False, *, stable=False):
        """Return (values, indices) sorted along `dim`; equal values keep their order (stable or not)."""
        return _named("sort", *reduction.Sort.apply(self, dim, descending))

    def argsort(self, dim=-1, descending=False, *, stable=False):
        """Return the int64 indices that sort along `dim` (sort's indices, without a node)."""
        return like(reduction.Sort.forward(self, dim, descending)[1], self)

    def norm(self, p="fro", dim=None, keepdim=False):
        return reduction.Norm.apply(self, 2 if p == "fro" else p, dim, keepdim)


    # ---- spread: var and std ------------------------------------------------------------------------------
    def var(self, dim=None, unbiased=None, keepdim=False, *, correction=None):
        """Return the variance over `dim` (all elements by default): the mean squared deviation, divided by
        n - correction. correction=1 (the default, or unbiased=True) is Bessel's; 0 (unbiased=False) the plain
        mean."""
        return statistics.Var.apply(self, *_var_args("var", dim, unbiased, keepdim, correction))

    def std(self, dim=None, unbiased=None, keepdim=False, *, correction=None):
        """Return the standard deviation, sqrt(var), with `var`'s arguments."""
        return statistics.Std.apply(self, *_var_args("std", dim, unbiased, keepdim, correction))

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

    def cummax(self, dim):
        """Return (values, indices): the running maximum along `dim` and where each came from."""
        return _named("cummax", *cumulative.Cummax.apply(self, dim))

    def cummin(self, dim):
        """Return (values, indices): the running minimum along `dim` and where each came from."""
        return _named("cummin", *cumulative.Cummin.apply(self, dim))

    def logcumsumexp(self, dim):
        """Return the running log(sum(exp(x))) along `dim`, computed so that exp cannot overflow."""
        return cumulative.Logcumsumexp.apply(self, dim)

    # ---- smooth and exact maxima -------------------------------------------------------------------------
    def logsumexp(self, dim, keepdim=False):
        """Return log(sum(exp(x))) over `dim`, computed so that exp cannot overflow."""
        if dim is None:
            raise TypeError("logsumexp(): argument 'dim' (position 1) must be tuple of ints, not NoneType")
        return statistics.Logsumexp.apply(self, dim, keepdim)

    def amax(self, dim=(), keepdim=False):
        """Return the largest element over `dim` (all dims by default); unlike max(dim), ties share the gradient."""
        return statistics.Amax.apply(self, _dims(dim), keepdim)

    def amin(self, dim=(), keepdim=False):
        """Return the smallest element over `dim` (all dims by default); ties share the gradient."""
        return statistics.Amin.apply(self, _dims(dim), keepdim)

    def dist(self, other, p=2):
        """The p-norm of self - other (broadcast): their distance."""
        return norms.Dist.apply(self, _as_tensor_operand(other, self), float(p))

    def renorm(self, p, dim, maxnorm):
        """Each slice along `dim` whose p-norm exceeds `maxnorm`, scaled down to it (others unchanged)."""
        return norms.Renorm.apply(self, p, norms.check_renorm(self, p, dim, maxnorm), maxnorm)

    def renorm_(self, p, dim, maxnorm):
        return self._inplace(norms.Renorm, p, norms.check_renorm(self, p, dim, maxnorm), maxnorm)

    def aminmax(self, *, dim=None, keepdim=False):
        """(min, max) over `dim` (all elements by default), one node for both; ties share each gradient."""
        return _named("aminmax", *statistics.Aminmax.apply(self, dim, keepdim))

    def nansum(self, dim=None, keepdim=False, *, dtype=None):
        """The sum over `dim` (all elements by default), counting nans as 0."""
        x = self if dtype is None else self.to(dtype)
        return reduction.Nansum.apply(x, () if dim is None else dim, keepdim)

    def nanmean(self, dim=None, keepdim=False, *, dtype=None):
        """The mean of the elements that are not nan, over `dim`: PyTorch's nansum / (count of non-nans)."""
        if not self.dtype.is_floating_point:
            raise RuntimeError("nanmean(): expected input to have floating point or complex dtype but got "
                               f"{self.dtype._scalar_name}")
        count = self.isnan().logical_not_().sum(dim, keepdim) if dim is not None else (
            self.isnan().logical_not_().sum())
        return self.nansum(dim, keepdim, dtype=dtype).div(count)

    def topk(self, k, dim=-1, largest=True, sorted=True):
        """Return (values, indices) of the k largest elements along `dim` (the smallest if largest=False)."""
        return _named("topk", *statistics.Topk.apply(self, k, dim, largest, sorted))

    # ---- counts in bins: never recorded ---------------------------------------------------------------------
    def histc(self, bins=100, min=0, max=0):
        """Return the counts of the values in `bins` equal bins from min to max (both 0: the data's range)."""
        return like(TensorBase._make(_histogram.histc(self._data, bins, min, max)), self)

    def histogram(self, bins, *, range=None, weight=None, density=False):
        """Return (hist, bin_edges): counts (or weights, or a density) in `bins` equal bins or between given
        edges. Mirrors `torch.histogram`."""
        edges = bins._data if isinstance(bins, TensorBase) else bins
        hist, edges = _histogram.histogram(self._data, edges, range, None if weight is None else weight._data,
                                           density)
        # as in PyTorch, a float input that requires grad gets a node whose backward raises
        return _named("histogram", _result(hist, "aten::histogram", self), _result(edges, "aten::histogram", self))

    # ---- logic: never recorded -----------------------------------------------------------------------------
    def all(self, dim=None, keepdim=False):
        """Return True where every element (over `dim`, or all of them) is nonzero, as a bool tensor."""
        return _logical(self, np.all, dim, keepdim)

    def any(self, dim=None, keepdim=False):
        """Return True where some element (over `dim`, or any at all) is nonzero, as a bool tensor."""
        return _logical(self, np.any, dim, keepdim)

    # ---- softmax along a dim (unlike F.softmax, these require `dim`, and PyTorch's errors word it so) -------
    def softmax(self, dim=_MISSING, dtype=None):
        """exp(x) / sum(exp(x)) along `dim`. Mirrors `torch.softmax` and `Tensor.softmax`.

        Example:
            >>> torch.tensor([1.0, 1.0]).softmax(0)
            tensor([0.5000, 0.5000])
        """
        return _softmax.softmax(self, _checked_dim("softmax", dim), dtype)

    def log_softmax(self, dim=_MISSING, dtype=None):
        """log(softmax(x)) along `dim`, computed stably. Mirrors `torch.log_softmax` and `Tensor.log_softmax`."""
        return _softmax.log_softmax(self, _checked_dim("log_softmax", dim), dtype)



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


def _check_inplace_dtype(t, dtype):
    """cumsum_/cumprod_ write into t, so a `dtype=` other than t's is refused, with PyTorch's C++ type names."""
    if dtype is not None and dtype is not t.dtype:
        raise RuntimeError(f"Bad in-place call: input tensor dtype {cpp_name(t._data.dtype)} and output "
                           f"tensor dtype {cpp_name(dtype)} should match")


def _logical(t, reduce, dim, keepdim):
    """all/any: bool results (uint8 for uint8 input, as in PyTorch); dim=None reduces everything, an empty tuple
    nothing."""
    a = t._data
    out = np.asarray(reduce(a, axis=None if dim is None else _axes(dim, a.ndim), keepdims=keepdim))
    return like(TensorBase._make(out.astype(np.uint8) if a.dtype == np.uint8 else out), t)


def _arg(t, find, dim, keepdim):
    """argmax/argmin: int64 on every platform (numpy's own index type is int32 on Windows and 32-bit builds)."""
    a = t._data
    if dim is None:
        idx = find(a)
        out = np.full((1,) * a.ndim, idx, np.int64) if keepdim else np.asarray(idx, np.int64)
        return like(TensorBase._make(out), t)
    dim = dim_index(dim, a.ndim)
    idx = find(a, axis=dim) if a.ndim else np.zeros((), np.int64)
    idx = idx.astype(np.int64, copy=False)
    return like(TensorBase._make(np.expand_dims(idx, dim) if keepdim and a.ndim else idx), t)


def _checked_dim(name, dim):
    if dim is _MISSING:
        raise TypeError(f'{name}() missing 1 required positional arguments: "dim"')
    if type(dim) is not int:
        raise TypeError(f"{name}(): argument 'dim' must be int, not {type(dim).__name__}")
    return dim
