"""The activations beyond relu (leaky_relu, elu, selu, gelu, silu, softplus): their ops, then their `F.` forms.
(Past 400 lines because it is one family: split by smoothness, the two halves imported each other.)

As in PyTorch (and minigrad/ops/activation_backward.py), the gradient of leaky_relu, elu, gelu and softplus is an
op of its own (`leaky_relu_backward`, ...): its node is `...BackwardBackward0`, and its own backward is written
with Tensor operations, so that gradients of any order can be taken. The in-place forms (`leaky_relu_`, `elu_`)
save their result instead of their input, as PyTorch's `...Backward1` nodes do.
"""
import math

import numpy as np

from ...core.forward_ad import from_backward
from ...core.function import Function
from ...core.dtype import scalar_name
from ...ops._common import quiet, wrap


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

    jvp = from_backward


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

    jvp = from_backward


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

    @staticmethod
    def jvp(ctx, tx, talpha, tscale, tinput_scale):      # the backward formula on the tangent (elementwise)
        return EluBackward.apply(tx, ctx.primals[0], ctx.alpha, ctx.scale, ctx.input_scale, False)


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

    jvp = from_backward


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

    @staticmethod
    def jvp(ctx, tx, tapproximate):                     # the backward formula on the tangent (elementwise)
        return GeluBackward.apply(tx, ctx.primals[0], ctx.approximate)


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

    jvp = from_backward


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

    @staticmethod
    def jvp(ctx, tx):                                   # the backward formula on the tangent (elementwise)
        x = ctx.primals[0]
        s = x.sigmoid()
        return tx * s * (1 + x * (1 - s))


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

    @staticmethod
    def jvp(ctx, tx, tbeta, tthreshold):                # the backward formula on the tangent (elementwise)
        return SoftplusBackward.apply(tx, ctx.primals[0], ctx.beta, ctx.threshold)


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

    jvp = from_backward


# ---- `F.leaky_relu`, `F.elu`, `F.selu`, `F.gelu`, `F.silu`, `F.softplus` (and the in-place `leaky_relu_`,
__all__ = ["leaky_relu", "leaky_relu_", "elu", "elu_", "selu", "selu_", "gelu", "silu", "softplus"]

# SELU's constants (Klambauer et al., 2017), as PyTorch writes them
_SELU_ALPHA, _SELU_SCALE = 1.6732632423543772848170429916717, 1.0507009873554804934193349852946


def leaky_relu(input, negative_slope=0.01, inplace=False):
    """x where x > 0, else negative_slope * x. Mirrors `torch.nn.functional.leaky_relu`.

    Example:
        >>> F.leaky_relu(torch.tensor([-2.0, 3.0]), 0.1)
        tensor([-0.2000,  3.0000])
    """
    return leaky_relu_(input, negative_slope) if inplace else LeakyRelu.apply(input, negative_slope)


def leaky_relu_(input, negative_slope=0.01):
    """In-place `leaky_relu`; returns `input`."""
    return input._inplace(LeakyReluInplace, negative_slope)


def elu(input, alpha=1.0, inplace=False):
    """x where x > 0, else alpha * (exp(x) - 1). Mirrors `torch.nn.functional.elu`."""
    return elu_(input, alpha) if inplace else Elu.apply(input, alpha, 1.0, 1.0)


def elu_(input, alpha=1.0):
    """In-place `elu`; returns `input`."""
    return input._inplace(EluInplace, alpha, 1.0, 1.0)


def selu(input, inplace=False):
    """scale * elu(x, alpha) with SELU's fixed alpha and scale (self-normalising). Mirrors `F.selu`."""
    return selu_(input) if inplace else Elu.apply(input, _SELU_ALPHA, _SELU_SCALE, 1.0)


def selu_(input):
    """In-place `selu`; returns `input`."""
    return input._inplace(EluInplace, _SELU_ALPHA, _SELU_SCALE, 1.0)


def gelu(input, approximate="none"):
    """x * Phi(x), Phi the standard normal CDF (`approximate='tanh'`: its tanh formula). Mirrors `F.gelu`.

    Example:
        >>> F.gelu(torch.tensor([1.0]))
        tensor([0.8413])
    """
    if approximate not in ("none", "tanh"):
        raise RuntimeError("approximate argument must be either none or tanh.")
    return Gelu.apply(input, approximate)


def silu(input, inplace=False):
    """x * sigmoid(x), also called swish. Mirrors `torch.nn.functional.silu`."""
    return input._inplace(Silu) if inplace else Silu.apply(input)


def softplus(input, beta=1.0, threshold=20.0):
    """log(1 + exp(beta x)) / beta, a smooth relu; x itself where beta x > threshold. Mirrors `F.softplus`."""
    return Softplus.apply(input, beta, threshold)
