"""The multi-class margin losses: `F.multi_margin_loss` (one target class per sample, the hinge loss of SVMs) and
`F.multilabel_margin_loss` (several target classes per sample, listed and ended by -1). ATen computes both, and
their gradients, in kernels of their own (nodes MultiMarginLossBackward0, MultilabelMarginLossBackward0); so does
minigrad, in numpy. PyTorch does not differentiate these gradients again, and neither does minigrad: the gradient's
node is PyTorch's NotImplemented, so a second derivative raises PyTorch's error.

    multi_margin:      loss_n = sum over i != y of max(0, margin - x[y] + x[i])**p * w[y] / C
    multilabel_margin: loss_n = sum over targets j, non-targets i of max(0, 1 - (x[j] - x[i])) / C
"""
import numpy as np

from ...core.forward_ad import not_implemented
from ...core.function import Function
from ...ops._common import wrap
from ..._tensor.integer import _result
from .arguments import sizes
from .loss import _reduction_enum

__all__ = ["multi_margin_loss", "multilabel_margin_loss"]

NONE, MEAN, SUM = 0, 1, 2


def _as_matrix(a):
    return a.reshape(1, -1) if a.ndim <= 1 else a


def _reduced(losses, reduction, shape):
    if reduction == MEAN:
        return np.asarray(losses.mean(), losses.dtype)
    if reduction == SUM:
        return np.asarray(losses.sum(), losses.dtype)
    return losses.reshape(shape)


def _multi_margin_terms(x, y, p, margin, weight):
    """The (N, C) terms max(0, margin - x[y] + x[i])**p w[y] / C (0 at i = y) and the mask where they are > 0."""
    n, c = x.shape
    z = margin - np.take_along_axis(x, y[:, None], 1) + x
    hit = (z > 0) & (np.arange(c)[None, :] != y[:, None])
    scale = (weight[y][:, None] if weight is not None else 1) / c
    return np.where(hit, z ** p * scale, 0).astype(x.dtype), hit, z, scale


class MultiMarginLoss(Function):
    """z = the multi-class hinge loss;  dz/dx[i] = p z_i**(p-1) w[y] / C for each i != y with a positive margin
    term, and dz/dx[y] = minus their sum"""
    node_name = "MultiMarginLossBackward0"
    saved_names = ("self", "target", "weight")
    saved_attrs = {"p": "p", "margin": "margin", "reduction": "reduction"}

    @staticmethod
    def forward(x, target, p, margin, weight, reduction):
        terms = _multi_margin_terms(_as_matrix(x._data), target.reshape(-1), p, margin, weight)[0]
        shape = () if x._data.ndim <= 1 and np.ndim(target) == 0 else (terms.shape[0],)
        return wrap(_reduced(terms.sum(1), reduction, shape))

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, target, ctx.p, ctx.margin, weight, ctx.reduction = inputs
        ctx.save_for_backward(x, wrap(target), None if weight is None else wrap(weight))

    @staticmethod
    def backward(ctx, grad):
        x, target, weight = ctx.saved_tensors
        g = _multi_margin_grad(grad._data, _as_matrix(x._data), target._data.reshape(-1), ctx.p, ctx.margin,
                               None if weight is None else weight._data, ctx.reduction)
        return _result(g.reshape(x.shape), "aten::multi_margin_loss_backward", grad, x), None, None, None, None, None

    jvp = not_implemented("multi_margin_loss")          # PyTorch has no forward-mode formula


def _multi_margin_grad(g, a, y, p, margin, weight, reduction):
    """ATen's multi_margin_loss_backward: the gradient of the loss for the upstream gradient g, in numpy."""
    _, hit, z, scale = _multi_margin_terms(a, y, p, margin, weight)
    coef = np.where(hit, (1.0 if p == 1 else 2 * z) * scale, 0)
    coef[np.arange(len(y)), y] = 0 - coef.sum(1)          # 0 - s: +0.0, not -0.0, where nothing is summed
    g = g / len(y) if reduction == MEAN else g.reshape(-1, 1) if reduction == NONE else g
    return (coef * g).astype(a.dtype)


def _multilabel_pairs(x, target):
    """is_target (N, C) and the (N, C, C) mask of the pairs (target j, non-target i) with 1 - x[j] + x[i] > 0."""
    n, c = x.shape
    is_target = np.zeros((n, c), x.dtype)
    listed = np.zeros((n, c), bool)             # listed[n, k]: target[n, k] counts (before the first -1)
    for row in range(n):
        for k in range(c):
            if target[row, k] < 0:
                break
            listed[row, k] = True
            is_target[row, target[row, k]] = 1
    picked = np.take_along_axis(x, np.clip(target, 0, None), 1)                  # x at each listed target
    margins = 1 - picked[:, :, None] + x[:, None, :]                             # (n, k, i)
    pairs = listed[:, :, None] & (is_target[:, None, :] == 0) & (margins > 0)
    return is_target, pairs, margins


