"""The median and nanmedian: of all elements, or along a dim with the index of the element picked.

PyTorch's median is the lower median, the element of rank (n - 1) // 2 in sorted order (no averaging of the two
middle elements); a nan makes the median nan (the first nan along a dim), while nanmedian leaves nans out. Along
a dim, ATen picks by `std::nth_element` with ties broken by position, so the index is that of the element of that
rank in a stable sort; only a row of nans alone leaves the choice to libstdc++'s introselect, replayed below.
The gradients are max's and min's: shared among ties for all elements, to the picked index along a dim.
"""
import numpy as np

from ..core.dtype import scalar_name
from ._common import dim_index, wrap
from .reduction import MaxAll, MaxDim


def _check_dtype(a, kernel):
    if a.dtype == np.bool_:
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{scalar_name(a)}'")


def _lower_median(values, ignore_nan):
    """The lower median of a flat array: nan if it holds one (unless ignored), or if nothing is left."""
    if ignore_nan and values.dtype.kind == "f":
        values = values[~np.isnan(values)]
    if values.size == 0:
        return np.array(np.nan, values.dtype)
    if values.dtype.kind == "f" and np.isnan(values).any():
        return np.array(np.nan, values.dtype)
    return np.partition(values, (values.size - 1) // 2)[(values.size - 1) // 2]


class MedianAll(MaxAll):
    """z = the lower median of all elements;  dz/dx splits the gradient evenly among the elements equal to it"""
    node_name = "MedianBackward0"
    ignore_nan = False

    @classmethod
    def forward(cls, x):
        a = x._data
        _check_dtype(a, "median_cpu")
        return wrap(_lower_median(a.reshape(-1), cls.ignore_nan))


class NanmedianAll(MedianAll):
    """z = the lower median of the elements that are not nan;  dz/dx as for the median"""
    node_name = "NanmedianBackward0"
    ignore_nan = True


class MedianDim(MaxDim):
    """values, indices = the lower median along `dim` and where it is;  the gradient goes to that position"""
    node_name = "MedianBackward1"
    ignore_nan = False

    @classmethod
    def forward(cls, x, dim, keepdim=False):
        a = x._data
        _check_dtype(a, "median_out")
        d = dim_index(dim, a.ndim)
        if a.ndim == 0:
            return wrap(a.copy()), wrap(np.zeros((), np.int64))
        if a.shape[d] == 0:
            raise IndexError(f"median(): Expected reduction dim {d} to have non-zero size.")
        rows = np.moveaxis(a, d, -1).reshape(-1, a.shape[d])
        index = _median_indices(rows, cls.ignore_nan).reshape(np.moveaxis(a, d, -1).shape[:-1])
        index = np.expand_dims(index, d)
        values = np.take_along_axis(a, index, axis=d)
        if not keepdim:
            values, index = values.squeeze(d), index.squeeze(d)
        return wrap(values), wrap(index)


class NanmedianDim(MedianDim):
    """values, indices = the lower median along `dim` of the elements that are not nan, and where it is"""
    node_name = "NanmedianBackward1"
    ignore_nan = True


def _median_indices(rows, ignore_nan):
    """For each row, the index ATen's median_with_indices_impl picks."""
    n = rows.shape[1]
    order = np.argsort(rows, axis=1, kind="stable")      # nans last, ties by position: ATen's comparator
    nans = np.isnan(rows) if rows.dtype.kind == "f" else np.zeros(rows.shape, bool)
    counts = nans.sum(axis=1)
    rank = (n - counts - 1) // 2 if ignore_nan else np.full(len(rows), (n - 1) // 2)
    index = np.take_along_axis(order, rank.clip(0)[:, None], axis=1)[:, 0]
    if not ignore_nan:
        index = np.where(counts > 0, nans.argmax(axis=1), index)        # the first nan
    else:
        index = np.where(counts == n, _nth_element_first(n), index)     # a row of nans alone
    return index.astype(np.int64)


def _nth_element_first(n):
    """The index that libstdc++'s `std::nth_element(first, first, last)` leaves first among n equivalent elements
    (each comparison false): its introselect's median-of-three swaps and unguarded partitions, replayed."""
    idx, first, last = list(range(n)), 0, n
    while last - first > 3:
        mid = first + (last - first) // 2
        idx[first], idx[mid] = idx[mid], idx[first]
        lo, hi = first + 1, last
        while True:
            hi -= 1
            if not lo < hi:
                break
            idx[lo], idx[hi] = idx[hi], idx[lo]
            lo += 1
        last = lo               # the cut is past nth (= first): keep selecting in the left part
    return idx[first]           # insertion sort moves nothing among equivalent elements


# ---- kthvalue and mode: also a value and where it is, picked as ATen picks ---------------------------------------
def _greater_or_nan(x, y):
    """ATen's order for selecting: nan above every number."""
    return (x != x and y == y) or x > y


def _quick_select(values, k):
    """The index of the k-th smallest (from 0) of a list, by ATen's quick_select_template (median-of-three pivot,
    Hoare partition): among ties this decides which index is picked, so it is replayed step by step."""
    arr, idx = list(values), list(range(len(values)))

    def swap(i, j):
        arr[i], arr[j] = arr[j], arr[i]
        idx[i], idx[j] = idx[j], idx[i]

    left, right = 0, len(arr) - 1
    while right > left:
        if right == left + 1:
            if _greater_or_nan(arr[left], arr[right]):
                swap(left, right)
            break
        swap(left + (right - left) // 2, left + 1)
        if _greater_or_nan(arr[left + 1], arr[right]):
            swap(left + 1, right)
        if _greater_or_nan(arr[left], arr[right]):
            swap(left, right)
        if _greater_or_nan(arr[left + 1], arr[left]):
            swap(left + 1, left)
        i, j, pivot = left + 1, right, arr[left]
        while True:
            i += 1
            while _greater_or_nan(pivot, arr[i]):
                i += 1
            j -= 1
            while _greater_or_nan(arr[j], pivot):
                j -= 1
            if j < i:
                break
            swap(i, j)
        swap(left, j)
        if j <= k:
            left = i
        if j >= k:
            right = j - 1
    return idx[k]


def _mode_index(row):
    """The index ATen's mode gives: of the most frequent value (the smallest among equally frequent ones), its last
    position."""
    values, counts = np.unique(row, return_counts=True)
    value = values[np.argmax(counts)]
    return int(np.flatnonzero(row == value)[-1])


class _PickAlongDim(MaxDim):
    """values, indices = the element that `pick(row)` indexes in each row along `dim`; the gradient goes there"""

    @classmethod
    def _pick_rows(cls, x, dim, keepdim, pick):
        a = x._data
        d = dim_index(dim, a.ndim)
        if a.ndim == 0:
            return wrap(a.copy()), wrap(np.zeros((), np.int64))
        moved = np.moveaxis(a, d, -1)
        rows = moved.reshape(-1, a.shape[d])
        index = np.array([pick(row) for row in rows], np.int64).reshape(moved.shape[:-1])
        index = np.expand_dims(index, d)
        values = np.take_along_axis(a, index, axis=d)
        if not keepdim:
            values, index = values.squeeze(d), index.squeeze(d)
        return wrap(values), wrap(index)


class Kthvalue(_PickAlongDim):
    """values, indices = the k-th smallest element along `dim` (nan counts as the largest) and where it is"""
    node_name = "KthvalueBackward0"

    @classmethod
    def forward(cls, x, k, dim=-1, keepdim=False):
        a = x._data
        d = dim_index(dim, a.ndim)
        size = a.shape[d] if a.ndim else 1
        if not 1 <= k <= size:
            raise RuntimeError(f"kthvalue(): selected number k out of range for dimension {d}")
        return cls._pick_rows(x, dim, keepdim, lambda row: _quick_select(row.tolist(), k - 1))

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, k, dim, keepdim = inputs
        MaxDim.setup_context(ctx, (x, dim, keepdim), output)

    @staticmethod
    def backward(ctx, grad, _grad_indices):
        return MaxDim.backward(ctx, grad, _grad_indices)[:1] + (None, None, None)


class Mode(_PickAlongDim):
    """values, indices = the most frequent element along `dim` (the smallest of equally frequent ones) and its
    last position"""
    node_name = "ModeBackward0"

    @classmethod
    def forward(cls, x, dim=-1, keepdim=False):
        _check_dtype(x._data, "mode_cpu")
        return cls._pick_rows(x, dim, keepdim, _mode_index)
