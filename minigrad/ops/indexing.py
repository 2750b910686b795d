"""Reading and writing parts of a tensor: select, slice, advanced (index/mask) reads, and index_put writes."""
import numpy as np

from ..autograd.function import Function
from .._dtype import bool as bool_
from .._tensor import Tensor
from ._common import grad_to, grad_to_array, view_of, wrap


def is_basic_index(index):
    """True for indices made only of ints, slices, None and `...`: they select a view, not a copy.

    A single bool (or 0-d bool tensor) counts too: PyTorch writes `t[True] = v` through a view (CopySlices).
    """
    items = index if isinstance(index, tuple) else (index,)
    return all(i is None or i is Ellipsis or isinstance(i, (slice, int, np.integer, np.bool_))
               or (isinstance(i, Tensor) and i.dim() == 0 and i.dtype is bool_) for i in items)


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
        out = np.zeros(ctx.shape, grad._data.dtype)
        out[(slice(None),) * ctx.dim + (ctx.i,)] = grad._data
        return wrap(out), None, None


class Slice(Function):
    """z = x[start:stop:step] along `dim` (a view);  dz/dx = the gradient placed in that slice"""
    node_name = "SliceBackward0"

    @staticmethod
    def forward(x, dim, s):
        if s.step is not None and s.step <= 0:
            raise ValueError("step must be greater than zero")
        return view_of(x, x._data[(slice(None),) * dim + (s,)])

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, ctx.dim, ctx.s = inputs
        ctx.shape = x._data.shape

    @staticmethod
    def backward(ctx, grad):
        out = np.zeros(ctx.shape, grad._data.dtype)
        out[(slice(None),) * ctx.dim + (ctx.s,)] = grad._data
        return wrap(out), None, None


class Index(Function):
    """z = x[index] with integer-array or boolean-mask indexing (a copy);  dz/dx = the gradient scattered back"""
    node_name = "IndexBackward0"

    @staticmethod
    def forward(x, index):
        check_index(x._data.shape, index)
        return wrap(x._data[index])

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, ctx.index = inputs
        ctx.shape = x._data.shape

    @staticmethod
    def backward(ctx, grad):
        out = np.zeros(ctx.shape, grad._data.dtype)
        np.add.at(out, ctx.index, grad._data)     # add, not assign: an index may repeat
        return wrap(out), None


class IndexPut(Function):
    """z = x with z[index] = v;  dz/dx = the gradient with the overwritten places zeroed,  dz/dv = its part there"""
    node_name = "IndexPutBackward0"

    @staticmethod
    def forward(x, index, v):
        check_index(x._data.shape, index)
        out = x._data.copy()
        out[index] = v._data
        return wrap(out)

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, ctx.index, v = inputs
        ctx.v_shape = v._data.shape

    @staticmethod
    def backward(ctx, grad):
        g = grad._data
        gx = np.array(g)            # a copy, and an array even for a 0-d gradient
        gx[ctx.index] = 0
        return wrap(gx), None, grad_to_array(g[ctx.index], ctx.v_shape)


class CopySlices(IndexPut):
    """z = x with a basic slice of it overwritten by v (PyTorch calls this node CopySlices)"""
    node_name = "CopySlices"


CopySlices._backward_cls.name = lambda self: "torch::autograd::CopySlices"
