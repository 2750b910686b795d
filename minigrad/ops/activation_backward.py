"""The backward formulas of relu, sigmoid and tanh as ops of their own, as in PyTorch.

PyTorch computes these gradients with `threshold_backward`, `sigmoid_backward` and `tanh_backward`, each an op
with a derivative of its own: so a gradient taken with `create_graph=True` can be differentiated again, and
its `grad_fn` is `ThresholdBackwardBackward0`, `SigmoidBackwardBackward0` or `TanhBackwardBackward0`. One op
instead of three also keeps the first backward of these hot activations as cheap as a single numpy expression.
"""
import numpy as np

from ..core.function import Function
from ._common import wrap


class ThresholdBackward(Function):
    """g = grad where x > threshold, else 0;  dg/dgrad = 1 where x > threshold, else 0,  dg/dx = 0"""
    node_name = "ThresholdBackwardBackward0"
    saved_names = ("self",)
    saved_attrs = {"threshold": "threshold"}

    @staticmethod
    def forward(grad, x, threshold):
        return wrap(grad._data * (x._data > threshold))

    @staticmethod
    def setup_context(ctx, inputs, output):
        _, x, ctx.threshold = inputs
        ctx.save_for_backward(x)

    @staticmethod
    def backward(ctx, gg):
        (x,) = ctx.saved_tensors
        needs_grad, needs_x = ctx.needs_input_grad[:2]
        g_grad = ThresholdBackward.apply(gg, x, ctx.threshold) if needs_grad else None
        g_x = wrap(np.zeros_like(gg._data)) if needs_x else None     # a constant, as PyTorch's zeros_like
        return g_grad, g_x, None

    @staticmethod
    def jvp(ctx, tgrad, tx, tthreshold):
        return ThresholdBackward.apply(tgrad, ctx.primals[1], ctx.threshold)


class SigmoidBackward(Function):
    """g = grad * z * (1 - z)  (z = sigmoid(x));  dg/dgrad = z * (1 - z),  dg/dz = grad * (1 - 2 z)"""
    node_name = "SigmoidBackwardBackward0"
    saved_names = ("grad_output", "output")

    @staticmethod
    def forward(grad, z):
        s = z._data
        return wrap(grad._data * s * (1 - s))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(*inputs)

    @staticmethod
    def backward(ctx, gg):
        grad, z = ctx.saved_tensors
        needs_grad, needs_z = ctx.needs_input_grad
        g_grad = SigmoidBackward.apply(gg, z) if needs_grad else None
        g_z = gg * grad * (-2 * z + 1) if needs_z else None
        return g_grad, g_z

    @staticmethod
    def jvp(ctx, tgrad, tz):
        grad, z = ctx.primals
        return SigmoidBackward.apply(tgrad, z) + tz * grad * (-2 * z + 1)


class TanhBackward(Function):
    """g = grad * (1 - z**2)  (z = tanh(x));  dg/dgrad = 1 - z**2,  dg/dz = -2 z grad"""
    node_name = "TanhBackwardBackward0"
    saved_names = ("grad_output", "output")

    @staticmethod
    def forward(grad, z):
        t = z._data
        if t.dtype == np.float32:
            # ATen rounds 1 - z*z once (a fused multiply-add); float64 holds z*z and 1 - z*z exactly, so one
            # rounding back to float32 gives torch's bits (Karpathy's "exact" gradient checks depend on it)
            return wrap(grad._data * (1 - np.square(t, dtype=np.float64)).astype(np.float32))
        return wrap(grad._data * (1 - t * t))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(*inputs)

    @staticmethod
    def backward(ctx, gg):
        grad, z = ctx.saved_tensors
        needs_grad, needs_z = ctx.needs_input_grad
        g_grad = TanhBackward.apply(gg, z) if needs_grad else None
        g_z = -2 * z * grad * gg if needs_z else None
        return g_grad, g_z

    @staticmethod
    def jvp(ctx, tgrad, tz):
        grad, z = ctx.primals
        return TanhBackward.apply(tgrad, z) - 2 * z * grad * tz
