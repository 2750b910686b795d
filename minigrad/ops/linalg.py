"""Matrix products: mm, mv, dot, bmm, and `matmul`, which dispatches to them as PyTorch does."""
import numpy as np

from ..core.forward_ad import bilinear
from ..core.function import Function
from ..core.dtype import scalar_name
from ._common import wrap
from .shape import SqueezeLast, UnsafeView


_C_NAMES = {"float32": "float", "float64": "double", "int64": "long int", "bool": "bool"}   # C++ type names


def _check_same_dtype(a, b):
    if a.dtype != b.dtype:
        raise RuntimeError(f"expected m1 and m2 to have the same dtype, but got: {_C_NAMES[a.dtype.name]} != "
                           f"{_C_NAMES[b.dtype.name]}")


class Mm(Function):
    """Z = X @ W for matrices;  dZ/dX = G @ W.T,  dZ/dW = X.T @ G"""
    node_name = "MmBackward0"
    saved_names = ("mat2", "self")

    @staticmethod
    def forward(x, w):
        a, b = x._data, w._data
        if a.ndim != 2 or b.ndim != 2:
            raise RuntimeError("self must be a matrix" if a.ndim != 2 else "mat2 must be a matrix")
        if a.shape[1] != b.shape[0]:
            raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({a.shape[0]}x{a.shape[1]} and "
                               f"{b.shape[0]}x{b.shape[1]})")
        _check_same_dtype(a, b)
        return wrap(a @ b)

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, w = inputs
        needs_x, needs_w = ctx.needs_input_grad     # save only what a needed gradient uses (w first, as PyTorch)
        ctx.save_for_backward(w if needs_x else None, x if needs_w else None)

    @staticmethod
    def backward(ctx, grad):
        w, x = ctx.saved_tensors
        return (Mm.apply(grad, w.t()) if w is not None else None,
                Mm.apply(x.t(), grad) if x is not None else None)

    jvp = bilinear


class Mv(Function):
    """z = X @ v (matrix times vector);  dz/dX = outer(g, v),  dz/dv = X.T @ g"""
    node_name = "MvBackward0"
    saved_names = ("self", "vec")

    @staticmethod
    def forward(x, v):
        a, b = x._data, v._data
        if a.shape[1] != b.shape[0]:
            raise RuntimeError(f"size mismatch, got input ({a.shape[0]}), mat ({a.shape[0]}x{a.shape[1]}), "
                               f"vec ({b.shape[0]})")
        return wrap(a @ b)

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, v = inputs
        needs_x, needs_v = ctx.needs_input_grad
        ctx.save_for_backward(x if needs_v else None, v if needs_x else None)

    @staticmethod
    def backward(ctx, grad):
        x, v = ctx.saved_tensors
        return (grad.unsqueeze(1) * v if v is not None else None,      # the outer product of g and v
                Mv.apply(x.t(), grad) if x is not None else None)

    jvp = bilinear


class Dot(Function):
    """z = sum(x * y) for vectors;  dz/dx = g y,  dz/dy = g x"""
    node_name = "DotBackward0"
    saved_names = ("self", "tensor")

    @staticmethod
    def forward(x, y):
        a, b = x._data, y._data
        if a.ndim != 1 or b.ndim != 1:
            raise RuntimeError(f"1D tensors expected, but got {a.ndim}D and {b.ndim}D tensors")
        if a.dtype != b.dtype:
            raise RuntimeError(f"dot : expected both vectors to have same dtype, but found {scalar_name(a)} "
                               f"and {scalar_name(b)}")
        if a.shape != b.shape:
            raise RuntimeError("inconsistent tensor size, expected tensor [{}] and src [{}] to have the same "
                               "number of elements, but got {} and {} elements respectively"
                               .format(a.shape[0], b.shape[0], a.shape[0], b.shape[0]))
        return wrap(np.dot(a, b))

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, y = inputs
        needs_x, needs_y = ctx.needs_input_grad
        ctx.save_for_backward(x if needs_y else None, y if needs_x else None)

    @staticmethod
    def backward(ctx, grad):
        x, y = ctx.saved_tensors
        return (grad * y if y is not None else None,
                grad * x if x is not None else None)

    jvp = bilinear


class Bmm(Mm):  # the same saved tensors as Mm: only forward and backward differ
    """Z[b] = X[b] @ W[b] for a batch of matrices (3-D, same batch);  dZ/dX = G @ W^T,  dZ/dW = X^T @ G"""
    node_name = "BmmBackward0"

    @staticmethod
    def forward(x, w):
        a, b = x._data, w._data
        if a.ndim != 3 or b.ndim != 3:
            raise RuntimeError(f"batch{1 if a.ndim != 3 else 2} must be a 3D tensor")
        if b.shape[:2] != (a.shape[0], a.shape[2]):
            raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: "
                               f"[{a.shape[0]}, {a.shape[2]}] but got: [{b.shape[0]}, {b.shape[1]}].")
        _check_same_dtype(a, b)
        return wrap(np.matmul(a, b))

    @staticmethod
    def backward(ctx, grad):
        w, x = ctx.saved_tensors
        return (Bmm.apply(grad, w.transpose(1, 2)) if w is not None else None,
                Bmm.apply(x.transpose(1, 2), grad) if x is not None else None)


