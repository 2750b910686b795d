"""The piecewise-linear activations: hardtanh (and relu6), hardsigmoid, hardswish, threshold, softshrink, hardshrink.

Each is a node of its own in PyTorch (`HardtanhBackward0`, ...), and so is its gradient (`hardtanh_backward`,
node `HardtanhBackwardBackward0`): the gradient of a piecewise-linear op is the upstream gradient times a slope
that is constant on each piece, so its own gradient is that slope again (and 0 with respect to x). hardswish is
quadratic in the middle, so its gradient's gradient is not 0; hardsigmoid's gradient has none in PyTorch.
The in-place forms record the same nodes on the saved clone of x (threshold_ its `ThresholdBackward1`).
"""
import numpy as np

from ...core.dtype import scalar_name
from ...core.function import Function
from ...core.grad_mode import is_grad_enabled
from ...ops._common import wrap
from ...ops.activation_backward import ThresholdBackward
from ..._tensor.integer import NotImplementedNode
from .activation import floating, zeros


def not_bool(x, op):
    """Return x's array, or PyTorch's error for bool (hardtanh and threshold take integers, not bool)."""
    a = x._data
    if a.dtype == np.bool_:
        if op == "hardtanh":
            raise RuntimeError("Bool inputs not supported for hardtanh")
        raise NotImplementedError(f'"{op}_cpu" not implemented for \'{scalar_name(a)}\'')
    return a


class Piecewise(Function):
    """Shared by the ops below: z = value(x, *params), x saved; the gradient is the op named by `gradient`.

    `saved_attrs` lists the constants in call order (their torch names are the ctx attributes)."""
    saved_names = ("self",)
    gradient = None

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.params = inputs[1:]
        for name, value in zip(type(ctx)._forward_cls.saved_attrs, ctx.params):
            setattr(ctx, name, value)
        ctx.save_for_backward(inputs[0])

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return (type(ctx)._forward_cls.gradient.apply(grad, x, *ctx.params),) + (None,) * len(ctx.params)

    @staticmethod
    def jvp(ctx, tx, *tparams):                         # the backward formula on the tangent (elementwise)
        return ctx._forward_cls.gradient.apply(tx, ctx.primals[0], *ctx.params)


class SlopeBackward(Function):
    """Shared by the gradients of piecewise-linear ops: g = grad * slope(x);  dg/dgrad = slope(x),  dg/dx = 0"""
    saved_names = ("self",)

    @classmethod
    def forward(cls, grad, x, *params):
        return wrap(cls.times_slope(grad._data, x._data, *params))

    @staticmethod
    def setup_context(ctx, inputs, output):
        _, x, *ctx.params = inputs
        for name, value in zip(type(ctx)._forward_cls.saved_attrs, ctx.params):
            setattr(ctx, name, value)
        ctx.save_for_backward(x)

    @staticmethod
    def backward(ctx, gg):
        (x,) = ctx.saved_tensors
        needs_grad, needs_x = ctx.needs_input_grad[:2]
        g_grad = type(ctx)._forward_cls.apply(gg, x, *ctx.params) if needs_grad else None
        return (g_grad, zeros(gg) if needs_x else None) + (None,) * len(ctx.params)

    @staticmethod
    def jvp(ctx, tgrad, tx, *tparams):
        return ctx._forward_cls.apply(tgrad, ctx.primals[1], *ctx.params)


# ---- hardtanh (relu6 is hardtanh(0, 6), the same node) -------------------------------------------------------
class HardtanhBackward(SlopeBackward):
    """g = grad where min_val < x < max_val, else 0"""
    node_name = "HardtanhBackwardBackward0"
    saved_attrs = {"min_val": "min_val", "max_val": "max_val"}

    @staticmethod
    def times_slope(g, a, min_val, max_val):
        return np.where((a > min_val) & (a < max_val), g, g.dtype.type(0))


class Hardtanh(Piecewise):
    """z = min(max(x, min_val), max_val);  dz/dx = 1 where min_val < x < max_val, else 0"""
    node_name = "HardtanhBackward0"
    saved_attrs = {"min_val": "min_val", "max_val": "max_val"}
    gradient = HardtanhBackward

    @staticmethod
    def forward(x, min_val, max_val):
        a = not_bool(x, "hardtanh")
        t = a.dtype.type
        return wrap(np.minimum(np.maximum(a, t(min_val)), t(max_val)))


