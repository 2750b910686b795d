"""Module-level spellings of the methods in selection.py (`torch.median(x)`, `torch.unique(x)`, ...), and the
searches that have no method: `torch.isin`, `torch.searchsorted`, `torch.bucketize`.

The searches are ATen's binary search, vectorized: `searchsorted` finds, for each value, the first place in a
sorted sequence where the value could go (`right=True`: the last), and a nan in the sequence counts as smaller
than everything, as ATen's `!(mid >= value)` test makes it.
"""
import numpy as np

from ..compat.batched import like
from ..core.dtype import int32, int64, result_type
from ..core.tensor import TensorBase
from ..ops._common import as_operand, is_number
from .alias_functions import invalid_combination, method_function
from .pointwise import _tensor_arg

__all__ = ["median", "nanmedian", "msort", "unique", "unique_consecutive", "count_nonzero", "argwhere", "masked_select",
           "bincount", "isin", "searchsorted", "bucketize", "kthvalue", "mode", "aminmax", "nansum", "nanmean"]


median, nanmedian, msort, count_nonzero, argwhere, bincount = (
    method_function(n) for n in ("median", "nanmedian", "msort", "count_nonzero", "argwhere", "bincount"))
kthvalue, mode, aminmax, nansum, nanmean = (
    method_function(n) for n in ("kthvalue", "mode", "aminmax", "nansum", "nanmean"))
unique = method_function("unique", doc="The distinct elements of `input` in sorted order (see `Tensor.unique`). "
                                       "Mirrors `torch.unique`.")
unique_consecutive = method_function("unique_consecutive", doc="Each run of equal consecutive elements once. "
                                                               "Mirrors `torch.unique_consecutive`.")


def masked_select(input, mask):
    """The elements of `input` where `mask` is True, as a 1-d tensor. Mirrors `torch.masked_select`."""
    return _tensor_arg(input, "masked_select", "input", 1).masked_select(_tensor_arg(mask, "masked_select", "mask", 2))


def isin(elements, test_elements, *, assume_unique=False, invert=False):
    """True where an element of `elements` equals one of `test_elements` (either may be a number; nan equals
    nothing). Mirrors `torch.isin`."""
    if not isinstance(elements, TensorBase) and not isinstance(test_elements, TensorBase) or not all(
            isinstance(v, TensorBase) or is_number(v) for v in (elements, test_elements)):
        tail = "*, bool assume_unique = False, bool invert = False, Tensor out = None)"
        raise invalid_combination("isin", (elements, test_elements), (
            f"(Tensor elements, Tensor test_elements, {tail}", f"(Number element, Tensor test_elements, {tail}",
            f"(Tensor elements, Number test_element, {tail}"))
    reference = elements if isinstance(elements, TensorBase) else test_elements
    x, y = as_operand(elements, reference), as_operand(test_elements, reference)
    if np.bool_ in (x._data.dtype, y._data.dtype):
        raise RuntimeError("Unsupported input type encountered for isin(): Bool")
    a, b = _promoted(x, y)
    found = np.isin(a, b, invert=invert)
    tensors = [t for t in (elements, test_elements) if isinstance(t, TensorBase)]
    return like(TensorBase._make(np.asarray(found)), *tensors)


def searchsorted(sorted_sequence, input, *, out_int32=False, right=False, side=None, sorter=None):
    """For each value of `input`, the index where it would go in `sorted_sequence` to keep it sorted: the first
    such place, or with `right=True` (side="right") the last. A sequence of n dims searches its last dim, row by
    row against `input`'s rows. Mirrors `torch.searchsorted`."""
    if side is not None:
        if side not in ("left", "right"):
            raise RuntimeError(f"torch.searchsorted(): side can only be 'left' or 'right' but got {side}")
        if right and side == "left":
            raise RuntimeError("torch.searchsorted(): side and right can't be set to opposites, got side of left while "
                               "right was True")
        right = side == "right"
    seq = _tensor_arg(sorted_sequence, "searchsorted", "sorted_sequence", 1)
    values = as_operand(input, seq) if is_number(input) else input
    if seq.dim() != 1 and tuple(seq.shape[:-1]) != tuple(values.shape[:-1]):
        raise RuntimeError("torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 dimensions "
                           "of boundaries tensor and input value tensor must match, but we got boundaries tensor "
                           f"{list(seq.shape)} and input value tensor {list(values.shape)}")
    s, v = _promoted(seq, values)
    if sorter is not None:
        s = np.take_along_axis(s, sorter._data, axis=-1)
    return _bounds(s, v, right, out_int32, values)


def bucketize(input, boundaries, *, out_int32=False, right=False):
    """For each value of `input`, the index of the bucket of the 1-d sorted `boundaries` it falls in (see
    `searchsorted`). Mirrors `torch.bucketize`."""
    _tensor_arg(boundaries, "bucketize", "boundaries", 2)
    if boundaries.dim() != 1:
        raise RuntimeError(f"boundaries tensor must be 1 dimension, but got dim({boundaries.dim()})")
    values = as_operand(input, boundaries) if is_number(input) else input
    s, v = _promoted(boundaries, values)
    return _bounds(s, v, right, out_int32, values)


def _promoted(x, y):
    """The arrays of x and y in the dtype an op on both would compute in (no broadcasting: their shapes differ)."""
    rank = [0 if t._wrapped_number else 2 if t.dim() else 1 for t in (x, y)]
    common = result_type((x.dtype, rank[0]), (y.dtype, rank[1])).np_type
    return x._data.astype(common, copy=False), y._data.astype(common, copy=False)


def _bounds(seq, values, right, out_int32, like_tensor):
    """ATen's binary search for every value at once: rows of `seq` (its last dim) against rows of `values`."""
    n = seq.shape[-1]
    rows = seq.reshape(-1, n) if seq.ndim > 1 else seq.reshape(1, n)
    v = values.reshape(len(rows), -1) if seq.ndim > 1 else values.reshape(1, -1)
    low, high = np.zeros(v.shape, np.int64), np.full(v.shape, n, np.int64)
    with np.errstate(invalid="ignore"):
        while (low < high).any():
            active = low < high
            mid = (low + high) // 2
            at_mid = np.take_along_axis(rows, np.minimum(mid, n - 1), axis=1)
            go_right = ~(at_mid > v) if right else ~(at_mid >= v)
            low = np.where(active & go_right, mid + 1, low)
            high = np.where(active & ~go_right, mid, high)
    out = low.reshape(values.shape).astype((int32 if out_int32 else int64).np_type)
    return like(TensorBase._make(out), like_tensor)
