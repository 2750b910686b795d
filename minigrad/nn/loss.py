"""Loss layers: each one stores its options and calls the function of the same name in `nn.functional`."""
from . import functional as F
from .module import Module


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

    def __init__(self, weight=None, ignore_index=-100, reduction="mean"):
        super().__init__(reduction)
        self.register_buffer("weight", weight)
        self.ignore_index = ignore_index

    def forward(self, input, target):
        return F.nll_loss(input, target, self.weight, self.ignore_index, self.reduction)


class CrossEntropyLoss(_Loss):
    """Cross-entropy of raw scores (logits) and class indices: NLLLoss of a stable log-softmax.

    Mirrors `torch.nn.CrossEntropyLoss`. The input is (N, C) logits, the target (N,) int64 class indices.

    Example:
        >>> loss_fn = nn.CrossEntropyLoss()
        >>> loss_fn(torch.tensor([[2.0, 0.5]]), torch.tensor([0]))
        tensor(0.2014)
    """

    def __init__(self, weight=None, ignore_index=-100, reduction="mean", label_smoothing=0.0):
        super().__init__(reduction)
        self.register_buffer("weight", weight)
        self.ignore_index = ignore_index
        self.label_smoothing = label_smoothing

    def forward(self, input, target):
        return F.cross_entropy(input, target, self.weight, self.ignore_index, self.reduction, self.label_smoothing)