# ---- hardsigmoid -------------------------------------------------------------------------------------------
def hardsigmoid_backward(grad, x):
    """g = grad / 6 where -3 < x < 3, else 0. PyTorch has no derivative for it: recorded, it is a NotImplemented
    node, whose backward raises PyTorch's error."""
    g, a = grad._data, x._data
    # ATen's constant is the float 1.0f / 6.0f, in double too
    array = np.where((a > -3) & (a < 3), g * g.dtype.type(np.float32(1 / 6)), g.dtype.type(0))
    wanting = [t for t in (grad, x) if t.requires_grad]
    if wanting and is_grad_enabled():
        return NotImplementedNode.apply(array, "aten::hardsigmoid_backward", *wanting)
    return wrap(array)


class Hardsigmoid(Piecewise):
    """z = min(max(x + 3, 0), 6) / 6;  dz/dx = 1/6 where -3 < x < 3, else 0"""
    node_name = "HardsigmoidBackward0"
    saved_attrs = {}

    @staticmethod
    def forward(x):
        a = floating(x, "hardsigmoid_cpu")
        t = a.dtype.type
        return wrap(np.minimum(np.maximum(a + t(3), t(0)), t(6)) / t(6))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return hardsigmoid_backward(grad, x)

    @staticmethod
    def jvp(ctx, tx):
        return hardsigmoid_backward(tx, ctx.primals[0])


# ---- hardswish ---------------------------------------------------------------------------------------------
class HardswishBackward(Function):
    """g = 0 where x <= -3, grad (x / 3 + 1/2) where x < 3, else grad;  dg/dgrad = g / grad,
    dg/dx = grad / 3 where -3 < x < 3, else 0"""
    node_name = "HardswishBackwardBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(grad, x):
        g, a = grad._data, x._data
        t = a.dtype.type
        return wrap(np.where(a <= -3, t(0), np.where(a < 3, g * (a / t(3) + t(0.5)), g)))

    @staticmethod
    def setup_context(ctx, inputs, output):
        grad, x = inputs
        ctx.save_for_backward(grad, x)

    @staticmethod
    def backward(ctx, gg):
        grad, x = ctx.saved_tensors
        needs_grad, needs_x = ctx.needs_input_grad
        g_grad = HardswishBackward.apply(gg, x) if needs_grad else None
        g_x = None
        if needs_x:
            middle = wrap(((x._data > -3) & (x._data < 3)).astype(x._data.dtype))
            g_x = gg * grad * middle / 3
        return g_grad, g_x

    @staticmethod
    def jvp(ctx, tgrad, tx):
        grad, x = ctx.primals
        middle = wrap(((x._data > -3) & (x._data < 3)).astype(x._data.dtype))
        return HardswishBackward.apply(tgrad, x) + tx * grad * middle / 3


class Hardswish(Piecewise):
    """z = x * min(max(x + 3, 0), 6) / 6;  dz/dx = 0 for x <= -3, x / 3 + 1/2 for x < 3, else 1"""
    node_name = "HardswishBackward0"
    saved_attrs = {}
    gradient = HardswishBackward

    @staticmethod
    def forward(x):
        a = floating(x, "hardswish_cpu")
        t = a.dtype.type
        return wrap(a * np.minimum(np.maximum(a + t(3), t(0)), t(6)) / t(6))


# ---- threshold ---------------------------------------------------------------------------------------------
class Threshold(Piecewise):
    """z = x where x > threshold, else value;  dz/dx = 1 where x > threshold, else 0"""
    node_name = "ThresholdBackward0"
    saved_attrs = {"threshold": "threshold"}
    gradient = ThresholdBackward

    @staticmethod
    def forward(x, threshold, value):
        a = not_bool(x, "threshold")
        return wrap(np.where(a > threshold, a, a.dtype.type(value)))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return ThresholdBackward.apply(grad, x, ctx.threshold), None, None

    @staticmethod
    def jvp(ctx, tx, tthreshold, tvalue):
        return ThresholdBackward.apply(tx, ctx.primals[0], ctx.threshold)


class ThresholdInplace(Threshold):
    """threshold_, in place: the same math, on the saved clone of x"""
    node_name = "ThresholdBackward1"


# ---- softshrink and hardshrink ----------------------------------------------------------------------------
class ShrinkBackward(SlopeBackward):
    """g = grad where |x| > lambd, else 0 (the gradient of both shrinks)"""
    saved_attrs = {"lambd": "lambd"}

    @staticmethod
    def times_slope(g, a, lambd):
        return np.where((a >= -lambd) & (a <= lambd), g.dtype.type(0), g)


