"""The margin and embedding losses, composed of Tensor ops as PyTorch composes them (ATen's composite code or
torch/nn/functional.py), so that their graphs have PyTorch's nodes: margin_ranking_loss, hinge_embedding_loss,
cosine_embedding_loss, triplet_margin_loss, triplet_margin_with_distance_loss, multilabel_soft_margin_loss; and
soft_margin_loss, an ATen kernel with a node of its own (SoftMarginLossBackward0)."""
import numpy as np

from ..._tensor.creation import tensor, zeros_like
from ...core.forward_ad import from_backward
from ...core.function import Function
from ...ops._common import broadcast_shapes, grad_to, quiet
from ..._tensor.functions import where
from ..._tensor.math_functions import minimum
from .activation_smooth import logsigmoid
from .distance import pairwise_distance
from ...ops.arithmetic import AddScalar, Sub, SubScalar
from .loss import _constant, _legacy_reduction, _reduction_enum
from .loss import reduce as reduce_losses

__all__ = ["margin_ranking_loss", "hinge_embedding_loss", "cosine_embedding_loss", "triplet_margin_loss",
           "triplet_margin_with_distance_loss", "multilabel_soft_margin_loss", "soft_margin_loss"]

NONE, MEAN, SUM = 0, 1, 2
EPSILON = 1e-12     # ATen's floor under the squared norms of cosine_embedding_loss


# ATen's composites are C++: `x + c` there is add(Tensor, Scalar), a node of its own (AddBackward1), and `c - x`
# is a subtraction from a wrapped number (SubBackward0 with no edge for c), unlike Python's `x + c`, `c - x`
def rsub_number(c, x):
    """`c - x` as C++ computes it: SubBackward0 from a 0-d tensor."""
    return Sub.apply(tensor(c, dtype=x.dtype), x)


def apply_loss_reduction(losses, reduction):
    """ATen's `apply_loss_reduction`: the mean, the sum, or the losses themselves, by the enum's index."""
    if reduction == MEAN:
        return losses.mean()
    return losses.sum() if reduction == SUM else losses


def margin_ranking_loss(input1, input2, target, margin=0, size_average=None, reduce=None, reduction="mean"):
    """Return max(0, -y (x1 - x2) + margin): a loss when x1 is not ranked above x2 by `margin` where y = 1
    (below, where y = -1). Mirrors `torch.nn.functional.margin_ranking_loss`.

    Example:
        >>> F.margin_ranking_loss(torch.tensor([1.0]), torch.tensor([0.5]), torch.tensor([1.0]), margin=1.0)
        tensor(0.5000)
    """
    enum = _reduction_enum(reduction, size_average, reduce)
    if input1.dim() != input2.dim() or input1.dim() != target.dim():
        raise RuntimeError("margin_ranking_loss : All input tensors should have same dimension but got sizes: "
                           f"input1: {input1.size()}, input2: {input2.size()}, target: {target.size()} ")
    return apply_loss_reduction(AddScalar.apply(-target * (input1 - input2), margin).clamp_min_(0), enum)


def hinge_embedding_loss(input, target, margin=1.0, size_average=None, reduce=None, reduction="mean"):
    """Return x where y = 1 and max(0, margin - x) where y = -1 (x, say, a distance between two embeddings).
    Mirrors `torch.nn.functional.hinge_embedding_loss`."""
    enum = _reduction_enum(reduction, size_average, reduce)
    zeros = zeros_like(input)
    margin_clamp = rsub_number(margin, input).clamp_min_(0)
    output = where(target != 1, margin_clamp, zeros) + where(target != -1, input, zeros)
    return apply_loss_reduction(output, enum)


def cosine_embedding_loss(input1, input2, target, margin=0, size_average=None, reduce=None, reduction="mean"):
    """Return 1 - cos(x1, x2) where y = 1 and max(0, cos(x1, x2) - margin) where y = -1, cos along the last
    dimension. Mirrors `torch.nn.functional.cosine_embedding_loss`."""
    enum = _reduction_enum(reduction, size_average, reduce)
    targ_dim = target.dim()
    if targ_dim not in (0, 1):
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if targ_dim == 1 and not (input1.dim() == 2 and input2.dim() == 2):
        raise RuntimeError("1D target tensor expects 2D input tensors, but found inputs with sizes "
                           f"{list(input1.shape)} and {list(input2.shape)}.")
    if targ_dim == 0 and not (input1.dim() == 1 and input2.dim() == 1):
        raise RuntimeError("0D target tensor expects 1D input tensors, but found inputs with sizes "
                           f"{list(input1.shape)} and {list(input2.shape)}.")
    prod_sum = (input1 * input2).sum(targ_dim)
    mag_square1 = AddScalar.apply((input1 * input1).sum(targ_dim), EPSILON)
    mag_square2 = AddScalar.apply((input2 * input2).sum(targ_dim), EPSILON)
    cos = prod_sum / (mag_square1 * mag_square2).sqrt_()
    zeros = zeros_like(cos)
    output = (where(target == 1, rsub_number(1, cos), zeros)
              + where(target == -1, SubScalar.apply(cos, margin).clamp_min_(0), zeros))
    return apply_loss_reduction(output, enum)


