"""PyTorch's other names for `Tensor` methods (`x.greater(y)` is `x.gt(y)`, `x.swapaxes` is `x.transpose`,
`x.multiply` is `x.mul`, ...) and the questions a program asks about a tensor's dtype and size (`is_signed`,
`is_complex`, `is_nonzero`, `is_same_size`).

Each alias is the method it names, so it records the same node (`x.subtract(y).grad_fn` is a SubBackward0).
"""
import numpy as np

from ..ops import unary
from ..ops.arithmetic import TensorArithmetic
from .inplace import TensorInPlace
from .pointwise import _named_comparison, _tensor_arg


class TensorAliases:
    """Methods of `Tensor` under PyTorch's second names, and the dtype and size predicates."""

    # ---- comparisons, arithmetic: the same methods --------------------------------------------------------------
    greater, greater_equal, less, less_equal, not_equal = (
        _named_comparison(n, op) for n, op in (("greater", np.greater), ("greater_equal", np.greater_equal),
                                               ("less", np.less), ("less_equal", np.less_equal),
                                               ("not_equal", np.not_equal)))
    subtract, multiply, divide = TensorArithmetic.sub, TensorArithmetic.mul, TensorArithmetic.div
    subtract_, multiply_, divide_ = TensorInPlace.sub_, TensorInPlace.mul_, TensorInPlace.div_

    def true_divide(self, other):
        """self / other, always in a floating dtype (`div` without a rounding mode)."""
        return self.div(other)

    def true_divide_(self, other):
        return self.div_(other)

    def positive(self):
        """Return self itself (`+x`); a bool tensor is refused, as in PyTorch."""
        if self.dtype.np_type.kind == "b":
            raise RuntimeError("The `+` operator, on a bool tensor is not supported.")
        return self

    def sgn(self):
        """The sign of each element, -1, 0 or 1 (0 for nan); for real tensors the same as `sign`, but recorded as
        PyTorch's SgnBackward0."""
        return unary.Sgn.apply(self)

    def sgn_(self):
        return self._inplace(unary.Sgn)

    # ---- shape: the same views ----------------------------------------------------------------------------------
    def swapaxes(self, axis0, axis1):
        return self.transpose(axis0, axis1)

    def swapdims(self, dim0, dim1):
        return self.transpose(dim0, dim1)

    def ravel(self):
        """All elements in one dimension: a view of a contiguous tensor, else a view of a contiguous copy."""
        return self.contiguous().view(-1)

    def broadcast_to(self, size):
        return self.expand(size)

    def reshape_as(self, other):
        return self.reshape(other.shape)

    def ndimension(self):
        return self.dim()

    # ---- questions about the dtype and the size -----------------------------------------------------------------
    def is_complex(self):
        return self.dtype.is_complex

    def is_signed(self):
        """True for the dtypes that hold negative numbers: the floats and int8 ... int64 (not uint8, not bool)."""
        return self.dtype.is_signed

    def is_nonzero(self):
        """`bool(x)` of a one-element tensor; PyTorch refuses it for any other size."""
        n = self._data.size
        if n != 1:
            raise RuntimeError("Boolean value of Tensor with no values is ambiguous" if n == 0 else
                               "Boolean value of Tensor with more than one value is ambiguous")
        return bool(self._data.reshape(()))

    def is_same_size(self, other):
        _tensor_arg(other, "is_same_size", "other", 1)
        return self._data.shape == other._data.shape
