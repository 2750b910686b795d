"""The math methods of `Tensor`. Each one applies a built-in `Function` from `minigrad/ops/`.

Shape and indexing methods are in `_tensor_shape.py`, in-place ones in `_tensor_inplace.py`.
"""
import numpy as np

from ._tensor import Tensor
from .ops import arithmetic, linalg, reduction, unary
from .ops._common import as_operand as _as_tensor, dim_index, is_number as _is_number, operands


class _ReturnType(tuple):
    """A (values, indices) pair that prints like PyTorch's `torch.return_types.max(values=..., indices=...)`."""

    def __new__(cls, name, values, indices):
        self = super().__new__(cls, (values, indices))
        self._name = name
        return self

    values = property(lambda self: self[0])
    indices = property(lambda self: self[1])

    def __repr__(self):
        return f"torch.return_types.{self._name}(\nvalues={self[0]!r},\nindices={self[1]!r})"


class TensorOps:
    """Arithmetic, comparisons, elementwise functions, reductions and matrix products for `Tensor`."""

    # ---- arithmetic (a Python number on either side is wrapped into a tensor, as PyTorch does) ------------
    def __add__(self, other):
        return arithmetic.Add.apply(self, _as_tensor(other, self))

    __radd__ = __add__

    def __sub__(self, other):
        return arithmetic.Sub.apply(self, arithmetic.subtraction_operand(other, self))

    def __rsub__(self, other):
        if _is_number(other):
            return arithmetic.Rsub.apply(self, other)
        return _as_tensor(other, self) - self

    def __mul__(self, other):
        return arithmetic.Mul.apply(self, _as_tensor(other, self))

    __rmul__ = __mul__

    def __truediv__(self, other):
        return arithmetic.Div.apply(self, _as_tensor(other, self))

    def __rtruediv__(self, other):
        return arithmetic.Reciprocal.apply(self) * other

    def __pow__(self, exponent):
        if isinstance(exponent, Tensor):
            return arithmetic.PowTensor.apply(self, exponent)
        return arithmetic.Pow.apply(self, exponent)

    def __rpow__(self, base):
        if _is_number(base):
            return arithmetic.RPow.apply(self, base)
        return _as_tensor(base, self) ** self

    def __neg__(self):
        return arithmetic.Neg.apply(self)

    def __matmul__(self, other):
        return self.matmul(other)

    def __rmatmul__(self, other):
        return _as_tensor(other, self).matmul(self)

    def __abs__(self):
        return self.abs()

    def __iadd__(self, other):
        return self.add_(other)

    def __isub__(self, other):
        return self.sub_(other)

    def __imul__(self, other):
        return self.mul_(other)

    def __itruediv__(self, other):
        return self.div_(other)

    def add(self, other, alpha=1):
        return arithmetic.Add.apply(self, _as_tensor(other, self), alpha)

    def sub(self, other, alpha=1):
        return arithmetic.Sub.apply(self, arithmetic.subtraction_operand(other, self), alpha)

    def mul(self, other):
        return self * other

    def div(self, other):
        return self / other

    def pow(self, exponent):
        return self ** exponent

    def neg(self):
        return -self

    # ---- comparisons give bool tensors and are never recorded ----------------------------------------------
    def _compare(self, other, op):
        return Tensor._make(np.asarray(op(*operands(self, _as_tensor(other, self)))))

    def __lt__(self, other):
        return self._compare(other, np.less)

    def __le__(self, other):
        return self._compare(other, np.less_equal)

    def __gt__(self, other):
        return self._compare(other, np.greater)

    def __ge__(self, other):
        return self._compare(other, np.greater_equal)

    def __eq__(self, other):
        return self._compare(other, np.equal)

    def __ne__(self, other):
        return self._compare(other, np.not_equal)

    eq, ne, lt, le, gt, ge = __eq__, __ne__, __lt__, __le__, __gt__, __ge__

    # ---- elementwise functions -----------------------------------------------------------------------------
    def exp(self):
        return unary.Exp.apply(self)

    def log(self):
        return unary.Log.apply(self)

    def abs(self):
        return unary.Abs.apply(self)

    def sqrt(self):
        return unary.Sqrt.apply(self)

    def clamp(self, min=None, max=None):
        return unary.Clamp.apply(self, min, max)

    clip = clamp

    def relu(self):
        return unary.Relu.apply(self)

    def sigmoid(self):
        return unary.Sigmoid.apply(self)

    def tanh(self):
        return unary.Tanh.apply(self)

    # ---- reductions ----------------------------------------------------------------------------------------
    def sum(self, dim=None, keepdim=False, *, keepdims=None):
        if keepdims is not None:        # numpy's spelling, which PyTorch accepts too
            keepdim = keepdims
        if dim is None and not keepdim:
            return reduction.Sum.apply(self)
        # dim=None with keepdim=True keeps every dim, at size 1
        return reduction.SumDim.apply(self, tuple(range(self.dim())) if dim is None else dim, keepdim)

    def mean(self, dim=None, keepdim=False, *, keepdims=None):
        if keepdims is not None:
            keepdim = keepdims
        if dim is None and not keepdim:
            return reduction.Mean.apply(self)
        return reduction.MeanDim.apply(self, tuple(range(self.dim())) if dim is None else dim, keepdim)

    def max(self, dim=None, keepdim=False):
        if dim is None:
            return reduction.MaxAll.apply(self)
        return _ReturnType("max", *reduction.MaxDim.apply(self, dim, keepdim))

    def min(self, dim=None, keepdim=False):
        if dim is None:
            return reduction.MinAll.apply(self)
        return _ReturnType("min", *reduction.MinDim.apply(self, dim, keepdim))

    def argmax(self, dim=None, keepdim=False):
        """Return the index of the largest value (of the flattened tensor, or along `dim`), as int64."""
        return _arg(self, np.argmax, dim, keepdim)

    def argmin(self, dim=None, keepdim=False):
        """Return the index of the smallest value (of the flattened tensor, or along `dim`), as int64."""
        return _arg(self, np.argmin, dim, keepdim)

    def sort(self, dim=-1, descending=False):
        return _ReturnType("sort", *reduction.Sort.apply(self, dim, descending))

    def norm(self, p="fro", dim=None, keepdim=False):
        return reduction.Norm.apply(self, 2 if p == "fro" else p, dim, keepdim)

    # ---- matrix products -----------------------------------------------------------------------------------
    def mm(self, other):
        return linalg.Mm.apply(self, other)

    def mv(self, other):
        return linalg.Mv.apply(self, other)

    def dot(self, other):
        return linalg.Dot.apply(self, other)

    def matmul(self, other):
        """Dispatch on dimensions as PyTorch does: dot, mv, mm, a folded mm/mv, or bmm (see `ops/linalg.py`)."""
        return linalg.matmul(self, other)


def _arg(t, find, dim, keepdim):
    """argmax/argmin: int64 on every platform (numpy's own index type is int32 on Windows and 32-bit builds)."""
    a = t._data
    if dim is None:
        idx = find(a)
        return Tensor._make(np.full((1,) * a.ndim, idx, np.int64) if keepdim else np.asarray(idx, np.int64))
    dim = dim_index(dim, a.ndim)
    idx = find(a, axis=dim) if a.ndim else np.zeros((), np.int64)
    idx = idx.astype(np.int64, copy=False)
    return Tensor._make(np.expand_dims(idx, dim) if keepdim and a.ndim else idx)
