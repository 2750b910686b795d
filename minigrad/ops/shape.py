"""Ops that change the shape but not the values, as views sharing memory (copies: `copies.py`)."""
import math

import numpy as np

from ..core.forward_ad import linear
from ..core.function import Function
from ._common import dim_index, view_of, wrap


class View(Function):
    """z = x seen with a new shape (same memory);  dz/dx = the gradient reshaped back"""
    node_name = "ViewBackward0"
    saved_attrs = {"self_sym_sizes": "shape"}

    @staticmethod
    def forward(x, shape):
        a = x._data.view()
        check_shape(shape, a.size)
        try:
            a.shape = shape     # assigning the shape never copies: it fails if a copy would be needed
        except AttributeError:
            raise RuntimeError("view size is not compatible with input tensor's size and stride (at least one "
                               "dimension spans across two contiguous subspaces). Use .reshape(...) "
                               "instead.") from None
        return view_of(x, a)

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.shape = inputs[0]._data.shape

    @staticmethod
    def backward(ctx, grad):
        return grad.reshape(ctx.shape), None

    jvp = linear


def check_shape(shape, size):
    """Raise PyTorch's error if `shape` (which may hold one -1) cannot hold `size` elements."""
    for i, n in enumerate(shape):
        if n < -1:
            raise RuntimeError(f"invalid shape dimension {n} at index {i} of shape {list(shape)}")
    if list(shape).count(-1) > 1:
        raise RuntimeError("only one dimension can be inferred")
    # perf: math.prod, not np.prod: 3.6 -> 0.6 us, paid twice by every reshape and once by its backward
    known = int(math.prod([n for n in shape if n != -1]))
    if (size != known) if -1 not in shape else (known == 0 or size % known):
        raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {size}")


class UnsafeView(View):
    """z = a copy of x with a new shape (what reshape does when a view is impossible)"""
    node_name = "UnsafeViewBackward0"

    @staticmethod
    def forward(x, shape):
        # x is a temporary (a clone, a matmul's result), so like PyTorch's _unsafe_view the result is not a view
        return wrap(View.forward(x, shape)._data)


class ReshapeAlias(View):
    """z = a non-contiguous x seen with a new shape (what reshape does when x is not contiguous but a view works)"""
    node_name = "ReshapeAliasBackward0"


class Alias(Function):
    """z = x itself, as a new tensor over the same memory (what `x[...]` gives);  dz/dx = 1"""
    node_name = "AliasBackward0"

    @staticmethod
    def forward(x):
        return view_of(x, x._data.view())

    @staticmethod
    def setup_context(ctx, inputs, output):
        pass

    @staticmethod
    def backward(ctx, grad):
        return grad

    jvp = linear


class Transpose(Function):
    """z = x with dims d0 and d1 swapped;  dz/dx = the gradient swapped back"""
    node_name = "TransposeBackward0"
    saved_attrs = {"dim0": "d0", "dim1": "d1"}

    @staticmethod
    def forward(x, d0, d1):
        n = x.dim()
        return view_of(x, np.swapaxes(x._data, dim_index(d0, n), dim_index(d1, n)) if n else x._data.view())

    @staticmethod
    def setup_context(ctx, inputs, output):
        _, ctx.d0, ctx.d1 = inputs

    @staticmethod
    def backward(ctx, grad):
        return grad.transpose(ctx.d0, ctx.d1), None, None

    jvp = linear


class Permute(Function):
    """z = x with its dims reordered: z's dim i is x's dim dims[i];  dz/dx = the gradient with the inverse order"""
    node_name = "PermuteBackward0"
    saved_attrs = {"dims": "saved_dims"}

    @staticmethod
    def forward(x, dims):
        n = x.dim()
        if len(dims) != n:
            raise RuntimeError("permute(sparse_coo): number of dimensions in the tensor input does not match the "
                               f"length of the desired ordering of dimensions i.e. input.dim() = {n} is not equal "
                               f"to len(dims) = {len(dims)}")
        for d in dims:
            if not -max(n, 1) <= d < max(n, 1):
                raise IndexError(f"Dimension out of range (expected to be in range of [{-max(n, 1)}, "
                                 f"{max(n, 1) - 1}], but got {d})")
        dims = tuple(d % n for d in dims) if n else ()
        if len(set(dims)) != n:
            raise RuntimeError("permute(): duplicate dims are not allowed.")
        return view_of(x, x._data.transpose(dims))

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, dims = inputs
        ctx.dims = tuple(d % x.dim() for d in dims) if x.dim() else ()
        ctx.saved_dims = tuple(dims)

    @staticmethod
    def backward(ctx, grad):
        return grad.permute(np.argsort(ctx.dims).tolist()), None

    jvp = linear


