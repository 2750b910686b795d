"""The margin, embedding and likelihood loss layers: each stores its options and calls the function of the same name
in `nn.functional` (loss_margin.py, loss_likelihood.py there)."""
from .. import functional as F
from .distance import PairwiseDistance
from .loss import _legacy, _Loss


class MarginRankingLoss(_Loss):
    """max(0, -y (x1 - x2) + margin). Mirrors `torch.nn.MarginRankingLoss`."""

    def __init__(self, margin=0.0, size_average=None, reduce=None, reduction="mean"):
        super().__init__(_legacy(size_average, reduce, reduction))
        self.margin = margin

    def forward(self, input1, input2, target):
        return F.margin_ranking_loss(input1, input2, target, margin=self.margin, reduction=self.reduction)


class HingeEmbeddingLoss(_Loss):
    """x where y = 1, max(0, margin - x) where y = -1. Mirrors `torch.nn.HingeEmbeddingLoss`."""

    def __init__(self, margin=1.0, size_average=None, reduce=None, reduction="mean"):
        super().__init__(_legacy(size_average, reduce, reduction))
        self.margin = margin

    def forward(self, input, target):
        return F.hinge_embedding_loss(input, target, margin=self.margin, reduction=self.reduction)


class CosineEmbeddingLoss(_Loss):
    """1 - cos(x1, x2) where y = 1, max(0, cos(x1, x2) - margin) where y = -1. Mirrors
    `torch.nn.CosineEmbeddingLoss`."""

    def __init__(self, margin=0.0, size_average=None, reduce=None, reduction="mean"):
        super().__init__(_legacy(size_average, reduce, reduction))
        self.margin = margin

    def forward(self, input1, input2, target):
        return F.cosine_embedding_loss(input1, input2, target, margin=self.margin, reduction=self.reduction)


class TripletMarginLoss(_Loss):
    """max(0, d(a, p) - d(a, n) + margin) with the p-norm distance. Mirrors `torch.nn.TripletMarginLoss`."""

    def __init__(self, margin=1.0, p=2.0, eps=1e-6, swap=False, size_average=None, reduce=None, reduction="mean"):
        super().__init__(_legacy(size_average, reduce, reduction))
        if margin <= 0:
            raise ValueError(f"TripletMarginLoss: expected margin to be greater than 0, got {margin} instead")
        self.margin, self.p, self.eps, self.swap = margin, p, eps, swap

    def forward(self, anchor, positive, negative):
        return F.triplet_margin_loss(anchor, positive, negative, margin=self.margin, p=self.p, eps=self.eps,
                                     swap=self.swap, reduction=self.reduction)


class TripletMarginWithDistanceLoss(_Loss):
    """TripletMarginLoss with any distance function. Mirrors `torch.nn.TripletMarginWithDistanceLoss`."""

    def __init__(self, *, distance_function=None, margin=1.0, swap=False, reduction="mean"):
        super().__init__(reduction=reduction)
        if margin <= 0:
            raise ValueError(f"TripletMarginWithDistanceLoss: expected margin to be greater than 0, got {margin} "
                             "instead")
        # the default is a PairwiseDistance layer, a submodule (as PyTorch: it shows in the repr)
        self.distance_function = PairwiseDistance() if distance_function is None else distance_function
        self.margin, self.swap = margin, swap

    def forward(self, anchor, positive, negative):
        return F.triplet_margin_with_distance_loss(anchor, positive, negative,
                                                   distance_function=self.distance_function, margin=self.margin,
                                                   swap=self.swap, reduction=self.reduction)


class MultiLabelSoftMarginLoss(_Loss):
    """One binary cross-entropy of logits per label, averaged over the labels. Mirrors
    `torch.nn.MultiLabelSoftMarginLoss`."""

    def __init__(self, weight=None, size_average=None, reduce=None, reduction="mean"):
        super().__init__(_legacy(size_average, reduce, reduction))
        self.register_buffer("weight", weight)

    def forward(self, input, target):
        return F.multilabel_soft_margin_loss(input, target, weight=self.weight, reduction=self.reduction)


class PoissonNLLLoss(_Loss):
    """The negative log-likelihood of counts under a Poisson rate. Mirrors `torch.nn.PoissonNLLLoss`."""

    def __init__(self, log_input=True, full=False, size_average=None, eps=1e-8, reduce=None, reduction="mean"):
        super().__init__(_legacy(size_average, reduce, reduction))
        self.log_input, self.full, self.eps = log_input, full, eps

    def forward(self, log_input, target):
        return F.poisson_nll_loss(log_input, target, log_input=self.log_input, full=self.full, eps=self.eps,
                                  reduction=self.reduction)


class GaussianNLLLoss(_Loss):
    """The negative log-likelihood of a target under a Gaussian of given mean and variance. Mirrors
    `torch.nn.GaussianNLLLoss`."""

    def __init__(self, *, full=False, eps=1e-6, reduction="mean"):
        super().__init__(reduction)
        self.full, self.eps = full, eps

    def forward(self, input, target, var):
        return F.gaussian_nll_loss(input, target, var, full=self.full, eps=self.eps, reduction=self.reduction)


class SoftMarginLoss(_Loss):
    """log(1 + exp(-y x)), the logistic loss of labels y = ±1. Mirrors `torch.nn.SoftMarginLoss`."""

    def __init__(self, size_average=None, reduce=None, reduction="mean"):
        super().__init__(_legacy(size_average, reduce, reduction))

    def forward(self, input, target):
        return F.soft_margin_loss(input, target, reduction=self.reduction)


class MultiMarginLoss(_Loss):
    """The multi-class hinge loss (an SVM's): for each sample, the mean over the other classes of
    max(0, margin - x[y] + x[i])**p. Mirrors `torch.nn.MultiMarginLoss`."""

    def __init__(self, p=1, margin=1.0, weight=None, size_average=None, reduce=None, reduction="mean"):
        super().__init__(_legacy(size_average, reduce, reduction))
        if p not in (1, 2):
            raise ValueError("only p == 1 and p == 2 supported")
        if weight is not None and weight.dim() != 1:
            raise ValueError(f"MultiMarginLoss: expected weight to be None or 1D tensor, got {weight.dim()}D instead")
        self.register_buffer("weight", weight)
        self.p, self.margin = p, margin

    def forward(self, input, target):
        return F.multi_margin_loss(input, target, p=self.p, margin=self.margin, weight=self.weight,
                                   reduction=self.reduction)


class MultiLabelMarginLoss(_Loss):
    """The multi-label hinge loss: target classes (listed, ended by -1) should score a margin of 1 above every
    other class. Mirrors `torch.nn.MultiLabelMarginLoss`."""

    def __init__(self, size_average=None, reduce=None, reduction="mean"):
        super().__init__(_legacy(size_average, reduce, reduction))

    def forward(self, input, target):
        return F.multilabel_margin_loss(input, target, reduction=self.reduction)
