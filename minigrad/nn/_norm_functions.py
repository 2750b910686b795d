"""The built-in ops behind `F.layer_norm` and `F.batch_norm`: normalise over some axes, then scale and shift.

Both compute  x_hat = (x - mean) / sqrt(var + eps)  over their axes (layer norm: the trailing
`normalized_shape`; batch norm: every axis but the channels, 1) and  z = x_hat * w + b.  Their backward is one
formula, `normalization_backward`. It recomputes mean and 1/std from x with Tensor operations instead of
reusing the forward's numbers: then the formula is differentiable in x as well as in g and w, and a second
backward (create_graph=True) gets the terms that come from mean and var depending on x.

Like PyTorch's `native_layer_norm` and `native_batch_norm`, each op returns three tensors, the output and the
mean and 1/std it used (not differentiable); the functional forms return the output.
"""
import numpy as np

from ..autograd.function import Function
from ..ops._common import wrap
from ._layer_common import UNDEFINED


def normalization_backward(grad, x, weight, axes, eps, stats=None):
    """The gradients (dx, dw, db) of z = x_hat * w + b, x_hat normalised over `axes` (w broadcast to x).

    With g_hat = g * w and m(.) the mean over `axes`:
        dx = (g_hat - m(g_hat) - x_hat * m(g_hat * x_hat)) / sqrt(var + eps),
        dw = sum of g * x_hat over the other axes,  db = sum of g over the other axes.
    `stats`, fixed (mean, 1/std) arrays, stand in for the batch's own (batch norm in eval mode): then x_hat is
    linear in x and dx = g_hat / sqrt(running_var + eps).
    """
    if stats is None:
        mean = x.mean(axes, keepdim=True)
        centered = x - mean
        rstd = ((centered * centered).mean(axes, keepdim=True) + eps) ** -0.5
        x_hat = centered * rstd
    else:
        mean, rstd = (wrap(s.astype(x._data.dtype)) for s in stats)
        x_hat = (x - mean) * rstd
    g_hat = grad if weight is None else grad * weight
    if stats is None:
        dx = (g_hat - g_hat.mean(axes, keepdim=True) - x_hat * (g_hat * x_hat).mean(axes, keepdim=True)) * rstd
    else:
        dx = g_hat * rstd
    return dx, x_hat


class NativeLayerNorm(Function):
    """z = (x - mean) / sqrt(var + eps) * w + b, mean and (biased) var over the last len(normalized_shape)
    dims; the gradients: see `normalization_backward`"""
    node_name = "NativeLayerNormBackward0"
    saved_names = ("input", "weight", "bias", "result1", "result2")
    saved_attrs = {"normalized_shape": "normalized_shape"}

    @staticmethod
    def forward(x, normalized_shape, weight, bias, eps):
        a = x._data
        axes = tuple(range(a.ndim - len(normalized_shape), a.ndim))
        mean = a.mean(axes, keepdims=True)
        var = ((a - mean) ** 2).mean(axes, keepdims=True)
        rstd = (1 / np.sqrt(var + eps)).astype(a.dtype)
        out = (a - mean) * rstd
        if weight is not UNDEFINED:
            out = out * weight._data
        if bias is not UNDEFINED:
            out = out + bias._data
        return wrap(out.astype(a.dtype)), wrap(mean), wrap(rstd)

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, ctx.normalized_shape, weight, bias, ctx.eps = inputs
        ctx.mark_non_differentiable(output[1], output[2])
        ctx.save_for_backward(x, None if weight is UNDEFINED else weight, None if bias is UNDEFINED else bias,
                              output[1], output[2])

    @staticmethod
    def backward(ctx, grad, _grad_mean, _grad_rstd):
        x, weight, _, _, _ = ctx.saved_tensors
        needs_x, _, needs_w, needs_b, _ = ctx.needs_input_grad
        ndim, k = x.dim(), len(ctx.normalized_shape)
        axes, batch_axes = tuple(range(ndim - k, ndim)), tuple(range(ndim - k))
        dx, x_hat = normalization_backward(grad, x, weight, axes, ctx.eps)
        dw = (grad * x_hat).sum(batch_axes) if needs_w else None
        db = grad.sum(batch_axes) if needs_b else None
        return (dx if needs_x else None), None, dw, db, None


