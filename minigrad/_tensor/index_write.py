"""The methods of `Tensor` that write values into chosen places (`index_copy`, `index_fill`, `put`,
`masked_scatter`, `index_put`, each with its in-place twin; `select_scatter`, `slice_scatter`,
`diagonal_scatter`), `take`, which reads flat places, and `split_with_sizes` and `diagflat`: the ops are in
minigrad/ops/index_write.py (IndexPut in ops/indexing.py); here are PyTorch's argument checks, in its words."""
import numpy as np

from ..core.tensor import TensorBase
from ..ops import index_write
from ..ops._common import dim_index
from ..ops.indexing import IndexPut, index_array


def _long_index(name, index):
    if index.dtype.np_type != np.int64:
        raise RuntimeError(f"{name}(): Expected a long tensor for index, but got {index.dtype._scalar_name}")
    return index._data.reshape(-1) if index.dim() else index._data.reshape(1)


def _in_bounds(index, size, dim, prefix="", negative=True):
    """The indices along a dim of `size`, negative ones counted from the end where PyTorch allows them."""
    bad = ((index < -size) if negative else (index < 0)) | (index >= size)
    if bad.any():
        raise IndexError(f"{prefix}index {index[bad][0]} is out of bounds for dimension {dim} with size {size}")
    return np.where(index < 0, index + size, index)


