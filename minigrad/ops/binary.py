"""Elementwise functions of two tensors beyond + - * /: logaddexp, logaddexp2, hypot, copysign, fmod, fmax, fmin,
ldexp and nextafter.

Both inputs broadcast and promote as in `+`; each backward is PyTorch's formula (tools/autograd/derivatives.yaml)
in Tensor ops, summed back to each input's shape (`grad_to`). logaddexp and hypot take floats only, as ATen's
kernels; copysign gives the default dtype for integers; fmod keeps integers (and refuses a zero divisor).
"""
import math

import numpy as np

from ..core.dtype import scalar_name
from ..core.forward_ad import from_backward
from ..core.function import Function
from ._common import as_operand, float_dtype_of, grad_to, operands, quiet, wrap
from .integer import DivTrunc, RemainderScalar, check_integer_divisor
from .unary import Exp, Where

LN2 = math.log(2.0)


def _floats_only(name, a):
    if a.dtype.kind != "f":
        raise NotImplementedError(f"\"{name}_cpu\" not implemented for '{scalar_name(a)}'")


class _Binary(Function):
    """Two tensor inputs, both saved (PyTorch's order: other, then self), and their shapes for `grad_to`."""
    saved_names = ("other", "self")

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, y = inputs
        ctx.save_for_backward(y, x)
        ctx.shapes = (x._data.shape, y._data.shape)

    jvp = from_backward


def _gradients(ctx, gx, gy):
    """Each needed gradient, summed to its input's shape; `gx` and `gy` are called only when needed."""
    needs_x, needs_y = ctx.needs_input_grad
    return (grad_to(gx(), ctx.shapes[0]) if needs_x else None, grad_to(gy(), ctx.shapes[1]) if needs_y else None)


@quiet
def _log_add(name, x, y, exp, scale):
    """max(a, b) + log1p(exp(-|a - b|)) * scale, as ATen's kernel: no overflow, and inf + inf stays inf."""
    a, b = operands(x, y)
    _floats_only(name, a)
    spread = np.log1p(exp(-np.abs(a - b)))
    if scale != 1:
        spread = spread * a.dtype.type(scale)
    return wrap(np.where(np.isinf(a) & (a == b), a, np.maximum(a, b) + spread))


class Logaddexp(_Binary):
    """z = log(exp(x) + exp(y)), without overflow;  dz/dx = 1 / (1 + exp(y - x)),  dz/dy = 1 / (1 + exp(x - y))"""
    node_name = "LogaddexpBackward0"

    @staticmethod
    def forward(x, y):
        return _log_add("logaddexp", x, y, np.exp, 1)

    @staticmethod
    def backward(ctx, grad):
        y, x = ctx.saved_tensors
        return _gradients(ctx, lambda: grad / (1 + Exp.apply(y - x)), lambda: grad / (1 + Exp.apply(x - y)))


class Logaddexp2(_Binary):
    """z = log2(2**x + 2**y);  dz/dx = 1 / (1 + 2**(y - x)),  dz/dy = 1 / (1 + 2**(x - y))"""
    node_name = "Logaddexp2Backward0"

    @staticmethod
    def forward(x, y):
        return _log_add("logaddexp2", x, y, np.exp2, 1 / LN2)

    @staticmethod
    def backward(ctx, grad):
        y, x = ctx.saved_tensors
        return _gradients(ctx, lambda: grad / (1 + 2 ** (y - x)), lambda: grad / (1 + 2 ** (x - y)))


class Hypot(Function):
    """z = sqrt(x**2 + y**2), without overflow;  dz/dx = x / z,  dz/dy = y / z"""
    node_name = "HypotBackward0"
    saved_names = ("other", "self", "result")

    @staticmethod
    def forward(x, y):
        a, b = operands(x, y)
        _floats_only("hypot", a)
        return wrap(np.hypot(a, b))

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, y = inputs
        ctx.save_for_backward(y, x, output)
        ctx.shapes = (x._data.shape, y._data.shape)

    @staticmethod
    def backward(ctx, grad):
        y, x, z = ctx.saved_tensors
        return _gradients(ctx, lambda: grad * x / z, lambda: grad * y / z)

    jvp = from_backward


def _copysign_backward(grad, x, z):
    """PyTorch's copysign_tensor_self_backward: grad * z / x, 0 where x == 0."""
    return Where.apply(x._data == 0, as_operand(0, grad), grad * (z / x))


