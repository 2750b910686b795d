"""Stateless functions of tensors: activations, `linear`, softmax and the losses. Mirrors `torch.nn.functional`.

The layers in `nn` hold parameters and call these; the ops they record are in `basic.py` (and, for the
activations, in `minigrad/ops/unary.py`).
"""
from ...compat import refused as _refused
__getattr__ = _refused.module_getattr(__name__)  # what minigrad leaves out on purpose, and why
import warnings

from ...ops.shape import UnsafeView
from ...core.dtype import scalar_name
from ...ops import softmax as _softmax
from .basic import REDUCTIONS, MseLoss, NllLoss, NllLoss2d
from ...ops.linalg import Addmm
from ...ops.arithmetic import MulScalar
from .loss import _legacy_reduction
from ..._tensor.pointwise import _tensor_arg


def relu(input, inplace=False):
    """max(x, 0) elementwise. Mirrors `torch.nn.functional.relu`."""
    return input.relu_() if inplace else input.relu()


def relu_(input):
    """In-place `relu`; returns `input`. Mirrors `torch.nn.functional.relu_`."""
    return input.relu_()


def sigmoid(input):
    """1 / (1 + exp(-x)) elementwise."""
    return input.sigmoid()


def tanh(input):
    """tanh(x) elementwise."""
    return input.tanh()


def linear(input, weight, bias=None):
    """y = x W^T + b, over the last dimension of x. Mirrors `torch.nn.functional.linear`.

    Args:
        input: (*, in_features);  weight: (out_features, in_features);  bias: (out_features,) or None.

    For a batch of vectors (2-D input) with a bias this is one `addmm` node, as in PyTorch.
    """
    _tensor_arg(input, "linear", "input", 1)      # a tuple (an LSTM's (output, state)) gets torch's TypeError
    if input.dim() == 2 and bias is not None:
        return Addmm.apply(bias, input, weight.t())
    if bias is None and input.dim() <= 2:
        return input.matmul(weight.t())
    # other shapes: fold the leading dimensions into rows, multiply, unfold (what PyTorch does)
    lead = input.shape[:-1]
    rows = input.reshape(-1, input.shape[-1])
    if bias is None:
        return UnsafeView.apply(rows.mm(weight.t()), (*lead, weight.shape[0]))
    return Addmm.apply(bias, rows, weight.t()).view(*lead, weight.shape[0])


def _softmax_dim(name, ndim):
    warnings.warn(f"Implicit dimension choice for {name} has been deprecated. Change the call to include dim=X "
                  "as an argument.", UserWarning, stacklevel=3)
    return 0 if ndim in (0, 1, 3) else 1


def softmax(input, dim=None, _stacklevel=3, dtype=None):
    """exp(x) / sum(exp(x)) along `dim`: each slice becomes probabilities. Mirrors `torch.nn.functional.softmax`."""
    if dim is None:
        dim = _softmax_dim("softmax", input.dim())
    return _softmax.softmax(input, dim, dtype)


def log_softmax(input, dim=None, _stacklevel=3, dtype=None):
    """log(softmax(x)) along `dim`, computed stably as x - max - log(sum(exp(x - max)))."""
    if dim is None:
        dim = _softmax_dim("log_softmax", input.dim())
    return _softmax.log_softmax(input, dim, dtype)


def softmin(input, dim=None, _stacklevel=3, dtype=None):
    """softmax(-x) along `dim`: the smallest entries get the most weight. Mirrors `torch.nn.functional.softmin`."""
    if dim is None:
        dim = _softmax_dim("softmin", input.dim())
    return (-input).softmax(dim) if dtype is None else (-input).softmax(dim, dtype=dtype)


def _check_reduction(reduction):
    if reduction not in REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")


def mse_loss(input, target, reduction="mean"):
    """Mean squared error: mean((input - target)**2). Mirrors `torch.nn.functional.mse_loss`.

    `reduction` is 'mean' (default), 'sum', or 'none' (one loss per element).
    """
    if target.shape != input.shape:
        warnings.warn(f"Using a target size ({target.shape}) that is different to the input size ({input.shape}). "
                      "This will likely lead to incorrect results due to broadcasting. Please ensure they have the "
                      "same size.", UserWarning, stacklevel=2)
        _check_broadcastable(input.shape, target.shape)
    _check_reduction(reduction)
    return MseLoss.apply(input, target, reduction)


