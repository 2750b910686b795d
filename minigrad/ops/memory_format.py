"""How a tensor's elements are ordered in memory: `torch.strided` (the one layout minigrad has) and the memory
formats `contiguous_format` (row-major), `channels_last` (an image batch stored N, H, W, C), `channels_last_3d`
and `preserve_format` (a copy keeps its source's order).

The shape never changes with the format, only the strides: `x.contiguous(memory_format=torch.channels_last)` of
a (2, 3, 4, 5) tensor has strides (60, 1, 15, 3). numpy arrays carry strides too, so a format is a numpy copy in
another axis order, transposed back.
"""
import numpy as np


class layout:
    """How a tensor is stored; minigrad has dense tensors only, `torch.strided`. Mirrors `torch.layout`."""

    def __init__(self, name):
        self._name = name

    def __repr__(self):
        return f"torch.{self._name}"

    def __reduce__(self):
        return self._name       # pickles as the module attribute, as torch's layouts do


class memory_format:
    """The order of a dense tensor's elements in memory. Mirrors `torch.memory_format`."""

    def __init__(self, name, rank=None):
        self._name, self._rank = name, rank

    def __repr__(self):
        return f"torch.{self._name}"

    def __reduce__(self):
        return self._name


strided = layout("strided")
contiguous_format = memory_format("contiguous_format")
legacy_contiguous_format = contiguous_format     # PyTorch's older name; it prints as torch.contiguous_format
preserve_format = memory_format("preserve_format")
channels_last = memory_format("channels_last", 4)
channels_last_3d = memory_format("channels_last_3d", 5)

_PERMUTATION = {4: (0, 2, 3, 1), 5: (0, 2, 3, 4, 1)}      # N, C, *spatial stored as N, *spatial, C


def check(fmt):
    """Raise PyTorch's TypeError for a value that is not a memory format."""
    if not isinstance(fmt, memory_format):
        raise TypeError(f"memory_format must be torch.memory_format, not {type(fmt).__name__}")


def copy_in(a, fmt):
    """A copy of the array `a` whose strides follow `fmt`; preserve_format keeps a dense array's order (numpy's
    order 'K') and makes an expanded one (stride 0) row-major."""
    check(fmt)
    if fmt._rank is not None:
        if a.ndim != fmt._rank:
            raise RuntimeError(f"required rank {fmt._rank} tensor to use {fmt._name} format")
        order = _PERMUTATION[fmt._rank]
        return np.ascontiguousarray(a.transpose(order)).transpose(np.argsort(order))
    return a.copy(order="K" if fmt is preserve_format and 0 not in a.strides else "C")


def is_in(a, fmt):
    """Whether the array `a` is laid out as `fmt` says (dims of size 1 may have any stride, as in PyTorch)."""
    check(fmt)
    if fmt._rank is None:
        return bool(a.flags.c_contiguous)
    if a.ndim != fmt._rank:
        return False
    order = _PERMUTATION[fmt._rank]
    expected = np.empty(tuple(a.shape[i] for i in order), a.dtype).transpose(np.argsort(order)).strides
    return all(n == 1 or s == e for n, s, e in zip(a.shape, a.strides, expected))


def dim_order(a):
    """The dims of the array `a` from the outermost in memory to the innermost, by PyTorch's rule
    (torch/_prims_common: an insertion sort by stride in which dims of size 1 and stride 0 never move ahead)."""
    if a.ndim <= 1:
        return tuple(range(a.ndim))
    row_major, image = is_in(a, contiguous_format), a.ndim == 4 and is_in(a, channels_last)
    if row_major != image:
        return tuple(range(a.ndim)) if row_major else (0, 2, 3, 1)
    shape, strides = a.shape, tuple(s // a.itemsize for s in a.strides)

    def at_least(x, y):
        return y == 0 or (x != 0 and (x >= y or x % y == 0))

    def should_swap(i, j):          # 1: j goes outside i; -1: keep; 0: either
        if strides[i] == 0 or strides[j] == 0:
            return 0
        if strides[i] == strides[j]:
            return 0 if at_least(shape[j], shape[i]) else 1
        return -1 if at_least(strides[j], strides[i]) else 1

    perm = list(reversed(range(a.ndim)))
    for i in range(1, a.ndim):
        moving = i
        for k in reversed(range(i)):
            comparison = should_swap(perm[k], perm[moving])
            if comparison > 0:
                perm[k], perm[moving] = perm[moving], perm[k]
                moving = k
            elif comparison < 0:
                break
    return tuple(reversed(perm))
