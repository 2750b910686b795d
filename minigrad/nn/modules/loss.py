"""Loss layers: each one stores its options and calls the function of the same name in `nn.functional`."""
import warnings

from .. import functional as F
from ..functional.loss import _legacy_reduction
from ..module import Module


class _Loss(Module):
    def __init__(self, reduction="mean"):
        super().__init__()
        self.reduction = reduction


class MSELoss(_Loss):
    """Mean squared error between input and target. Mirrors `torch.nn.MSELoss`.

    Example:
        >>> nn.MSELoss()(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 4.0]))
        tensor(2.)
    """

    def forward(self, input, target):
        return F.mse_loss(input, target, reduction=self.reduction)


class NLLLoss(_Loss):
    """Negative log-likelihood of log-probabilities and class indices. Mirrors `torch.nn.NLLLoss`."""

    def __init__(self, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean"):
        super().__init__(_legacy(size_average, reduce, reduction))
        self.register_buffer("weight", weight)
        self.ignore_index = ignore_index

    def forward(self, input, target):
        return F.nll_loss(input, target, self.weight, ignore_index=self.ignore_index, reduction=self.reduction)


class NLLLoss2d(NLLLoss):
    """`NLLLoss` under its old name for images, deprecated. Mirrors `torch.nn.NLLLoss2d`."""

    def __init__(self, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean"):
        warnings.warn("`NLLLoss2d` has been deprecated. Please use `NLLLoss` instead as a drop-in replacement and see "
                      "https://pytorch.org/docs/main/nn.html#torch.nn.NLLLoss for more details.", FutureWarning,
                      stacklevel=2)
        super().__init__(weight, size_average, ignore_index, reduce, reduction)


class CrossEntropyLoss(_Loss):
    """Cross-entropy of raw scores (logits) and class indices: NLLLoss of a stable log-softmax.

    Mirrors `torch.nn.CrossEntropyLoss`. The input is (N, C) logits, the target (N,) int64 class indices.

    Example:
        >>> loss_fn = nn.CrossEntropyLoss()
        >>> loss_fn(torch.tensor([[2.0, 0.5]]), torch.tensor([0]))
        tensor(0.2014)
    """

    def __init__(self, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean",
                 label_smoothing=0.0):
        super().__init__(_legacy(size_average, reduce, reduction))
        self.register_buffer("weight", weight)
        self.ignore_index = ignore_index
        self.label_smoothing = label_smoothing

    def forward(self, input, target):
        return F.cross_entropy(input, target, self.weight, ignore_index=self.ignore_index, reduction=self.reduction,
                               label_smoothing=self.label_smoothing)


class BCELoss(_Loss):
    """Binary cross-entropy of probabilities in [0, 1] and targets in [0, 1]. Mirrors `torch.nn.BCELoss`.

    Put a Sigmoid before it, or better use `BCEWithLogitsLoss` on the raw scores (it is stabler).
    """

    def __init__(self, weight=None, size_average=None, reduce=None, reduction="mean"):
        super().__init__(_legacy(size_average, reduce, reduction))
        self.register_buffer("weight", weight)

    def forward(self, input, target):
        return F.binary_cross_entropy(input, target, weight=self.weight, reduction=self.reduction)


class BCEWithLogitsLoss(_Loss):
    """Binary cross-entropy of raw scores (logits): sigmoid and BCELoss in one stable formula.

    Mirrors `torch.nn.BCEWithLogitsLoss`; `pos_weight` (one per class) weighs the positive examples.

    Example:
        >>> nn.BCEWithLogitsLoss()(torch.tensor([0.0]), torch.tensor([1.0]))
        tensor(0.6931)
    """

    def __init__(self, weight=None, size_average=None, reduce=None, reduction="mean", pos_weight=None):
        super().__init__(_legacy(size_average, reduce, reduction))
        self.register_buffer("weight", weight)
        self.register_buffer("pos_weight", pos_weight)

    def forward(self, input, target):
        return F.binary_cross_entropy_with_logits(input, target, self.weight, pos_weight=self.pos_weight,
                                                  reduction=self.reduction)


class L1Loss(_Loss):
    """Mean absolute error between input and target. Mirrors `torch.nn.L1Loss`."""

    def __init__(self, size_average=None, reduce=None, reduction="mean"):
        super().__init__(_legacy(size_average, reduce, reduction))

    def forward(self, input, target):
        return F.l1_loss(input, target, reduction=self.reduction)


class SmoothL1Loss(_Loss):
    """Squared error below `beta`, absolute error above: robust to outliers. Mirrors `torch.nn.SmoothL1Loss`."""

    def __init__(self, size_average=None, reduce=None, reduction="mean", beta=1.0):
        super().__init__(_legacy(size_average, reduce, reduction))
        self.beta = beta

    def forward(self, input, target):
        return F.smooth_l1_loss(input, target, reduction=self.reduction, beta=self.beta)


class HuberLoss(_Loss):
    """Squared error below `delta`, delta times the absolute error above. Mirrors `torch.nn.HuberLoss`."""

    def __init__(self, reduction="mean", delta=1.0):
        super().__init__(reduction)
        self.delta = delta

    def forward(self, input, target):
        return F.huber_loss(input, target, reduction=self.reduction, delta=self.delta)


def _legacy(size_average, reduce, reduction):
    """The deprecated `size_average`/`reduce` flags, when given, decide the reduction (with PyTorch's warning)."""
    if size_average is not None or reduce is not None:
        return _legacy_reduction(size_average, reduce)
    return reduction


class KLDivLoss(_Loss):
    """The Kullback-Leibler divergence of the target from the input (log-probabilities). Mirrors
    `torch.nn.KLDivLoss`; reduction='batchmean' gives the KL divergence proper ('mean' warns that it does not)."""

    def __init__(self, size_average=None, reduce=None, reduction="mean", log_target=False):
        super().__init__(_legacy(size_average, reduce, reduction))
        self.log_target = log_target

    def forward(self, input, target):
        return F.kl_div(input, target, reduction=self.reduction, log_target=self.log_target)