def _check_broadcastable(a, b):
    for i, (x, y) in enumerate(zip(reversed(a), reversed(b))):
        if x != y and x != 1 and y != 1:
            raise RuntimeError(f"The size of tensor a ({x}) must match the size of tensor b ({y}) at non-singleton "
                               f"dimension {max(len(a), len(b)) - 1 - i}")


def nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean"):
    """Negative log-likelihood: -input[i, target[i]], averaged. `input` holds log-probabilities.

    Args:
        input: (N, C) log-probabilities (or (C,) for one sample, or (N, C, d1, ...)).
        target: (N,) class indices, int64 (or () / (N, d1, ...)).
        weight: optional (C,) weight per class; the mean is then weighted.
        ignore_index: targets equal to it contribute nothing (not even to the mean's denominator).
        size_average, reduce: PyTorch's deprecated flags for the reduction (they warn).
    """
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    _check_reduction(reduction)
    t = target._data
    if t.dtype.kind not in "iu":
        raise RuntimeError(f"expected target dtype to be Long or Byte, but got {scalar_name(t)}")
    batched = input.dim() > 1
    n_in, n_t = (input.shape[0] if batched else 1), ((t.shape[0] if t.ndim else 0) if batched else 1)
    if n_in != n_t:
        raise ValueError(f"Expected input batch_size ({n_in}) to match target batch_size ({n_t}).")
    classes = input.shape[1] if batched else input.shape[0]
    w = None
    if weight is not None:
        if weight.numel() != classes:
            raise RuntimeError(f"weight tensor should be defined either for all {classes} classes or no classes but "
                               f"got weight tensor of shape: {list(weight.shape)}")
        w = weight._data
    bad = (t != ignore_index) & ((t < 0) | (t >= classes))
    if bad.any():
        raise IndexError(f"Target {t[bad].flat[0]} is out of bounds.")
    if input.dim() <= 2:
        return NllLoss.apply(input, t, w, ignore_index, reduction)
    # PyTorch handles (N, C, d1, ...) as images: viewed as (N, C, H, W), with a node of its own
    if input.dim() == 4:
        return NllLoss2d.apply(input, t, w, ignore_index, reduction)
    n, c = input.shape[0], input.shape[1]
    out = NllLoss2d.apply(input.view(n, c, 1, -1), t.reshape(n, 1, -1), w, ignore_index, reduction)
    return out.view(*t.shape) if reduction == "none" else out


def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean",
                  label_smoothing=0.0):
    """Cross-entropy of raw scores (logits) and class indices: nll_loss(log_softmax(input, 1), target).

    Mirrors `torch.nn.functional.cross_entropy`. log_softmax is the stable one, so large logits are fine.
    A float `target` of the same shape as `input` is read as class probabilities instead. `label_smoothing` e
    mixes the target with the uniform distribution: (1 - e) times the loss plus e times the mean over classes of
    -log p, as ATen's `cross_entropy_loss_label_smoothing` computes it.

    Example:
        >>> F.cross_entropy(torch.tensor([[2.0, 0.5]]), torch.tensor([0]))
        tensor(0.2014)
    """
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    if not 0.0 <= label_smoothing <= 1.0:
        raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing}")
    class_dim = 1 if input.dim() > 1 else 0
    logp = log_softmax(input, class_dim)
    classes = input.shape[class_dim]
    if target.is_floating_point() and target.shape == input.shape:
        _check_reduction(reduction)
        if label_smoothing > 0:
            target = target * (1 - label_smoothing) + label_smoothing / classes
        losses = -(logp * target if weight is None else logp * target * weight).sum(class_dim)
        if reduction == "none":
            return losses
        total = losses.sum()
        return total if reduction == "sum" else total / losses.numel()
    nll = nll_loss(logp, target, weight, ignore_index=ignore_index, reduction=reduction)
    if label_smoothing == 0.0:
        return nll
    return _smoothing(logp, target, weight, ignore_index, reduction, nll, label_smoothing, class_dim, classes)


