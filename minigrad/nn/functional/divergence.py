"""The Kullback-Leibler divergence `kl_div`, and the `xlogy` (x * log(y), 0 where x = 0) it is made of.

As in PyTorch, kl_div is a composition: `xlogy(t, t) - t * input` (with `log_target`, `exp(t) * (t - input)`),
then the reduction; 'batchmean' is the sum divided by the batch size, the KL divergence of the math books,
and 'mean' (the mean over every element) warns that it is not.
"""
import warnings


from ...ops.math import Xlogy
from .loss import _legacy_reduction

__all__ = ["kl_div"]


_KL_REDUCTIONS = ("none", "mean", "sum", "batchmean")


def kl_div(input, target, size_average=None, reduce=None, reduction="mean", log_target=False):
    """The Kullback-Leibler divergence of `target` from `input`, pointwise target * (log target - input).

    Mirrors `torch.nn.functional.kl_div`: `input` holds log-probabilities, `target` probabilities (or
    log-probabilities with `log_target=True`). Use reduction='batchmean' for the KL divergence proper.

    Example:
        >>> F.kl_div(torch.tensor([0.5, 0.5]).log(), torch.tensor([0.5, 0.5]), reduction="batchmean")
        tensor(0.)
    """
    if size_average is not None or reduce is not None:
        how = _legacy_reduction(size_average, reduce)
    else:
        if reduction == "mean":
            warnings.warn("reduction: 'mean' divides the total loss by both the batch size and the support size."
                          "'batchmean' divides only by the batch size, and aligns with the KL div math definition."
                          "'mean' will be changed to behave the same as 'batchmean' in the next major release.",
                          stacklevel=2)
        if reduction not in _KL_REDUCTIONS:
            raise ValueError(f"{reduction} is not a valid value for reduction")
        how = "sum" if reduction == "batchmean" else reduction
    reduced = aten_kl_div(input, target, how, log_target)
    if reduction == "batchmean" and input.dim() != 0:
        reduced = reduced / input.shape[0]
    return reduced


def aten_kl_div(input, target, how, log_target):
    """ATen's kl_div (`torch.kl_div`): the pointwise divergence, reduced by "none", "mean" or "sum"."""
    if not (input.dtype.is_floating_point and target.dtype.is_floating_point):
        raise RuntimeError("kl_div: Integral inputs not supported.")
    pointwise = target.exp() * (target - input) if log_target else Xlogy.apply(target, target) - target * input
    return pointwise.mean() if how == "mean" else pointwise.sum() if how == "sum" else pointwise
