"""The ops behind leaky_relu and elu (gelu, silu, softplus: _smooth_activations.py), with PyTorch's node names.

As in PyTorch (and minigrad/ops/activation_backward.py), the gradient of leaky_relu, elu, gelu and softplus is an
op of its own (`leaky_relu_backward`, ...): its node is `...BackwardBackward0`, and its own backward is written
with Tensor operations, so that gradients of any order can be taken. The in-place forms (`leaky_relu_`, `elu_`)
save their result instead of their input, as PyTorch's `...Backward1` nodes do.
"""
import math

import numpy as np

from ..autograd.function import Function
from .._dtype import scalar_name
from ..ops._common import quiet, wrap

_erf = np.frompyfunc(math.erf, 1, 1)


def floating(x, kernel):
    """Return x's array, or PyTorch's error for the integer and bool dtypes that these kernels refuse."""
    a = x._data
    if a.dtype.kind != "f":
        raise NotImplementedError(f'"{kernel}" not implemented for \'{scalar_name(a)}\'')
    return a


def erf(a):
    """erf of every element of the numpy array `a`, in its dtype (numpy has no erf of its own)."""
    return np.asarray(_erf(a), dtype=np.float64).astype(a.dtype, copy=False)


def zeros(t):
    return wrap(np.zeros_like(t._data))     # the gradient of a mask: a constant, as PyTorch's zeros_like


# ---- leaky_relu --------------------------------------------------------------------------------------------
class LeakyRelu(Function):
    """z = x if x > 0 else slope * x;  dz/dx = 1 if x > 0 else slope"""
    node_name = "LeakyReluBackward0"
    saved_names = ("self",)
    saved_attrs = {"negative_slope": "negative_slope"}

    @staticmethod
    def forward(x, negative_slope):
        a = floating(x, "leaky_relu_cpu")
        return wrap(np.where(a > 0, a, a * a.dtype.type(negative_slope)))

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, ctx.negative_slope = inputs
        ctx.save_for_backward(x)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return LeakyReluBackward.apply(grad, x, ctx.negative_slope, False), None


class LeakyReluInplace(LeakyRelu):
    """leaky_relu_, in place: the same math, the gradient read from the result (same sign as x for slope >= 0)"""
    node_name = "LeakyReluBackward1"
    saved_names = ("result",)

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.negative_slope = inputs[1]
        ctx.save_for_backward(output)

    @staticmethod
    def backward(ctx, grad):
        (z,) = ctx.saved_tensors
        if ctx.negative_slope < 0:
            raise RuntimeError(
                "In-place leakyReLu backward calculation is triggered with a negative slope which is not supported. "
                "This is caused by calling in-place forward function with a negative slope, please call out-of-place "
                "version instead. File an issue at https://github.com/pytorch/pytorch if you do require supporting "
                "in-place leakRelu backward calculation with negative slope")
        return LeakyReluBackward.apply(grad, z, ctx.negative_slope, True), None


class LeakyReluBackward(Function):
    """g = grad where x > 0, else slope * grad;  dg/dgrad = the same mask,  dg/dx = 0"""
    node_name = "LeakyReluBackwardBackward0"
    saved_names = ("self",)
    saved_attrs = {"negative_slope": "negative_slope"}

    @staticmethod
    def forward(grad, x, negative_slope, is_result):
        g = grad._data
        return wrap(np.where(x._data > 0, g, g * g.dtype.type(negative_slope)))

    @staticmethod
    def setup_context(ctx, inputs, output):
        _, x, ctx.negative_slope, ctx.is_result = inputs
        ctx.save_for_backward(x)

    @staticmethod
    def backward(ctx, gg):
        (x,) = ctx.saved_tensors
        needs_grad, needs_x = ctx.needs_input_grad[:2]
        return (LeakyReluBackward.apply(gg, x, ctx.negative_slope, ctx.is_result) if needs_grad else None,
                zeros(gg) if needs_x else None, None, None)


# ---- elu ---------------------------------------------------------------------------------------------------
class Elu(Function):
    """z = scale * x if x > 0 else scale * alpha * (exp(input_scale * x) - 1);
    dz/dx = scale if x > 0 else scale * alpha * input_scale * exp(input_scale * x)"""
    node_name = "EluBackward0"
    saved_names = ("self",)
    saved_attrs = {"alpha": "alpha", "scale": "scale", "input_scale": "input_scale"}

    @staticmethod
    @quiet
    def forward(x, alpha, scale, input_scale):
        a = floating(x, "elu_cpu")
        t = a.dtype.type
        return wrap(np.where(a > 0, a * t(scale), np.expm1(a * t(input_scale)) * t(alpha * scale)))

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, ctx.alpha, ctx.scale, ctx.input_scale = inputs
        ctx.save_for_backward(x)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return EluBackward.apply(grad, x, ctx.alpha, ctx.scale, ctx.input_scale, False), None, None, None


class EluInplace(Elu):
    """elu_, in place: the gradient for x <= 0 is input_scale * (z + alpha * scale), read from the result z"""
    node_name = "EluBackward1"
    saved_names = ("result",)

    @staticmethod
    def setup_context(ctx, inputs, output):
        _, ctx.alpha, ctx.scale, ctx.input_scale = inputs
        ctx.save_for_backward(output)

    @staticmethod
    def backward(ctx, grad):
        (z,) = ctx.saved_tensors
        if ctx.alpha < 0:
            raise RuntimeError("In-place elu backward calculation is triggered with a negative slope which is not "
                               "supported. This is caused by calling in-place forward function with a negative "
                               "slope, please call out-of-place version instead.")
        return EluBackward.apply(grad, z, ctx.alpha, ctx.scale, ctx.input_scale, True), None, None, None


class EluBackward(Function):
    """g = grad * scale where x > 0, else grad * scale * alpha * input_scale * exp(input_scale * x)
    (from the result z: grad * input_scale * (z + alpha * scale));  dg/dgrad = g / grad,
    dg/dx = grad * scale * alpha * input_scale**2 * exp(input_scale * x) where x <= 0 (from z: grad * input_scale)"""
    node_name = "EluBackwardBackward0"
    saved_names = ("grad_output", "self_or_result")
    saved_attrs = {"alpha": "alpha", "scale": "scale", "input_scale": "input_scale", "is_result": "is_result"}

    @staticmethod
    @quiet
    def forward(grad, x, alpha, scale, input_scale, is_result):
        g, a = grad._data, x._data
        t = a.dtype.type
        neg = g * t(input_scale) * (a + t(alpha * scale)) if is_result else \
            g * t(input_scale * scale * alpha) * np.exp(a * t(input_scale))
        return wrap(np.where(a > 0, g * t(scale), neg))

    @staticmethod
    def setup_context(ctx, inputs, output):
        grad, x, ctx.alpha, ctx.scale, ctx.input_scale, ctx.is_result = inputs
        ctx.save_for_backward(grad, x)

    @staticmethod
    def backward(ctx, gg):
        grad, x = ctx.saved_tensors
        needs_grad, needs_x = ctx.needs_input_grad[:2]
        g_grad = EluBackward.apply(gg, x, ctx.alpha, ctx.scale, ctx.input_scale, ctx.is_result) if needs_grad else None
        g_x = None
        if needs_x:
            neg = wrap((x._data <= 0).astype(x._data.dtype))
            g_x = gg * grad * neg * ctx.input_scale if ctx.is_result else \
                gg * grad * neg * (x * ctx.input_scale).exp() * (ctx.scale * ctx.alpha * ctx.input_scale ** 2)
        return g_grad, g_x, None, None, None, None
