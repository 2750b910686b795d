"""More elementwise math: log2, log10, log1p, expm1, exp2, erf, erfc, rsqrt, elementwise maximum/minimum, xlogy.

Integer and bool inputs give float32, as in PyTorch (maximum and minimum keep the promoted dtype instead).
Each backward is PyTorch's formula (tools/autograd/derivatives.yaml), written in Tensor ops.
"""
import math

import numpy as np

from ..core.forward_ad import from_backward
from ..core.function import Function
from ._common import Pointwise, as_operand, float_dtype_of, grad_to, operands, quiet, wrap
from .unary import Exp, Where

LN2, LN10 = math.log(2.0), math.log(10.0)
TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)


class Log2(Pointwise):
    """z = log2(x);  dz/dx = 1 / (x ln 2)"""
    node_name, numpy_fn, saves = "Log2Backward0", np.log2, "self"
    quiet_forward = True
    gradient = staticmethod(quiet(lambda grad, x: grad / (x * LN2)))


class Log10(Pointwise):
    """z = log10(x);  dz/dx = 1 / (x ln 10)"""
    node_name, numpy_fn, saves = "Log10Backward0", np.log10, "self"
    quiet_forward = True
    gradient = staticmethod(quiet(lambda grad, x: grad / (x * LN10)))


class Log1p(Pointwise):
    """z = log(1 + x), precise for small x;  dz/dx = 1 / (1 + x)"""
    node_name, numpy_fn, saves = "Log1PBackward0", np.log1p, "self"
    quiet_forward = True
    gradient = staticmethod(quiet(lambda grad, x: grad / (x + 1)))


class Expm1(Pointwise):
    """z = exp(x) - 1, precise for small x;  dz/dx = z + 1"""
    node_name, numpy_fn, saves = "Expm1Backward0", np.expm1, "result"
    quiet_forward = True
    gradient = staticmethod(lambda grad, z: grad * (z + 1))


class Exp2(Pointwise):
    """z = 2**x;  dz/dx = z ln 2"""
    node_name, numpy_fn, saves = "Exp2Backward0", np.exp2, "result"
    quiet_forward = True
    gradient = staticmethod(lambda grad, z: grad * z * LN2)


class Erf(Function):
    """z = erf(x) = 2/sqrt(pi) * integral of exp(-t**2) from 0 to x;  dz/dx = 2/sqrt(pi) exp(-x**2)"""
    node_name = "ErfBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(x):
        return wrap(_elementwise(math.erf, x._data))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * (Exp.apply(-(x * x)) * TWO_OVER_SQRT_PI)

    @staticmethod
    def jvp(ctx, tx):
        x = ctx.primals[0]
        return tx * (Exp.apply(-(x * x)) * TWO_OVER_SQRT_PI)


class Erfc(Function):
    """z = erfc(x) = 1 - erf(x), precise where erf(x) is near 1;  dz/dx = -2/sqrt(pi) exp(-x**2)"""
    node_name = "ErfcBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(x):
        return wrap(_elementwise(math.erfc, x._data))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * (Exp.apply(-(x * x)) * -TWO_OVER_SQRT_PI)

    @staticmethod
    def jvp(ctx, tx):
        x = ctx.primals[0]
        return tx * (Exp.apply(-(x * x)) * -TWO_OVER_SQRT_PI)


def _elementwise(fn, a):
    """Apply a float function of the standard library to every element, in float64 (libm's precision), and give
    the result in the input's float dtype (float32 for integers and bools)."""
    a = float_dtype_of(a)
    return np.asarray(np.frompyfunc(fn, 1, 1)(a.astype(np.float64)), np.float64).astype(a.dtype, copy=False)


class Rsqrt(Function):
    """z = 1 / sqrt(x);  dz/dx = -z**3 / 2"""
    node_name = "RsqrtBackward0"
    saved_names = ("result",)

    @staticmethod
    @quiet
    def forward(x):
        return wrap(1 / np.sqrt(float_dtype_of(x._data)))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(output)

    @staticmethod
    @quiet
    def backward(ctx, grad):
        (z,) = ctx.saved_tensors
        return -0.5 * grad * z ** 3

    @staticmethod
    def jvp(ctx, tx):
        z = ctx.result
        return tx * (z * z * z * -0.5)