def _check_triplet_dims(anchor, positive, negative):
    a_dim, p_dim, n_dim = anchor.dim(), positive.dim(), negative.dim()
    if not (a_dim == p_dim and p_dim == n_dim):
        raise RuntimeError("The anchor, positive, and negative tensors are expected to have the same number of "
                           f"dimensions, but got: anchor {a_dim}D, positive {p_dim}D, and negative {n_dim}D inputs")


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-6, swap=False, size_average=None,
                        reduce=None, reduction="mean"):
    """Return max(0, d(a, p) - d(a, n) + margin), d the p-norm distance: the anchor should be nearer the positive
    than the negative by `margin`. swap=True uses min(d(a, n), d(p, n)). Mirrors
    `torch.nn.functional.triplet_margin_loss`."""
    enum = _reduction_enum(reduction, size_average, reduce)
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    _check_triplet_dims(anchor, positive, negative)
    dist_pos = pairwise_distance(anchor, positive, p, eps)
    dist_neg = pairwise_distance(anchor, negative, p, eps)
    if swap:
        dist_neg = minimum(dist_neg, pairwise_distance(positive, negative, p, eps))
    return apply_loss_reduction((AddScalar.apply(dist_pos, margin) - dist_neg).clamp_min(0), enum)


def triplet_margin_with_distance_loss(anchor, positive, negative, *, distance_function=None, margin=1.0, swap=False,
                                      reduction="mean"):
    """`triplet_margin_loss` with any distance (default `pairwise_distance`). Mirrors
    `torch.nn.functional.triplet_margin_with_distance_loss`."""
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    _check_triplet_dims(anchor, positive, negative)
    distance_function = pairwise_distance if distance_function is None else distance_function
    dist_pos = distance_function(anchor, positive)
    dist_neg = distance_function(anchor, negative)
    if swap:
        dist_neg = minimum(dist_neg, distance_function(positive, negative))
    loss = (margin + dist_pos - dist_neg).clamp_min(0)
    return loss.sum() if reduction == "sum" else loss.mean() if reduction == "mean" else loss


def multilabel_soft_margin_loss(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):
    """Return the mean over classes of -(y log sigmoid(x) + (1 - y) log sigmoid(-x)): one binary cross-entropy
    per label. Mirrors `torch.nn.functional.multilabel_soft_margin_loss`."""
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    loss = -(target * logsigmoid(input) + (1 - target) * logsigmoid(-input))
    if weight is not None:
        loss = loss * weight
    class_dim = input.dim() - 1
    loss = loss.sum(dim=class_dim) / input.size(class_dim)     # one loss per sample
    if reduction == "none":
        return loss
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    raise ValueError(reduction + " is not valid")


class SoftMarginLoss(Function):
    """z = log(1 + exp(-y x)) (y the target, given as an array: PyTorch does not differentiate it);
    dz/dx = -y sigmoid(-y x)"""
    node_name = "SoftMarginLossBackward0"
    saved_names = ("self", "target")
    saved_attrs = {"reduction": "reduction"}

    @staticmethod
    @quiet
    def forward(x, target, reduction):
        a = x._data
        broadcast_shapes(a.shape, target.shape)          # PyTorch's error for shapes that do not broadcast
        return reduce_losses(np.log1p(np.exp(-a * target)), reduction)

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, target, ctx.reduction = inputs
        ctx.save_for_backward(x, _constant(target))

    @staticmethod
    def backward(ctx, grad):
        x, y = ctx.saved_tensors
        g = -y * (-y * x).sigmoid() * grad
        return grad_to(g / x.numel() if ctx.reduction == MEAN else g, x._data.shape), None, None

    jvp = from_backward


def soft_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    """Return log(1 + exp(-y x)): the logistic loss of scores x for labels y = ±1. Mirrors
    `torch.nn.functional.soft_margin_loss`."""
    enum = _reduction_enum(reduction, size_average, reduce)
    if target.requires_grad:
        raise RuntimeError("The function 'soft_margin_loss' is not differentiable with respect to argument "
                           "'target'. This input cannot have requires_grad True.")
    return SoftMarginLoss.apply(input, target._data.astype(input._data.dtype, copy=False), enum)
