"""Gather and scatter along a dim: `x.gather(dim, index)`, `x.scatter(dim, index, src or value)`, `scatter_add`.

They are also how a gradient goes back to the positions that max(dim) and sort picked. Each one's backward is
the other one, so gradients of any order work. The index is a plain int array (like PyTorch's, it gets no edge).
"""
import numpy as np

from ..core.forward_ad import linear
from ..core.function import Function
from ._common import dim_index, wrap


def value_selecting_reduction_backward(grad, dim, indices, shape, keepdim):
    """Send each gradient to the position its value was taken from (zeros elsewhere), for max/min(dim) and sort.

    Mirrors ATen's `value_selecting_reduction_backward`: `zeros(shape).scatter(dim, indices, grad)`.

    Args:
        grad: the gradient of the values; indices: the int64 indices tensor the op returned.
        dim, keepdim: as given to the op; shape: the input's shape.
    """
    if not shape:                   # a 0-d input is its own max (or sort), at index 0
        return grad
    index = indices._data
    if not keepdim:
        grad, index = grad.unsqueeze(dim), np.expand_dims(index, dim)
    return Scatter.apply(wrap(np.zeros(shape, grad._data.dtype)), dim, index, grad)


def _along(index, dim, ndim):
    """The numpy index of the places `index` points at along `dim` (elsewhere, the position in `index` itself).

    Like torch's, `index` may be smaller than the tensor in the other dims; `src` has the shape of `index`.
    """
    grid = list(np.indices(index.shape, sparse=True))
    grid[dim_index(dim, ndim)] = index
    return tuple(grid)


def _at_least_1d(a):
    return a if a.ndim else a.reshape(1)       # as ATen's ensure_nonempty_dim: a 0-d tensor counts as one element


def _check(name, a, dim, index, src=None):
    """PyTorch's checks of a gather or scatter: index dtype and dims, its size against self (and src), bounds."""
    d = dim_index(dim, a.ndim)
    if index.dtype.kind not in "iu":
        raise RuntimeError(f"{name}(): Expected dtype int32/int64 for index")
    if src is not None and src.dtype != a.dtype:
        raise RuntimeError(f"{name}(): Expected self.dtype to be equal to src.dtype")
    n_dims = max(index.ndim, 1)
    if n_dims != max(a.ndim, 1):
        raise RuntimeError(f"Index tensor must have the same number of dimensions as "
                           f"{'input' if name == 'gather' else 'self'} tensor")
    if src is not None and n_dims != max(src.ndim, 1):
        raise RuntimeError("Index tensor must have the same number of dimensions as src tensor")
    shape, ishape = _at_least_1d(a).shape, _at_least_1d(index).shape
    if index.size:
        too_big = [k for k in range(n_dims) if k != d and ishape[k] > shape[k]]
        if name == "gather" and too_big:
            raise RuntimeError(f"Size does not match at dimension {too_big[0]} expected index {list(index.shape)} to "
                               f"be no larger than self {list(a.shape)} apart from dimension {d}")
        if src is not None and (too_big or any(i > s for i, s in zip(ishape, _at_least_1d(src).shape))):
            raise RuntimeError(f"Expected index {list(index.shape)} to be no larger than self {list(a.shape)} apart "
                               f"from dimension {d} and to be no larger size than src {list(src.shape)}")
        if too_big:
            raise RuntimeError(f"Expected index {list(index.shape)} to be no larger than self {list(a.shape)} apart "
                               f"from dimension {d}")
        bad = index[(index < 0) | (index >= shape[d])]
        if bad.size:
            raise RuntimeError(f"index {bad.flat[0]} is out of bounds for dimension {d} with size {shape[d]}")
    return d


def _written(x, dim, index, src=None):
    """A copy of x (at least 1-d), where in it `index` points, and the part of src (if any) that is written."""
    out = _at_least_1d(x._data).copy()
    index = _at_least_1d(index)
    where = _along(index, dim, out.ndim)
    if src is None:
        return out, where
    # src may be larger than index: only its first index.shape elements are written
    values = _at_least_1d(src._data)[tuple(slice(0, n) for n in index.shape)]
    return out, where, values


