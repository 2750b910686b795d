"""+ - * / ** and negation. Python numbers arrive wrapped as 0-d tensors, as in PyTorch."""
import numpy as np

from ..autograd.function import Function
from .._tensor_ops import _as_tensor
from ._common import float_dtype_of, grad_to, grad_to_array, operands, quiet, wrap


class Add(Function):
    """z = x + alpha * y;  dz/dx = 1,  dz/dy = alpha"""
    node_name = "AddBackward0"

    @staticmethod
    def forward(x, y, alpha=1):
        a, b = operands(x, y)
        return wrap(a + b if alpha == 1 else a + alpha * b)

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, y, *alpha = inputs
        ctx.shapes, ctx.alpha = (x._data.shape, y._data.shape), (alpha[0] if alpha else 1)

    @staticmethod
    def backward(ctx, grad):
        g = grad._data
        needs_x, needs_y = ctx.needs_input_grad[:2]
        gx = grad_to_array(g, ctx.shapes[0]) if needs_x else None
        gy = grad_to_array(g if ctx.alpha == 1 else g * ctx.alpha, ctx.shapes[1]) if needs_y else None
        return gx, gy, None


class Sub(Function):
    """z = x - alpha * y;  dz/dx = 1,  dz/dy = -alpha"""
    node_name = "SubBackward0"

    @staticmethod
    def forward(x, y, alpha=1):
        a, b = operands(x, y)
        if a.dtype == np.bool_:
            raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` "
                               "or `logical_xor()` operator instead.")
        return wrap(a - b if alpha == 1 else a - alpha * b)

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, y, *alpha = inputs
        ctx.shapes, ctx.alpha = (x._data.shape, y._data.shape), (alpha[0] if alpha else 1)

    @staticmethod
    def backward(ctx, grad):
        g = grad._data
        needs_x, needs_y = ctx.needs_input_grad[:2]
        gx = grad_to_array(g, ctx.shapes[0]) if needs_x else None
        gy = grad_to_array(-ctx.alpha * g, ctx.shapes[1]) if needs_y else None
        return gx, gy, None


class Rsub(Function):
    """z = c - x  (c a Python number, so the node has one edge, to x);  dz/dx = -1"""
    node_name = "RsubBackward1"

    @staticmethod
    def forward(x, c):
        a, b = operands(x, _as_tensor(c, x))
        return wrap(b - a)

    @staticmethod
    def setup_context(ctx, inputs, output):
        pass

    @staticmethod
    def backward(ctx, grad):
        return wrap(-grad._data), None


class Mul(Function):
    """z = x * y;  dz/dx = y,  dz/dy = x"""
    node_name = "MulBackward0"

    @staticmethod
    def forward(x, y):
        a, b = operands(x, y)
        return wrap(a * b)

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, y = inputs
        # like PyTorch, save only what a needed gradient uses: dz/dx needs y, dz/dy needs x. (y comes first,
        # as PyTorch unpacks it first: if both were changed in place, the error names y.)
        needs_x, needs_y = ctx.needs_input_grad
        ctx.save_for_backward(y if needs_x else None, x if needs_y else None)
        ctx.shapes = (x._data.shape, y._data.shape)

    @staticmethod
    def backward(ctx, grad):
        y, x = ctx.saved_tensors
        g = grad._data
        gx = grad_to_array(g * y._data, ctx.shapes[0]) if y is not None else None
        gy = grad_to_array(g * x._data, ctx.shapes[1]) if x is not None else None
        return gx, gy


class Div(Function):
    """z = x / y;  dz/dx = 1 / y,  dz/dy = -x / y**2"""
    node_name = "DivBackward0"

    @staticmethod
    def forward(x, y):
        a, b = operands(x, y)
        a, b = float_dtype_of(a), float_dtype_of(b)               # integers divide into float32
        if b.all():
            return wrap(a / b)
        with np.errstate(divide="ignore", invalid="ignore"):      # x / 0 is inf or nan, as in PyTorch
            return wrap(a / b)

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, y = inputs
        needs_x, needs_y = ctx.needs_input_grad
        ctx.save_for_backward(y, x if needs_y else None)      # y first, as PyTorch unpacks them
        ctx.shapes = (x._data.shape, y._data.shape)

    @staticmethod
    def backward(ctx, grad):
        y, x = ctx.saved_tensors
        g, b = grad._data, y._data
        gx = grad_to_array(g / b, ctx.shapes[0]) if ctx.needs_input_grad[0] else None
        gy = grad_to_array(-g * x._data / (b * b), ctx.shapes[1]) if x is not None else None
        return gx, gy


class Reciprocal(Function):
    """z = 1 / x;  dz/dx = -z**2"""
    node_name = "ReciprocalBackward0"

    @staticmethod
    def forward(x):
        return wrap(1.0 / float_dtype_of(x._data))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(output)

    @staticmethod
    def backward(ctx, grad):
        (z,) = ctx.saved_tensors
        return wrap(-grad._data * z._data * z._data)


class Neg(Function):
    """z = -x;  dz/dx = -1"""
    node_name = "NegBackward0"

    @staticmethod
    def forward(x):
        if x._data.dtype == np.bool_:
            raise RuntimeError("Negation, the `-` operator, on a bool tensor is not supported. If you are trying to "
                               "invert a mask, use the `~` or `logical_not()` operator instead.")
        return wrap(-x._data)

    @staticmethod
    def setup_context(ctx, inputs, output):
        pass

    @staticmethod
    def backward(ctx, grad):
        return wrap(-grad._data)


class Pow(Function):
    """z = x ** p  (p a Python number);  dz/dx = p * x ** (p - 1)"""
    node_name = "PowBackward0"

    @staticmethod
    @quiet
    def forward(x, p):
        a = x._data
        if a.dtype.kind != "f" and isinstance(p, float):
            a = a.astype(np.float32)
        elif a.dtype.kind == "i" and p < 0:
            raise RuntimeError("Integers to negative integer powers are not allowed.")
        return wrap(a ** p)

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, ctx.p = inputs
        ctx.save_for_backward(x)

    @staticmethod
    @quiet
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        p, a = ctx.p, x._data
        return wrap(grad._data * (p * a ** (p - 1) if p != 0 else np.zeros_like(a))), None


class PowTensor(Function):
    """z = x ** y;  dz/dx = y * x ** (y - 1),  dz/dy = z * log(x)"""
    node_name = "PowBackward1"

    @staticmethod
    @quiet
    def forward(x, y):
        a, b = operands(x, y)
        return wrap(a ** b)

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, y = inputs
        needs_y = ctx.needs_input_grad[1]
        ctx.save_for_backward(y, x, output if needs_y else None)      # in PyTorch's order; z only for dz/dy
        ctx.shapes = (x._data.shape, y._data.shape)

    @staticmethod
    @quiet
    def backward(ctx, grad):
        y, x, z = ctx.saved_tensors
        g, a, b = grad._data, x._data, y._data
        gx = grad_to_array(g * b * a ** (b - 1), ctx.shapes[0]) if ctx.needs_input_grad[0] else None
        with np.errstate(divide="ignore", invalid="ignore"):
            gy = grad_to_array(g * z._data * np.where(a > 0, np.log(np.where(a > 0, a, 1)), 0), ctx.shapes[1]) \
                if ctx.needs_input_grad[1] else None
        return gx, gy


class RPow(Function):
    """z = c ** x  (c a Python number, so the node has one edge, to x);  dz/dx = z * log(c)"""
    node_name = "PowBackward2"

    @staticmethod
    @quiet
    def forward(x, c):
        a, b = operands(x, _as_tensor(c, x))
        return wrap(b ** a)

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.c = inputs[1]
        ctx.save_for_backward(output)

    @staticmethod
    @quiet
    def backward(ctx, grad):
        (z,) = ctx.saved_tensors
        return wrap(grad._data * z._data * np.log(ctx.c)), None
