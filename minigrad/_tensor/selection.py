"""The methods of `Tensor` that pick or count elements: median and nanmedian (the lower median, with its index
along a dim), msort, unique and unique_consecutive, count_nonzero, argwhere, masked_select, bincount.

The ops are in minigrad/ops/median.py, unique.py and masked.py; `torch.median(x)` and the module-level
spellings, with `torch.isin`, `searchsorted` and `bucketize`, are in selection_functions.py.
"""
import numpy as np

from ..compat.batched import like, refuse_dynamic_shape
from ..core.forward_ad import zero
from ..core.function import Function
from ..core.grad_mode import _State
from ..core.tensor import TensorBase
from ..ops import masked, median as _median, unique as _unique
from ..ops.reduction import _axes
from .integer import _result
from .pointwise import _tensor_arg
from ..return_types import make as _named
from .reductions import _MISSING, _checked_dim


class TensorSelection:
    """Methods of `Tensor`: medians, distinct elements, counts and masked selection."""

    def median(self, dim=_MISSING, keepdim=False):
        """The lower median (of rank (n - 1) // 2: no averaging) of all elements, or (values, indices) along
        `dim`; nan if there is a nan."""
        if dim is _MISSING:
            if keepdim:
                _checked_dim("median", dim)
            return _median.MedianAll.apply(self)
        return _named("median", *_median.MedianDim.apply(self, _checked_dim("median", dim), keepdim))

    def nanmedian(self, dim=_MISSING, keepdim=False):
        """The lower median of the elements that are not nan (nan if all are), or (values, indices) along `dim`."""
        if dim is _MISSING:
            if keepdim:
                _checked_dim("nanmedian", dim)
            return _median.NanmedianAll.apply(self)
        return _named("nanmedian", *_median.NanmedianDim.apply(self, _checked_dim("nanmedian", dim), keepdim))

    def kthvalue(self, k, dim=-1, keepdim=False):
        """(values, indices): the k-th smallest element along `dim` (k from 1; nan counts as the largest), and
        where it is (among ties, the one ATen's quickselect lands on)."""
        return _named("kthvalue", *_median.Kthvalue.apply(self, k, dim, keepdim))

    def mode(self, dim=-1, keepdim=False):
        """(values, indices): the most frequent element along `dim` (the smallest of equally frequent ones), and
        its last position."""
        return _named("mode", *_median.Mode.apply(self, dim, keepdim))

    def unique(self, sorted=True, return_inverse=False, return_counts=False, dim=None):
        """The distinct elements in sorted order (or the distinct slices along `dim`); with `return_inverse`, also
        where each element went, with `return_counts` how often each value came."""
        refuse_dynamic_shape(self, "aten::_unique2")
        node = UniqueNode if dim is None else UniqueDimNode
        return _unique_result(self, node, _unique.unique(self._data, dim), return_inverse, return_counts)

    def unique_consecutive(self, return_inverse=False, return_counts=False, dim=None):
        """Each run of equal consecutive elements (or slices along `dim`) once, in order."""
        refuse_dynamic_shape(self, "aten::unique_consecutive")
        arrays = _unique.unique_consecutive(self._data, dim)
        return _unique_result(self, UniqueConsecutiveNode, arrays, return_inverse, return_counts)

    def msort(self):
        """The values sorted along dim 0 (`sort(dim=0).values`)."""
        return self.sort(dim=0).values

    def count_nonzero(self, dim=None):
        """How many elements are not zero (nan counts), over all elements or along `dim` (an int or a tuple)."""
        a = self._data
        axes = None if dim is None else _axes(dim, a.ndim)
        return like(TensorBase._make(np.asarray(np.count_nonzero(a, axis=axes), np.int64)), self)

    def argwhere(self):
        """The indices of the nonzero elements, one row per element: `nonzero()`."""
        a = self._data
        refuse_dynamic_shape(self, "aten::argwhere")
        return TensorBase._make(np.argwhere(a).astype(np.int64))

    def masked_select(self, mask):
        """The elements where `mask` (a bool tensor, broadcast with self) is True, as a 1-d tensor."""
        _tensor_arg(mask, "masked_select", "mask", 1)
        refuse_dynamic_shape(self, "aten::masked_select")
        return masked.MaskedSelect.apply(self, mask._data)

    def bincount(self, weights=None, minlength=0):
        """How often each value 0, 1, ... occurs in this 1-d tensor of non-negative integers (or the sum of
        `weights` at its places), at least `minlength` counts long."""
        a = self._data
        if a.dtype.kind not in "iu":
            raise NotImplementedError(f"\"bincount_cpu\" not implemented for '{self.dtype._scalar_name}'")
        if minlength < 0:
            raise RuntimeError("minlength should be >= 0")
        if a.ndim != 1 or (a.size and a.min() < 0):
            raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
        if weights is None:
            return like(TensorBase._make(np.bincount(a, minlength=minlength).astype(np.int64)), self)
        w = weights._data
        if w.ndim != 1 or w.shape[0] != a.shape[0]:
            raise RuntimeError("weights should be 1-d and have the same length as input")
        out_dtype = w.dtype if w.dtype.kind == "f" else np.float64
        counts = np.bincount(a, weights=w.astype(np.float64), minlength=minlength).astype(out_dtype)
        return _result(counts, "aten::bincount", self, weights)


def _unique_result(t, node, arrays, return_inverse, return_counts):
    values, inverse, counts = (TensorBase._make(a) for a in arrays)
    if t._requires_grad and _State.enabled:
        values = node.apply(arrays[0], t)    # a node over t alone, whose backward is PyTorch's error
    values = like(values, t)
    if not (return_inverse or return_counts):
        return values
    return (values,) + ((inverse,) if return_inverse else ()) + ((counts,) if return_counts else ())


class UniqueNode(Function):
    """The node of `unique`'s values: PyTorch defines no derivative, so its backward is PyTorch's error (like
    `integer.NotImplementedNode`, but with the names of PyTorch's node and ATen op)."""
    node_name, aten_name = "Unique2Backward0", "_unique2"

    @staticmethod
    def forward(values, x):
        return TensorBase._make(values)

    @staticmethod
    def setup_context(ctx, inputs, output):
        pass

    @staticmethod
    def backward(ctx, grad):
        raise NotImplementedError(f"the derivative for '{ctx._forward_cls.aten_name}' is not implemented.")

    jvp = zero


class UniqueDimNode(UniqueNode):
    node_name, aten_name = "UniqueDimBackward0", "unique_dim"


class UniqueConsecutiveNode(UniqueNode):
    node_name, aten_name = "UniqueConsecutiveBackward0", "unique_consecutive"