class T(Function):
    """z = x transposed (at most 2-D);  dz/dx = the gradient transposed"""
    node_name = "TBackward0"

    @staticmethod
    def forward(x):
        if x.dim() > 2:
            raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {x.dim()}D")
        return view_of(x, x._data.T)

    @staticmethod
    def setup_context(ctx, inputs, output):
        pass

    @staticmethod
    def backward(ctx, grad):
        return grad.t()

    jvp = linear


class Unsqueeze(Function):
    """z = x with a new axis of size 1 at `dim`;  dz/dx = the gradient with that axis removed"""
    node_name = "UnsqueezeBackward0"
    saved_attrs = {"dim": "dim"}

    @staticmethod
    def forward(x, dim):
        return view_of(x, np.expand_dims(x._data, dim_index(dim, x.dim() + 1)))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.dim = inputs[1]

    @staticmethod
    def backward(ctx, grad):
        # squeeze(dim) undoes unsqueeze(dim), negative dims included: the gradient has the new axis
        return grad.squeeze(ctx.dim), None

    jvp = linear


class Squeeze(Function):
    """z = x without its axes of size 1;  dz/dx = the gradient reshaped back"""
    node_name = "SqueezeBackward0"
    saved_attrs = {"self_sym_sizes": "shape"}

    @staticmethod
    def forward(x):
        return view_of(x, x._data.squeeze())

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.shape = inputs[0]._data.shape

    @staticmethod
    def backward(ctx, grad):
        return grad.reshape(ctx.shape)

    jvp = linear


class SqueezeDim(Function):
    """z = x without axis `dim` if it has size 1;  dz/dx = the gradient with that axis put back"""
    node_name = "SqueezeBackward1"
    saved_attrs = {"dim": "dim", "self_sym_sizes": "shape"}

    @staticmethod
    def forward(x, dim):
        a = x._data
        dim = dim_index(dim, a.ndim)
        return view_of(x, a.squeeze(dim) if a.ndim and a.shape[dim] == 1 else a.view())

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, ctx.dim = inputs
        ctx.shape = x._data.shape

    @staticmethod
    def backward(ctx, grad):
        shape, dim = ctx.shape, ctx.dim
        # unsqueeze(dim) undoes squeeze(dim), negative dims included; a dim of another size was left alone
        return (grad.unsqueeze(dim) if shape and shape[dim] == 1 else grad), None

    jvp = linear


class SqueezeLast(SqueezeDim):
    """The squeeze that `vector @ matrix` ends with (PyTorch names its node SqueezeBackward4)"""
    node_name = "SqueezeBackward4"

    @staticmethod
    def forward(x, dim):
        # PyTorch squeezes its temporary product in place, so the result is not a view of anything
        out = wrap(SqueezeDim.forward(x, dim)._data)
        out._vc = x._shared_version_counter()
        return out


def _expanded_shape(x, shape):
    """Resolve the -1 entries of an `expand` shape, or raise PyTorch's error for one that does not fit."""
    a = x._data
    lead = len(shape) - a.ndim
    if lead < 0:
        raise RuntimeError(f"expand({x.type()}{{{list(a.shape)}}}, size={list(shape)}): the number of sizes "
                           f"provided ({len(shape)}) must be greater or equal to the number of dimensions in "
                           f"the tensor ({a.ndim})")
    for i, s in enumerate(shape):
        if i < lead and s == -1:
            raise RuntimeError(f"The expanded size of the tensor (-1) isn't allowed in a leading, non-existing "
                               f"dimension {i}")
    shape = tuple(a.shape[i - lead] if s == -1 else s for i, s in enumerate(shape))
    for i in reversed(range(lead, len(shape))):
        if a.shape[i - lead] not in (1, shape[i]):
            raise RuntimeError(f"The expanded size of the tensor ({shape[i]}) must match the existing size "
                               f"({a.shape[i - lead]}) at non-singleton dimension {i}.  Target sizes: "
                               f"{list(shape)}.  Tensor sizes: {list(a.shape)}")
    return shape


class Expand(Function):
    """z = x broadcast to `shape` (no copy);  dz/dx = the gradient summed over the broadcast axes"""
    node_name = "ExpandBackward0"
    saved_attrs = {"self_sym_sizes": "shape"}

    @staticmethod
    def forward(x, shape):
        a = x._data
        try:
            b = np.broadcast_to(a, shape)       # perf: the common case needs no checks of its own
        except ValueError:                      # -1 entries, or a shape numpy refuses: PyTorch's checks
            b = np.broadcast_to(a, _expanded_shape(x, shape))
        # a writable view with stride 0 along the broadcast dims, as torch's expand: writing into it writes into
        # the one element that all those positions share (see Tensor._inplace for what torch refuses)
        if a.flags.writeable:
            b.flags.writeable = True
        return view_of(x, b)

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.shape = inputs[0]._data.shape

    @staticmethod
    def backward(ctx, grad):
        return grad.sum_to_size(ctx.shape), None

    jvp = linear
