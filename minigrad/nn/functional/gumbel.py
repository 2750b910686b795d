"""`F.gumbel_softmax`: a differentiable sample of a category from logits. Adding Gumbel(0, 1) noise
(-log of an Exp(1) draw) to the logits and taking the softmax at temperature tau gives a relaxed one-hot sample;
`hard=True` returns the exact one-hot in the forward pass with the relaxed sample's gradient (straight-through).
Written as PyTorch's functional.py writes it, so that with the same seed the draws and the graph are PyTorch's."""
import warnings

from ..._tensor import creation as _creation

__all__ = ["gumbel_softmax"]


def gumbel_softmax(logits, tau=1, hard=False, eps=1e-10, dim=-1):
    """softmax((logits + Gumbel noise) / tau) along `dim`; with `hard`, the one-hot of its argmax, differentiated
    as the soft sample. Mirrors `torch.nn.functional.gumbel_softmax`."""
    if eps != 1e-10:
        warnings.warn("`eps` parameter is deprecated and has no effect.", stacklevel=2)
    gumbels = -_creation.empty_like(logits).exponential_().log()
    gumbels = (logits + gumbels) / tau
    y_soft = gumbels.softmax(dim)
    if not hard:
        return y_soft
    index = y_soft.max(dim, keepdim=True)[1]
    y_hard = _creation.zeros_like(logits).scatter_(dim, index, 1.0)
    return y_hard - y_soft.detach() + y_soft