class Maximum(Function):
    """z = the larger of x and y, elementwise (nan if either is);  dz/dx = 1 where x > y, 1/2 where x == y, else 0
    (and dz/dy likewise)"""
    node_name = "MaximumBackward0"
    saved_names = ("self", "other")

    @staticmethod
    def forward(x, y):
        return wrap(np.maximum(*operands(x, y)))

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, y = inputs
        ctx.save_for_backward(x, y)
        ctx.shapes = (x._data.shape, y._data.shape)

    @staticmethod
    def backward(ctx, grad):
        x, y = ctx.saved_tensors
        return _pick_backward(ctx, grad, *operands(x, y))

    jvp = from_backward


class Minimum(Function):
    """z = the smaller of x and y, elementwise (nan if either is);  dz/dx = 1 where x < y, 1/2 where x == y, else
    0 (and dz/dy likewise)"""
    node_name = "MinimumBackward0"
    saved_names = ("self", "other")

    @staticmethod
    def forward(x, y):
        return wrap(np.minimum(*operands(x, y)))

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, y = inputs
        ctx.save_for_backward(x, y)
        ctx.shapes = (x._data.shape, y._data.shape)

    @staticmethod
    def backward(ctx, grad):
        x, y = ctx.saved_tensors
        a, b = operands(x, y)
        return _pick_backward(ctx, grad, b, a)       # min(x, y) picks x where max(y, x) would pick y

    jvp = from_backward


def _pick_backward(ctx, grad, a, b):
    """PyTorch's gradients of max(a, b): a tie shares the gradient, half each; the other input gets zero.

    The masks are constants (comparisons have no derivative), so only `grad` enters differentiably.
    """
    zero = as_operand(0, grad)
    shared = Where.apply(np.asarray(a == b), grad / 2, grad)
    gx = grad_to(Where.apply(np.asarray(a < b), zero, shared), ctx.shapes[0]) if ctx.needs_input_grad[0] else None
    gy = grad_to(Where.apply(np.asarray(a > b), zero, shared), ctx.shapes[1]) if ctx.needs_input_grad[1] else None
    return gx, gy


class Xlogy(Function):
    """z = x * log(y), 0 where x == 0 (unless y is nan);  dz/dx = log(y) (0 where x == 0 and y <= 0),
    dz/dy = x / y. Integers and bools give the default dtype."""
    node_name = "XlogyBackward0"
    saved_names = ("self", "other")

    @staticmethod
    @quiet
    def forward(x, y):
        a, b = operands(x, y)
        a, b = np.broadcast_arrays(float_dtype_of(a), float_dtype_of(b))
        return wrap(np.where((a == 0) & ~np.isnan(b), a.dtype.type(0), a * np.log(b)))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(*inputs)

    @staticmethod
    def backward(ctx, grad):
        x, y = ctx.saved_tensors
        needs_x, needs_y = ctx.needs_input_grad
        g_x = grad_to(_xlogy_dx(grad, x, y), tuple(x.shape)) if needs_x else None
        g_y = grad_to(grad * x / y, tuple(y.shape)) if needs_y else None
        return g_x, g_y

    jvp = from_backward


def _xlogy_dx(grad, x, y):
    """PyTorch's xlogy(grad, y) with 0 where x == 0 and y <= 0 (x and y tensors or numbers)."""
    at_zero = np.asarray(getattr(x, "_data", x) == 0) & np.asarray(getattr(y, "_data", y) <= 0)
    return Where.apply(at_zero, as_operand(0, grad), Xlogy.apply(grad, as_operand(y, grad)))


