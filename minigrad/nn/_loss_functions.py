"""The ops behind binary_cross_entropy(_with_logits), smooth_l1_loss and huber_loss, named as PyTorch's nodes.

Same style as `_functions.py`: numpy forward, backward in Tensor operations. Weights come in as numpy arrays (or
None): as in PyTorch they get no gradient and no edge in `next_functions`, but the node saves them as tensors.
The reduction comes in as PyTorch's enum index (0 none, 1 mean, 2 sum), which is also what the nodes save as
`_saved_reduction`. (l1_loss has no op
of its own: as in PyTorch it is `(input - target).abs()` then a mean or a sum.)
"""
import numpy as np

from ..autograd.function import Function
from ..ops._common import grad_to, quiet, wrap

NONE, MEAN, SUM = 0, 1, 2
EPSILON = 1e-12     # PyTorch's floor for x (1 - x) in binary_cross_entropy's gradient


def reduce(losses, reduction):
    """Apply the reduction to an array of losses, keeping its dtype."""
    if reduction == MEAN:
        return wrap(losses.mean(dtype=losses.dtype))
    return wrap(losses.sum(dtype=losses.dtype) if reduction == SUM else losses)


def _constant(array):
    return None if array is None else wrap(array)


def _scaled(g, grad, reduction, numel):
    """The chain rule's last step: times the upstream gradient, over the element count for 'mean'."""
    g = g * grad
    return g / numel if reduction == MEAN else g


class BinaryCrossEntropy(Function):
    """z = -w (t log x + (1 - t) log(1 - x)), each log clamped at -100 (so x = 0 or 1 gives 100, not inf);
    dz/dx = w (x - t) / max(x (1 - x), 1e-12),  dz/dt = w (log(1 - x) - log x)"""
    node_name = "BinaryCrossEntropyBackward0"
    saved_names = ("self", "target", "weight")
    saved_attrs = {"reduction": "reduction"}

    @staticmethod
    @quiet
    def forward(x, t, weight, reduction):
        a, y = x._data, t._data
        if not ((a >= 0) & (a <= 1)).all():
            raise RuntimeError("all elements of input should be between 0 and 1")
        if not ((y >= 0) & (y <= 1)).all():
            raise RuntimeError("all elements of target should be between 0 and 1")
        one, floor = a.dtype.type(1), a.dtype.type(-100)
        losses = (y - one) * np.maximum(np.log1p(-a), floor) - y * np.maximum(np.log(a), floor)
        return reduce(losses if weight is None else losses * weight, reduction)

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, t, weight, ctx.reduction = inputs
        ctx.save_for_backward(x, t, _constant(weight))

    @staticmethod
    def backward(ctx, grad):
        x, t, w = ctx.saved_tensors
        needs_x, needs_t = ctx.needs_input_grad[:2]
        gx = gt = None
        if needs_x:
            gx = (x - t) / (x * (1 - x)).clamp(min=EPSILON)
            gx = grad_to(_scaled(gx if w is None else gx * w, grad, ctx.reduction, x.numel()), x._data.shape)
        if needs_t:
            gt = (1 - x).log() - x.log()
            gt = grad_to(_scaled(gt if w is None else gt * w, grad, ctx.reduction, t.numel()), t._data.shape)
        return gx, gt, None, None


def _log_sigmoid(a):
    # min(x, 0) - log(1 + exp(-|x|)): exp never overflows, and log1p keeps the small values exact
    return np.minimum(a, 0) - np.log1p(np.exp(-np.abs(a)))


def log_sigmoid(x):
    """log(sigmoid(x)) with Tensor operations, computed stably (for the gradients below)."""
    return x.clamp(max=0) - ((-x.abs()).exp() + 1).log()


