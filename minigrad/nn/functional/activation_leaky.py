"""The leaky relus whose negative slope is learned (prelu) or random (rrelu): their ops, then their `F.` forms.

prelu's op is PyTorch's `_prelu_kernel` (node `PreluKernelBackward0`) on the weight viewed to broadcast over
the channels (dim 1); its gradient is one op with two results, the gradients of x and of the weight. rrelu in
training draws one slope per element that is not positive, uniform in [lower, upper], from the generator as
PyTorch's CPU kernel does (so the same numbers after `manual_seed`); in eval mode it is leaky_relu with the
mean slope. Its node is `RreluWithNoiseBackward0` (`...1` in place, read from the result) in both modes.
"""
import numpy as np

from ...core.dtype import scalar_name
from ...core.forward_ad import from_backward
from ...core.function import Function
from ...ops._common import grad_to, wrap
from ...random.generator import _get
from .activation import zeros


# ---- prelu -------------------------------------------------------------------------------------------------
class PreluKernel(Function):
    """z = x where x > 0, else w * x (w broadcast over x);  dz/dx = 1 or w,  dz/dw = 0 or x (summed)"""
    node_name = "PreluKernelBackward0"
    saved_names = ("self", "weight")

    @staticmethod
    def forward(x, weight):
        a, w = x._data, weight._data
        return wrap(np.where(a > 0, a, w * a))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(*inputs)

    @staticmethod
    def backward(ctx, grad):
        x, weight = ctx.saved_tensors
        return PreluKernelBackward.apply(grad, x, weight)

    jvp = from_backward


class PreluKernelBackward(Function):
    """(gx, gw) = (grad where x > 0 else w * grad,  0 where x > 0 else x * grad, summed to w's shape);
    for upstream (ux, uw):  d/dgrad = ux or ux * w + uw * x,  d/dx = 0 or grad * uw,  d/dw = 0 or grad * ux"""
    node_name = "PreluKernelBackwardBackward0"
    saved_names = ("grad_output", "self", "weight")

    @staticmethod
    def forward(grad, x, weight):
        g, a, w = grad._data, x._data, weight._data
        positive = a > 0
        g_w = np.where(positive, a.dtype.type(0), a * g)
        axes = tuple(i for i, n in enumerate(w.shape) if n == 1 and g_w.shape[i] != 1)
        return wrap(np.where(positive, g, w * g)), wrap(g_w.sum(axis=axes, keepdims=True).reshape(w.shape))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(*inputs)

    @staticmethod
    def backward(ctx, u_x, u_w):
        grad, x, weight = ctx.saved_tensors
        needs_grad, needs_x, needs_w = ctx.needs_input_grad
        negative = wrap((x._data < 0).astype(x._data.dtype))      # PyTorch's `where(self >= 0, ...)`
        g_grad = u_x + (u_x * weight + u_w * x - u_x) * negative if needs_grad else None
        g_x = grad * u_w * negative if needs_x else None
        g_w = grad_to(grad * u_x * negative, tuple(weight.shape)) if needs_w else None
        return g_grad, g_x, g_w

    jvp = from_backward


# ---- rrelu -------------------------------------------------------------------------------------------------
def rrelu_backward(g, a, noise, lower, upper, training):
    """The gradient: grad * noise in training (unless lower == upper), else leaky_relu's with the mean slope."""
    if training and upper - lower > 1e-6:
        return g * noise
    return np.where(a > 0, g, g * g.dtype.type((lower + upper) / 2))


class RreluWithNoise(Function):
    """z = x * noise where x <= 0 (training: noise ~ U(lower, upper) per element), else x; in eval mode
    z = leaky_relu(x, (lower + upper) / 2);  dz/dx = noise, or the leaky slope"""
    node_name = "RreluWithNoiseBackward0"
    saved_names = ("self", "noise")
    saved_attrs = {"lower": "lower", "upper": "upper", "training": "training"}

    @staticmethod
    def forward(x, noise, lower, upper, training):
        a = x._data
        if training:
            return wrap(np.where(a <= 0, a * noise, a))
        return wrap(np.where(a > 0, a, a * a.dtype.type((lower + upper) / 2)))

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, noise, ctx.lower, ctx.upper, ctx.training = inputs
        ctx.save_for_backward(x, wrap(noise))      # the noise: an array, so not an input of the node

    @staticmethod
    def backward(ctx, grad):
        x, noise = ctx.saved_tensors
        return RreluWithNoiseBackward.apply(grad, x, noise, ctx.lower, ctx.upper, ctx.training), None, None, None, None

    jvp = from_backward


class RreluWithNoiseInplace(RreluWithNoise):
    """rrelu_, in place: the same math, the gradient read from the result (same sign as x)"""
    node_name = "RreluWithNoiseBackward1"
    saved_names = ("result", "noise")

    @staticmethod
    def setup_context(ctx, inputs, output):
        _, noise, ctx.lower, ctx.upper, ctx.training = inputs
        ctx.save_for_backward(output, wrap(noise))


