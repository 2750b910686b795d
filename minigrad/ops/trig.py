"""Trigonometric and hyperbolic functions: sin, cos, tan, their inverses, atan2, sinh, cosh and their inverses.

Integer and bool inputs give float32, as in PyTorch; outside an inverse's domain the result is nan, silently.
Each backward is PyTorch's formula (tools/autograd/derivatives.yaml), written in Tensor ops.
"""
import numpy as np

from ..core.function import Function
from ._common import Pointwise, float_dtype_of, grad_to, operands, quiet, wrap


class Sin(Pointwise):
    """z = sin(x);  dz/dx = cos(x)"""
    node_name, numpy_fn, saves = "SinBackward0", np.sin, "self"
    gradient = staticmethod(lambda grad, x: grad * Cos.apply(x))


class Cos(Pointwise):
    """z = cos(x);  dz/dx = -sin(x)"""
    node_name, numpy_fn, saves = "CosBackward0", np.cos, "self"
    gradient = staticmethod(lambda grad, x: grad * -Sin.apply(x))


class Tan(Pointwise):
    """z = tan(x);  dz/dx = 1 + z**2"""
    node_name, numpy_fn, saves = "TanBackward0", np.tan, "result"
    gradient = staticmethod(quiet(lambda grad, z: grad * (z * z + 1)))


class Asin(Pointwise):
    """z = asin(x);  dz/dx = 1 / sqrt(1 - x**2)"""
    node_name, numpy_fn, saves = "AsinBackward0", np.arcsin, "self"
    quiet_forward = True
    gradient = staticmethod(quiet(lambda grad, x: grad * (1 - x * x).rsqrt()))


class Acos(Pointwise):
    """z = acos(x);  dz/dx = -1 / sqrt(1 - x**2)"""
    node_name, numpy_fn, saves = "AcosBackward0", np.arccos, "self"
    quiet_forward = True
    gradient = staticmethod(quiet(lambda grad, x: grad * -(1 - x * x).rsqrt()))


class Atan(Pointwise):
    """z = atan(x);  dz/dx = 1 / (1 + x**2)"""
    node_name, numpy_fn, saves = "AtanBackward0", np.arctan, "self"
    gradient = staticmethod(quiet(lambda grad, x: grad / (x * x + 1)))


class Atan2(Function):
    """z = atan2(x, y), the angle of the point (y, x);  dz/dx = y / (x**2 + y**2),  dz/dy = -x / (x**2 + y**2)"""
    node_name = "Atan2Backward0"
    saved_names = ("self", "other")

    @staticmethod
    def forward(x, y):
        a, b = operands(x, y)
        return wrap(np.arctan2(float_dtype_of(a), float_dtype_of(b)))

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, y = inputs
        ctx.save_for_backward(x, y)
        ctx.shapes = (x._data.shape, y._data.shape)

    @staticmethod
    @quiet
    def backward(ctx, grad):
        x, y = ctx.saved_tensors
        scale = grad / (x * x + y * y)
        gx = grad_to(scale * y, ctx.shapes[0]) if ctx.needs_input_grad[0] else None
        gy = grad_to(scale * -x, ctx.shapes[1]) if ctx.needs_input_grad[1] else None
        return gx, gy

    @staticmethod
    def jvp(ctx, tx, ty):
        x, y = ctx.primals
        return (tx * y - ty * x) / (x * x + y * y)


class Sinh(Pointwise):
    """z = sinh(x);  dz/dx = cosh(x)"""
    node_name, numpy_fn, saves = "SinhBackward0", np.sinh, "self"
    quiet_forward = True
    gradient = staticmethod(lambda grad, x: grad * Cosh.apply(x))


class Cosh(Pointwise):
    """z = cosh(x);  dz/dx = sinh(x)"""
    node_name, numpy_fn, saves = "CoshBackward0", np.cosh, "self"
    quiet_forward = True
    gradient = staticmethod(lambda grad, x: grad * Sinh.apply(x))


class Asinh(Pointwise):
    """z = asinh(x);  dz/dx = 1 / sqrt(x**2 + 1)"""
    node_name, numpy_fn, saves = "AsinhBackward0", np.arcsinh, "self"
    gradient = staticmethod(quiet(lambda grad, x: grad * (x * x + 1).rsqrt()))


class Acosh(Pointwise):
    """z = acosh(x);  dz/dx = 1 / sqrt(x**2 - 1)"""
    node_name, numpy_fn, saves = "AcoshBackward0", np.arccosh, "self"
    quiet_forward = True
    gradient = staticmethod(quiet(lambda grad, x: grad * (x * x - 1).rsqrt()))


class Atanh(Pointwise):
    """z = atanh(x);  dz/dx = 1 / (1 - x**2)"""
    node_name, numpy_fn, saves = "AtanhBackward0", np.arctanh, "self"
    quiet_forward = True
    gradient = staticmethod(quiet(lambda grad, x: grad / (1 - x * x)))