class Gather(Function):
    """z = x picked along `dim` at `index` (z[i][j] = x[i][index[i][j]] for dim 1);  dz/dx = g scatter-added back"""
    node_name = "GatherBackward0"
    saved_names = ("self",)
    saved_attrs = {"dim": "dim", "index": "saved_index", "sparse_grad": "sparse_grad"}

    @staticmethod
    def forward(x, dim, index):
        _check("gather", x._data, dim, index)
        a = _at_least_1d(x._data)
        return wrap(a[_along(_at_least_1d(index), dim, a.ndim)].reshape(index.shape))

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, ctx.dim, ctx.index = inputs
        ctx.shape, ctx.sparse_grad, ctx.saved_index = x._data.shape, False, wrap(ctx.index)
        ctx.save_for_backward(x)                # as torch, which version-checks it too

    @staticmethod
    def backward(ctx, grad):
        ctx.saved_tensors                       # only its shape is used, but like torch's it must be unchanged
        zeros = wrap(np.zeros(ctx.shape, grad._data.dtype))
        return ScatterAdd.apply(zeros, ctx.dim, ctx.index, grad), None, None

    jvp = linear


class Scatter(Function):
    """z = x with z[i][index[i][j]] = src[i][j] (for dim 1);  dz/dx = g, zero where src was written,  dz/dsrc =
    g gathered at `index`"""
    node_name = "ScatterBackward0"
    saved_attrs = {"dim": "dim", "index": "saved_index"}

    @staticmethod
    def forward(x, dim, index, src):
        _check("scatter", x._data, dim, index, src._data)
        out, where, values = _written(x, dim, index, src)
        out[where] = values
        return wrap(out.reshape(x._data.shape))

    @staticmethod
    def setup_context(ctx, inputs, output):
        _, ctx.dim, ctx.index, _ = inputs
        ctx.saved_index = wrap(ctx.index)

    @staticmethod
    def backward(ctx, grad):
        needs_x, _, _, needs_src = ctx.needs_input_grad
        # torch's `grad.scatter(dim, index, 0)`: the written places got nothing from x
        gx = ScatterValue.apply(grad, ctx.dim, ctx.index, 0) if needs_x else None
        gsrc = Gather.apply(grad, ctx.dim, ctx.index) if needs_src else None
        return gx, None, None, gsrc

    jvp = linear


class ScatterValue(Function):
    """z = x with z[i][index[i][j]] = value (for dim 1);  dz/dx = g, zero where value was written"""
    node_name = "ScatterBackward1"
    saved_attrs = {"dim": "dim", "index": "saved_index"}

    @staticmethod
    def forward(x, dim, index, value):
        _check("scatter", x._data, dim, index)
        out, where = _written(x, dim, index)
        out[where] = np.array(value).astype(out.dtype)      # cast as torch does: 2.7 into an int64 tensor is 2
        return wrap(out.reshape(x._data.shape))

    @staticmethod
    def setup_context(ctx, inputs, output):
        _, ctx.dim, ctx.index, _ = inputs
        ctx.saved_index = wrap(ctx.index)

    @staticmethod
    def backward(ctx, grad):
        return ScatterValue.apply(grad, ctx.dim, ctx.index, 0), None, None, None

    @staticmethod
    def jvp(ctx, tx, tdim, tindex, tvalue):
        return ScatterValue.apply(tx, ctx.dim, ctx.index, 0)


class ScatterAdd(Scatter):
    """z = x with z[i][index[i][j]] += src[i][j] (for dim 1);  dz/dx = g,  dz/dsrc = g gathered at `index`"""
    node_name = "ScatterAddBackward0"

    @staticmethod
    def forward(x, dim, index, src):
        _check("scatter", x._data, dim, index, src._data)
        out, where, values = _written(x, dim, index, src)
        np.add.at(out, where, values)        # add.at, not assignment: an index may repeat
        return wrap(out.reshape(x._data.shape))

    @staticmethod
    def backward(ctx, grad):
        needs_x, _, _, needs_src = ctx.needs_input_grad
        gsrc = Gather.apply(grad, ctx.dim, ctx.index) if needs_src else None
        return (grad if needs_x else None), None, None, gsrc

