"""Floor division, remainder and the bitwise operators of `Tensor`: `//`, `%`, `&`, `|`, `^`, `~`.

`%` is the `Remainder` Function of `ops/integer.py`. `//` has no derivative in PyTorch: on a tensor that requires
grad it records a `NotImplemented` node, whose backward is an error. Bitwise ops take bool and integer tensors
only, like comparisons they are never recorded, and their dtype follows the usual promotion (`uint8 & int8` is
int16, `bool & 1` is int64).
"""
import numpy as np

from ..compat.batched import like
from ..core.forward_ad import zero
from ..core import dtype as _dtype
from ..core.grad_mode import _State
from ..core.tensor import TensorBase
from ..core.function import Function
from ..ops import integer
from ..ops._common import as_operand as _as_tensor, is_number as _is_number, operands


class NotImplementedNode(Function):
    """The node of a result whose derivative PyTorch does not define: its backward raises PyTorch's error.

    Like PyTorch's `torch::autograd::NotImplemented`, it has an edge only to the inputs that require grad.
    """
    node_name = "torch::autograd::NotImplemented"

    @staticmethod
    def forward(array, op, *inputs):
        return TensorBase._make(array)

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.op = inputs[1]

    @staticmethod
    def backward(ctx, *grads):
        raise RuntimeError(f"derivative for {ctx.op} is not implemented")

    jvp = zero


def _result(array, op, *inputs):
    """Wrap an op's numpy result; if an input requires grad, record a NotImplemented node over those inputs."""
    wanting = [t for t in inputs if t._requires_grad]
    if wanting and _State.enabled and array.dtype.kind == "f":
        return NotImplementedNode.apply(np.asarray(array), op, *wanting)
    return like(TensorBase._make(np.asarray(array)), *inputs)


class TensorInteger:
    """Methods of `Tensor`: floor division, remainder and bitwise operators."""

    # ---- floor division and remainder ----------------------------------------------------------------------------
    def floor_divide(self, other):
        """floor(self / other), elementwise: rounds toward -inf (`-7 // 2 == -4`). Mirrors `torch.floor_divide`."""
        other = _as_tensor(other, self)
        return _result(integer.floor_divide_arrays(*operands(self, other)), "aten::floor_divide", self, other)

    __floordiv__ = floor_divide

    def __rfloordiv__(self, other):
        return _as_tensor(other, self).floor_divide(self)

    def remainder(self, other):
        """self - other * floor(self / other): the sign of `other` (`-7 % 2 == 1`). Mirrors `torch.remainder`."""
        if _is_number(other):
            return integer.RemainderScalar.apply(self, other)
        return integer.Remainder.apply(self, _as_tensor(other, self))

    __mod__ = remainder

    def floor_divide_(self, other):
        return self._write(self.floor_divide(other))

    def remainder_(self, other):
        if _is_number(other):
            return self._inplace(integer.RemainderScalar, other)
        return self._inplace(integer.Remainder, _as_tensor(other, self))

    def __rmod__(self, other):
        if not _is_number(other):
            return _as_tensor(other, self).remainder(self)
        # PyTorch's remainder(number, tensor) has no derivative
        wrapped = _as_tensor(other, self)
        return _result(integer.remainder_arrays(*operands(wrapped, self)), "aten::remainder", self)

    # ---- bitwise operators (bool and integer tensors) ------------------------------------------------------------
    def bitwise_and(self, other):
        return _bitwise(self, other, np.bitwise_and, "bitwise_and")

    def bitwise_or(self, other):
        return _bitwise(self, other, np.bitwise_or, "bitwise_or")

    def bitwise_xor(self, other):
        return _bitwise(self, other, np.bitwise_xor, "bitwise_xor")

    __and__ = __rand__ = bitwise_and
    __or__ = __ror__ = bitwise_or
    __xor__ = __rxor__ = bitwise_xor

    def bitwise_not(self):
        if self._data.dtype.kind == "f":
            raise NotImplementedError(f"\"bitwise_not_cpu\" not implemented for '{self.dtype._scalar_name}'")
        return like(TensorBase._make(np.asarray(np.invert(self._data))), self)

    def __invert__(self):
        if self._data.dtype.kind == "f":
            raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type tensors")
        return self.bitwise_not()

    # in place, as `mask &= other`: bool and integer tensors never require grad, so a plain write
    def bitwise_and_(self, other):
        return self._write(self.bitwise_and(other))

    def bitwise_or_(self, other):
        return self._write(self.bitwise_or(other))

    def bitwise_xor_(self, other):
        return self._write(self.bitwise_xor(other))

    def bitwise_not_(self):
        return self._write(self.bitwise_not())

    __iand__, __ior__, __ixor__ = bitwise_and_, bitwise_or_, bitwise_xor_

    # ---- shifts, gcd, lcm: integers only --------------------------------------------------------------------------
    def bitwise_left_shift(self, other):
        """self * 2**other for integers (0 once the shift passes the dtype's width, as PyTorch's kernel)."""
        return _bitwise(self, other, _shift_left, "lshift")

    def bitwise_right_shift(self, other):
        """self // 2**other for integers (-1 or 0, by the sign, once the shift passes the width)."""
        return _bitwise(self, other, _shift_right, "rshift")

    __lshift__, __rshift__ = bitwise_left_shift, bitwise_right_shift

    def __rlshift__(self, other):
        return _as_tensor(other, self).bitwise_left_shift(self)

    def __rrshift__(self, other):
        return _as_tensor(other, self).bitwise_right_shift(self)

    def bitwise_left_shift_(self, other):
        return self._write(self.bitwise_left_shift(other))

    def bitwise_right_shift_(self, other):
        return self._write(self.bitwise_right_shift(other))

    __ilshift__, __irshift__ = bitwise_left_shift_, bitwise_right_shift_

    def gcd(self, other):
        """The greatest common divisor, elementwise, of integers (always >= 0; gcd(0, 0) = 0)."""
        return _bitwise(self, other, np.gcd, "gcd")

    def lcm(self, other):
        """The least common multiple, elementwise, of integers (always >= 0; 0 if either is 0)."""
        return _bitwise(self, other, np.lcm, "lcm")

    def gcd_(self, other):
        return self._write(self.gcd(other))

    def lcm_(self, other):
        return self._write(self.lcm(other))


def _bitwise(x, other, ufunc, name):
    a, b = operands(x, _as_tensor(other, x))
    if a.dtype.kind == "f":
        name_of_dtype = _dtype.from_numpy_dtype(a.dtype)._scalar_name
        raise NotImplementedError(f"\"{name}_cpu\" not implemented for '{name_of_dtype}'")
    return like(TensorBase._make(np.asarray(ufunc(a, b))), x, other)


def _shift_left(a, b):
    """ATen's lshift: a << b, and 0 where b is negative or at least the width in bits."""
    bits = a.dtype.itemsize * 8
    inside = (b >= 0) & (b < bits)
    with np.errstate(over="ignore"):
        shifted = np.left_shift(a, np.where(inside, b, 0).astype(a.dtype))
    return np.where(inside, shifted, 0).astype(a.dtype)


def _shift_right(a, b):
    """ATen's rshift: a >> b (arithmetic for signed integers), and the sign's fill where b passes the width."""
    bits = a.dtype.itemsize * 8
    inside = (b >= 0) & (b < bits)
    shifted = np.right_shift(a, np.where(inside, b, 0).astype(a.dtype))
    fill = np.where(a < 0, -1, 0) if a.dtype.kind == "i" else 0
    return np.where(inside, shifted, fill).astype(a.dtype)
