"""The methods of `Tensor` that cut or turn it: tensor_split (and hsplit, vsplit, dsplit), rot90; with trace and
inner, the contractions that PyTorch lists beside them.

Each piece of a split is a slice (a view, SliceBackward0), as in PyTorch; rot90 and trace are ops of
minigrad/ops/reorder.py and diagonal.py; inner is a tensordot over the last dims (layout_functions.py), with
PyTorch's permutes and reshapes, so its graph is torch's.
"""
import math

import numpy as np

from ..core.tensor import TensorBase
from ..ops import diagonal, indexing, reorder
from ..ops._common import dim_index
from .pointwise import _tensor_arg


class TensorLayout:
    """Methods of `Tensor`: splitting into pieces, quarter turns, trace and inner product."""

    def tensor_split(self, indices_or_sections, dim=0):
        """Cut along `dim` into `sections` pieces as equal as can be (the first ones one longer), or at the
        `indices` of a list (each piece from one index to the next, as Python slices)."""
        if self.dim() == 0:
            raise RuntimeError("tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims")
        d = dim_index(dim, self.dim())
        cut = indices_or_sections
        if isinstance(cut, TensorBase):
            cut = int(cut) if cut.dim() == 0 else cut.tolist()
        if isinstance(cut, (int, np.integer)):
            if cut <= 0:
                raise RuntimeError(f"number of sections must be larger than 0, got {cut}")
            size, longer = divmod(self._data.shape[d], int(cut))
            ends = np.cumsum([size + (i < longer) for i in range(int(cut))]).tolist()
            bounds = [0] + ends
        else:
            bounds = [0] + [int(i) for i in cut] + [None]
        return tuple(indexing.Slice.apply(self, d, slice(a, b)) for a, b in zip(bounds[:-1], bounds[1:]))

    def hsplit(self, indices_or_sections):
        """`tensor_split` along dim 1 (dim 0 of a 1-d tensor); a number of sections must divide that size."""
        if self.dim() == 0:
            raise RuntimeError("torch.hsplit requires a tensor with at least 1 dimension, but got a tensor with 0 "
                               "dimensions!")
        return _split_along(self, "hsplit", 1 if self.dim() > 1 else 0, indices_or_sections)

    def vsplit(self, indices_or_sections):
        """`tensor_split` along dim 0 of a tensor of at least 2 dims."""
        if self.dim() < 2:
            raise RuntimeError("torch.vsplit requires a tensor with at least 2 dimension, but got a tensor with "
                               f"{self.dim()} dimensions!")
        return _split_along(self, "vsplit", 0, indices_or_sections)

    def dsplit(self, indices_or_sections):
        """`tensor_split` along dim 2 of a tensor of at least 3 dims."""
        if self.dim() < 3:
            raise RuntimeError("torch.dsplit requires a tensor with at least 3 dimension, but got a tensor with "
                               f"{self.dim()} dimensions!")
        return _split_along(self, "dsplit", 2, indices_or_sections)

    def rot90(self, k=1, dims=(0, 1)):
        """Turn by k quarter turns in the plane of `dims`, from the first toward the second (a copy)."""
        return reorder.Rot90.apply(self, int(k), list(dims))

    def trace(self):
        """The sum of the diagonal of a matrix."""
        return diagonal.Trace.apply(self)

    def inner(self, other):
        """The sum of products over the last dims of self and other (for vectors, the dot product); a 0-d
        input multiplies."""
        _tensor_arg(other, "inner", "other", 1)
        if self.dim() == 0 or other.dim() == 0:
            return self * other
        if self.shape[-1] != other.shape[-1]:
            raise RuntimeError(f"inner() the last dimension must match on both input tensors but got shapes "
                               f"{list(self.shape)} and {list(other.shape)}")
        return contract(self, other, [-1], [-1])


def contract(a, b, dims_a, dims_b):
    """Sum the products of a and b over the dims `dims_a` of a paired with `dims_b` of b, as ATen's tensordot:
    permute each so the contracted dims meet, reshape to matrices, one mm (or dot, when nothing else is left),
    and reshape to the free dims of a then of b."""
    if len(dims_a) != len(dims_b):
        raise RuntimeError("both dimension lists should have same length")
    if a.dtype is not b.dtype:
        raise RuntimeError("both inputs should have same dtype")
    contracted = 1
    for da, db in zip(dims_a, dims_b):
        sa, sb = a.shape[da], b.shape[db]
        if sb == 1:                     # a broadcast dim is summed right away
            a = a.sum(da, keepdim=True)
        elif sa == 1:
            b = b.sum(db, keepdim=True)
        elif sa != sb:
            raise RuntimeError(f"contracted dimensions need to match, but first has size {sa} in dim {da} and second "
                               f"has size {sb} in dim {db}")
        else:
            contracted *= sa
    cut_a, cut_b = _dim_set(dims_a, a.dim()), _dim_set(dims_b, b.dim())
    free_a = [i for i in range(a.dim()) if i not in cut_a]
    free_b = [i for i in range(b.dim()) if i not in cut_b]
    sizes_a, sizes_b = [a.shape[i] for i in free_a], [b.shape[i] for i in free_b]
    a, b = a.permute(free_a + list(dims_a)), b.permute(list(dims_b) + free_b)
    if math.prod(sizes_a) == 1 == math.prod(sizes_b):
        # one number comes out: a dot product of the flattened tensors, or, where flattening would copy, the sum
        # of the elementwise product (as ATen chooses)
        if a.is_contiguous() and b.is_contiguous():
            return a.flatten().dot(b.flatten()).reshape(sizes_a + sizes_b)
        return (a.squeeze() * b.squeeze()).sum().reshape(sizes_a + sizes_b)
    product = a.reshape(math.prod(sizes_a), contracted).mm(b.reshape(contracted, math.prod(sizes_b)))
    return product.reshape(sizes_a + sizes_b)


def _dim_set(dims, ndim):
    seen = set()
    for d in dims:
        d = dim_index(d, ndim)
        if d in seen:
            raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
        seen.add(d)
    return seen


def _split_along(t, name, dim, cut):
    if isinstance(cut, (int, np.integer)):
        n = t._data.shape[dim]
        if cut == 0 or n % cut:
            raise RuntimeError(f"torch.{name} attempted to split along dimension {dim}, but the size of the dimension "
                               f"{n} is not divisible by the split_size {cut}!")
    return t.tensor_split(cut, dim)
