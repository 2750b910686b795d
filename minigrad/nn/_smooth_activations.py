"""The ops behind gelu, silu and softplus: smooth activations, whose gradients are smooth too.

As for leaky_relu and elu (_activation_functions.py), the gradients of gelu and softplus are ops of their own, as
in PyTorch (`GeluBackwardBackward0`, `SoftplusBackwardBackward0`), whose backward uses Tensor operations.
"""
import math

import numpy as np

from ..autograd.function import Function
from ..ops._common import quiet, wrap
from ._activation_functions import erf, floating

_SQRT1_2, _INV_SQRT_2PI = math.sqrt(0.5), 1 / math.sqrt(2 * math.pi)
_K_BETA, _K_KAPPA = math.sqrt(2 / math.pi), 0.044715     # the tanh approximation of gelu


# ---- gelu --------------------------------------------------------------------------------------------------
class Gelu(Function):
    """z = x * Phi(x), Phi the standard normal CDF
    (approximate='tanh': 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x**3))));
    dz/dx = Phi(x) + x * phi(x), phi the standard normal density"""
    node_name = "GeluBackward0"
    saved_names = ("self",)
    saved_attrs = {"approximate": "approximate"}

    @staticmethod
    def forward(x, approximate):
        a = floating(x, "GeluKernelImpl")
        t = a.dtype.type
        if approximate == "tanh":
            inner = t(_K_BETA) * (a + t(_K_KAPPA) * a * a * a)
            return wrap(t(0.5) * a * (t(1) + np.tanh(inner)))
        return wrap(a * t(0.5) * (t(1) + erf(a * t(_SQRT1_2))))

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, ctx.approximate = inputs
        ctx.save_for_backward(x)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return GeluBackward.apply(grad, x, ctx.approximate), None


class GeluBackward(Function):
    """g = grad * gelu'(x);  dg/dgrad = gelu'(x),  dg/dx = grad * gelu''(x), with gelu'' = phi(x) (2 - x**2)
    (for 'tanh', with u = sqrt(2/pi) (x + 0.044715 x**3) and t = tanh(u): (1 - t**2) (u' - x t u'**2 + x u''/2))"""
    node_name = "GeluBackwardBackward0"
    saved_names = ("grad_output", "self")
    saved_attrs = {"approximate": "approximate"}

    @staticmethod
    def forward(grad, x, approximate):
        a, g = x._data, grad._data
        t = a.dtype.type
        if approximate == "tanh":
            x_sq = a * a
            tanh_inner = np.tanh(t(_K_BETA) * (a + t(_K_KAPPA) * x_sq * a))
            left_derivative = t(0.5) * (t(1) + tanh_inner)
            right_derivative = (t(1) - tanh_inner * tanh_inner) * t(_K_BETA) * (t(1) + t(3 * _K_KAPPA) * x_sq)
            return wrap(g * (left_derivative + t(0.5) * a * right_derivative))
        cdf = t(0.5) * (t(1) + erf(a * t(_SQRT1_2)))
        pdf = np.exp(t(-0.5) * a * a) * t(_INV_SQRT_2PI)
        return wrap(g * (cdf + a * pdf))

    @staticmethod
    def setup_context(ctx, inputs, output):
        grad, x, ctx.approximate = inputs
        ctx.save_for_backward(grad, x)

    @staticmethod
    def backward(ctx, gg):
        grad, x = ctx.saved_tensors
        needs_grad, needs_x = ctx.needs_input_grad[:2]
        g_grad = GeluBackward.apply(gg, x, ctx.approximate) if needs_grad else None
        g_x = None
        if needs_x:
            if ctx.approximate == "tanh":
                du = (x * x * (3 * _K_KAPPA) + 1) * _K_BETA
                th = ((x * x * x * _K_KAPPA + x) * _K_BETA).tanh()
                second = (1 - th * th) * (du - x * th * du * du + x * x * (3 * _K_BETA * _K_KAPPA))
            else:
                second = (x * x * -0.5).exp() * _INV_SQRT_2PI * (2 - x * x)
            g_x = gg * grad * second
        return g_grad, g_x, None


# ---- silu --------------------------------------------------------------------------------------------------
class Silu(Function):
    """z = x * sigmoid(x);  dz/dx = s (1 + x (1 - s)), s = sigmoid(x)"""
    node_name = "SiluBackward0"
    saved_names = ("self",)

    @staticmethod
    @quiet
    def forward(x):
        a = floating(x, "silu_cpu")
        return wrap(a / (a.dtype.type(1) + np.exp(-a)))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        s = x.sigmoid()
        return grad * s * (1 + x * (1 - s))


# ---- softplus ----------------------------------------------------------------------------------------------
class Softplus(Function):
    """z = log(1 + exp(beta x)) / beta, or x where beta x > threshold;  dz/dx = sigmoid(beta x), or 1"""
    node_name = "SoftplusBackward0"
    saved_names = ("self",)
    saved_attrs = {"beta": "beta", "threshold": "threshold"}

    @staticmethod
    @quiet
    def forward(x, beta, threshold):
        a = floating(x, "softplus_cpu")
        t = a.dtype.type
        bx = a * t(beta)
        return wrap(np.where(bx > threshold, a, np.log1p(np.exp(bx)) / t(beta)))

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, ctx.beta, ctx.threshold = inputs
        ctx.save_for_backward(x)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return SoftplusBackward.apply(grad, x, ctx.beta, ctx.threshold), None, None


class SoftplusBackward(Function):
    """g = grad * z / (z + 1), z = exp(beta x) (grad where beta x > threshold);  dg/dgrad = g / grad,
    dg/dx = grad * beta * s (1 - s), s = sigmoid(beta x) (0 beyond the threshold)"""
    node_name = "SoftplusBackwardBackward0"
    saved_names = ("grad_output", "self")
    saved_attrs = {"beta": "beta", "threshold": "threshold"}

    @staticmethod
    @quiet
    def forward(grad, x, beta, threshold):
        g, a = grad._data, x._data
        bx = a * a.dtype.type(beta)
        z = np.exp(bx)
        return wrap(np.where(bx > threshold, g, g * z / (z + a.dtype.type(1))))

    @staticmethod
    def setup_context(ctx, inputs, output):
        grad, x, ctx.beta, ctx.threshold = inputs
        ctx.save_for_backward(grad, x)

    @staticmethod
    def backward(ctx, gg):
        grad, x = ctx.saved_tensors
        needs_grad, needs_x = ctx.needs_input_grad[:2]
        g_grad = SoftplusBackward.apply(gg, x, ctx.beta, ctx.threshold) if needs_grad else None
        g_x = None
        if needs_x:
            below = wrap((x._data * x._data.dtype.type(ctx.beta) <= ctx.threshold).astype(x._data.dtype))
            s = (x * ctx.beta).sigmoid()
            g_x = gg * grad * below * s * (1 - s) * ctx.beta
        return g_grad, g_x, None, None
