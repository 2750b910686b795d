"""The inverse and the determinant of square matrices (batched over leading dims): `torch.inverse`
(`linalg.inv`), `torch.det`, `torch.slogdet`, and `torch.logdet` on top of slogdet, as ATen builds it.

numpy computes them (LAPACK, as ATen's CPU kernels). The derivatives are the classic ones, written in Tensor ops
so that every order exists: d(A^-1) = -A^-1 dA A^-1, so the gradient of the inverse is -A^-T G A^-T;
d det A = det A tr(A^-1 dA), so the determinant's gradient is g det(A) A^-T; d log|det A| = tr(A^-1 dA).
At a singular A PyTorch's determinant gradient is 0 (det(A) = 0 times a finite factor from its LU
decomposition), though the derivative there is the cofactor matrix; minigrad gives PyTorch's 0.
"""
import numpy as np

from ..core.dtype import scalar_name
from ..core.forward_ad import from_backward
from ..core.function import Function
from ._common import wrap


class _LinAlgError(RuntimeError):
    """PyTorch's error for a matrix that cannot be inverted or factored (`torch.linalg.LinAlgError`)."""


def check_square(name, a):
    """ATen's checks: floats, at least 2-D, square."""
    if a.dtype.kind != "f":
        raise RuntimeError(f"{name}: Expected a floating point or complex tensor as input. Got {scalar_name(a)}")
    if a.ndim < 2:
        raise RuntimeError(f"{name}: The input tensor A must have at least 2 dimensions.")
    if a.shape[-1] != a.shape[-2]:
        raise RuntimeError(f"{name}: A must be batches of square matrices, but they are {a.shape[-2]} by "
                           f"{a.shape[-1]} matrices")


def _first_zero_pivot(m):
    """LAPACK getf2's `info` for one matrix: the 1-based step whose pivot (the largest |value| left in its
    column) is 0, or 0; partial pivoting as LAPACK does it."""
    a = m.astype(np.float64).copy()
    n, info = a.shape[0], 0
    for j in range(n):
        p = j + int(np.argmax(np.abs(a[j:, j])))
        if a[p, j] == 0:
            info = info or j + 1
            continue
        a[[j, p]] = a[[p, j]]
        a[j + 1:, j] /= a[j, j]
        a[j + 1:, j + 1:] -= np.outer(a[j + 1:, j], a[j, j + 1:])
    return info


class Inverse(Function):
    """Z = A^-1;  dZ/dA (vector-Jacobian, for G) = -Z^T G Z^T"""
    node_name = "LinalgInvExBackward0"
    saved_names = ("inverse",)

    @staticmethod
    def forward(x):
        a = x._data
        check_square("linalg.inv", a)
        try:
            return wrap(np.linalg.inv(a).astype(a.dtype))
        except np.linalg.LinAlgError:
            flat = a.reshape((-1,) + a.shape[-2:])
            for k, m in enumerate(flat):
                info = _first_zero_pivot(m)
                if info:
                    where = f"(Batch element {k}): " if a.ndim > 2 else ""
                    raise _LinAlgError(f"linalg.inv: {where}The diagonal element {info} is zero, the inversion "
                                       "could not be completed because the input matrix is singular.") from None
            raise

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(output)

    @staticmethod
    def backward(ctx, grad):
        (z,) = ctx.saved_tensors
        zt = z.transpose(-2, -1)
        return -(zt.matmul(grad).matmul(zt))

    jvp = from_backward


class Det(Function):
    """z = det(A);  dz/dA = g z A^-T (0 where A is singular, as PyTorch's)"""
    node_name = "LinalgDetBackward0"
    saved_names = ("A", "result")

    @staticmethod
    def forward(x):
        a = x._data
        check_square("linalg.det", a)
        return wrap(np.asarray(np.linalg.det(a), a.dtype))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0], output)

    @staticmethod
    def backward(ctx, grad):
        x, z = ctx.saved_tensors
        g = (grad * z).unsqueeze(-1).unsqueeze(-1)
        if np.all(z._data != 0):
            return g * Inverse.apply(x).transpose(-2, -1)
        # singular matrices: PyTorch's 0 there, and g z A^-T for the others (A^-1 of a singular one set to 0)
        singular = z._data == 0
        safe = x._data.copy()
        safe[singular] = np.eye(x._data.shape[-1], dtype=safe.dtype)
        return g * Inverse.apply(wrap(safe)).transpose(-2, -1)

    jvp = from_backward


class Slogdet(Function):
    """sign, logabsdet = the sign of det(A) and log|det(A)|;  d logabsdet/dA = A^-T (the sign's gradient is 0)"""
    node_name = "LinalgSlogdetBackward0"
    saved_names = ("A", "sign")

    @staticmethod
    def forward(x):
        a = x._data
        check_square("linalg.slogdet", a)
        sign, logabsdet = np.linalg.slogdet(a)
        return wrap(np.asarray(sign, a.dtype)), wrap(np.asarray(logabsdet, a.dtype))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0], output[0])     # PyTorch records the sign too (its gradient is ignored)

    @staticmethod
    def backward(ctx, _grad_sign, grad):
        x, _ = ctx.saved_tensors
        if grad is None:
            return None
        return grad.unsqueeze(-1).unsqueeze(-1) * Inverse.apply(x).transpose(-2, -1)

    jvp = from_backward
