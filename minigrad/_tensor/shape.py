"""The shape methods of `Tensor`: views (`view`, `reshape`, `t`, `unsqueeze`, `expand`, ...), casts, and `t[index]`.

Views share memory and the version counter with the tensor they look into, as in PyTorch.
"""
import warnings

import numpy as np

from ..compat.batched import LEVELS, NO_STORAGE, like, refuse_masks, refuse_read
from ..core import dtype as _dtype
from ..core.tensor import TensorBase
from ..ops import copies, indexing, memory_format as _formats, shape, tiling, unfold
from ..ops._common import dim_index

_T_WARNING = (
    "The use of `x.T` on tensors of dimension other than 2 to reverse their shape is deprecated and it will throw "
    "an error in a future release. Consider `x.mT` to transpose batches of matrices or `x.permute(*torch.arange("
    "x.ndim - 1, -1, -1))` to reverse the dimensions of a tensor.")


class TensorShape:
    """Shape changes, dtype casts and indexing for `Tensor`."""

    # ---- views ---------------------------------------------------------------------------------------------
    def t(self):
        return shape.T.apply(self)

    @property
    def T(self):
        """All dims reversed (a transpose for a matrix); PyTorch deprecates it for other than 2-D tensors."""
        if self.dim() != 2:
            warnings.warn("Tensor.T is deprecated on 0-D tensors. This function is the identity in these cases."
                          if self.dim() == 0 else _T_WARNING, UserWarning, stacklevel=2)
        return self.permute(*reversed(range(self.dim())))

    def permute(self, *dims):
        if not dims:
            raise TypeError('permute() missing 1 required positional arguments: "dims"')
        return shape.Permute.apply(self, _shape_arg(dims))

    def stride(self, dim=None):
        """The step in memory, in elements, from one index to the next along each dimension (0 where expanded).

        Mirrors `torch.Tensor.stride`: a tuple, or one number for `dim`.
        """
        steps = tuple(s // self._data.itemsize for s in self._data.strides)
        return steps if dim is None else steps[dim_index(dim, self._data.ndim)]

    def element_size(self):
        """Bytes per element (4 for float32). Mirrors `torch.Tensor.element_size`."""
        return self._data.itemsize

    itemsize = property(element_size)

    @property
    def nbytes(self):
        """Bytes of the elements the tensor shows (an expanded tensor counts each element it shows)."""
        return self._data.size * self._data.itemsize

    def data_ptr(self):
        """The memory address of the first element (views of one tensor share its memory). Mirrors
        `torch.Tensor.data_ptr`; 0 for a tensor with no elements."""
        refuse_read(self, NO_STORAGE)
        return self._data.__array_interface__["data"][0] if self._data.size else 0

    def storage_offset(self):
        """How many elements into its base's memory this tensor starts (0 unless it is a view)."""
        base = self._base
        if base is None or not self._data.size:
            return 0
        return (self.data_ptr() - base._data.__array_interface__["data"][0]) // self._data.itemsize

    def transpose(self, dim0, dim1):
        return shape.Transpose.apply(self, dim0, dim1)

    def reshape(self, *shape_):
        new = _shape_arg(shape_)
        shape.check_shape(new, self._data.size)
        a = self._data.view()
        try:
            a.shape = new         # a view is possible: reshape is a view
        except AttributeError:
            return shape.UnsafeView.apply(copies.Clone.apply(self, copies.CONTIGUOUS), new)   # a contiguous copy, as torch
        except ValueError:
            raise RuntimeError(f"shape '{list(new)}' is invalid for input of size {self._data.size}") from None
        # PyTorch records a view of a non-contiguous tensor (still no copy) as a "reshape alias"
        return (shape.View if self._data.flags.c_contiguous else shape.ReshapeAlias).apply(self, new)

    def view(self, *shape_):
        return shape.View.apply(self, _shape_arg(shape_))

    def view_as(self, other):
        return self.view(other.shape)

    def flatten(self, start_dim=0, end_dim=-1):
        """Merge dims `start_dim`..`end_dim` into one (a view where the memory allows, as `reshape`)."""
        n = self.dim()
        start, end = dim_index(start_dim, n), dim_index(end_dim, n)
        if start > end:
            raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
        if n == 0:
            return self.reshape(1)
        if start == end:
            return self
        s = self._data.shape
        merged = 1
        for n in s[start:end + 1]:     # the size itself, not -1: an empty tensor flattens too
            merged *= n
        return self.reshape(*s[:start], merged, *s[end + 1:])

    def unsqueeze(self, dim):
        return shape.Unsqueeze.apply(self, dim)

    def squeeze(self, dim=None):
        return shape.Squeeze.apply(self) if dim is None else shape.SqueezeDim.apply(self, dim)

    def expand(self, *sizes):
        return shape.Expand.apply(self, _shape_arg(sizes))

    def repeat(self, *repeats):
        """Return this tensor tiled `repeats[i]` times along dim i (a copy, unlike `expand`)."""
        return tiling.Repeat.apply(self, _shape_arg(repeats))

    def expand_as(self, other):
        return self.expand(other.shape)

    def sum_to_size(self, *size):
        """Sum over the dims that broadcasting to this shape would add: the adjoint of `expand(size)`.

        Mirrors `torch.Tensor.sum_to_size`; backward formulas use it to give a broadcast input its gradient.
        """
        size = _shape_arg(size)
        shape = self._data.shape
        lead = len(shape) - len(size)
        if lead < 0 or any(s != 1 and s != n for s, n in zip(size, shape[lead:])):
            raise RuntimeError(f"size {{{list(size)}}} is not expandable to size {{{list(shape)}}}.")
        # as ATen's sum_to: one sum keeping dims, then a view dropping the leading ones (same nodes as torch)
        dims = tuple(range(lead)) + tuple(lead + i for i, s in enumerate(size) if s == 1 and shape[lead + i] != 1)
        if not dims:
            return self
        out = self.sum(dims, keepdim=True)
        return out.view(size) if lead else out

    def unfold(self, dimension, size, step):
        """Every window of `size` elements along `dimension`, `step` apart, as a new last dim (a view)."""
        unfold.check_unfold(self, dimension, size, step)
        return unfold.Unfold.apply(self, dimension, size, step)

    def clone(self, *args, memory_format=_formats.preserve_format):
        if args:
            raise TypeError(f"clone() takes 0 positional arguments but {len(args)} was given")
        return copies.Clone.apply(self, memory_format)

    # to(), float(), long(), ...: the casts are in conversion.py

    def __getitem__(self, index):
        return indexing_read(self, index)


def _shape_arg(args):
    """Accept both `f(2, 3)` and `f((2, 3))`."""
    if len(args) == 1 and isinstance(args[0], (tuple, list)):
        return tuple(args[0])
    return tuple(args)


def indexing_read(t, index):
    """`t[index]` as PyTorch does it: ints, slices, None and `...` first, as views (Select, Slice, Unsqueeze);
    then, if the index also holds tensors, lists or masks, one Index op (a copy) with those."""
    items = index if isinstance(index, tuple) else (index,)
    index_tensors = [i for i in items if isinstance(i, TensorBase)] if LEVELS else ()     # only under vmap
    refuse_masks(index_tensors)     # a sample's mask would give each sample its own shape
    items = tuple(_index_item(i) for i in items)
    at = next((k for k, i in enumerate(items) if i is Ellipsis), None)     # not `in`: tensors compare by ==
    if sum(_dims_indexed(i) for i in items if i is not Ellipsis) > t.dim():
        raise IndexError(f"too many indices for tensor of dimension {t.dim()}")
    if at is not None:
        fill = t.dim() - sum(_dims_indexed(i) for i in items if i is not Ellipsis)
        items = items[:at] + (slice(None),) * fill + items[at + 1:]
    out, dim, advanced = t, 0, []
    for item in items:
        if item is None:
            out = shape.Unsqueeze.apply(out, dim)
            advanced.append(slice(None))
            dim += 1
        elif isinstance(item, slice):
            if item != slice(None) or isinstance(index, slice):    # PyTorch slices even t[:]
                out = indexing.Slice.apply(out, dim, item)
            advanced.append(slice(None))
            dim += 1
        elif isinstance(item, (int, np.integer)) and not isinstance(item, bool):
            out = indexing.Select.apply(out, dim, int(item))
        else:
            array = item._data if isinstance(item, TensorBase) else np.asarray(item)
            advanced.append(array)
            dim += _dims_indexed(array)
    if any(not isinstance(a, slice) for a in advanced):
        out = indexing.Index.apply(out, tuple(advanced))
    elif out is t:
        out = shape.Alias.apply(t)
    return like(out, *index_tensors) if index_tensors else out


def _index_item(i):
    """A tensor inside an index, as PyTorch reads it: a 0-d integer tensor (but uint8) is an int, any other its
    array (see `indexing.index_array`)."""
    if not isinstance(i, TensorBase):
        return i
    if i._data.ndim == 0 and i._data.dtype.kind in "iu" and i._data.dtype != np.uint8:
        return int(i)
    return indexing.index_array(i)


def _dims_indexed(item):
    """How many dims of the tensor an index item consumes: a mask one per its own dim, None none."""
    if item is None:
        return 0
    if isinstance(item, (TensorBase, np.ndarray)) and item.dtype in (_dtype.bool, np.bool_):
        return item.ndim
    return 1
