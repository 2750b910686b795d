"""Reading and writing parts of a tensor: select, slice, advanced (index/mask) reads, and index_put writes.

The backward of a read puts the gradient into zeros at the read places; each of those scatters is an op too
(`SelectBackward`, `SliceBackward`, `IndexBackward`) whose own backward is the read again, so gradients of
gradients work.
"""
import numpy as np

from ..core.forward_ad import linear
from ..core.function import Function
from ..core.dtype import bool as bool_
from ..core.tensor import TensorBase
from ._common import grad_to, view_of, warn_in_user_code, wrap

INT64_MAX = 2**63 - 1       # torch saves an open slice end as this


def is_basic_index(index):
    """True for indices made only of ints, slices, None and `...`: they select a view, not a copy.

    A single bool (or 0-d bool tensor) counts too: PyTorch writes `t[True] = v` through a view (CopySlices).
    """
    items = index if isinstance(index, tuple) else (index,)
    return all(i is None or i is Ellipsis or isinstance(i, (slice, int, np.integer, np.bool_))
               or (isinstance(i, TensorBase) and i.dim() == 0 and i.dtype is bool_) for i in items)


def index_array(t):
    """The numpy array of index tensor `t`, read as PyTorch reads it: uint8 as a mask (deprecated), and no integer
    dtype but int64 and int32 unless 0-d (then it is an int)."""
    a = t._data
    if a.dtype == np.uint8:
        if a.ndim:
            warn_in_user_code("indexing with dtype torch.uint8 is now deprecated, please use a dtype torch.bool "
                              "instead.")
        return a.astype(np.bool_)
    if a.ndim and a.dtype.kind in "iu" and a.dtype not in (np.int64, np.int32):
        raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
    return a


def check_index(shape, index):
    """Raise PyTorch's IndexError for an advanced index (int arrays, masks) that does not fit `shape`."""
    items = index if isinstance(index, tuple) else (index,)
    if any(i is Ellipsis for i in items):
        return
    dim = 0
    for item in items:
        if item is None:
            continue
        if isinstance(item, slice) or isinstance(item, (int, np.integer)):
            dim += 1
            continue
        a = np.asarray(item)
        if a.dtype.kind == "b":
            for j, n in enumerate(a.shape):
                if dim + j < len(shape) and n != shape[dim + j]:
                    raise IndexError(f"The shape of the mask {list(a.shape)} at index {j} does not match the shape "
                                     f"of the indexed tensor {list(shape)} at index {dim + j}")
            dim += a.ndim
        elif a.dtype.kind not in "iu":
            raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
        else:
            if dim < len(shape) and a.size:
                n = shape[dim]
                bad = a[(a >= n) | (a < -n)]
                if bad.size:
                    raise IndexError(f"index {bad.flat[0]} is out of bounds for dimension {dim} with size {n}")
            dim += 1
    if dim > len(shape):
        raise IndexError(f"too many indices for tensor of dimension {len(shape)}")


class Select(Function):
    """z = x[..., i, ...] along `dim` (a view);  dz/dx = the gradient placed at i, zeros elsewhere"""
    node_name = "SelectBackward0"
    saved_attrs = {"dim": "dim", "index": "i", "self_sym_sizes": "shape"}

    @staticmethod
    def forward(x, dim, i):
        a = x._data
        n = a.shape[dim]
        if not -n <= i < n:
            raise IndexError(f"index {i} is out of bounds for dimension {dim} with size {n}")
        # the trailing `...` keeps a 0-d result a view (a[0] of a 1-D array would be a copied numpy scalar)
        return view_of(x, a[(slice(None),) * dim + (i, Ellipsis)])

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, ctx.dim, ctx.i = inputs
        ctx.shape = x._data.shape

    @staticmethod
    def backward(ctx, grad):
        return SelectBackward.apply(grad, ctx.shape, ctx.dim, ctx.i), None, None

    jvp = linear


class SelectBackward(Function):
    """z = zeros of `shape` with z[..., i, ...] = g along `dim` (torch's select_backward);  dz/dg = select again"""
    node_name = "SelectBackwardBackward0"
    saved_attrs = {"dim": "dim", "index": "i"}

    @staticmethod
    def forward(g, shape, dim, i):
        out = np.zeros(shape, g._data.dtype)
        out[(slice(None),) * dim + (i,)] = g._data
        return wrap(out)

    @staticmethod
    def setup_context(ctx, inputs, output):
        _, _, ctx.dim, ctx.i = inputs

    @staticmethod
    def backward(ctx, grad):
        return Select.apply(grad, ctx.dim, ctx.i), None, None, None

    jvp = linear


class Slice(Function):
    """z = x[start:stop:step] along `dim` (a view);  dz/dx = the gradient placed in that slice"""
    node_name = "SliceBackward0"
    saved_attrs = {"dim": "dim", "start": "start", "end": "end", "step": "step", "self_sym_sizes": "shape"}

    @staticmethod
    def forward(x, dim, s):
        if s.step is not None and s.step <= 0:
            raise ValueError("step must be greater than zero")
        return view_of(x, x._data[(slice(None),) * dim + (s,)])

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, dim, s = inputs
        ctx.shape = x._data.shape
        save_slice(ctx, dim, s)

    @staticmethod
    def backward(ctx, grad):
        return SliceBackward.apply(grad, ctx.shape, ctx.dim, ctx.s), None, None

    jvp = linear