def matmul(x, y):
    """Multiply as `torch.matmul` does, built from the products above, so the graph has PyTorch's very nodes.

    1-D and 2-D operands use dot, mv or mm. A stack of matrices (3-D or more) times a matrix or vector is
    *folded*: its batch dims are merged into the rows of one mm or mv. Anything else is broadcast, reshaped to
    3-D and multiplied by bmm. (This follows ATen's `_matmul_impl` step by step.)

    Example:
        >>> (torch.randn(2, 3, 4, requires_grad=True) @ torch.randn(4, 5)).grad_fn
        <UnsafeViewBackward0 object at 0x...>
    """
    a, b = x.dim(), y.dim()
    if a == 0 or b == 0:
        raise RuntimeError(f"both arguments to matmul need to be at least 1D, but they are {a}D and {b}D")
    if a == 1 and b == 1:
        return Dot.apply(x, y)
    if a == 2 and b == 1:
        return Mv.apply(x, y)
    if a == 1 and b == 2:
        out = SqueezeLast.apply(Mm.apply(x.unsqueeze(0), y), 0)
        out._bump_version()         # PyTorch squeezes in place (squeeze_), which counts as a change
        return out
    if a == 2 and b == 2:
        return Mm.apply(x, y)
    if _should_fold(x, y):
        transpose = b > a         # (matrix or vector) @ stack: fold the transposed stack instead
        t1 = y.transpose(-2, -1) if transpose else x
        t2 = (x.t() if a == 2 else x) if transpose else y
        rows = tuple(t1.shape[:-1])
        folded = t1.reshape(int(np.prod(rows)), t1.shape[-1])
        if t2.dim() == 1:
            return UnsafeView.apply(Mv.apply(folded, t2), rows)
        out = UnsafeView.apply(Mm.apply(folded, t2), rows + (t2.shape[1],))
        return out.transpose(-2, -1).contiguous() if transpose else out

    n, m1 = (x.shape[-2] if a > 1 else 1), x.shape[-1]
    m2, p = (y.shape[-2] if b > 1 else y.shape[0]), (y.shape[-1] if b > 1 else 1)
    batch_x, batch_y = tuple(x.shape[:max(a - 2, 0)]), tuple(y.shape[:max(b - 2, 0)])
    if a == 3 and b == 3 and batch_x[0] != batch_y[0]:
        # a stack of one matrix that needs a gradient is squeezed, so that the fold above applies
        if batch_x[0] == 1 and x.requires_grad:
            return matmul(x.squeeze(0), y)
        if batch_y[0] == 1 and y.requires_grad:
            return matmul(x, y.squeeze(0))
    batch = _broadcast_shape(batch_x, batch_y)
    size = int(np.prod(batch))
    x3 = x.expand(batch + (n, m1)).reshape(size, n, m1)
    if b == 1:
        y3 = y.expand(batch + (m2,)).reshape(size, m2).unsqueeze(2)
        out = Bmm.apply(x3, y3).squeeze(-1)
    else:
        out = Bmm.apply(x3, y.expand(batch + (m2, p)).reshape(size, m2, p))
    return UnsafeView.apply(out, batch + ((n,) if a > 1 else ()) + ((p,) if b > 1 else ()))


def _should_fold(x, y):
    """True if the stack can be folded into one matrix without a copy (or a gradient is wanted for the other)."""
    larger, smaller = (x, y) if x.dim() >= y.dim() else (y, x)
    if not (larger.dim() >= 3 and smaller.dim() <= 2):
        return False
    if smaller.requires_grad:
        return True
    if x.dim() == 2:
        return False
    t1 = larger._data if larger is x else np.swapaxes(y._data, -2, -1)
    if t1.size == 0:
        return True
    # the batch dims must follow one another in memory, as in a contiguous tensor
    strides, shape = t1.strides, t1.shape
    return all(strides[i] == strides[i + 1] * shape[i + 1] for i in range(t1.ndim - 2))


def _broadcast_shape(s1, s2):
    """The broadcast of two batch shapes, with PyTorch's error when they do not match."""
    n = max(len(s1), len(s2))
    s1, s2 = (1,) * (n - len(s1)) + s1, (1,) * (n - len(s2)) + s2
    out = []
    for i, (u, v) in enumerate(zip(s1, s2)):
        if u != v and 1 not in (u, v):
            raise RuntimeError(f"The size of tensor a ({u}) must match the size of tensor b ({v}) at "
                               f"non-singleton dimension {i}")
        out.append(max(u, v) if 0 not in (u, v) else 0)
    return tuple(out)

