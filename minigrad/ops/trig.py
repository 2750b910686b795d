"""Trigonometric and hyperbolic functions: sin, cos, tan, their inverses, atan2, sinh, cosh and their inverses.

Integer and bool inputs give float32, as in PyTorch; outside an inverse's domain the result is nan, silently.
Each backward is PyTorch's formula (tools/autograd/derivatives.yaml), written in Tensor ops.
"""
import numpy as np

from ..core.function import Function
from ._common import float_dtype_of, grad_to, operands, quiet, wrap


class Sin(Function):
    """z = sin(x);  dz/dx = cos(x)"""
    node_name = "SinBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(x):
        return wrap(np.sin(float_dtype_of(x._data)))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * Cos.apply(x)


class Cos(Function):
    """z = cos(x);  dz/dx = -sin(x)"""
    node_name = "CosBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(x):
        return wrap(np.cos(float_dtype_of(x._data)))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * -Sin.apply(x)


class Tan(Function):
    """z = tan(x);  dz/dx = 1 + z**2"""
    node_name = "TanBackward0"
    saved_names = ("result",)

    @staticmethod
    def forward(x):
        return wrap(np.tan(float_dtype_of(x._data)))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(output)

    @staticmethod
    @quiet
    def backward(ctx, grad):
        (z,) = ctx.saved_tensors
        return grad * (z * z + 1)


class Asin(Function):
    """z = asin(x);  dz/dx = 1 / sqrt(1 - x**2)"""
    node_name = "AsinBackward0"
    saved_names = ("self",)

    @staticmethod
    @quiet
    def forward(x):
        return wrap(np.arcsin(float_dtype_of(x._data)))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])

    @staticmethod
    @quiet
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * (1 - x * x).rsqrt()


class Acos(Function):
    """z = acos(x);  dz/dx = -1 / sqrt(1 - x**2)"""
    node_name = "AcosBackward0"
    saved_names = ("self",)

    @staticmethod
    @quiet
    def forward(x):
        return wrap(np.arccos(float_dtype_of(x._data)))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])

    @staticmethod
    @quiet
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * -(1 - x * x).rsqrt()


class Atan(Function):
    """z = atan(x);  dz/dx = 1 / (1 + x**2)"""
    node_name = "AtanBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(x):
        return wrap(np.arctan(float_dtype_of(x._data)))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])

    @staticmethod
    @quiet
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad / (x * x + 1)


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


class Sinh(Function):
    """z = sinh(x);  dz/dx = cosh(x)"""
    node_name = "SinhBackward0"
    saved_names = ("self",)

    @staticmethod
    @quiet
    def forward(x):
        return wrap(np.sinh(float_dtype_of(x._data)))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * Cosh.apply(x)


class Cosh(Function):
    """z = cosh(x);  dz/dx = sinh(x)"""
    node_name = "CoshBackward0"
    saved_names = ("self",)

    @staticmethod
    @quiet
    def forward(x):
        return wrap(np.cosh(float_dtype_of(x._data)))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * Sinh.apply(x)


class Asinh(Function):
    """z = asinh(x);  dz/dx = 1 / sqrt(x**2 + 1)"""
    node_name = "AsinhBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(x):
        return wrap(np.arcsinh(float_dtype_of(x._data)))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])

    @staticmethod
    @quiet
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * (x * x + 1).rsqrt()


class Acosh(Function):
    """z = acosh(x);  dz/dx = 1 / sqrt(x**2 - 1)"""
    node_name = "AcoshBackward0"
    saved_names = ("self",)

    @staticmethod
    @quiet
    def forward(x):
        return wrap(np.arccosh(float_dtype_of(x._data)))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])

    @staticmethod
    @quiet
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * (x * x - 1).rsqrt()


class Atanh(Function):
    """z = atanh(x);  dz/dx = 1 / (1 - x**2)"""
    node_name = "AtanhBackward0"
    saved_names = ("self",)

    @staticmethod
    @quiet
    def forward(x):
        return wrap(np.arctanh(float_dtype_of(x._data)))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])

    @staticmethod
    @quiet
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad / (1 - x * x)