class Copysign(Function):
    """z = |x| with the sign of y;  dz/dx = z / x (0 at x = 0),  dz/dy = 0"""
    node_name = "CopysignBackward0"
    saved_names = ("self", "result")

    @staticmethod
    def forward(x, y):
        a, b = operands(x, y)
        return wrap(np.copysign(float_dtype_of(a), float_dtype_of(b)))

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, y = inputs
        ctx.save_for_backward(x, output)
        ctx.shapes = (x._data.shape, y._data.shape)

    @staticmethod
    def backward(ctx, grad):
        x, z = ctx.saved_tensors
        zeros = lambda: wrap(np.zeros(grad._data.shape, grad._data.dtype))     # noqa: E731 - PyTorch's zeros_like
        return _gradients(ctx, lambda: _copysign_backward(grad, x, z), zeros)

    jvp = from_backward


class CopysignScalar(Function):
    """z = |x| with the sign of the number c;  dz/dx = z / x (0 at x = 0)"""
    node_name = "CopysignBackward1"
    saved_names = ("self", "result")

    @staticmethod
    def forward(x, c):
        return Copysign.forward(x, as_operand(c, x))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0], output)

    @staticmethod
    def backward(ctx, grad):
        x, z = ctx.saved_tensors
        return _copysign_backward(grad, x, z), None

    jvp = from_backward


def _fmod(a, b):
    check_integer_divisor(a, b, "fmod")
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.fmod(a, b)


class Fmod(_Binary):
    """z = x - y * trunc(x / y): the remainder with the sign of x;  dz/dx = 1,  dz/dy = -trunc(x / y)"""
    node_name = "FmodBackward1"

    @staticmethod
    def forward(x, y):
        return wrap(_fmod(*operands(x, y)))

    @staticmethod
    def backward(ctx, grad):
        y, x = ctx.saved_tensors
        return _gradients(ctx, lambda: grad, lambda: -grad * DivTrunc.apply(x, y))


class FmodScalar(RemainderScalar):
    """z = x - c * trunc(x / c) for a number c;  dz/dx = 1 (remainder's node, with fmod's rounding)"""
    node_name = "FmodBackward0"

    @staticmethod
    def forward(x, c):
        return wrap(_fmod(*operands(x, as_operand(c, x))))


# ---- fmax, fmin: maximum and minimum that ignore nan ------------------------------------------------------------
class Fmax(_Binary):
    """z = the larger of x and y, the other one where one is nan;  dz/dx = 1 where x >= y or y is nan, else 0;
    dz/dy = 1 elsewhere"""
    node_name, numpy_fn, x_wins = "FmaxBackward0", np.fmax, np.greater_equal

    @classmethod
    def forward(cls, x, y):
        return wrap(cls.numpy_fn(*operands(x, y)))

    @staticmethod
    def backward(ctx, grad):
        y, x = ctx.saved_tensors
        x_wins = wrap(ctx._forward_cls.x_wins(x._data, y._data) | np.isnan(y._data))
        return _gradients(ctx, lambda: grad.masked_fill(x_wins.logical_not(), 0), lambda: grad.masked_fill(x_wins, 0))


class Fmin(Fmax):
    """z = the smaller of x and y, the other one where one is nan;  dz/dx = 1 where x <= y or y is nan, else 0;
    dz/dy = 1 elsewhere"""
    node_name, numpy_fn, x_wins = "FminBackward0", np.fmin, np.less_equal


# ---- ldexp, nextafter: the binary layout of floats ---------------------------------------------------------------
class Ldexp(Function):
    """z = x * 2**y;  dz/dx = 2**y,  dz/dy = z ln 2"""
    node_name = "LdexpBackward0"
    saved_names = ("other", "result")

    @staticmethod
    def forward(x, y):
        a, b = operands(x, y)
        a = float_dtype_of(a)
        with np.errstate(over="ignore", invalid="ignore"):
            return wrap(a * np.exp2(b.astype(a.dtype)))

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, y = inputs
        ctx.save_for_backward(y, output)
        ctx.shapes = (x._data.shape, y._data.shape)

    @staticmethod
    def backward(ctx, grad):
        y, z = ctx.saved_tensors
        return _gradients(ctx, lambda: grad * Exp.apply(y * LN2), lambda: grad * z * LN2)

    jvp = from_backward


class Nextafter(Function):
    """z = the next float after x towards y, a step of one unit in the last place;  dz/dx = 1,  dz/dy = 0 (PyTorch's
    choice: z follows x)"""
    node_name = "NextafterBackward0"

    @staticmethod
    def forward(x, y):
        a, b = operands(x, y)
        _floats_only("nextafter", a)
        return wrap(np.nextafter(a, b))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.shapes = (inputs[0]._data.shape, inputs[1]._data.shape)

    @staticmethod
    def backward(ctx, grad):
        return _gradients(ctx, lambda: grad, lambda: wrap(np.zeros(ctx.shapes[1], grad._data.dtype)))

    jvp = from_backward
