"""Cutting a tensor into pieces that are views of it: split (equal sizes or given sizes), unbind, and narrow.

`chunk` is a split too (see `Tensor.chunk`). Each piece shares memory with the tensor it was cut from; the
gradient of the whole is the pieces' gradients put back together (cat for split, stack for unbind), with zeros
for a piece that got none.
"""
from ..core.forward_ad import linear
from ..core.function import Function
from ._common import dim_index, view_of
from .indexing import Slice
from .join import Cat, Stack


def dim_of_nonscalar(dim, ndim):
    """`dim` counted from 0, for ops that refuse a 0-d tensor with PyTorch's IndexError (unbind, roll)."""
    d = dim_index(dim, ndim)          # a 0-d tensor takes dims 0 and -1 here, as in PyTorch, ...
    if ndim == 0:                     # ... and fails on the size lookup after
        raise IndexError(f"Dimension specified as {d} but tensor has no dimensions")
    return d


def _pieces(x, dim, sizes):
    """Views of x along `dim`, one per size, one after the other."""
    a, start, out = x._data, 0, []
    lead = (slice(None),) * dim
    for n in sizes:
        out.append(view_of(x, a[lead + (slice(start, start + n),)]))
        start += n
    return tuple(out)


class Split(Function):
    """z_k = x[k*s : (k+1)*s] along `dim` (views; the last piece may be shorter);
    dz/dx = the pieces' gradients joined again along `dim`"""
    node_name = "SplitBackward0"
    saved_attrs = {"dim": "saved_dim", "self_sym_sizes": "shape", "split_size": "split_size"}

    @staticmethod
    def forward(x, split_size, dim):
        a = x._data
        if a.ndim == 0:
            raise RuntimeError("split expects at least a 1-dimensional tensor")
        if split_size < 0:
            raise RuntimeError(f"split expects split_size be non-negative, but got split_size={split_size}")
        d = dim_index(dim, a.ndim)
        n = a.shape[d]
        if split_size == 0 and n != 0:
            raise RuntimeError(f"split_size can only be 0 if dimension size is 0, but got dimension size of {n}")
        if n == 0:
            return _pieces(x, d, [0])           # an empty dim still gives one (empty) piece
        return _pieces(x, d, [min(split_size, n - start) for start in range(0, n, split_size)])

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, ctx.split_size, ctx.saved_dim = inputs
        ctx.shape, ctx.dim = x._data.shape, dim_index(ctx.saved_dim, x.dim())

    @staticmethod
    def backward(ctx, *grads):
        return Cat.apply(ctx.dim, *grads), None, None

    jvp = linear


class SplitWithSizes(Split):
    """z_k = the k-th piece of x along `dim`, of length sizes[k] (views);  dz/dx = the pieces' gradients joined"""
    node_name = "SplitWithSizesBackward0"
    saved_attrs = {"dim": "saved_dim", "self_sym_sizes": "shape", "split_sizes": "split_size"}

    @staticmethod
    def forward(x, sizes, dim):
        a = x._data
        if a.ndim == 0:
            raise RuntimeError("split expects at least a 1-dimensional tensor")
        d = dim_index(dim, a.ndim)
        n = a.shape[d]
        if any(s < 0 for s in sizes):
            raise RuntimeError(f"split_with_sizes expects split_sizes have only non-negative entries, but got "
                               f"split_sizes={list(sizes)}")
        if sum(sizes) != n:
            raise RuntimeError(f"split_with_sizes expects split_sizes to sum exactly to {n} (input tensor's size at "
                               f"dimension {d}), but got split_sizes={list(sizes)}")
        return _pieces(x, d, sizes)


class Unbind(Function):
    """z_i = x[..., i, ...] along `dim`, for every i (views);  dz/dx = the gradients stacked along `dim`"""
    node_name = "UnbindBackward0"
    saved_attrs = {"dim": "saved_dim"}

    @staticmethod
    def forward(x, dim):
        a = x._data
        d = dim_of_nonscalar(dim, a.ndim)
        lead = (slice(None),) * d
        # the trailing `...` keeps each piece a numpy view even when it is 0-d
        return tuple(view_of(x, a[lead + (i, Ellipsis)]) for i in range(a.shape[d]))

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, ctx.saved_dim = inputs
        ctx.dim = dim_index(ctx.saved_dim, x.dim())

    @staticmethod
    def backward(ctx, *grads):
        return Stack.apply(ctx.dim, *grads), None

    jvp = linear


class Narrow(Slice):
    """z = x[start : start + length] along `dim` (a view: PyTorch records it as a slice);
    dz/dx = the gradient placed in that slice, zeros elsewhere"""
    node_name = "SliceBackward0"
    saved_attrs = dict(Slice.saved_attrs, dim="saved_dim")     # the dim as given, e.g. -1

    @staticmethod
    def forward(x, dim, s):
        return Slice.forward(x, dim_index(dim, x.dim()), s)

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, dim, s = inputs
        Slice.setup_context(ctx, (x, dim_index(dim, x.dim()), s), output)
        ctx.saved_dim = dim


def narrow_slice(x, dim, start, length):
    """The slice that `x.narrow(dim, start, length)` takes, checked as PyTorch checks it."""
    if x.dim() == 0:
        raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
    if length < 0:
        raise RuntimeError("narrow(): length must be non-negative.")
    n = x._data.shape[dim_index(dim, x.dim())]
    if not -n <= start <= n:
        raise IndexError(f"start out of range (expected to be in range of [{-n}, {n}], but got {start})")
    if start < 0:
        start += n
    if start > n - length:
        raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size ({n}).")
    return slice(start, start + length)
