"""`torch.linalg`, as far as minigrad goes: the cross product, the vector and Frobenius norms, the inverse, the
determinant (and its sign and log), and matrix powers (ops/determinant.py).

Decompositions and solvers (solve, svd, qr, eigh, cholesky, ...) are not implemented: minigrad teaches autograd,
and their backward formulas are chapters of numerical linear algebra of their own.
"""
from .ops import linalg as _linalg
from .ops.reduction import Norm as _Norm

from .ops.determinant import _LinAlgError as LinAlgError

__all__ = ["cross", "vector_norm", "matrix_norm", "norm", "inv", "det", "slogdet", "matrix_power", "LinAlgError"]


def cross(input, other, *, dim=-1):
    """The cross product of 3-vectors along `dim`, broadcast. Mirrors `torch.linalg.cross`."""
    return _linalg.LinalgCross.apply(input, other, dim)


def vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None):
    """(sum |x|**ord) ** (1/ord) over `dim` (all elements by default). Mirrors `torch.linalg.vector_norm`."""
    if dtype is not None:
        x = x.to(dtype)
    return _Norm.apply(x, ord, dim, keepdim)


def matrix_norm(A, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None):
    """The Frobenius norm of the matrices in the last two dims; other orders are not implemented."""
    if ord != "fro":
        raise NotImplementedError(f"minigrad implements linalg.matrix_norm for ord='fro' only, not ord={ord!r}")
    return vector_norm(A, 2, dim, keepdim, dtype=dtype)


def norm(A, ord=None, dim=None, keepdim=False, *, dtype=None):
    """The 2-norm of all elements (ord and dim None), a vector norm over one dim, or the Frobenius norm of
    matrices. Mirrors `torch.linalg.norm` for those cases."""
    if ord is None:
        return vector_norm(A, 2, dim, keepdim, dtype=dtype)
    if isinstance(dim, int) or (dim is None and A.dim() == 1):
        return vector_norm(A, ord, dim, keepdim, dtype=dtype)
    return matrix_norm(A, ord, (-2, -1) if dim is None else dim, keepdim, dtype=dtype)


def inv(A):
    """The inverse of each square matrix; a singular one raises LinAlgError. Mirrors `torch.linalg.inv`."""
    return A.inverse()


def det(A):
    return A.det()


def slogdet(A):
    """(sign, logabsdet) of each square matrix's determinant. Mirrors `torch.linalg.slogdet`."""
    return A.slogdet()


def matrix_power(A, n):
    return A.matrix_power(n)
