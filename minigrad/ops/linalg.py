"""Matrix products: mm, mv, dot, bmm, and `matmul`, which dispatches to them as PyTorch does; then the products
that add to a tensor, `beta * input + alpha * product`: addmm (Linear's op), addmv, addr, baddbmm, addbmm; and
kron and the cross product. (Past 400 lines because it is one family: every product is an mm, mv or bmm of the
ones above, and their backwards call each other.)"""
import numpy as np

from ..core.forward_ad import bilinear, from_backward
from ..core.function import Function
from ..core.dtype import cpp_name, scalar_name
from ._common import broadcast_shapes, dim_index, grad_to, warn_in_user_code, wrap
from .shape import SqueezeLast, UnsafeView, _expanded_shape


def _check_same_dtype(a, b):
    if a.dtype != b.dtype:
        raise RuntimeError(f"expected m1 and m2 to have the same dtype, but got: {cpp_name(a.dtype)} != "
                           f"{cpp_name(b.dtype)}")


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



class Vdot(Dot):
    """z = sum(conj(x) * y), which is the dot product for real vectors (PyTorch's node: VdotBackward0)"""
    node_name = "VdotBackward0"
    saved_names = ("other", "self")

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


# ---- beta * input + alpha * (a product): one node each, saving alpha and beta as PyTorch does ---------------
def _plus(bias, product, beta, alpha, like):
    """beta * input + alpha * product, with input broadcast to the product's shape (PyTorch's expand error)."""
    if bias._data.shape != product.shape[product.ndim - bias._data.ndim:]:
        _expanded_shape(bias, product.shape)
    if bias._data.dtype != product.dtype:
        raise RuntimeError(f"self and mat2 must have the same dtype, but got {scalar_name(bias._data)} and "
                           f"{scalar_name(like)}")
    if beta == 1 and alpha == 1:
        return wrap(bias._data + product)        # Linear's case: no multiplications. perf: bench small_mlp
    scaled = product if alpha == 1 else product * product.dtype.type(alpha)
    return wrap(scaled if beta == 0 else bias._data * bias._data.dtype.type(beta) + scaled)


def _scaled(grad, factor):
    return grad if factor == 1 else grad * factor


def _save_product(ctx, inputs, output):
    """setup_context of addmv, addr, baddbmm, addbmm: beta, alpha, the input's shape, and both operands."""
    bias, a, b = inputs[:3]
    ctx.beta, ctx.alpha = inputs[3:] or (1, 1)
    ctx.bias_shape = bias._data.shape
    ctx.save_for_backward(a, b)


class Addmm(Function):
    """Z = beta * b + alpha * X @ W  (b broadcast; Linear passes W = weight.t());  dZ/db = beta * G summed to b's
    shape, dZ/dX = alpha * G @ W.T,  dZ/dW = alpha * X.T @ G"""
    node_name = "AddmmBackward0"
    saved_names = ("mat1", "mat2")
    saved_attrs = {"alpha": "alpha", "beta": "beta"}

    @staticmethod
    def forward(bias, x, w, beta=1, alpha=1):
        a, b = x._data, w._data
        if a.ndim != 2 or b.ndim != 2:
            raise RuntimeError(f"mat1 must be a matrix, got {a.ndim}-D tensor" if a.ndim != 2 else
                               f"mat2 must be a matrix, got {b.ndim}-D tensor")
        if a.shape[1] != b.shape[0]:
            raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({a.shape[0]}x{a.shape[1]} and "
                               f"{b.shape[0]}x{b.shape[1]})")
        if a.dtype != b.dtype:
            raise RuntimeError(f"mat1 and mat2 must have the same dtype, but got {scalar_name(a)} and "
                               f"{scalar_name(b)}")
        return _plus(bias, a @ b, beta, alpha, b)

    @staticmethod
    def setup_context(ctx, inputs, output):
        bias, x, w = inputs[:3]
        ctx.beta, ctx.alpha = inputs[3:] or (1, 1)
        ctx.bias_shape = bias._data.shape
        _, needs_x, needs_w = ctx.needs_input_grad[:3]     # as PyTorch, save only what a needed gradient uses
        ctx.save_for_backward(x if needs_w else None, w if needs_x else None)

    @staticmethod
    def backward(ctx, grad):
        x, w = ctx.saved_tensors
        needs_bias = ctx.needs_input_grad[0]
        return (_bias_grad(_scaled(grad, ctx.beta), ctx.bias_shape) if needs_bias else None,
                _scaled(grad.mm(w.t()), ctx.alpha) if w is not None else None,
                _scaled(x.t().mm(grad), ctx.alpha) if x is not None else None, None, None)

    @staticmethod
    def jvp(ctx, tbias, tx, tw, *_):
        bias, x, w = ctx.primals[:3]
        return _scaled(tbias, ctx.beta) + _scaled(tx @ w + x @ tw, ctx.alpha)


