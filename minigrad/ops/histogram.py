"""Counting values into bins: histc (the counts) and histogram (the counts and the bin edges). No gradient.

As in ATen (aten/src/ATen/native/cpu/HistogramKernel.cpp): equal-width bins between two edges from `linspace`,
values outside them not counted, the last bin closed on the right. `histc` finds a value's bin by linear
interpolation alone; `histogram` corrects that guess against the edges (the same bins as a binary search), and
also takes explicit edges and weights.
"""
import numpy as np

from ..core.dtype import scalar_name


def _floating(a, kernel):
    if a.dtype.kind != "f":
        raise NotImplementedError(f'"{kernel}" not implemented for \'{scalar_name(a)}\'')


def _outer_edges(a, lo, hi, widen):
    """The first and last edge: lo and hi, or the data's min and max when they are equal; an empty range is
    widened by `widen` on each side."""
    if lo == hi and a.size:
        lo, hi = float(a.min()), float(a.max())
    if lo == hi:
        lo, hi = lo - widen, hi + widen
    return lo, hi


def histc(a, bins, lo, hi):
    """The counts of `a`'s values in `bins` equal bins from lo to hi (both 0: the data's range)."""
    _floating(a, "histogram_cpu")
    if bins <= 0:
        raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {bins} for dimension 0")
    if lo > hi:
        raise RuntimeError("torch.histc: max must be larger than min")
    lo, hi = _outer_edges(a, lo, hi, 1)
    edges = np.linspace(lo, hi, bins + 1).astype(a.dtype)
    values = a.reshape(-1)
    values = values[(values >= edges[0]) & (values <= edges[-1])]
    with np.errstate(invalid="ignore"):
        pos = ((values - edges[0]) * a.dtype.type(bins) / (edges[-1] - edges[0])).astype(np.int64)
    pos[pos == bins] = bins - 1
    return np.bincount(pos, minlength=bins).astype(a.dtype)


def histogram(a, bins, range_=None, weight=None, density=False):
    """(counts, edges): `bins` equal bins over `range_` (default: the data's range), or the edges given as an
    array; each value counts 1, or its `weight`; `density` divides by the total times the bin width."""
    _floating(a, "histogramdd")
    if isinstance(bins, np.ndarray):
        edges = bins.astype(a.dtype, copy=False)
    else:
        if bins <= 0:
            raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {bins} for dimension 0")
        lo, hi = range_ if range_ is not None else (0.0, 0.0)
        if lo > hi:
            raise RuntimeError(f"torch.histogramdd: min should not exceed max, but got min {lo:g} max {hi:g} for "
                               "dimension 0")
        lo, hi = _outer_edges(a, lo, hi, 0.5)
        edges = np.linspace(lo, hi, bins + 1).astype(a.dtype)
    n = edges.size - 1
    values = a.reshape(-1)
    inside = (values >= edges[0]) & (values <= edges[-1])
    pos = np.minimum(np.searchsorted(edges, values[inside], side="right") - 1, n - 1)
    w = None if weight is None else weight.reshape(-1)[inside].astype(np.float64)
    counts = np.bincount(pos, weights=w, minlength=n).astype(a.dtype)
    if density:
        counts = counts / (counts.sum() * np.diff(edges))
    return counts.astype(a.dtype), edges
