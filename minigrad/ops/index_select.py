"""Whole slices picked or added by a vector of indices along one dim: index_select and index_add.

Each is the other's backward (`index_select`'s gradient adds g back at the picked slices), so gradients of any
order work. The index is a plain int array: like PyTorch's, it gets no edge.
"""
import numpy as np

from ..core.forward_ad import linear
from ..core.function import Function
from ..core.dtype import scalar_name
from ._common import dim_index, wrap


_name = scalar_name      # ATen's name of an array's dtype, as its messages print it ("Float", "Long")


class IndexSelect(Function):
    """z = the slices x[..., index[k], ...] along `dim`, stacked in the order of `index`;
    dz/dx = zeros with each slice of g added back where it was picked (index_add)"""
    node_name = "IndexSelectBackward0"
    saved_attrs = {"dim": "dim", "index": "saved_index", "self_sym_sizes": "shape"}

    @staticmethod
    def forward(x, dim, index):
        a = x._data
        d = dim_index(dim, a.ndim)
        if index.ndim > 1:
            raise IndexError("index_select(): Index is supposed to be a vector")
        if index.dtype.kind not in "iu":
            raise RuntimeError("index_select(): Expected dtype int32 or int64 for index")
        if a.ndim == 0 and index.size != 1:
            raise RuntimeError(f"index_select(): Index to scalar can have only 1 value, got {index.size} value(s)")
        n = a.shape[d] if a.ndim else 1
        if ((index < 0) | (index >= n)).any():
            raise IndexError("index out of range in self")
        if a.ndim == 0:
            return wrap(a.copy())
        return wrap(np.take(a, index.reshape(-1), axis=d))

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, ctx.dim, ctx.index = inputs
        ctx.shape, ctx.saved_index = x._data.shape, wrap(ctx.index)

    @staticmethod
    def backward(ctx, grad):
        zeros = wrap(np.zeros(ctx.shape, grad._data.dtype))
        return IndexAdd.apply(zeros, ctx.dim, ctx.index, grad, 1), None, None

    jvp = linear


def _check_index_add(a, d, index, s):
    """PyTorch's checks of `index_add`, in its order."""
    if index.dtype.kind not in "iu":
        raise RuntimeError(f"index_add_(): Expected dtype int32/int64 for index but got: {_name(index)}")
    if index.ndim > 1:
        raise IndexError(f"index_add_(): Index is supposed to be a vector, but got dim: {index.ndim} with type: "
                         f"{_name(index)} and size: {list(index.shape)}")
    if a.dtype != s.dtype:
        raise RuntimeError(f"index_add_(): self ({_name(a)}) and source ({_name(s)}) must have the same scalar type")
    length = s.shape[d] if s.ndim else 1
    if index.size != length:
        raise RuntimeError(f"index_add_(): Number of indices ({index.size}) should be equal to source.size(dim): "
                           f"({length}), for dim: {d}")
    if a.ndim != s.ndim or any(n != m for k, (n, m) in enumerate(zip(a.shape, s.shape)) if k != d):
        raise RuntimeError("source tensor shape must match self tensor shape, excluding the specified dimension. "
                           f"Got self.shape = {list(a.shape)} source.shape = {list(s.shape)}")
    n = a.shape[d] if a.ndim else 1
    bad = index[(index < 0) | (index >= n)]
    if bad.size:
        if a.ndim == 0:
            raise IndexError("index out of range in self")
        raise RuntimeError(f"index {bad.flat[0]} is out of bounds for dimension {d} with size {n}")


class IndexAdd(Function):
    """z = x with alpha * source[..., k, ...] added to the slice x[..., index[k], ...] along `dim` (an index may
    repeat: its slices add up);  dz/dx = g,  dz/dsource = alpha * the slices of g at `index`"""
    node_name = "IndexAddBackward0"
    saved_names = ("source",)
    saved_attrs = {"alpha": "alpha", "dim": "dim", "index": "saved_index", "source_dim": "source_dim"}

    @staticmethod
    def forward(x, dim, index, source, alpha):
        a, s = x._data, source._data
        d = dim_index(dim, a.ndim)
        _check_index_add(a, d, index, s)
        if a.dtype.kind in "iu":
            alpha = int(alpha)          # as torch: an integer tensor adds int(alpha) times the source
        out = a.reshape(a.shape or (1,)).copy()
        values = s if alpha == 1 else (s * alpha).astype(a.dtype)
        # add.at, not `+=`: an index may repeat. (A 0-d self and source count as one element each.)
        np.add.at(out, (slice(None),) * d + (index.reshape(-1),), values.reshape(values.shape or (1,)))
        return wrap(out.reshape(a.shape))

    @staticmethod
    def setup_context(ctx, inputs, output):
        _, ctx.dim, ctx.index, source, ctx.alpha = inputs
        ctx.saved_index, ctx.source_dim = wrap(ctx.index), source.dim()
        ctx.save_for_backward(source)

    @staticmethod
    def backward(ctx, grad):
        needs_x, _, _, needs_source, _ = ctx.needs_input_grad
        ctx.saved_tensors                   # only its dim is used, but like torch's it must be unchanged
        gsource = None
        if needs_source:
            gsource = IndexSelect.apply(grad, ctx.dim, ctx.index)
            if ctx.alpha != 1:
                gsource = gsource * ctx.alpha
        return (grad if needs_x else None), None, None, gsource, None

    jvp = linear
