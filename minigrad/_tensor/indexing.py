"""The shape and indexing methods beyond the basics: split, chunk, flip, roll, gather, scatter, masked_fill, ...

Each one applies a built-in `Function` from `minigrad/ops/`, or composes a few (movedim is a permute, outer a
mul, tile a repeat), as PyTorch does. Pieces of split/chunk/unbind, narrow, movedim, unflatten and diagonal are
views, sharing memory with the tensor, as in PyTorch.
"""
import math

import numpy as np

from ..compat.batched import NO_RULE, like, refuse, refuse_dynamic_shape, refuse_inplace
from ..core.tensor import TensorBase
from .shape import _shape_arg
from ..ops import diagonal as diagonal_ops
from ..ops import index_select, indexing, masked, reorder, scatter, shape, split, tiling, unary
from ..core import dtype as _dtype
from ..ops import join as _join
from ..ops._common import as_operand, broadcast_shapes, dim_index, view_of


class TensorIndexing:
    """Methods of `Tensor`: cutting, reordering, gathering and scattering, triangles and diagonals."""

    # ---- pieces (views) --------------------------------------------------------------------------------
    def split(self, split_size, dim=0):
        """Cut into pieces of `split_size` along `dim` (the last may be shorter), or of the sizes in a list."""
        if isinstance(split_size, TensorBase):
            if split_size.numel() != 1:
                raise TypeError("split_with_sizes(): argument 'split_sizes' (position 2) must be tuple of ints, not "
                                "Tensor")
            split_size = int(split_size)
        if isinstance(split_size, (int, np.integer)):
            return split.Split.apply(self, int(split_size), dim)
        return split.SplitWithSizes.apply(self, tuple(int(s) for s in split_size), dim)

    def chunk(self, chunks, dim=0):
        """Cut into `chunks` pieces of equal size along `dim` (the last may be smaller; there may be fewer)."""
        if self.dim() == 0:
            raise RuntimeError("chunk expects at least a 1-dimensional tensor")
        if chunks <= 0:
            raise RuntimeError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
        n = self._data.shape[dim_index(dim, self.dim())]
        size = (n + chunks - 1) // chunks
        if size == 0 and n == 0:        # as torch: an empty dim still gives `chunks` (empty) pieces
            return split.SplitWithSizes.apply(self, (0,) * chunks, dim)
        return split.Split.apply(self, size, dim)

    def unbind(self, dim=0):
        """Return the slices along `dim`, one tensor each, without that dim."""
        return split.Unbind.apply(self, dim)

    def narrow(self, dim, start, length):
        """Return the `length` elements from `start` along `dim` (a view): `x.narrow(1, 2, 3)` is `x[:, 2:5]`."""
        return split.Narrow.apply(self, dim, split.narrow_slice(self, dim, int(start), length))

    def unflatten(self, dim, sizes):
        """Split dim `dim` into several with these sizes (one may be -1), as a view: the inverse of flatten."""
        if isinstance(sizes, int):
            raise TypeError("unflatten(): argument 'sizes' (position 2) must be tuple of ints, not int")
        d = dim_index(dim, self.dim())
        return shape.View.apply(self, self._data.shape[:d] + _unflattened(self, d, tuple(sizes))
                                + self._data.shape[d + 1:])

    # ---- reordering ------------------------------------------------------------------------------------
    def flip(self, *dims, **kwargs):
        """Reverse the order of the elements along each of `dims` (a copy): `x.flip(0, 1)` or `x.flip(dims=[0])`."""
        dims = _dims_arg("flip", dims, kwargs)
        return reorder.Flip.apply(self, dims)

    def fliplr(self):
        if self.dim() < 2:
            raise RuntimeError("Input must be >= 2-d.")
        return reorder.Flip.apply(self, (1,))

    def flipud(self):
        if self.dim() < 1:
            raise RuntimeError("Input must be >= 1-d.")
        return reorder.Flip.apply(self, (0,))

    def roll(self, shifts, dims=None):
        """Shift the elements cyclically by `shifts` along `dims` (without dims: along the flattened tensor)."""
        shifts = (shifts,) if isinstance(shifts, int) else tuple(shifts)
        dims = () if dims is None else (dims,) if isinstance(dims, int) else tuple(dims)
        return reorder.Roll.apply(self, shifts, dims)

    def movedim(self, source, destination):
        """Move dims `source` to positions `destination`, the others keeping their order (a permute, a view)."""
        from_, to = _movedim_dims(self, source, destination)
        if self.dim() == 0:
            return shape.Alias.apply(self)
        order = [-1] * self.dim()             # order[d]: the dim of self that goes to position d
        for s, d in zip(from_, to):
            order[d] = s
        rest = iter(i for i in range(self.dim()) if i not in from_)
        order = [next(rest) if o == -1 else o for o in order]
        return shape.Permute.apply(self, tuple(order))

    moveaxis = movedim

    def tile(self, *dims, **kwargs):
        """Repeat the tensor dims[i] times along dim i; missing leading dims count as 1 (numpy's tile)."""
        dims = _dims_arg("tile", dims, kwargs)
        return tiling.Repeat.apply(self, (1,) * (self.dim() - len(dims)) + dims)

    # ---- gathering and scattering ----------------------------------------------------------------------
    def masked_fill(self, mask, value):
        """Return a copy with `value` (a number or 0-d tensor) wherever `mask` is True."""
        if isinstance(value, TensorBase):
            return like(masked.MaskedFillTensor.apply(self, mask._data, value), mask)
        return like(masked.MaskedFill.apply(self, mask._data, value), mask)

    def masked_fill_(self, mask, value):
        refuse_inplace(self, (mask, value), "masked_fill_")     # the mask goes in as an array: check it here
        op = masked.MaskedFillTensor if isinstance(value, TensorBase) else masked.MaskedFill
        return self._inplace(op, mask._data, value)

    def gather(self, dim, index, *, sparse_grad=False):
        """Pick values along `dim` at `index`: for dim 1, out[i][j] = self[i][index[i][j]]."""
        return scatter.Gather.apply(self, dim, _index("gather", index, 2))

    def scatter(self, dim, index, src=None, value=None, *, reduce=None):
        """Return a copy with src[i][j] (or `value`) written at [i][index[i][j]] for dim 1 (the inverse of gather)."""
        return _scatter(self, dim, index, src, value, reduce, lambda op, *args: op.apply(self, *args))

    def scatter_(self, dim, index, src=None, value=None, *, reduce=None):
        return _scatter(self, dim, index, src, value, reduce, self._inplace)

    def scatter_add(self, dim, index, src):
        """Return a copy with src[i][j] added at [i][index[i][j]] for dim 1 (repeated indices add up)."""
        return scatter.ScatterAdd.apply(self, dim, _index("scatter_add", index, 2), _src("scatter_add", src))

    def scatter_add_(self, dim, index, src):
        return self._inplace(scatter.ScatterAdd, dim, _index("scatter_add_", index, 2), _src("scatter_add_", src))

    def select(self, dim, index):
        """The slice at position `index` along `dim`, without that dim (a view): `x.select(0, i)` is `x[i]`."""
        if self._data.ndim == 0:
            raise IndexError("select() cannot be applied to a 0-dim tensor.")
        d = dim_index(dim, self._data.ndim)
        if not -self._data.shape[d] <= index < self._data.shape[d]:
            raise IndexError(f"select(): index {index} out of range for tensor of size {list(self._data.shape)} at "
                             f"dimension {d}")
        return indexing.Select.apply(self, d, index)

    def index_select(self, dim, index):
        """Return the slices along `dim` at the positions in the vector `index`, in its order."""
        return index_select.IndexSelect.apply(self, dim, _index("index_select", index, 2))

    def index_add(self, dim, index, source, *, alpha=1):
        """Return a copy with alpha * source's slices along `dim` added at the positions `index` (repeats add up)."""
        return index_select.IndexAdd.apply(self, dim, _index("index_add", index, 2), source, alpha)

    def index_add_(self, dim, index, source, *, alpha=1):
        return self._inplace(index_select.IndexAdd, dim, _index("index_add_", index, 2), source, alpha)

    def nonzero(self, *, as_tuple=False):
        """Return the indices of the nonzero elements: an int64 (count, ndim) tensor, or one vector per dim."""
        a = self._data
        if not as_tuple:
            refuse_dynamic_shape(self, "aten::nonzero")
            return TensorBase._make(np.argwhere(a).astype(np.int64))
        refuse(self, NO_RULE.format("aten::nonzero_numpy"))
        # as torch: views of one (count, ndim) tensor, laid out so that each column is contiguous
        per_dim = np.array(np.nonzero(a if a.ndim else a.reshape(1)), np.int64)     # (ndim, count)
        indices = TensorBase._make(per_dim.T)
        return tuple(view_of(indices, column) for column in per_dim)

    def where(self, condition, other):
        """`torch.where(condition, self, other)`."""
        # the condition goes in as a plain array: WhereBackward0 has edges only to self and other
        return like(unary.Where.apply(condition._data, self, as_operand(other, self)), condition)

    # ---- triangles and diagonals ----------------------------------------------------------------------
    def tril(self, diagonal=0):
        """Zero the elements above diagonal `diagonal` of the last two dims (0: the main one, 1: the one above)."""
        return diagonal_ops.Tril.apply(self, diagonal)

    def tril_(self, diagonal=0):
        return self._inplace(diagonal_ops.Tril, diagonal)

    def triu(self, diagonal=0):
        """Zero the elements below diagonal `diagonal` of the last two dims."""
        return diagonal_ops.Triu.apply(self, diagonal)

    def triu_(self, diagonal=0):
        return self._inplace(diagonal_ops.Triu, diagonal)

    def diagonal(self, offset=0, dim1=0, dim2=1):
        """Return the diagonal of dims dim1 and dim2 as a view, as the last dim."""
        return diagonal_ops.Diagonal.apply(self, offset, dim1, dim2)

    def diag(self, diagonal=0):
        """A vector's diagonal matrix (the vector on diagonal `diagonal`), or a copy of a matrix's diagonal."""
        if self.dim() == 1:
            return diagonal_ops.DiagEmbed.apply(self, diagonal, -2, -1)
        if self.dim() == 2:
            return diagonal_ops.DiagonalCopy.apply(self, diagonal, 0, 1)
        raise RuntimeError(f"diag(): Supports 1D or 2D tensors. Got {self.dim()}D")

    def diag_embed(self, offset=0, dim1=-2, dim2=-1):
        """Lay the last dim on the diagonal of two new dims dim1 and dim2, zeros elsewhere."""
        return diagonal_ops.DiagEmbed.apply(self, offset, dim1, dim2)

    def outer(self, vec2):
        """The outer product of two vectors: out[i][j] = self[i] * vec2[j] (PyTorch's: a column times a row)."""
        for name, v in (("self", self), ("vec2", vec2)):
            if v.dim() != 1:
                raise RuntimeError(f"outer: Expected 1-D argument {name}, but got {v.dim()}-D")
        return self.reshape(self.shape[0], 1) * vec2

    ger = outer

    # ---- composites of the ops above, as ATen writes them -----------------------------------------------------
    def diff(self, n=1, dim=-1, prepend=None, append=None):
        """The n-th forward difference along `dim`: x[1:] - x[:-1], n times (xor for bools), after joining
        `prepend` and `append` to the ends."""
        if self.dim() == 0:
            raise RuntimeError("diff expects input to be at least one-dimensional")
        if n < 0:
            raise RuntimeError(f"order must be non-negative but got {n}")
        for extra in (prepend, append):
            if extra is not None and extra.dim() != self.dim():
                raise RuntimeError("diff expects prepend or append to be the same dimension as input")
        if n == 0:
            return self.clone()
        parts = [t for t in (prepend, self, append) if t is not None]
        out = self if len(parts) == 1 else _join.Cat.apply(dim, *parts)
        d = dim_index(dim, out.dim())
        for _ in range(min(n, out.shape[d])):
            length = out.shape[d] - 1
            ahead, behind = out.narrow(d, 1, length), out.narrow(d, 0, length)
            out = ahead.logical_xor(behind) if out._data.dtype == bool else ahead - behind
        return out

    def repeat_interleave(self, repeats, dim=None, *, output_size=None):
        """Repeat each element `repeats` times (a number, or one count per element) along `dim`, or of the
        flattened tensor. An int expands a new dim and merges it (ATen's path); counts select by index."""
        x = self if dim is not None else self.flatten()
        d = dim_index(0 if dim is None else dim, max(self.dim(), 1))
        if not isinstance(repeats, TensorBase):
            if repeats < 0:
                raise RuntimeError("Repeats must be non-negative")
            shape = list(x.shape)
            expanded = x.unsqueeze(d + 1).expand(*shape[:d + 1], repeats, *shape[d + 1:]).clone()
            return expanded.flatten(d, d + 1)
        if repeats.dim() == 0 or (repeats.dim() == 1 and repeats.shape[0] == 1):
            repeats = repeats.reshape(1).expand(x.shape[d])
        elif repeats.dim() == 1:
            if repeats.shape[0] != x.shape[d]:
                raise RuntimeError(f"repeats must have the same size as input along dim, but got repeats.size(0) = "
                                   f"{repeats.shape[0]} and input.size({d}) = {x.shape[d]}")
        else:
            raise RuntimeError("repeats must be 0-dim or 1-dim tensor")
        return x.index_select(d, _repeated_indices(repeats))

    def take_along_dim(self, indices, dim=None):
        """Pick values at `indices` along `dim` (broadcast against each other), or from the flattened tensor."""
        if indices.dtype is not _dtype.int64:
            raise RuntimeError(f"torch.take_along_dim(): dtype of indices should be Long but got "
                               f"{indices.dtype._scalar_name}")
        if dim is None:
            return self.view(-1).gather(0, indices.view(-1))
        if self.dim() != indices.dim():
            raise RuntimeError(f"torch.take_along_dim(): input and indices should have the same number of "
                               f"dimensions, but got {self.dim()} dimensions for input, and {indices.dim()} "
                               f"dimensions for indices")
        d = dim_index(dim, self.dim())
        sizes = list(self.shape)
        sizes[d] = indices.shape[d]
        index = indices.expand(broadcast_shapes(tuple(sizes), tuple(indices.shape)))
        sizes = list(indices.shape)
        sizes[d] = self.shape[d]
        return self.expand(broadcast_shapes(tuple(sizes), tuple(self.shape))).gather(d, index)


