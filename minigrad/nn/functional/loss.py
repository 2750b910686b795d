"""The ops behind binary_cross_entropy(_with_logits), smooth_l1_loss and huber_loss, named as PyTorch's nodes.

Same style as `basic.py`: numpy forward, backward in Tensor operations. Weights come in as numpy arrays (or
None): as in PyTorch they get no gradient and no edge in `next_functions`, but the node saves them as tensors.
The reduction comes in as PyTorch's enum index (0 none, 1 mean, 2 sum), which is also what the nodes save as
`_saved_reduction`. (l1_loss has no op
of its own: as in PyTorch it is `(input - target).abs()` then a mean or a sum.)
"""
import warnings

import numpy as np

from ...core.forward_ad import from_backward
from ...core.function import Function
from ...ops._common import grad_to, quiet, wrap
from ..._tensor.tensor import Tensor
from ...ops._common import broadcast_shapes
from .basic import REDUCTIONS


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

    jvp = from_backward


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

    jvp = from_backward


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

    jvp = from_backward


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

    jvp = from_backward


def _pair(ctx, g, x, t):
    needs_x, needs_t = ctx.needs_input_grad[:2]
    return (grad_to(g, x._data.shape) if needs_x else None, grad_to(-g, t._data.shape) if needs_t else None)


# ---- `F.binary_cross_entropy(_with_logits)`, `F.l1_loss`, `F.smooth_l1_loss`, `F.huber_loss`, and `F.one_
__all__ = ["binary_cross_entropy", "binary_cross_entropy_with_logits", "l1_loss", "smooth_l1_loss", "huber_loss",
           "one_hot"]


def _reduction_enum(reduction, size_average=None, reduce=None):
    """PyTorch's index of the reduction (0 none, 1 mean, 2 sum), from the name or from the legacy flags."""
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    if reduction not in REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")
    return REDUCTIONS.index(reduction)


def _legacy_reduction(size_average, reduce):
    """The reduction that the deprecated `size_average`/`reduce` flags mean, with PyTorch's warning."""
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    ret = "mean" if size_average and reduce else "sum" if reduce else "none"
    warnings.warn(f"size_average and reduce args will be deprecated, please use reduction='{ret}' instead.",
                  stacklevel=4)
    return ret


def _broadcast_pair(input, target):
    """Warn about a target of another shape, then broadcast both (an expand only for the one that grows)."""
    if target.shape == input.shape:
        return input, target
    warnings.warn(f"Using a target size ({target.shape}) that is different to the input size ({input.shape}). This "
                  "will likely lead to incorrect results due to broadcasting. Please ensure they have the same size.",
                  stacklevel=3)
    shape = broadcast_shapes(input._data.shape, target._data.shape)
    return (input if input.shape == shape else input.expand(*shape),
            target if target.shape == shape else target.expand(*shape))


def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):
    """-w (t log x + (1 - t) log(1 - x)) of probabilities x in [0, 1], averaged. Mirrors `F.binary_cross_entropy`.

    Each log is clamped at -100, as in PyTorch, so a confident wrong answer costs 100 and not inf.

    Example:
        >>> F.binary_cross_entropy(torch.tensor([0.8]), torch.tensor([1.0]))
        tensor(0.2231)
    """
    enum = _reduction_enum(reduction, size_average, reduce)
    if target.shape != input.shape:
        raise ValueError(f"Using a target size ({target.shape}) that is different to the input size ({input.shape}) "
                         "is deprecated. Please ensure they have the same size.")
    if target.dtype != input.dtype:
        raise RuntimeError(f"Found dtype {target.type()[6:-6]} but expected {input.type()[6:-6]}")
    if weight is not None:
        weight = np.broadcast_to(_array(weight, input), broadcast_shapes(target._data.shape, weight._data.shape))
    return BinaryCrossEntropy.apply(input, target, weight, enum)


def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None, reduce=None, reduction="mean",
                                     pos_weight=None):
    """binary_cross_entropy(sigmoid(x), t), computed stably from the logits x.

    Mirrors `torch.nn.functional.binary_cross_entropy_with_logits`.

    `pos_weight` (one per class, broadcast over the last dimension) weighs the positive term: > 1 favours recall.
    """
    enum = _reduction_enum(reduction, size_average, reduce)
    if not target.shape == input.shape:
        raise ValueError(f"Target size ({target.shape}) must be the same as input size ({input.shape})")
    return BinaryCrossEntropyWithLogits.apply(input, target, _array(weight, input), _array(pos_weight, input), enum)


def _array(weight, input):
    """A weight as the numpy array that the ops take (no gradient, no edge), in the input's dtype."""
    return None if weight is None else weight._data.astype(input._data.dtype, copy=False)


def l1_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    """Mean absolute error: mean(|input - target|). Mirrors `torch.nn.functional.l1_loss`."""
    input, target = _broadcast_pair(input, target)
    enum = _reduction_enum(reduction, size_average, reduce)
    losses = (input - target).abs()
    if weight is not None:
        if weight.shape != input.shape:
            raise ValueError("Weights and input must have the same size.")
        losses = losses * weight
        return losses if enum == 0 else losses.sum() if enum == 2 else losses.sum() / weight.sum()
    return losses if enum == 0 else losses.sum() if enum == 2 else losses.mean()


def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction="mean", beta=1.0):
    """0.5 d**2 / beta where |d| < beta, else |d| - beta / 2 (d = input - target). Mirrors `F.smooth_l1_loss`."""
    input, target = _broadcast_pair(input, target)
    enum = _reduction_enum(reduction, size_average, reduce)
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    if beta == 0.0:
        return l1_loss(input, target, reduction=REDUCTIONS[enum])
    return SmoothL1Loss.apply(input, target, enum, beta)


def huber_loss(input, target, reduction="mean", delta=1.0, weight=None):
    """0.5 d**2 where |d| < delta, else delta (|d| - delta / 2) (d = input - target). Mirrors `F.huber_loss`."""
    input, target = _broadcast_pair(input, target)
    enum = _reduction_enum(reduction)
    if delta <= 0:
        raise RuntimeError("huber_loss does not support non-positive values for delta.")
    if weight is None:
        return HuberLoss.apply(input, target, enum, delta)
    if weight.shape != input.shape:
        raise ValueError("Weights and input must have the same size.")
    losses = HuberLoss.apply(input, target, 0, delta) * weight
    return losses if enum == 0 else losses.sum() if enum == 2 else losses.mean()


def one_hot(tensor, num_classes=-1):
    """Turn class indices of shape (*) into rows of zeros with a 1 at each index: shape (*, num_classes), int64.

    Mirrors `torch.nn.functional.one_hot`; `num_classes=-1` takes the largest index + 1.

    Example:
        >>> F.one_hot(torch.tensor([0, 2]))
        tensor([[1, 0, 0],
                [0, 0, 1]])
    """
    a = tensor._data
    if a.dtype != np.int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    if a.size == 0:
        if num_classes <= 0:
            raise RuntimeError("Can not infer total number of classes from empty tensor.")
        return Tensor._make(np.zeros(a.shape + (num_classes,), np.int64))
    if a.min() < 0:
        raise RuntimeError("Class values must be non-negative.")
    if num_classes == -1:
        num_classes = int(a.max()) + 1
    elif num_classes <= a.max():
        raise RuntimeError("Class values must be smaller than num_classes.")
    return Tensor._make((a[..., None] == np.arange(num_classes)).astype(np.int64))