class TensorIndexWrite:
    """Methods of `Tensor`: writes at chosen indices, flat positions or mask places, and `take`."""

    def _index_copy_arguments(self, dim, index, source):
        idx = _long_index("index_copy_", index)
        d = dim_index(dim, max(self.dim(), 1))
        size = source.shape[d] if source.dim() else 1
        if len(idx) != size:
            raise IndexError(f"index_copy_(): Number of indices ({len(idx)}) should be equal to source.size(dim) "
                             f"({size})")
        return d, _in_bounds(idx, self.shape[d] if self.dim() else 1, d, "index_copy_(): ", negative=False)

    def index_copy(self, dim, index, source):
        """self with the slices at `index` along `dim` replaced by the slices of `source`."""
        d, idx = self._index_copy_arguments(dim, index, source)
        return index_write.IndexCopy.apply(self, d, idx, source)

    def index_copy_(self, dim, index, source):
        d, idx = self._index_copy_arguments(dim, index, source)
        return self._inplace(index_write.IndexCopy, d, idx, source)

    def _index_fill_arguments(self, dim, index, value):
        idx = _long_index("index_fill_", index)
        d = dim_index(dim, max(self.dim(), 1))
        if isinstance(value, TensorBase) and value.dim() != 0:
            raise RuntimeError(f"index_fill_ only supports a 0-dimensional value tensor, but got tensor with "
                               f"{value.dim()} dimension(s).")
        op = index_write.IndexFillTensor if isinstance(value, TensorBase) else index_write.IndexFill
        return op, d, _in_bounds(idx, self.shape[d] if self.dim() else 1, d)

    def index_fill(self, dim, index, value):
        """self with the slices at `index` along `dim` set to `value` (a number or a 0-d tensor)."""
        op, d, idx = self._index_fill_arguments(dim, index, value)
        return op.apply(self, d, idx, value)

    def index_fill_(self, dim, index, value):
        op, d, idx = self._index_fill_arguments(dim, index, value)
        return self._inplace(op, d, idx, value)

    def take(self, index):
        """The elements of the flattened self at `index` (negative ones count from the end), shaped as index."""
        if index.dtype.np_type != np.int64:
            raise RuntimeError(f"take(): Expected a long tensor for index, but got {index.dtype._scalar_name}")
        n, idx = self.numel(), index._data
        bad = (idx < -n) | (idx >= n)
        if bad.any():
            raise IndexError(f"out of range: tried to access index {idx[bad].flat[0]} on a tensor of {n} elements.")
        return index_write.Take.apply(self, np.where(idx < 0, idx + n, idx))

    def _put_arguments(self, index, source):
        if index.dtype.np_type != np.int64:
            raise RuntimeError(f"put_(): Expected a long tensor for index, but got {index.dtype._scalar_name}")
        if source.numel() != index.numel():
            raise IndexError(f"put_(): Expected source and index to have the same number of elements, but got "
                             f"source.numel() = {source.numel()}, index.numel() = {index.numel()}")
        n, idx = self.numel(), index._data.reshape(-1)
        bad = (idx < -n) | (idx >= n)
        if bad.any():
            raise IndexError(f"out of range: tried to access index {idx[bad][0]} on a tensor of {n} elements.")
        return np.where(idx < 0, idx + n, idx)

    def put(self, index, source, accumulate=False):
        """self with the flat places `index` set to `source` (added to, with accumulate)."""
        return index_write.Put.apply(self, self._put_arguments(index, source), source, accumulate)

    def put_(self, index, source, accumulate=False):
        return self._inplace(index_write.Put, self._put_arguments(index, source), source, accumulate)

    def _masked_scatter_arguments(self, mask, source):
        if mask.dtype.np_type != np.bool_:
            raise RuntimeError(f"masked_scatter_ only supports boolean masks, but got mask with dtype "
                               f"{mask.dtype._scalar_name}")
        m = np.broadcast_to(mask._data, np.broadcast_shapes(self.shape, mask.shape))
        if int(m.sum()) > source.numel():
            raise RuntimeError("Number of elements of source < number of ones in mask")
        return mask._data

    def masked_scatter(self, mask, source):
        """self with the places where `mask` is True filled, in order, from `source`'s first elements."""
        return index_write.MaskedScatter.apply(self, self._masked_scatter_arguments(mask, source), source)

    def masked_scatter_(self, mask, source):
        return self._inplace(index_write.MaskedScatter, self._masked_scatter_arguments(mask, source), source)

    # ---- index_put: `x[indices] = values` as a function -----------------------------------------------------------
    def _index_put_arguments(self, indices, values):
        if not isinstance(indices, (tuple, list)):
            raise TypeError(f"index_put(): argument 'indices' (position 1) must be tuple of Tensors, not "
                            f"{type(indices).__name__}")
        if not isinstance(values, TensorBase):
            raise TypeError(f"index_put(): argument 'values' (position 2) must be Tensor, not {type(values).__name__}")
        return tuple(index_array(i) if isinstance(i, TensorBase) else i for i in indices)

    def index_put(self, indices, values, accumulate=False):
        """self with self[indices] = values (added, with accumulate: repeated places add up)."""
        return IndexPut.apply(self, self._index_put_arguments(indices, values), values, accumulate)

    def index_put_(self, indices, values, accumulate=False):
        return self._inplace(IndexPut, self._index_put_arguments(indices, values), values, accumulate)

    # ---- a select, a slice or a diagonal replaced: the out-of-place adjoints of those views -------------------------
    def select_scatter(self, src, dim, index):
        """self with self.select(dim, index) replaced by `src`."""
        return index_write.SelectScatter.apply(self, src, dim, index)

    def slice_scatter(self, src, dim=0, start=None, end=None, step=1):
        """self with self[start:end:step] along `dim` replaced by `src`."""
        return index_write.SliceScatter.apply(self, src, dim, start, end, step)

    def diagonal_scatter(self, src, offset=0, dim1=0, dim2=1):
        """self with self.diagonal(offset, dim1, dim2) replaced by `src`."""
        return index_write.DiagonalScatter.apply(self, src, offset, dim1, dim2)

    def split_with_sizes(self, split_sizes, dim=0):
        """The pieces of lengths `split_sizes` (which must add up to the size of `dim`), views."""
        return self.split(list(split_sizes), dim)

    def diagflat(self, offset=0):
        """A matrix with the flattened self on its `offset`-th diagonal."""
        return self.contiguous().view(-1).diag(offset)
