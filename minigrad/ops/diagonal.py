"""Diagonals and triangles of matrices: diagonal (a view), diag, diag_embed, tril and triu.

A diagonal's gradient is the gradient put on the diagonal of zeros (`DiagonalBackward`), and that op's gradient
is the diagonal again, so gradients of any order work.
"""
import numpy as np

from ..core.forward_ad import linear
from ..core.function import Function
from ._common import dim_index, view_of, wrap


def diagonal_of(a, offset, dim1, dim2):
    """numpy's diagonal of `a` (a view, the diagonal as its last axis), writable when `a` is, as torch's."""
    d = np.diagonal(a, offset, dim1, dim2)
    if a.flags.writeable:
        d.flags.writeable = True        # numpy hands out diagonals read-only, but they are views all the same
    return d


def _dims(dim1, dim2, ndim):
    """dim1 and dim2 counted from 0, or PyTorch's errors."""
    d1, d2 = dim_index(dim1, ndim), dim_index(dim2, ndim)
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    return d1, d2


class Diagonal(Function):
    """z = the elements x[..., i, ..., i + offset, ...] of dims dim1 and dim2, as a new last dim (a view);
    dz/dx = the gradient put on that diagonal, zeros elsewhere"""
    node_name = "DiagonalBackward0"
    saved_attrs = {"offset": "offset", "dim1": "dim1", "dim2": "dim2", "self_sym_sizes": "shape"}

    @staticmethod
    def forward(x, offset, dim1, dim2):
        return view_of(x, diagonal_of(x._data, offset, *_dims(dim1, dim2, x.dim())))

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, ctx.offset, ctx.dim1, ctx.dim2 = inputs
        ctx.shape = x._data.shape

    @staticmethod
    def backward(ctx, grad):
        return DiagonalBackward.apply(grad, ctx.shape, ctx.offset, ctx.dim1, ctx.dim2), None, None, None

    jvp = linear


class DiagonalCopy(Diagonal):
    """z = a copy of the diagonal (what `torch.diag` gives for a matrix);  dz/dx = the gradient on the diagonal"""
    node_name = "DiagonalBackward0_copy"

    @staticmethod
    def forward(x, offset, dim1, dim2):
        return wrap(np.diagonal(x._data, offset, *_dims(dim1, dim2, x.dim())).copy())


class DiagonalBackward(Function):
    """z = zeros of `shape` with g on the diagonal (torch's diagonal_backward);  dz/dg = the diagonal again"""
    node_name = "DiagonalBackwardBackward0"
    saved_attrs = {"offset": "offset", "dim1": "dim1", "dim2": "dim2"}

    @staticmethod
    def forward(g, shape, offset, dim1, dim2):
        out = np.zeros(shape, g._data.dtype)
        diagonal_of(out, offset, *_dims(dim1, dim2, len(shape)))[...] = g._data
        return wrap(out)

    @staticmethod
    def setup_context(ctx, inputs, output):
        _, _, ctx.offset, ctx.dim1, ctx.dim2 = inputs

    @staticmethod
    def backward(ctx, grad):
        return Diagonal.apply(grad, ctx.offset, ctx.dim1, ctx.dim2), None, None, None, None

    jvp = linear


class DiagEmbed(Function):
    """z = zeros with x's last dim laid on the diagonal of (dim1, dim2) (torch.diag_embed, and torch.diag of a
    vector);  dz/dx = the gradient's diagonal"""
    node_name = "DiagEmbedBackward0"
    saved_attrs = {"offset": "offset", "dim1": "dim1", "dim2": "dim2"}

    @staticmethod
    def forward(x, offset, dim1, dim2):
        a = x._data
        d1, d2 = _dims(dim1, dim2, a.ndim + 1)
        n = (a.shape[-1] if a.ndim else 1) + abs(offset)
        shape = list(a.shape[:-1])
        for d in sorted((d1, d2)):
            shape.insert(d, n)
        out = np.zeros(shape, a.dtype)
        diagonal_of(out, offset, d1, d2)[...] = a
        return wrap(out)

    @staticmethod
    def setup_context(ctx, inputs, output):
        _, ctx.offset, ctx.dim1, ctx.dim2 = inputs

    @staticmethod
    def backward(ctx, grad):
        return Diagonal.apply(grad, ctx.offset, ctx.dim1, ctx.dim2), None, None, None

    jvp = linear


def _check_matrices(name, x):
    if x.dim() < 2:
        raise RuntimeError(f"{name}: input tensor must have at least 2 dimensions")


class Tril(Function):
    """z = x with the elements above diagonal k of its last two dims set to 0;  dz/dx = the gradient's tril"""
    node_name = "TrilBackward0"
    saved_attrs = {"diagonal": "k"}

    @staticmethod
    def forward(x, k):
        _check_matrices("tril", x)
        return wrap(np.tril(x._data, k))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.k = inputs[1]

    @staticmethod
    def backward(ctx, grad):
        return Tril.apply(grad, ctx.k), None

    jvp = linear


class Triu(Tril):
    """z = x with the elements below diagonal k of its last two dims set to 0;  dz/dx = the gradient's triu"""
    node_name = "TriuBackward0"

    @staticmethod
    def forward(x, k):
        _check_matrices("triu", x)
        return wrap(np.triu(x._data, k))

    @staticmethod
    def backward(ctx, grad):
        return Triu.apply(grad, ctx.k), None

    jvp = linear


class Trace(Function):
    """z = the sum of a matrix's diagonal x[i, i];  dz/dx = the gradient on the diagonal of zeros"""
    node_name = "TraceBackward0"
    saved_attrs = {"self_sym_sizes": "shape"}

    @staticmethod
    def forward(x):
        a = x._data
        if a.ndim != 2:
            raise RuntimeError(f"trace: expected a matrix, but got tensor with dim {a.ndim}")
        if a.dtype == np.bool_:
            raise NotImplementedError("\"trace\" not implemented for 'Bool'")
        out = np.trace(a)
        return wrap(out if a.dtype.kind == "f" else np.asarray(out, np.int64))    # integers sum to int64

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.shape = inputs[0]._data.shape

    @staticmethod
    def backward(ctx, grad):
        return grad * wrap(np.eye(*ctx.shape, dtype=grad._data.dtype))

    jvp = linear
