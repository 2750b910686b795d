"""Distances and similarities between vectors: `normalize`, `cosine_similarity`, `pairwise_distance`.

All three are compositions in PyTorch, and these mirror them op for op so that the graphs match: normalize is
`x / x.norm(p, dim, keepdim=True).clamp_min(eps).expand_as(x)`; cosine_similarity divides each input by its
norm first (a clone, clamped to eps outside the graph) and sums the product; pairwise_distance is ATen's
`norm(x1 - x2 + eps, p, -1)`, whose C++ scalar add and norm are nodes of their own (`AddBackward1`,
`NormBackward1`), in ops/arithmetic.py and ops/reduction.py.
"""

from ...core import dtype as _dtype
from ...core.grad_mode import no_grad
from ...ops._common import broadcast_shapes
from ...ops.arithmetic import AddScalar
from ...ops.reduction import AtenNorm

__all__ = ["normalize", "cosine_similarity", "pairwise_distance"]


def normalize(input, p=2.0, dim=1, eps=1e-12, out=None):
    """x / max(||x||_p, eps) along `dim`: unit vectors (rows, by default). Mirrors `torch.nn.functional.normalize`.

    Example:
        >>> F.normalize(torch.tensor([[3.0, 4.0]]))
        tensor([[0.6000, 0.8000]])
    """
    denom = input.norm(p, dim, keepdim=True).clamp_min(eps).expand_as(input)
    if out is not None:
        return out.copy_(input / denom)
    return input / denom


def cosine_similarity(x1, x2, dim=1, eps=1e-8):
    """<x1, x2> / (||x1|| ||x2||) along `dim`, with each norm at least eps. Mirrors `F.cosine_similarity`.

    Example:
        >>> F.cosine_similarity(torch.tensor([[1.0, 0.0]]), torch.tensor([[1.0, 1.0]]))
        tensor([0.7071])
    """
    common = _dtype.result_type((x1.dtype, 2 if x1.dim() else 1), (x2.dtype, 2 if x2.dim() else 1))
    if not common.is_floating_point:
        raise RuntimeError(f"expected common dtype to be floating point, yet common dtype is {common._scalar_name}")
    x1 = x1 if x1.dtype.is_floating_point else x1.to(common)
    x2 = x2 if x2.dtype.is_floating_point else x2.to(common)
    if x1.shape != x2.shape:                         # ATen's expand_outplace: both, when the shapes differ
        shape = broadcast_shapes(tuple(x1.shape), tuple(x2.shape))
        x1, x2 = x1.expand(shape), x2.expand(shape)
    # divide each input by its norm first (more stable: the result stays within [-1, 1]); the norms are clones
    # clamped in place outside the graph, so the gradient flows through the unclamped norm
    n1, n2 = x1.norm(2, dim, keepdim=True).clone(), x2.norm(2, dim, keepdim=True).clone()
    with no_grad():
        n1.clamp_min_(eps)
        n2.clamp_min_(eps)
    return ((x1 / n1) * (x2 / n2)).sum(dim)


def pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    """||x1 - x2 + eps||_p over the last dimension. Mirrors `torch.nn.functional.pairwise_distance`.

    Example:
        >>> F.pairwise_distance(torch.tensor([[0.0, 0.0]]), torch.tensor([[3.0, 4.0]]))
        tensor([5.0000])
    """
    innermost = max(x1.dim(), x2.dim()) - 1
    return AtenNorm.apply(AddScalar.apply(x1 - x2, eps), p, innermost, keepdim)
