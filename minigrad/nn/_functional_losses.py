"""`F.binary_cross_entropy(_with_logits)`, `F.l1_loss`, `F.smooth_l1_loss`, `F.huber_loss`, and `F.one_hot`.

Part of `nn.functional` (functional.py star-imports `__all__`); the ops are in _loss_functions.py.
"""
import warnings

import numpy as np

from .._tensor import Tensor
from ..ops._common import broadcast_shapes
from ._functions import REDUCTIONS
from ._loss_functions import BinaryCrossEntropy, BinaryCrossEntropyWithLogits, HuberLoss, SmoothL1Loss

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