class XlogySelfScalar(Function):
    """z = c * log(y) for a number c (`torch.xlogy(2, y)`);  dz/dy = c / y"""
    node_name = "XlogyBackward1"
    saved_names = ("other",)
    saved_attrs = {"self": "c"}

    @staticmethod
    def forward(c, y):
        return Xlogy.forward(as_operand(c, y), y)

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.c, y = inputs
        ctx.save_for_backward(y)

    @staticmethod
    def backward(ctx, grad):
        (y,) = ctx.saved_tensors
        return None, grad * ctx.c / y

    jvp = from_backward


class XlogyOtherScalar(Function):
    """z = x * log(c) for a number c (`torch.xlogy(x, 2)`);  dz/dx = log(c) (0 where x == 0 and c <= 0)"""
    node_name = "XlogyBackward2"
    saved_names = ("self",)
    saved_attrs = {"other": "c"}

    @staticmethod
    def forward(x, c):
        return Xlogy.forward(x, as_operand(c, x))

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, ctx.c = inputs
        ctx.save_for_backward(x)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return _xlogy_dx(grad, x, ctx.c), None

    jvp = from_backward


class Frexp(Function):
    """mantissa, exponent = x split as mantissa * 2**exponent, |mantissa| in [0.5, 1) (int32 exponents);
    d mantissa/dx = 1 / 2**exponent"""
    node_name = "FrexpBackward0"
    saved_names = ("exponent",)

    @staticmethod
    def forward(x):
        a = x._data
        if a.dtype.kind != "f":
            raise RuntimeError("torch.frexp() only supports floating-point dtypes")
        mantissa, exponent = np.frexp(a)
        return wrap(mantissa), wrap(exponent.astype(np.int32))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.mark_non_differentiable(output[1])
        ctx.save_for_backward(output[1])

    @staticmethod
    def backward(ctx, grad, _grad_exponent):
        (exponent,) = ctx.saved_tensors
        return grad / Exp2.apply(exponent)

    jvp = from_backward


def _erfinv(a):
    """The inverse of erf, in float64: Giles' single-precision approximation refined by Newton steps, on
    erf(y) = x for |x| <= 0.5 and on log erfc(|y|) = log(1 - |x|) nearer +-1 (where erf saturates and the
    approximation starts furthest off: the log keeps the steps converging); +-inf at +-1, nan outside [-1, 1]."""
    x = a.astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        w = -np.log((1 - x) * (1 + x))
        central, tail = w - 2.5, np.sqrt(w) - 3
        p = np.where(w < 5, _horner(central, _ERFINV_CENTRAL), _horner(tail, _ERFINV_TAIL)) * x
        far, y, rest = np.abs(x) > 0.5, np.abs(p), 1 - np.abs(x)
        for _ in range(4):
            slope = TWO_OVER_SQRT_PI * np.exp(-p * p)
            tail_value = _erfc(y).astype(np.float64)
            y = y + (np.log(tail_value) - np.log(rest)) * tail_value / TWO_OVER_SQRT_PI / np.exp(-y * y)
            p = np.where(far, np.copysign(y, x), p - (_erf(p).astype(np.float64) - x) / slope)
            y = np.abs(p)
        p = np.where(np.abs(x) == 1, np.copysign(np.inf, x), p)
    return np.where(np.abs(x) > 1, np.nan, p).astype(a.dtype)


def _horner(w, coefficients):
    p = np.zeros_like(w)
    for c in coefficients:
        p = p * w + c
    return p


_ERFINV_CENTRAL = (2.81022636e-08, 3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087, -0.00125372503,
                   -0.00417768164, 0.246640727, 1.50140941)
_ERFINV_TAIL = (-0.000200214257, 0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773, -0.0076224613,
                0.00943887047, 1.00167406, 2.83297682)
_erf = np.frompyfunc(math.erf, 1, 1)
_erfc = np.frompyfunc(math.erfc, 1, 1)


class Erfinv(Function):
    """z = erfinv(x), the y with erf(y) = x;  dz/dx = sqrt(pi)/2 exp(z**2)"""
    node_name = "ErfinvBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(x):
        return wrap(_erfinv(float_dtype_of(x._data)))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        z = Erfinv.apply(x)
        return grad * (Exp.apply(z * z) * (math.sqrt(math.pi) / 2))

    jvp = from_backward