def _bias_grad(grad, shape):
    """The sum of G down to the bias's shape; for Linear's bias (one per column) that is the sum over rows."""
    # perf: 8 us less than sum_to_size's keepdim sum and view, 8 % of bench small_mlp_training
    return grad.sum(0) if shape == grad._data.shape[1:] else grad_to(grad, shape)


class Addmv(Function):
    """z = beta * b + alpha * M @ v;  dz/db = beta * g,  dz/dM = alpha * outer(g, v),  dz/dv = alpha * M.T @ g"""
    node_name = "AddmvBackward0"
    saved_names = ("mat", "vec")
    saved_attrs = {"alpha": "alpha", "beta": "beta"}

    @staticmethod
    def forward(bias, mat, vec, beta=1, alpha=1):
        m, v = mat._data, vec._data
        if m.ndim != 2 or v.ndim != 1 or m.shape[1] != v.shape[0] or bias._data.ndim > 1 \
                or bias._data.shape not in ((), (1,), (m.shape[0],)):
            raise RuntimeError(f"size mismatch, got input ({'x'.join(map(str, bias._data.shape))}), mat "
                               f"({'x'.join(map(str, m.shape))}), vec ({'x'.join(map(str, v.shape))})")
        return _plus(bias, m @ v, beta, alpha, v)

    setup_context = staticmethod(_save_product)

    @staticmethod
    def backward(ctx, grad):
        mat, vec = ctx.saved_tensors
        return (grad_to(_scaled(grad, ctx.beta), ctx.bias_shape), _scaled(grad.outer(vec), ctx.alpha),
                _scaled(mat.t().mv(grad), ctx.alpha), None, None)

    jvp = from_backward


class Addr(Function):
    """Z = beta * B + alpha * outer(u, v);  dZ/dB = beta * G,  dZ/du = alpha * G @ v,  dZ/dv = alpha * G.T @ u"""
    node_name = "AddrBackward0"
    saved_names = ("vec1", "vec2")
    saved_attrs = {"alpha": "alpha", "beta": "beta"}

    @staticmethod
    def forward(bias, u, v, beta=1, alpha=1):
        for name, t in (("vec1", u), ("vec2", v)):
            if t._data.ndim != 1:
                raise RuntimeError(f"addr: Expected 1-D argument {name}, but got {t._data.ndim}-D")
        return _plus(bias, np.multiply.outer(u._data, v._data), beta, alpha, v._data)

    setup_context = staticmethod(_save_product)

    @staticmethod
    def backward(ctx, grad):
        u, v = ctx.saved_tensors
        return (grad_to(_scaled(grad, ctx.beta), ctx.bias_shape), _scaled(grad.mv(v), ctx.alpha),
                _scaled(grad.t().mv(u), ctx.alpha), None, None)

    jvp = from_backward


def _check_batches(a, b):
    if a.ndim != 3 or b.ndim != 3:
        raise RuntimeError(f"batch{1 if a.ndim != 3 else 2} must be a 3D tensor")


class Baddbmm(Function):
    """Z[i] = beta * B[i] + alpha * X[i] @ W[i];  dZ/dB = beta * G summed to B's shape,  dZ/dX = alpha * G @ W^T,
    dZ/dW = alpha * X^T @ G"""
    node_name = "BaddbmmBackward0"
    saved_names = ("batch1", "batch2")
    saved_attrs = {"alpha": "alpha", "beta": "beta"}

    @staticmethod
    def forward(bias, x, w, beta=1, alpha=1):
        a, b = x._data, w._data
        _check_batches(a, b)
        if b.shape[:2] != (a.shape[0], a.shape[2]):
            raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: "
                               f"[{a.shape[0]}, {a.shape[2]}] but got: [{b.shape[0]}, {b.shape[1]}].")
        _check_same_dtype(a, b)
        return _plus(bias, np.matmul(a, b), beta, alpha, b)

    setup_context = staticmethod(_save_product)

    @staticmethod
    def backward(ctx, grad):
        x, w = ctx.saved_tensors
        return (grad_to(_scaled(grad, ctx.beta), ctx.bias_shape), _scaled(grad.bmm(w.transpose(1, 2)), ctx.alpha),
                _scaled(x.transpose(1, 2).bmm(grad), ctx.alpha), None, None)

    jvp = from_backward