def _smoothing(logp, target, weight, ignore_index, reduction, nll, epsilon, class_dim, classes):
    """ATen's label smoothing for class indices: (1 - e) nll + e / C * (the summed -log p, reduced as nll is)."""
    ignored = target == ignore_index
    if weight is None:
        smooth = -logp.sum(class_dim)
    else:
        shape = [1] * logp.dim()
        shape[class_dim] = weight.shape[0]
        smooth = -(logp * weight.view(*shape)).sum(class_dim)
    smooth = smooth.masked_fill(ignored, 0.0)
    if reduction == "mean":
        kept = target.masked_select(ignored.logical_not()).flatten()
        smooth = smooth.sum() / (weight.gather(0, kept).sum() if weight is not None else ignored.logical_not().sum())
    elif reduction == "sum":
        smooth = smooth.sum()
    return MulScalar.apply(nll, 1 - epsilon) + MulScalar.apply(smooth, epsilon / classes)


from .activation import *  # noqa: E402,F401,F403 - leaky_relu, elu, gelu, silu, softplus: its __all__
from .activation_piecewise import *  # noqa: E402,F401,F403 - hardtanh, relu6, hardswish, threshold, ...
from .activation_smooth import *  # noqa: E402,F401,F403 - logsigmoid, mish, celu, glu, softsign, tanhshrink
from .activation_leaky import *  # noqa: E402,F401,F403 - prelu, rrelu, rrelu_
from .distance import *  # noqa: E402,F401,F403 - normalize, cosine_similarity, pairwise_distance
from .divergence import *  # noqa: E402,F401,F403 - kl_div
from .loss import *  # noqa: E402,F401,F403 - binary_cross_entropy, l1_loss, one_hot, ...: its __all__
from .conv import conv2d, fold, pad, unfold  # noqa: E402,F401
from .normalization import batch_norm, dropout, embedding, layer_norm  # noqa: E402,F401
from .pooling import adaptive_avg_pool2d, avg_pool2d, max_pool2d  # noqa: E402,F401
from .attention import *  # noqa: E402,F401,F403 - scaled_dot_product_attention, multi_head_attention_forward
from .attention import _canonical_mask, _none_or_dtype  # noqa: E402,F401 - the layers call F._canonical_mask
from .conv import conv1d  # noqa: E402,F401
from .normalization import group_norm, instance_norm  # noqa: E402,F401
from .interpolate import *  # noqa: E402,F401,F403 - interpolate, upsample, upsample_nearest, upsample_bilinear
from .distance_matrix import pdist  # noqa: E402,F401 - and torch.cdist (not in F, as in PyTorch)
from .dropout_variants import *  # noqa: E402,F401,F403 - dropout1d/2d/3d, alpha_dropout, feature_alpha_dropout
from .loss_margin import *  # noqa: E402,F401,F403 - margin_ranking_loss, triplet_margin_loss, ...
from .loss_likelihood import *  # noqa: E402,F401,F403 - poisson_nll_loss, gaussian_nll_loss
from .pooling1d import *  # noqa: E402,F401,F403 - max_pool1d, avg_pool1d, adaptive_avg_pool1d, max_pool2d_with_indices
from .shuffle import *  # noqa: E402,F401,F403 - pixel_shuffle, pixel_unshuffle, channel_shuffle
from .rms_norm import rms_norm  # noqa: E402,F401
from .conv_transpose import conv_transpose1d, conv_transpose2d  # noqa: E402,F401
from .adaptive_max_pool import *  # noqa: E402,F401,F403 - adaptive_max_pool1d/2d (and _with_indices)
from .unpool import max_unpool1d, max_unpool2d  # noqa: E402,F401
from .lp_pool import lp_pool1d, lp_pool2d  # noqa: E402,F401
from .bilinear import bilinear  # noqa: E402,F401
from .loss_multiclass import multi_margin_loss, multilabel_margin_loss  # noqa: E402,F401
from .gumbel import gumbel_softmax  # noqa: E402,F401
