"""The built-in ops behind `F.layer_norm`, `F.batch_norm` and `F.group_norm`: normalise over some axes, then scale
and shift (`F.instance_norm` is a batch norm, as in ATen).

All compute  x_hat = (x - mean) / sqrt(var + eps)  over their axes (layer norm: the trailing
`normalized_shape`; batch norm: every axis but the channels, 1; group norm: each group of channels of each
sample) and  z = x_hat * w + b.  Their backward is one formula, `normalization_backward`. It recomputes mean
and 1/std from x with Tensor operations instead of reusing the forward's numbers: then the formula is
differentiable in x as well as in g and w, and a second backward (create_graph=True) gets the terms that come
from mean and var depending on x.

Like PyTorch's `native_layer_norm`, `native_batch_norm` and `native_group_norm`, each op returns three tensors,
the output and the mean and 1/std it used (not differentiable); the functional forms return the output.
"""
import math

import numpy as np

from ...core.forward_ad import from_backward, transposed_backward
from ...core.function import Function
from ...ops._common import dim_index, wrap
from .arguments import UNDEFINED
from ..._tensor import creation as _creation
from ...core.grad_mode import no_grad
from .embedding import Embedding, embedding_renorm_
from .arguments import defined, scalar_name, sizes


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

    jvp = from_backward


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
    def jvp(ctx, tx, tweight, tbias, trunning, ttraining, tmomentum, teps):
        # from the backward formula, on a forward that leaves the running statistics alone this time
        x, weight, bias, running, training, momentum, eps = ctx.primals
        primals = (x, weight, bias, None if training else running, training, momentum, eps)
        tangents = (tx, tweight, tbias, None, None, None, None)
        return transposed_backward(NativeBatchNorm, primals, tangents, ctx)

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