class Addbmm(Function):
    """Z = beta * B + alpha * sum over i of X[i] @ W[i];  dZ/dB = beta * G,  dZ/dX[i] = alpha * G @ W[i]^T,
    dZ/dW[i] = alpha * X[i]^T @ G"""
    node_name = "AddbmmBackward0"
    saved_names = ("batch1", "batch2")
    saved_attrs = {"alpha": "alpha", "beta": "beta", "batch1_sym_argsize_0": "batches",
                   "batch1_sym_argsize_1": "rows", "batch2_sym_argsize_2": "columns"}

    @staticmethod
    def forward(bias, x, w, beta=1, alpha=1):
        a, b = x._data, w._data
        _check_batches(a, b)
        if a.shape[0] != b.shape[0]:
            raise RuntimeError(f"batch1 and batch2 must have same number of batches, got {a.shape[0]} and "
                               f"{b.shape[0]}")
        if a.shape[2] != b.shape[1]:
            raise RuntimeError(f"Incompatible matrix sizes for bmm ({a.shape[1]}x{a.shape[2]} and "
                               f"{b.shape[1]}x{b.shape[2]})")
        _check_same_dtype(a, b)
        return _plus(bias, np.matmul(a, b).sum(axis=0), beta, alpha, b)

    @staticmethod
    def setup_context(ctx, inputs, output):
        _save_product(ctx, inputs, output)
        x, w = inputs[1:3]
        ctx.batches, ctx.rows, ctx.columns = x.shape[0], x.shape[1], w.shape[2]

    @staticmethod
    def backward(ctx, grad):
        x, w = ctx.saved_tensors
        g = grad.unsqueeze(0).expand(ctx.batches, ctx.rows, ctx.columns)
        return (grad_to(_scaled(grad, ctx.beta), ctx.bias_shape), _scaled(g.bmm(w.transpose(1, 2)), ctx.alpha),
                _scaled(x.transpose(1, 2).bmm(g), ctx.alpha), None, None)

    jvp = from_backward


# ---- products built from others: kron (a view, a broadcast multiply, a view) and the cross product -----------
def kron(a, b):
    """The Kronecker product, as ATen's KronImpl: a's dims interleaved with size-1 dims, b's the other way
    round, one broadcast multiply, and a reshape that merges each pair of dims (three UnsafeView-Mul nodes)."""
    n = max(a.dim(), b.dim())
    sa = (1,) * (n - a.dim()) + tuple(a.shape)
    sb = (1,) * (n - b.dim()) + tuple(b.shape)
    a_shape = tuple(d for size in sa for d in (size, 1))
    b_shape = tuple(d for size in sb for d in (1, size))
    product = UnsafeView.apply(a, a_shape) * UnsafeView.apply(b, b_shape)
    return UnsafeView.apply(product, tuple(p * q for p, q in zip(sa, sb)))


class LinalgCross(Function):
    """z = a x b along `dim` (of size 3), broadcast;  dz/da = b x g,  dz/db = g x a"""
    node_name = "LinalgCrossBackward0"
    saved_names = ("other", "self")
    saved_attrs = {"dim": "dim"}

    @staticmethod
    def forward(a, b, dim=-1):
        x, y = a._data, b._data
        if x.ndim != y.ndim:
            raise RuntimeError("linalg.cross: inputs must have the same number of dimensions.")
        d = dim_index(dim, x.ndim)
        if x.shape[d] != 3 or y.shape[d] != 3:
            raise RuntimeError(f"linalg.cross: inputs dimension {dim} must have length 3. Got {x.shape[d]} and "
                               f"{y.shape[d]}")
        broadcast_shapes(x.shape, y.shape)
        if x.dtype != y.dtype:
            raise RuntimeError(f"expected scalar type {scalar_name(x)} but found {scalar_name(y)}")
        return wrap(np.cross(x, y, axis=d))

    @staticmethod
    def setup_context(ctx, inputs, output):
        a, b, ctx.dim = inputs
        ctx.shapes = (a._data.shape, b._data.shape)
        needs_a, needs_b = ctx.needs_input_grad[:2]
        ctx.save_for_backward(b if needs_a else None, a if needs_b else None)

    @staticmethod
    def backward(ctx, grad):
        b, a = ctx.saved_tensors
        return (grad_to(LinalgCross.apply(b, grad, ctx.dim), ctx.shapes[0]) if b is not None else None,
                grad_to(LinalgCross.apply(grad, a, ctx.dim), ctx.shapes[1]) if a is not None else None, None)

    @staticmethod
    def jvp(ctx, ta, tb, _tdim):
        a, b = ctx.primals[:2]
        return LinalgCross.apply(ta, b, ctx.dim) + LinalgCross.apply(a, tb, ctx.dim)


_CROSS_WARNED = []


def cross(a, b, dim=None):
    """torch.cross: linalg.cross along `dim`; without it (deprecated, as PyTorch warns), along the first dim of
    size 3."""
    if dim is None and not _CROSS_WARNED:
        _CROSS_WARNED.append(True)          # PyTorch warns once per process (TORCH_WARN_ONCE)
        warn_in_user_code("Using torch.cross without specifying the dim arg is deprecated.\nPlease either pass the "
                          "dim explicitly or simply use torch.linalg.cross.\nThe default value of dim will change to "
                          "agree with that of linalg.cross in a future release.")
    if dim is None:
        shape = broadcast_shapes(tuple(a.shape), tuple(b.shape))
        dim = next((d for d, n in enumerate(shape) if n == 3), None)
        if dim is None:
            raise RuntimeError("no dimension of size 3 in input")
    return LinalgCross.apply(a, b, dim)


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

