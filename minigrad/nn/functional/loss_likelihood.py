"""Negative log-likelihoods of a Poisson and of a Gaussian, composed of Tensor ops as PyTorch composes them."""
import math

from ..._tensor.creation import ones_like
from ...core.grad_mode import no_grad
from ...ops.arithmetic import AddScalar, MulScalar
from .loss import _reduction_enum
from .loss_margin import apply_loss_reduction

__all__ = ["poisson_nll_loss", "gaussian_nll_loss"]


def poisson_nll_loss(input, target, log_input=True, full=False, size_average=None, eps=1e-8, reduce=None,
                     reduction="mean"):
    """Return exp(x) - y x (log_input) or x - y log(x + eps): the Poisson negative log-likelihood of counts y
    with rate exp(x) or x; full=True adds Stirling's y log y - y + log(2 pi y) / 2 where y > 1. Mirrors
    `torch.nn.functional.poisson_nll_loss` (ATen's composite)."""
    enum = _reduction_enum(reduction, size_average, reduce)
    # C++ composite: `x + eps` and `c * x` are AddBackward1 and MulBackward1 nodes (see loss_margin.py)
    loss = input.exp() - target * input if log_input else input - target * AddScalar.apply(input, eps).log()
    if full:
        stirling_term = target * target.log() - target + MulScalar.apply(MulScalar.apply(target, 2 * math.pi).log(),
                                                                         0.5)
        loss += stirling_term.masked_fill(target <= 1, 0)
    return apply_loss_reduction(loss, enum)


def gaussian_nll_loss(input, target, var, full=False, eps=1e-6, reduction="mean"):
    """Return (log(var) + (x - y)**2 / var) / 2 (plus log(2 pi) / 2 if full), var clamped at eps: the Gaussian
    negative log-likelihood of y with mean x. Mirrors `torch.nn.functional.gaussian_nll_loss`."""
    if isinstance(var, float):
        if var < 0:
            raise ValueError("var has negative entry/entries")
        var = var * ones_like(input)
    elif (var < 0).any():
        raise ValueError("var has negative entry/entries")
    if var.size() != input.size():
        if input.size()[:-1] == var.size():           # one variance per sample (homoscedastic)
            var = var.unsqueeze(-1)
        elif not (input.ndim == var.ndim
                  and sum(y for x, y in zip(input.size(), var.size()) if x != y) == 1):
            raise ValueError("var is of incorrect size")
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    var = var.clone()
    with no_grad():                                    # the clamp is for stability only: no gradient through it
        var.clamp_(min=eps)
    loss = 0.5 * (var.log() + (input - target) ** 2 / var)
    if full:
        loss += 0.5 * math.log(2 * math.pi)
    return loss.mean() if reduction == "mean" else loss.sum() if reduction == "sum" else loss