class NativeBatchNorm(Function):
    """z = (x - mean) / sqrt(var + eps) * w + b per channel (dim 1), mean and (biased) var over the other dims
    in training (and then running_stat = (1 - momentum) running_stat + momentum batch_stat, with the unbiased
    var), the running statistics in eval mode; the gradients: see `normalization_backward`"""
    node_name = "NativeBatchNormBackward0"
    saved_names = ("input", "weight", "result1", "result2")
    saved_attrs = {"training": "training", "eps": "eps", "running_mean": "running_mean",
                   "running_var": "running_var"}

    @staticmethod
    def forward(x, weight, bias, running, training, momentum, eps):
        a = x._data
        axes = (0,) + tuple(range(2, a.ndim))
        shape = (1, -1) + (1,) * (a.ndim - 2)
        if training:
            # statistics in float64, as PyTorch's CPU kernel accumulates them (its `acc_type` of float is double)
            mean, var = a.mean(axes, dtype=np.float64), a.var(axes, dtype=np.float64)
            if running is not None:
                _update_running_stats(running, mean, var, a.size // a.shape[1], momentum)
        else:
            mean, var = (r._data.astype(np.float64) for r in running)
        rstd = 1 / np.sqrt(var + eps)
        out = (a - mean.reshape(shape)) * rstd.reshape(shape)
        if weight is not UNDEFINED:
            out = out * weight._data.reshape(shape)
        if bias is not UNDEFINED:
            out = out + bias._data.reshape(shape)
        return wrap(out.astype(a.dtype)), wrap(mean.astype(a.dtype)), wrap(rstd.astype(a.dtype))

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, weight, _, running, ctx.training, _, ctx.eps = inputs
        ctx.running_mean, ctx.running_var = running if running is not None else (None, None)
        ctx.mark_non_differentiable(output[1], output[2])
        ctx.save_for_backward(x, None if weight is UNDEFINED else weight, output[1], output[2])
        # eval mode normalises with the running statistics as they are now: keep a copy for backward
        ctx.stats = None if ctx.training else (output[1]._data, output[2]._data)

    @staticmethod
    def backward(ctx, grad, _grad_mean, _grad_rstd):
        x, weight, _, _ = ctx.saved_tensors
        needs_x, needs_w, needs_b = ctx.needs_input_grad[:3]
        ndim = x.dim()
        axes, shape = (0,) + tuple(range(2, ndim)), (1, -1) + (1,) * (ndim - 2)
        stats = None if ctx.stats is None else tuple(s.reshape(shape) for s in ctx.stats)
        dx, x_hat = normalization_backward(grad, x, None if weight is None else weight.reshape(shape), axes,
                                           ctx.eps, stats)
        dw = (grad * x_hat).sum(axes) if needs_w else None
        db = grad.sum(axes) if needs_b else None
        return (dx if needs_x else None), dw, db, None, None, None, None


def _update_running_stats(running, mean, var, n, momentum):
    """running_mean <- (1 - m) running_mean + m mean,  running_var <- (1 - m) running_var + m var n / (n - 1),
    in place (the running statistics are buffers: no graph, but a new version, as any in-place change)."""
    running_mean, running_var = running
    unbiased = var * n / (n - 1) if n > 1 else np.full_like(var, np.nan)
    for buf, value in ((running_mean, mean), (running_var, unbiased)):
        buf._data[...] = (momentum * value + (1 - momentum) * buf._data.astype(np.float64)).astype(buf._data.dtype)
        buf._bump_version()