class NativeGroupNorm(Function):
    """z = (x - mean) / sqrt(var + eps) * w + b, mean and (biased) var over each sample's groups of C / group
    channels (and all their positions), w and b per channel; the gradients: see `normalization_backward`"""
    node_name = "NativeGroupNormBackward0"
    saved_names = ("input", "weight", "result1", "result2")
    saved_attrs = {"N": "n", "C": "c", "HxW": "hxw", "group": "group", "eps": "eps"}

    @staticmethod
    def forward(x, weight, bias, n, c, hxw, group, eps):
        a = x._data
        groups = a.reshape(n, group, c // group * hxw)
        mean = groups.mean(2, keepdims=True)
        rstd = (1 / np.sqrt(((groups - mean) ** 2).mean(2, keepdims=True) + eps)).astype(a.dtype)
        out = ((groups - mean) * rstd).reshape(a.shape)
        channels = (1, c) + (1,) * (a.ndim - 2)
        if weight is not UNDEFINED:
            out = out * weight._data.reshape(channels)
        if bias is not UNDEFINED:
            out = out + bias._data.reshape(channels)
        return wrap(out.astype(a.dtype)), wrap(mean.reshape(n, group)), wrap(rstd.reshape(n, group))

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, weight, _, ctx.n, ctx.c, ctx.hxw, ctx.group, ctx.eps = inputs
        ctx.mark_non_differentiable(output[1], output[2])
        ctx.save_for_backward(x, None if weight is UNDEFINED else weight, output[1], output[2])

    @staticmethod
    def backward(ctx, grad, _grad_mean, _grad_rstd):
        x, weight, _, _ = ctx.saved_tensors
        needs_x, needs_w, needs_b = ctx.needs_input_grad[:3]
        grouped = (ctx.n, ctx.group, ctx.c // ctx.group, ctx.hxw)        # (N, G, C / G, positions)
        g = grad.reshape(grouped)
        w = None if weight is None else weight.reshape(1, ctx.group, -1, 1)
        dx, x_hat = normalization_backward(g, x.reshape(grouped), w, (2, 3), ctx.eps)
        dw = (g * x_hat).sum((0, 3)).reshape(ctx.c) if needs_w else None
        db = g.sum((0, 3)).reshape(ctx.c) if needs_b else None
        return (dx.reshape(x.shape) if needs_x else None), dw, db, None, None, None, None, None

    jvp = from_backward


# ---- `F.layer_norm`, `F.batch_norm`, `F.group_norm`, `F.instance_norm`, `F.embedding`, `F.dropout`: checks first
def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    """Normalise over the last len(normalized_shape) dims: (x - mean) / sqrt(var + eps) * weight + bias, each
    sample on its own. Mirrors `torch.nn.functional.layer_norm`."""
    shape = check_normalized_shape("layer_norm", input, normalized_shape, weight=weight, bias=bias)
    _check_mixed_dtypes(input, weight, bias)
    if not input.is_floating_point():
        raise NotImplementedError(f"\"LayerNormKernelImpl\" not implemented for '{scalar_name(input)}'")
    return NativeLayerNorm.apply(input, shape, defined(weight), defined(bias), eps)[0]


def check_normalized_shape(fn, input, normalized_shape, **tensors):
    """layer_norm's and rms_norm's checks of their trailing shape (and of `weight`, `bias`); returns it as a tuple."""
    if isinstance(normalized_shape, int):
        raise TypeError(f"{fn}(): argument 'normalized_shape' (position 2) must be tuple of ints, not int")
    shape = tuple(normalized_shape)
    if not shape:
        raise RuntimeError("Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one "
                           "element, but got normalized_shape = []")
    for name, t in tensors.items():
        if t is not None and tuple(t.shape) != shape:
            raise RuntimeError(f"Expected {name} to be of same shape as normalized_shape, but got {name} of shape "
                               f"{sizes(t.shape)} and normalized_shape = {sizes(shape)}")
    if input.dim() < len(shape) or tuple(input.shape[input.dim() - len(shape):]) != shape:
        # layer_norm prints [*, 3, 4]; rms_norm, [*3, 4]
        trailing = ''.join(f', {s}' for s in shape) if fn == "layer_norm" else ', '.join(map(str, shape))
        raise RuntimeError(f"Given normalized_shape={sizes(shape)}, expected input with shape [*{trailing}], but got "
                           f"input of size{sizes(input.shape)}")
    return shape


def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1, eps=1e-5):
    """Normalise each channel (dim 1) over the batch and the other dims: (x - mean) / sqrt(var + eps) * weight
    + bias. Mirrors `torch.nn.functional.batch_norm`.

    In training the batch's statistics are used, and `running_mean` and `running_var` (if given) move towards
    them in place: r = (1 - momentum) r + momentum stat (the variance unbiased). Otherwise the running
    statistics are used.
    """
    if training:
        shape = input.shape
        if shape[0] * math.prod(shape[2:]) == 1:
            raise ValueError(f"Expected more than 1 value per channel when training, got input size {input.size()}")
        if eps <= 0.0:
            raise ValueError(f"batch_norm eps must be positive during training, but got {eps}")
    elif eps < 0.0:
        raise ValueError(f"batch_norm eps must be non-negative, but got {eps}")
    features = input.shape[1] if input.dim() >= 2 else 0
    for name, t in (("running_mean", running_mean), ("running_var", running_var), ("weight", weight),
                    ("bias", bias)):
        if t is not None and t.numel() != features:
            raise RuntimeError(f"{name} should contain {features} elements not {t.numel()}")
        if t is None and not training and name.startswith("running"):
            raise RuntimeError(f"{name} must be defined in evaluation mode")
    if (running_mean is None) != (running_var is None):
        raise ValueError("running_mean and running_var must either both be None or neither be None")
    if not input.is_floating_point():
        raise NotImplementedError(f"\"batch_norm\" not implemented for '{scalar_name(input)}'")
    _check_mixed_dtypes(input, weight, bias, running_mean, running_var)
    if input.numel() == 0:          # PyTorch's `batch_norm` for an empty batch: a copy, scaled and shifted
        out = input.clone()
        out = out if weight is None else out * weight[0]
        return out if bias is None else out + bias[0]
    running = None if running_mean is None or running_var is None else (running_mean, running_var)
    return NativeBatchNorm.apply(input, defined(weight), defined(bias), running, training, momentum, eps)[0]


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-5):
    """Normalise each sample's channels in `num_groups` groups, each over its channels and positions:
    (x - mean) / sqrt(var + eps) * weight + bias, weight and bias per channel. Mirrors `F.group_norm`.

    Example:
        >>> F.group_norm(torch.tensor([[1.0, 3.0, 5.0, 9.0]]), 2)
        tensor([[-1.0000,  1.0000, -1.0000,  1.0000]])
    """
    if input.dim() < 2:
        raise RuntimeError(f"Expected at least 2 dimensions for input tensor but received {input.dim()}")
    n, c, *positions = input.shape
    per_group = [n * c // num_groups, num_groups, *positions]      # PyTorch's `_verify_batch_size` of this list
    if per_group[0] * math.prod(positions) == 1:
        raise ValueError(f"Expected more than 1 value per channel when training, got input size {per_group}")
    if num_groups <= 0:
        raise RuntimeError(f"Expected num groups to be greater than 0, got {num_groups}")
    if c % num_groups:
        raise RuntimeError("Expected number of channels in input to be divisible by num_groups, but got input of "
                           f"shape {sizes(input.shape)} and num_groups={num_groups}")
    weight_shape = sizes(weight.shape) if weight is not None else "[0]"
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None and (t.dim() != 1 or t.numel() != c):
            # (PyTorch's message for the bias shows the weight's shape)
            raise RuntimeError(f"Expected {name} to be a vector of size equal to the number of channels in input, "
                               f"but got {name} of shape {weight_shape} and input of shape {sizes(input.shape)}")
    _check_mixed_dtypes(input, weight, bias)
    if not input.is_floating_point():
        raise NotImplementedError(f"\"GroupNormKernelImpl\" not implemented for '{scalar_name(input)}'")
    return NativeGroupNorm.apply(input.contiguous(), defined(weight), defined(bias), n, c, math.prod(positions),
                                 num_groups, eps)[0]


def instance_norm(input, running_mean=None, running_var=None, weight=None, bias=None, use_input_stats=True,
                  momentum=0.1, eps=1e-5):
    """Normalise each channel of each sample on its own, over its positions: (x - mean) / sqrt(var + eps) * weight
    + bias. Mirrors `torch.nn.functional.instance_norm`.

    As ATen's `instance_norm` does it: a batch norm of the input viewed as one sample of N * C channels, with
    weight, bias and running statistics repeated N times; the running statistics then take the mean over the
    samples of their N updated copies.
    """
    if use_input_stats and math.prod(input.shape[2:]) == 1:
        raise ValueError(f"Expected more than 1 spatial element when training, got input size {input.size()}")
    if not use_input_stats and (running_mean is None or running_var is None):
        raise RuntimeError("Expected running_mean and running_var to be defined when use_input_stats is false")
    b, c = input.shape[0], input.shape[dim_index(1, input.dim())]
    weight_, bias_, mean_, var_ = (None if t is None else t.repeat(b)
                                   for t in (weight, bias, running_mean, running_var))
    out = batch_norm(input.contiguous().view(1, b * c, *input.shape[2:]), mean_, var_, weight_, bias_,
                     use_input_stats, momentum, eps)
    for stat, copies in ((running_mean, mean_), (running_var, var_)):
        if stat is not None:
            stat.copy_(copies.view(b, c).mean(0))
    return out.view(input.shape)


def _check_mixed_dtypes(input, *params):
    """PyTorch's CPU check for parameters of another dtype than the input (`check_mixed_data_type`)."""
    params = [p for p in params if p is not None]
    if all(p._data.dtype == input._data.dtype for p in params):
        return
    if any(p._data.dtype != np.float32 for p in params):
        raise RuntimeError("mixed dtype (CPU): expect parameter to have scalar type of Float")
    raise RuntimeError("mixed dtype (CPU): all inputs must share same datatype.")


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False,
              sparse=False):
    """Look up rows of `weight` by index: the result has input's shape plus the embedding dim.
    Mirrors `torch.nn.functional.embedding`.

    Args:
        input: integer indices (int64 or int32), any shape.
        weight: (num_embeddings, embedding_dim).
        padding_idx: the row that gets no gradient.
        max_norm: rescale (in place) each looked-up row whose norm exceeds it, before the lookup.
        scale_grad_by_freq: divide each row's gradient by how often its index occurs in `input`.
    """
    num = weight.shape[0]
    if padding_idx is not None:
        if not -num <= padding_idx < num:
            raise AssertionError("Padding_idx must be within num_embeddings")
        padding_idx = padding_idx % num
    else:
        padding_idx = -1
    if max_norm is not None:
        with no_grad():
            embedding_renorm_(weight, input._data, max_norm, norm_type)
    if weight.dim() != 2:
        raise RuntimeError("'weight' must be 2-D")
    if input._data.dtype.name not in ("int64", "int32"):
        raise RuntimeError("Expected tensor for argument #1 'indices' to have one of the following scalar types: "
                           f"Long, Int; but got {input.type()} instead (while checking arguments for embedding)")
    idx = input._data
    if idx.size and (idx.min() < 0 or idx.max() >= num):
        raise IndexError("index out of range in self")
    if sparse:
        raise NotImplementedError("minigrad has no sparse tensors: embedding(sparse=True) is not supported")
    return Embedding.apply(weight, idx.astype(np.int64), padding_idx, scale_grad_by_freq, sparse)


def dropout(input, p=0.5, training=True, inplace=False):
    """Zero each element with probability p and scale the rest by 1 / (1 - p), in training; else return the
    input itself. Mirrors `torch.nn.functional.dropout`.

    As ATen's `dropout` does on the CPU: noise = empty_like(input).bernoulli_(1 - p) / (1 - p), then
    input * noise; so the mask comes from the global generator, in the same order as PyTorch's.
    """
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not training or p == 0 or input.numel() == 0:
        return input
    if p == 1:
        noise = _creation.zeros((), dtype=input.dtype)
    else:
        noise = _creation.empty_like(input).bernoulli_(1 - p)
        noise.div_(1 - p)
    return input.mul_(noise) if inplace else input * noise