class SoftshrinkBackward(ShrinkBackward):
    node_name = "SoftshrinkBackwardBackward0"


class HardshrinkBackward(ShrinkBackward):
    node_name = "HardshrinkBackwardBackward0"


class Softshrink(Piecewise):
    """z = x - lambd where x > lambd, x + lambd where x < -lambd, else 0;  dz/dx = 1 where |x| > lambd, else 0"""
    node_name = "SoftshrinkBackward0"
    saved_attrs = {"lambd": "lambd"}
    gradient = SoftshrinkBackward

    @staticmethod
    def forward(x, lambd):
        a = floating(x, "softshrink_check")
        t = a.dtype.type
        # in between, x * 0 as ATen's scalar loop: -0.0 for negative x (its vectorised loop, which takes the
        # leading blocks of long tensors, gives +0.0: the values are equal, only a printed sign can differ)
        return wrap(np.where(a > lambd, a - t(lambd), np.where(a < -lambd, a + t(lambd), a * t(0))))


class Hardshrink(Piecewise):
    """z = x where |x| > lambd, else 0;  dz/dx = 1 where |x| > lambd, else 0"""
    node_name = "HardshrinkBackward0"
    saved_attrs = {"lambd": "lambd"}
    gradient = HardshrinkBackward

    @staticmethod
    def forward(x, lambd):
        a = floating(x, "hardshrink_cpu")
        return wrap(np.where((a >= -lambd) & (a <= lambd), a.dtype.type(0), a))


# ---- `F.hardtanh`, `F.relu6`, `F.hardsigmoid`, `F.hardswish`, `F.threshold`, `F.softshrink`, `F.hardshrink` ---
__all__ = ["hardtanh", "hardtanh_", "relu6", "hardsigmoid", "hardswish", "threshold", "threshold_", "softshrink",
           "hardshrink"]


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    """x clipped to [min_val, max_val]. Mirrors `torch.nn.functional.hardtanh`.

    Example:
        >>> F.hardtanh(torch.tensor([-2.0, 0.5, 3.0]))
        tensor([-1.0000,  0.5000,  1.0000])
    """
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    return hardtanh_(input, min_val, max_val) if inplace else Hardtanh.apply(input, min_val, max_val)


def hardtanh_(input, min_val=-1.0, max_val=1.0):
    """In-place `hardtanh`; returns `input`."""
    return input._inplace(Hardtanh, min_val, max_val)


def relu6(input, inplace=False):
    """min(max(x, 0), 6): hardtanh(x, 0, 6), its node too. Mirrors `torch.nn.functional.relu6`."""
    return hardtanh(input, 0.0, 6.0, inplace)


def hardsigmoid(input, inplace=False):
    """A piecewise-linear sigmoid: 0 below -3, 1 above 3, x / 6 + 1/2 between. Mirrors `F.hardsigmoid`."""
    return input._inplace(Hardsigmoid) if inplace else Hardsigmoid.apply(input)


def hardswish(input, inplace=False):
    """x * hardsigmoid(x) (MobileNetV3's cheap swish). Mirrors `torch.nn.functional.hardswish`."""
    return input._inplace(Hardswish) if inplace else Hardswish.apply(input)


def threshold(input, threshold, value, inplace=False):
    """x where x > threshold, else value. Mirrors `torch.nn.functional.threshold`.

    Example:
        >>> F.threshold(torch.tensor([0.5, 2.0]), 1.0, -1.0)
        tensor([-1.,  2.])
    """
    return threshold_(input, threshold, value) if inplace else Threshold.apply(input, threshold, value)


def threshold_(input, threshold, value):
    """In-place `threshold`; returns `input`."""
    return input._inplace(ThresholdInplace, threshold, value)


def _check_lambd(input, lambd):
    if input.dtype.is_floating_point and not 0 <= lambd <= np.finfo(input._data.dtype).max:
        high = float(np.finfo(input._data.dtype).max)
        raise RuntimeError(f"lambda must be in range [0, {high:g}] for input dtype {input.dtype._scalar_name}, "
                           f"but found {lambd:g}")


def softshrink(input, lambd=0.5):
    """x moved toward 0 by lambd, and 0 within [-lambd, lambd]. Mirrors `torch.nn.functional.softshrink`."""
    _check_lambd(input, lambd)
    return Softshrink.apply(input, lambd)


def hardshrink(input, lambd=0.5):
    """x where |x| > lambd, else 0. Mirrors `torch.nn.functional.hardshrink`."""
    return Hardshrink.apply(input, lambd)