class RreluWithNoiseBackward(Function):
    """g = grad * noise (training), or grad * leaky slope;  dg/dgrad = the same factor,  dg/dx = 0"""
    node_name = "RreluWithNoiseBackwardBackward0"
    saved_names = ("self", "noise")
    saved_attrs = {"lower": "lower", "upper": "upper", "training": "training"}

    @staticmethod
    def forward(grad, x, noise, lower, upper, training):
        return wrap(rrelu_backward(grad._data, x._data, noise._data, lower, upper, training))

    @staticmethod
    def setup_context(ctx, inputs, output):
        _, x, noise, ctx.lower, ctx.upper, ctx.training = inputs
        ctx.save_for_backward(x, noise)

    @staticmethod
    def backward(ctx, gg):
        x, noise = ctx.saved_tensors
        needs_grad, needs_x = ctx.needs_input_grad[:2]
        g_grad = RreluWithNoiseBackward.apply(gg, x, noise, ctx.lower, ctx.upper, ctx.training) if needs_grad else None
        return g_grad, zeros(gg) if needs_x else None, None, None, None, None

    jvp = from_backward


def rrelu_noise(x, lower, upper, training, generator=None):
    """The slopes: in training one uniform draw in [lower, upper] for each element <= 0, in memory order of the
    logical (C-order) elements, 1 elsewhere; PyTorch's kernel draws in double from the bounds rounded to the
    dtype (`uniform_real_distribution<double>`: the low 53 bits of a 64-bit draw times 2**-53)."""
    a = x._data
    if a.dtype.kind != "f":
        kernel = "rrelu_with_noise_out_cpu" if training else "leaky_relu_cpu"
        raise NotImplementedError(f'"{kernel}" not implemented for \'{scalar_name(a)}\'')
    noise = np.ones_like(a, order="C")
    if training:
        negative = a <= 0
        low, high = float(a.dtype.type(lower)), float(a.dtype.type(upper))
        u = _get(generator)._uniform(int(negative.sum()), np.float64)
        noise[negative] = (u * (high - low) + low).astype(a.dtype)
    return noise


# ---- `F.prelu`, `F.rrelu` (and the in-place `rrelu_`) -------------------------------------------------------
__all__ = ["prelu", "rrelu", "rrelu_"]


def prelu(input, weight):
    """x where x > 0, else weight * x, with one learned slope per channel (dim 1) or one for all.

    Mirrors `torch.nn.functional.prelu`. `weight` has 1 element or as many as input has channels.

    Example:
        >>> F.prelu(torch.tensor([-2.0, 3.0]), torch.tensor([0.25]))
        tensor([-0.5000,  3.0000])
    """
    if input.dtype != weight.dtype:
        raise RuntimeError(f"prelu: Type promoting not supported. Got {input.dtype._scalar_name} and "
                           f"{weight.dtype._scalar_name}")
    if weight.numel() != 1:
        if input.dim() == 0:
            raise RuntimeError("Not allow zero-dim input tensor.")
        channels = input.shape[1] if input.dim() > 1 else 1
        if channels != weight.numel():
            raise RuntimeError(f"Mismatch of parameter numbers and input channel size. Found parameter numbers = "
                               f"{weight.numel()} and channel size = {channels}.")
    if weight.dim() > 1:
        raise RuntimeError(f"prelu: Expected `weight` to be a scalar or 1D tensor, but got: ndim = {weight.dim()}")
    if input.dim() != weight.dim():
        shape = [1] * input.dim()
        if input.dim() > 1:
            shape[1] = weight.numel()
        weight = weight.reshape(shape)      # a view, as in PyTorch (its node: ViewBackward0)
    return PreluKernel.apply(input, weight)


def _check_bounds(lower, upper):
    if not upper >= lower:
        raise RuntimeError("Lower bound should be less than or equal to the upper bound")


def rrelu(input, lower=1.0 / 8, upper=1.0 / 3, training=False, inplace=False):
    """Randomized leaky relu: slopes drawn uniformly in [lower, upper] in training, their mean in eval.

    Mirrors `torch.nn.functional.rrelu` (Xu et al., 2015), with PyTorch's random numbers after `manual_seed`.
    """
    if inplace:
        return rrelu_(input, lower, upper, training)
    _check_bounds(lower, upper)
    return RreluWithNoise.apply(input, rrelu_noise(input, lower, upper, training), lower, upper, training)


def rrelu_(input, lower=1.0 / 8, upper=1.0 / 3, training=False):
    """In-place `rrelu`; returns `input`."""
    _check_bounds(lower, upper)
    return input._inplace(RreluWithNoiseInplace, rrelu_noise(input, lower, upper, training), lower, upper,
                          training)