class SliceBackward(Function):
    """z = zeros of `shape` with the slice s along `dim` set to g (torch's slice_backward);  dz/dg = slice again"""
    node_name = "SliceBackwardBackward0"
    saved_attrs = {"dim": "dim", "start": "start", "end": "end", "step": "step"}

    @staticmethod
    def forward(g, shape, dim, s):
        out = np.zeros(shape, g._data.dtype)
        out[(slice(None),) * dim + (s,)] = g._data
        return wrap(out)

    @staticmethod
    def setup_context(ctx, inputs, output):
        _, _, dim, s = inputs
        save_slice(ctx, dim, s)

    @staticmethod
    def backward(ctx, grad):
        return Slice.apply(grad, ctx.dim, ctx.s), None, None, None

    jvp = linear


def save_slice(ctx, dim, s):
    """Keep the slice for backward, and its parts as torch shows them: an open slice is 0, INT64_MAX, 1."""
    ctx.dim, ctx.s = dim, s
    ctx.start = 0 if s.start is None else s.start
    ctx.end = INT64_MAX if s.stop is None else s.stop
    ctx.step = 1 if s.step is None else s.step


class Index(Function):
    """z = x[index] with integer-array or boolean-mask indexing (a copy);  dz/dx = the gradient scattered back"""
    node_name = "IndexBackward0"
    saved_attrs = {"indices": "indices", "self_sym_sizes": "shape"}

    @staticmethod
    def forward(x, index):
        check_index(x._data.shape, index)
        return wrap(x._data[index])

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, ctx.index = inputs
        ctx.shape, ctx.indices = x._data.shape, torch_indices(ctx.index, x.dim())

    @staticmethod
    def backward(ctx, grad):
        return IndexBackward.apply(grad, ctx.shape, ctx.index), None

    jvp = linear


class IndexBackward(Function):
    """z = zeros of `shape` with g added at z[index] (index's backward: torch records `zeros.index_put_(index, g,
    accumulate=True)` as IndexPutImplBackward0);  dz/dg = the gradient read at index again"""
    node_name = "IndexPutImplBackward0"
    saved_attrs = {"accumulate": "accumulate", "indices": "indices"}

    @staticmethod
    def forward(g, shape, index):
        out = np.zeros(shape, g._data.dtype)
        np.add.at(out, index, g._data)     # add, not assign: an index may repeat
        return wrap(out)

    @staticmethod
    def setup_context(ctx, inputs, output):
        _, shape, ctx.index = inputs
        ctx.accumulate, ctx.indices = True, torch_indices(ctx.index, len(shape))

    @staticmethod
    def backward(ctx, grad):
        return Index.apply(grad, ctx.index), None, None

    jvp = linear


def torch_indices(index, ndim):
    """Return the index as torch saves it (`_saved_indices`): a tensor per indexed dim, None for a whole dim (`:`,
    `...`), trailing Nones left off."""
    items = index if isinstance(index, tuple) else (index,)
    out = []
    for item in items:
        if item is Ellipsis:
            used = sum(np.ndim(i) if np.asarray(i).dtype.kind == "b" else 1 for i in items
                       if i is not Ellipsis and i is not None)
            out += [None] * (ndim - used)
        elif isinstance(item, slice):
            out.append(None)
        elif item is not None:
            out.append(wrap(np.asarray(item)))
    while out and out[-1] is None:
        out.pop()
    return tuple(out)


class IndexPut(Function):
    """z = x with z[index] = v;  dz/dx = the gradient with the overwritten places zeroed,  dz/dv = its part there"""
    node_name = "IndexPutBackward0"
    saved_attrs = {"accumulate": "accumulate", "indices": "indices"}

    @staticmethod
    def forward(x, index, v, accumulate=False):
        check_index(x._data.shape, index)
        out = x._data.copy()
        if accumulate:          # `x.index_put(index, v, accumulate=True)`: repeated places add up
            np.add.at(out, index, np.broadcast_to(v._data, out[index].shape))
        else:
            out[index] = v._data
        return wrap(out)

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, ctx.index, v, *accumulate = inputs
        ctx.v_shape = v._data.shape
        ctx.accumulate, ctx.indices = bool(accumulate and accumulate[0]), torch_indices(ctx.index, x.dim())

    @staticmethod
    def backward(ctx, grad):
        needs_x, _, needs_v = ctx.needs_input_grad[:3]
        # torch's `grad.index_put(index, 0)`: the overwritten places got nothing from x (all of it, accumulating)
        gx = None
        if needs_x:
            gx = grad if ctx.accumulate else IndexPut.apply(grad, ctx.index, wrap(np.zeros((), grad._data.dtype)))
        gv = grad_to(Index.apply(grad, ctx.index), ctx.v_shape) if needs_v else None
        return gx, None, gv, None

    jvp = linear


class SetSlice(IndexPut):
    """z = x with a basic slice of it overwritten by v (PyTorch's node: CopySlices; the node class of an in-place
    op through a view, `_tensor/views.py`, has that name too)"""
    node_name = "CopySlices"
    saved_attrs = {}

    @staticmethod
    def setup_context(ctx, inputs, output):
        _, ctx.index, v = inputs
        ctx.v_shape, ctx.accumulate = v._data.shape, False


SetSlice._backward_cls.name = lambda self: "torch::autograd::CopySlices"