def _repeated_indices(repeats):
    """torch.repeat_interleave(counts): each position i, counts[i] times (the indices of repeat_interleave)."""
    r = repeats._data
    if r.dtype.kind not in "iu" or r.dtype.itemsize < 4:
        raise NotImplementedError(f'"repeat_interleave_cpu" not implemented for \'{repeats.dtype._scalar_name}\'')
    if r.ndim != 1:
        raise RuntimeError("repeat_interleave only accept 1D vector as repeat")
    if (r < 0).any():
        raise RuntimeError("repeats can not be negative")
    return like(TensorBase._make(np.repeat(np.arange(r.size, dtype=np.int64), r)), repeats)


def _scatter(t, dim, index, src, value, reduce, run):
    """scatter and scatter_: a tensor `src` or a number `value` (given by keyword or as the third argument)."""
    if reduce is not None:
        raise NotImplementedError(f"minigrad does not implement scatter(..., reduce={reduce!r}), which PyTorch "
                                  "deprecates: use scatter_add, or index_add, instead")
    if src is not None and not isinstance(src, TensorBase):
        src, value = None, src
    index = _index("scatter", index, 2)
    if src is not None:
        return run(scatter.Scatter, dim, index, src)
    if value is None:
        raise TypeError("scatter() missing 1 required positional argument: 'src' or 'value'")
    return run(scatter.ScatterValue, dim, index, value)


