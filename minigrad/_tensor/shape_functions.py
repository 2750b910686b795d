"""Module-level spellings (`torch.split(x, 2)`, `torch.gather(x, 1, i)`, ...) of the shape and indexing methods
added for the tutorials' PyTorch, plus `torch.einsum` and the one-argument `torch.where`."""
import numpy as np

from ..compat.batched import refuse_dynamic_shape
from .indexing import _repeated_indices
from .functions import where as _where3
from .tensor import Tensor
from ..ops.einsum import einsum

__all__ = ["chunk", "diag", "diag_embed", "diagonal", "einsum", "flip", "fliplr", "flipud", "gather", "ger",
           "index_add", "index_select", "masked_fill", "movedim", "moveaxis", "narrow", "nonzero", "outer", "permute",
           "roll", "scatter", "scatter_add", "select", "split", "tile", "tril", "triu", "unbind", "unflatten", "where",
           "bmm", "addmm", "addmv", "addr", "baddbmm", "addbmm", "kron", "cross", "diff", "repeat_interleave",
           "take_along_dim", "tril_indices", "triu_indices", "index_copy", "index_fill", "index_put", "index_put_",
           "take", "put", "masked_scatter", "select_scatter", "slice_scatter", "diagonal_scatter",
           "split_with_sizes", "diagflat"]

(chunk, diag, diag_embed, diagonal, fliplr, flipud, gather, ger, index_add, index_select, masked_fill, movedim,
 narrow, outer, roll, scatter, scatter_add, select, tril, triu, unbind, unflatten) = (
    Tensor.chunk, Tensor.diag, Tensor.diag_embed, Tensor.diagonal, Tensor.fliplr, Tensor.flipud, Tensor.gather,
    Tensor.ger, Tensor.index_add, Tensor.index_select, Tensor.masked_fill, Tensor.movedim, Tensor.narrow,
    Tensor.outer, Tensor.roll, Tensor.scatter, Tensor.scatter_add, Tensor.select, Tensor.tril, Tensor.triu,
    Tensor.unbind,
    Tensor.unflatten)
moveaxis = movedim
bmm, addmm, addmv, addr, baddbmm, addbmm = (Tensor.bmm, Tensor.addmm, Tensor.addmv, Tensor.addr, Tensor.baddbmm,
                                            Tensor.addbmm)
kron, cross, diff, take_along_dim = Tensor.kron, Tensor.cross, Tensor.diff, Tensor.take_along_dim
# the writes at chosen places (index_write.py); torch.put and torch.index_put_ as the methods are
(index_copy, index_fill, index_put, index_put_, take, put, masked_scatter, select_scatter, slice_scatter,
 diagonal_scatter, split_with_sizes, diagflat) = (
    Tensor.index_copy, Tensor.index_fill, Tensor.index_put, Tensor.index_put_, Tensor.take, Tensor.put,
    Tensor.masked_scatter, Tensor.select_scatter, Tensor.slice_scatter, Tensor.diagonal_scatter,
    Tensor.split_with_sizes, Tensor.diagflat)


def repeat_interleave(input, repeats=None, dim=None, *, output_size=None):
    """Repeat each element `repeats` times along `dim` (see Tensor.repeat_interleave); with one argument, a
    tensor of counts, the indices 0, 1, ... each repeated its count of times. Mirrors `torch.repeat_interleave`."""
    if repeats is None:
        return _repeated_indices(input)
    return input.repeat_interleave(repeats, dim, output_size=output_size)


def tril_indices(row, col, offset=0, *, dtype=None, device=None, layout=None):
    """The indices (2 x n, int64) of the lower triangle of a row x col matrix, row by row. Mirrors
    `torch.tril_indices`."""
    return _triangle_indices(np.tril_indices, row, col, offset, dtype)


def triu_indices(row, col, offset=0, *, dtype=None, device=None, layout=None):
    """The indices (2 x n, int64) of the upper triangle of a row x col matrix, row by row. Mirrors
    `torch.triu_indices`."""
    return _triangle_indices(np.triu_indices, row, col, offset, dtype)


def _triangle_indices(indices, row, col, offset, dtype):
    for name, n in (("row", row), ("col", col)):
        if n < 0:
            raise RuntimeError(f"{name} must be non-negative, got{n}")
    rows, cols = indices(row, offset, col) if row and col else (np.zeros(0, np.int64),) * 2
    return Tensor._make(np.stack([rows, cols]).astype(np.int64 if dtype is None else dtype.np_type))


def split(tensor, split_size_or_sections, dim=0):
    """Cut `tensor` into pieces of one size, or of the sizes in a list, along `dim`. Mirrors `torch.split`."""
    return tensor.split(split_size_or_sections, dim)


def flip(input, dims):
    """Reverse the order of the elements along each of `dims` (a tuple or list). Mirrors `torch.flip`."""
    if isinstance(dims, int):
        raise TypeError("flip(): argument 'dims' (position 2) must be tuple of ints, not int")
    return input.flip(dims)


def permute(input, dims):
    """Reorder the dims of `input` (a view). Mirrors `torch.permute`."""
    return input.permute(dims)


def tile(input, dims):
    """Repeat `input` dims[i] times along dim i. Mirrors `torch.tile`."""
    if isinstance(dims, int):
        raise TypeError("tile(): argument 'dims' (position 2) must be tuple of ints, not int")
    return input.tile(dims)


def nonzero(input, *, as_tuple=False):
    """The indices of the nonzero elements of `input`. Mirrors `torch.nonzero`."""
    return input.nonzero(as_tuple=as_tuple)


def where(condition, input=None, other=None):
    """Pick from `input` where `condition` is True, else from `other`; with the condition alone, return the
    indices where it is True (`torch.nonzero(condition, as_tuple=True)`). Mirrors `torch.where`."""
    if input is None and other is None:
        refuse_dynamic_shape(condition, "aten::where")
        return condition.nonzero(as_tuple=True)
    if input is None or other is None:
        got = ", ".join("Tensor" if isinstance(a, Tensor) else type(a).__name__
                        for a in (condition, other if input is None else input))
        raise TypeError(f"where() received an invalid combination of arguments - got ({got}), but expected "
                        "one of:\n * (Tensor condition)\n * (Tensor condition, Tensor input, Tensor other, *, Tensor "
                        "out = None)\n * (Tensor condition, Number self, Tensor other)\n * (Tensor condition, Tensor "
                        "input, Number other)\n * (Tensor condition, Number self, Number other)\n")
    return _where3(condition, input, other)