class MultilabelMarginLoss(Function):
    """z = the multi-label hinge loss;  each pair (target j, non-target i) with a positive term sends -1/C to x[j]
    and +1/C to x[i]"""
    node_name = "MultilabelMarginLossBackward0"
    saved_names = ("self", "target", "is_target")
    saved_attrs = {"reduction": "reduction"}

    @staticmethod
    def forward(x, target, reduction):
        a = _as_matrix(x._data)
        is_target, pairs, margins = _multilabel_pairs(a, _as_matrix(target))
        losses = (np.where(pairs, margins, 0).sum((1, 2)) / a.shape[1]).astype(a.dtype)
        shape = () if x._data.ndim <= 1 else (a.shape[0],)
        return wrap(_reduced(losses, reduction, shape)), wrap(is_target.reshape(x._data.shape))

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, target, ctx.reduction = inputs
        ctx.mark_non_differentiable(output[1])
        ctx.save_for_backward(x, wrap(target), output[1])

    @staticmethod
    def backward(ctx, grad, _grad_is_target):
        x, target, _ = ctx.saved_tensors
        g = _multilabel_margin_grad(grad._data, _as_matrix(x._data), _as_matrix(target._data), ctx.reduction)
        return _result(g.reshape(x.shape), "aten::multilabel_margin_loss_backward", grad, x), None, None

    jvp = not_implemented("multilabel_margin_loss_forward")


def _multilabel_margin_grad(scale, a, t, reduction):
    """ATen's multilabel_margin_loss_backward, in numpy: each pair with a positive term sends -1/C to its target
    j and +1/C to its non-target i, times the upstream gradient."""
    _, pairs, _ = _multilabel_pairs(a, t)
    count = pairs.astype(a.dtype) / a.shape[1]
    g = np.zeros_like(a)
    g += count.sum(1)
    np.add.at(g, (np.arange(a.shape[0])[:, None], np.clip(t, 0, None)), -count.sum(2))
    scale = scale / a.shape[0] if reduction == MEAN else scale.reshape(-1, 1) if reduction == NONE else scale
    return (g * scale).astype(a.dtype)


def _check_long(target):
    if target.dtype.np_type != np.int64:
        raise RuntimeError(f"expected scalar type Long but found {target.dtype._scalar_name}")


def multi_margin_loss(input, target, p=1, margin=1.0, weight=None, size_average=None, reduce=None,
                      reduction="mean"):
    """The multi-class hinge loss of scores `input` (N, C) for classes `target` (N,): the mean over the classes
    i != y of max(0, margin - x[y] + x[i])**p (p 1 or 2), weighted by weight[y]. Mirrors
    `torch.nn.functional.multi_margin_loss`."""
    enum = _reduction_enum(reduction, size_average, reduce)
    if p not in (1, 2):
        raise ValueError("only p == 1 and p == 2 supported")
    if weight is not None and weight.dim() != 1:
        raise ValueError("weight must be one-dimensional")
    if not (0 < input.dim() <= 2 and input.numel() > 0):
        raise RuntimeError(f"Expected non-empty vector or matrix with optional 0-dim batch size, but got: "
                           f"{sizes(input.shape)}")
    frames, classes = (1, input.numel()) if input.dim() <= 1 else tuple(input.shape)
    if target.dim() > 1 or target.numel() != frames:
        raise RuntimeError("multi_margin_loss: target tensor should be 1-D with size equal to the number of input "
                           f"samples (batch size). Expected target size [{frames}], but got {sizes(target.shape)}. "
                           f"Input has shape {sizes(input.shape)}.")
    if weight is not None and weight.numel() != classes:
        raise RuntimeError(f"inconsistent weight size, expected {classes} but got {sizes(weight.shape)}")
    _check_long(target)
    t = target._data
    if t.size and (t.min() < 0 or t.max() >= classes):
        raise RuntimeError("target out of range")
    return MultiMarginLoss.apply(input, t, p, float(margin), None if weight is None else weight._data, enum)


def multilabel_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    """The multi-label hinge loss: for each sample, the mean over classes of max(0, 1 - (x[j] - x[i])) summed
    over its target classes j (target lists them, ended by -1) and non-target classes i. Mirrors
    `torch.nn.functional.multilabel_margin_loss`."""
    enum = _reduction_enum(reduction, size_average, reduce)
    _check_long(target)
    if input.shape != target.shape:
        raise RuntimeError(f"inconsistent target size: {sizes(target.shape)} for input of size: "
                           f"{sizes(input.shape)}")
    t = target._data
    classes = input.shape[-1] if input.dim() else 1
    if t.size and (t.min() < -1 or t.max() >= classes):
        raise RuntimeError("argument #2 'target' is out of range")
    return MultilabelMarginLoss.apply(input, t, enum)[0]
