"""Floor division and remainder, with PyTorch's rules: the quotient rounds down (toward -inf) and the remainder takes
the sign of the divisor, for integers and floats alike (`-7 // 2 == -4`, `-7 % 2 == 1`, `7 % -2 == -1`).

An integer division by zero is an error (`RuntimeError: ZeroDivisionError`); a float one gives inf or nan.
"""
import numpy as np

from ..core.forward_ad import zero
from ..core.function import Function
from ..core.tensor import TensorBase
from ._common import as_operand, grad_to, operands, wrap

ZERO_DIVISION = "ZeroDivisionError"      # PyTorch's whole message


def floor_divide_arrays(a, b, op="div_floor"):
    """floor(a / b) of two arrays of one dtype, as ATen computes it (numpy's floor_divide agrees for floats)."""
    check_integer_divisor(a, b, op)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):   # x / 0 is inf or nan, as in PyTorch
        return np.floor_divide(a, b)


def trunc_divide_arrays(a, b):
    """trunc(a / b) of two arrays of one dtype: the quotient rounded toward 0, exactly for large integers too."""
    check_integer_divisor(a, b, "div_trunc")
    if a.dtype.kind == "f":
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            return np.trunc(a / b)
    q = np.floor_divide(a, b)
    # floor and trunc differ where the division is inexact and the signs differ: one step back toward 0
    return q + ((q * b != a) & ((a < 0) != (b < 0))).astype(a.dtype)


def remainder_arrays(a, b):
    """a - b * floor(a / b), with the sign of b, as ATen computes it."""
    check_integer_divisor(a, b, "remainder")
    if a.dtype.kind != "f":
        return np.remainder(a, b)           # Python's integer %, which is PyTorch's too
    with np.errstate(invalid="ignore"):
        mod = np.fmod(a, b)
        # numpy's float % writes -0.0 where ATen keeps fmod's +0.0 (1 % -1); so follow ATen's formula
        return np.where((mod != 0) & ((b < 0) != (mod < 0)), mod + b, mod)


def check_integer_divisor(a, b, op):
    if a.dtype == np.bool_:
        raise NotImplementedError(f"\"{op}_cpu\" not implemented for 'Bool'")
    if a.dtype.kind in "iu" and not np.all(b):
        raise RuntimeError(ZERO_DIVISION)


class DivFloor(Function):
    """z = floor(x / y);  dz/dx = dz/dy = 0: a step function (`torch.div(x, y, rounding_mode="floor")`)"""
    node_name = "DivBackward2"
    saved_attrs = {"rounding_mode": "rounding_mode"}
    rounding_mode = "floor"

    @staticmethod
    def forward(x, y):
        return wrap(floor_divide_arrays(*operands(x, y)))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.rounding_mode = ctx._forward_cls.rounding_mode
        ctx.inputs = [(t._data.shape, t._data.dtype) for t in inputs]

    @staticmethod
    def backward(ctx, grad):
        # zeros that no operation produced, as ATen's zeros_like: nothing to differentiate further
        return tuple(TensorBase._make(np.zeros(shape, dtype)) if needed else None
                     for needed, (shape, dtype) in zip(ctx.needs_input_grad, ctx.inputs))

    jvp = zero


class DivTrunc(DivFloor):
    """z = trunc(x / y), rounded toward 0;  dz/dx = dz/dy = 0 (`torch.div(x, y, rounding_mode="trunc")`)"""
    node_name = "DivBackward2"
    rounding_mode = "trunc"

    @staticmethod
    def forward(x, y):
        return wrap(trunc_divide_arrays(*operands(x, y)))


class Remainder(Function):
    """z = x - y * floor(x / y);  dz/dx = 1,  dz/dy = -floor(x / y)"""
    node_name = "RemainderBackward1"
    saved_names = ("other", "self")

    @staticmethod
    def forward(x, y):
        return wrap(remainder_arrays(*operands(x, y)))

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, y = inputs
        # only dz/dy needs the inputs, so PyTorch saves them only when y requires grad
        ctx.save_for_backward(*((y, x) if ctx.needs_input_grad[1] else (None, None)))
        ctx.shapes = (x._data.shape, y._data.shape)

    @staticmethod
    def backward(ctx, grad):
        y, x = ctx.saved_tensors
        gx = grad_to(grad, ctx.shapes[0]) if ctx.needs_input_grad[0] else None
        gy = grad_to(-grad * DivFloor.apply(x, y), ctx.shapes[1]) if ctx.needs_input_grad[1] else None
        return gx, gy

    @staticmethod
    def jvp(ctx, tx, ty):
        x, y = ctx.primals
        return tx - ty * DivFloor.apply(x, y)


class RemainderScalar(Function):
    """z = x % c for a Python number c;  dz/dx = 1"""
    node_name = "RemainderBackward0"

    @staticmethod
    def forward(x, c):
        return wrap(remainder_arrays(*operands(x, as_operand(c, x))))

    @staticmethod
    def setup_context(ctx, inputs, output):
        pass

    @staticmethod
    def backward(ctx, grad):
        return grad, None

    @staticmethod
    def jvp(ctx, tx, tc):
        return tx.clone()