def _movedim_dims(t, source, destination):
    """movedim's source and destination dims counted from 0, or PyTorch's errors."""
    src = [source] if isinstance(source, int) else list(source)
    dst = [destination] if isinstance(destination, int) else list(destination)
    if len(src) != len(dst):
        raise RuntimeError(f"movedim: Invalid source or destination dims: source ({src} dims) should contain the "
                           f"same number of dims as destination ({dst} dims)")
    from_, to = [dim_index(d, t.dim()) for d in src], [dim_index(d, t.dim()) for d in dst]
    for name, given, dims in (("source", src, from_), ("destination", dst, to)):
        if len(set(dims)) != len(dims):
            raise RuntimeError(f"movedim: repeated dim in `{name}` ({given})")
    return from_, to


def _unflattened(t, d, sizes):
    """The sizes that dim d of t unflattens into (a -1 inferred), or PyTorch's errors."""
    if not sizes:
        raise RuntimeError("unflatten: sizes must be non-empty")
    if t.dim() == 0:
        raise RuntimeError("unflatten got an unexpected error:\nDimension specified as 0 but tensor has no "
                           "dimensions")
    n = t._data.shape[d]
    if n == 0 and -1 in sizes:
        raise RuntimeError(f"unflatten got an unexpected error:\ncannot reshape tensor of 0 elements into shape "
                           f"{list(sizes)} because the unspecified dimension size -1 can be any value and is ambiguous")
    try:
        shape.check_shape(sizes, n)
    except RuntimeError as e:
        if "is invalid for input of size" in str(e):
            raise RuntimeError(f"unflatten: Provided sizes {list(sizes)} don't multiply up to the size of dim {d} "
                               f"({n}) in the input tensor") from None
        raise RuntimeError(f"unflatten got an unexpected error:\n{e}") from None
    known = math.prod(s for s in sizes if s != -1)
    return tuple(n // known if s == -1 else s for s in sizes)


def _dims_arg(name, dims, kwargs):
    """`f(0, 1)`, `f((0, 1))` or `f(dims=(0, 1))`, as torch's flip and tile take them."""
    if "dims" in kwargs:
        dims = (kwargs.pop("dims"),)
    if kwargs:
        raise TypeError(f"{name}() got an unexpected keyword argument '{next(iter(kwargs))}'")
    if not dims:
        raise TypeError(f'{name}() missing 1 required positional arguments: "dims"')
    return _shape_arg(dims)


def _index(name, index, position):
    """The index tensor's array (it gets no edge in the graph), or PyTorch's TypeError for a non-tensor."""
    if not isinstance(index, TensorBase):
        raise TypeError(f"{name}(): argument 'index' (position {position}) must be Tensor, not {type(index).__name__}")
    return index._data


def _src(name, src):
    if not isinstance(src, TensorBase):
        raise TypeError(f"{name}(): argument 'src' (position 3) must be Tensor, not {type(src).__name__}")
    return src