class BinaryCrossEntropyWithLogits(Function):
    """z = w ((1 - t) x - l log sigmoid(x)), l = (p - 1) t + 1 (p the pos_weight; l = 1 without one);
    dz/dx = w ((p t + 1 - t) sigmoid(x) - p t),  dz/dt = w (log sigmoid(-x) - p log sigmoid(x))"""
    node_name = "BinaryCrossEntropyWithLogitsBackward0"
    saved_names = ("self", "target", "weight", "pos_weight")
    saved_attrs = {"reduction": "reduction"}

    @staticmethod
    @quiet
    def forward(x, t, weight, pos_weight, reduction):
        a, y = x._data, t._data
        log_sig = _log_sigmoid(a)
        if pos_weight is not None:
            log_sig = log_sig * ((pos_weight - 1) * y + 1)
        losses = (1 - y) * a - log_sig
        return reduce(losses if weight is None else losses * weight, reduction)

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, t, weight, pos_weight, ctx.reduction = inputs
        ctx.save_for_backward(x, t, _constant(weight), _constant(pos_weight))

    @staticmethod
    def backward(ctx, grad):
        x, t, w, p = ctx.saved_tensors
        needs_x, needs_t = ctx.needs_input_grad[:2]
        gx = gt = None
        if needs_x:
            if p is None:
                gx = x.sigmoid() - t
            else:
                pt = p * t
                gx = (pt + 1 - t) * x.sigmoid() - pt
            gx = grad_to(_scaled(gx if w is None else gx * w, grad, ctx.reduction, x.numel()), x._data.shape)
        if needs_t:
            gt = -x if p is None else log_sigmoid(-x) - log_sigmoid(x) * p
            gt = grad_to(_scaled(gt if w is None else gt * w, grad, ctx.reduction, t.numel()), t._data.shape)
        return gx, gt, None, None, None


class SmoothL1Loss(Function):
    """z = 0.5 d**2 / beta where |d| < beta, else |d| - beta / 2 (d = x - t);
    dz/dx = clamp(d / beta, -1, 1),  dz/dt = -dz/dx"""
    node_name = "SmoothL1LossBackward0"
    saved_names = ("self", "target")
    saved_attrs = {"reduction": "reduction", "beta": "beta"}

    @staticmethod
    def forward(x, t, reduction, beta):
        d = x._data - t._data
        ad, b = np.abs(d), d.dtype.type(beta)
        return reduce(np.where(ad < b, d.dtype.type(0.5) * d * d / b, ad - d.dtype.type(0.5) * b), reduction)

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, t, ctx.reduction, ctx.beta = inputs
        ctx.save_for_backward(x, t)

    @staticmethod
    def backward(ctx, grad):
        x, t = ctx.saved_tensors
        g = _scaled(((x - t) / ctx.beta).clamp(-1, 1), grad, ctx.reduction, x.numel())
        return _pair(ctx, g, x, t) + (None, None)


class HuberLoss(Function):
    """z = 0.5 d**2 where |d| < delta, else delta (|d| - delta / 2) (d = x - t);
    dz/dx = clamp(d, -delta, delta),  dz/dt = -dz/dx"""
    node_name = "HuberLossBackward0"
    saved_names = ("self", "target")
    saved_attrs = {"reduction": "reduction", "delta": "delta"}

    @staticmethod
    def forward(x, t, reduction, delta):
        d = x._data - t._data
        ad, dl, half = np.abs(d), d.dtype.type(delta), d.dtype.type(0.5)
        return reduce(np.where(ad < dl, half * d * d, dl * (ad - half * dl)), reduction)

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, t, ctx.reduction, ctx.delta = inputs
        ctx.save_for_backward(x, t)

    @staticmethod
    def backward(ctx, grad):
        x, t = ctx.saved_tensors
        g = _scaled((x - t).clamp(-ctx.delta, ctx.delta), grad, ctx.reduction, x.numel())
        return _pair(ctx, g, x, t) + (None, None)


def _pair(ctx, g, x, t):
    needs_x, needs_t = ctx.needs_input_grad[:2]
    return (grad_to(g, x._data.shape) if needs_x else None, grad_to(-g, t._data.shape) if needs_t else None)
