"""`unique`'s arrays: the distinct elements (or slices along a dim) in sorted order, where each element went
(inverse) and how many there were (counts); and unique_consecutive's runs.

As PyTorch's CPU kernels: always sorted (`sorted=False` too), nan is distinct from every value and from itself,
-0.0 and 0.0 are one value (the first in a stable sort stands for it), and slices compare lexicographically.
PyTorch defines no derivative for them: their nodes, whose backward is an error, are in _tensor/selection.py.
"""
import math

import numpy as np

from ._common import dim_index


def _groups(sorted_rows):
    """Where each group of equal consecutive rows starts (nan never equals nan, so each nan is a group)."""
    starts = np.ones(len(sorted_rows), bool)
    starts[1:] = (sorted_rows[1:] != sorted_rows[:-1]).any(axis=1)
    return starts


def _counts(starts):
    return np.diff(np.append(np.flatnonzero(starts), len(starts))).astype(np.int64)


def _rows(a, dim):
    """`a` as a 2-d array of the slices along `dim` (all elements, one per row, for dim None)."""
    moved = a.reshape(-1, 1) if dim is None else np.moveaxis(a, dim, 0)
    return moved, moved.reshape(moved.shape[0], math.prod(moved.shape[1:]))


def unique(a, dim=None):
    """(values, inverse, counts) of torch.unique(a) or torch.unique(a, dim=dim), as numpy arrays."""
    if dim is not None:
        dim = dim_index(dim, a.ndim)
        if a.size == 0 and a.shape[dim] != 0:
            raise RuntimeError("There are 0 sized dimensions, and they aren't selected, so unique cannot be applied")
    moved, rows = _rows(a, dim)
    order = np.lexsort(rows.T[::-1]) if rows.shape[1] else np.arange(len(rows))
    starts = _groups(rows[order])
    inverse = np.empty(len(rows), np.int64)
    inverse[order] = np.cumsum(starts) - 1
    values = moved[order[starts]]
    if dim is None:
        return values.reshape(-1), inverse.reshape(a.shape), _counts(starts)
    return np.ascontiguousarray(np.moveaxis(values, 0, dim)), inverse, _counts(starts)


def unique_consecutive(a, dim=None):
    """(values, inverse, counts) of torch.unique_consecutive: each run of equal neighbours once, in order."""
    dim = None if dim is None else dim_index(dim, a.ndim)
    moved, rows = _rows(a, dim)
    starts = _groups(rows)
    inverse = (np.cumsum(starts) - 1).astype(np.int64)
    values = moved[starts]
    if dim is None:
        return values.reshape(-1), inverse.reshape(a.shape), _counts(starts)
    return np.ascontiguousarray(np.moveaxis(values, 0, dim)), inverse, _counts(starts)
