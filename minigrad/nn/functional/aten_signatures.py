"""`torch.conv1d`, `torch.batch_norm`, `torch.dropout`, ...: the nn functions that PyTorch also exposes in the
`torch` namespace, where they take ATen's signatures rather than `nn.functional`'s.

The differences are in the arguments only: `torch.dropout(input, p, train)` has no defaults, `torch.embedding`
takes the weight first and -1 for "no padding_idx", `torch.batch_norm` and `torch.instance_norm` take every
argument positionally (weight before the running stats) and a `cudnn_enabled` flag the CPU ignores. Each one
calls the `nn.functional` function, so the graph and the numbers are the same.
"""
from . import (activation_leaky, activation_piecewise, activation_smooth, adaptive_max_pool, conv, conv_transpose,
               distance, divergence, dropout_variants, loss, loss_likelihood, loss_margin, normalization, pooling,
               pooling1d, shuffle)
from .activation import selu as _selu
from .bilinear import bilinear as _bilinear
from .rms_norm import rms_norm as _rms_norm
from .activation_leaky import RreluWithNoise, RreluWithNoiseInplace, rrelu_noise

__all__ = ["conv1d", "conv2d", "celu", "celu_", "selu", "selu_", "prelu", "rrelu", "rrelu_", "threshold",
           "threshold_", "hardshrink", "cosine_similarity", "pairwise_distance", "dropout", "batch_norm",
           "layer_norm", "group_norm", "instance_norm", "embedding", "max_pool2d", "dropout_", "alpha_dropout",
           "alpha_dropout_", "feature_dropout", "feature_dropout_", "feature_alpha_dropout", "feature_alpha_dropout_",
           "adaptive_avg_pool1d", "avg_pool1d", "max_pool1d", "max_pool1d_with_indices", "pixel_shuffle",
           "pixel_unshuffle", "channel_shuffle", "rms_norm", "binary_cross_entropy_with_logits", "kl_div",
           "margin_ranking_loss", "cosine_embedding_loss", "hinge_embedding_loss", "poisson_nll_loss",
           "triplet_margin_loss", "conv_transpose1d", "conv_transpose2d", "adaptive_max_pool1d",
           "bilinear"]

# ATen's losses take the reduction as an int (at::Reduction): 0 none, 1 mean, 2 sum. PyTorch's stubs give them the
# default 1 (mean), but torch.kl_div(x, t) and the others return the unreduced loss when it is left out: their
# default is 0 in practice, and torch's behaviour is the reference
_REDUCTION = {0: "none", 1: "mean", 2: "sum"}


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    return conv.conv1d(input, weight, bias, stride, padding, dilation, groups)


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    return conv.conv2d(input, weight, bias, stride, padding, dilation, groups)


def celu(input, alpha=1.0):
    return activation_smooth.celu(input, alpha)


def celu_(input, alpha=1.0):
    return activation_smooth.celu_(input, alpha)


def selu(input):
    return _selu(input)


def selu_(input):
    return _selu(input, inplace=True)


def prelu(input, weight):
    return activation_leaky.prelu(input, weight)


def rrelu(input, lower=1.0 / 8, upper=1.0 / 3, training=False, generator=None):
    activation_leaky._check_bounds(lower, upper)
    noise = rrelu_noise(input, lower, upper, training, generator)
    return RreluWithNoise.apply(input, noise, lower, upper, training)


def rrelu_(input, lower=1.0 / 8, upper=1.0 / 3, training=False, generator=None):
    activation_leaky._check_bounds(lower, upper)
    noise = rrelu_noise(input, lower, upper, training, generator)
    return input._inplace(RreluWithNoiseInplace, noise, lower, upper, training)


def threshold(input, threshold, value):
    return activation_piecewise.threshold(input, threshold, value)


def threshold_(input, threshold, value):
    return activation_piecewise.threshold_(input, threshold, value)


def hardshrink(input, lambd=0.5):
    return activation_piecewise.hardshrink(input, lambd)


def cosine_similarity(x1, x2, dim=1, eps=1e-8):
    return distance.cosine_similarity(x1, x2, dim, eps)


def pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    return distance.pairwise_distance(x1, x2, p, eps, keepdim)


def dropout(input, p, train):
    return normalization.dropout(input, p, train)


def batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps, cudnn_enabled):
    return normalization.batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps)


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5, cudnn_enable=True):
    return normalization.layer_norm(input, normalized_shape, weight, bias, eps)


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-5, cudnn_enabled=True):
    return normalization.group_norm(input, num_groups, weight, bias, eps)


def instance_norm(input, weight, bias, running_mean, running_var, use_input_stats, momentum, eps, cudnn_enabled):
    return normalization.instance_norm(input, running_mean, running_var, weight, bias, use_input_stats, momentum,
                                       eps)


def embedding(weight, indices, padding_idx=-1, scale_grad_by_freq=False, sparse=False):
    return normalization.embedding(indices, weight, padding_idx if padding_idx >= 0 else None,
                                   scale_grad_by_freq=scale_grad_by_freq, sparse=sparse)


def max_pool2d(input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    return pooling.max_pool2d(input, kernel_size, stride or None, padding, dilation, ceil_mode)


def dropout_(input, p, train):
    return normalization.dropout(input, p, train, inplace=True)


def alpha_dropout(input, p, train):
    return dropout_variants._dropout_impl(input, p, train, False, alpha=True)


def alpha_dropout_(input, p, train):
    return dropout_variants._dropout_impl(input, p, train, True, alpha=True)


def feature_dropout(input, p, train):
    return dropout_variants._dropout_impl(input, p, train, False, feature=True)


def feature_dropout_(input, p, train):
    return dropout_variants._dropout_impl(input, p, train, True, feature=True)


def feature_alpha_dropout(input, p, train):
    return dropout_variants._dropout_impl(input, p, train, False, feature=True, alpha=True)


def feature_alpha_dropout_(input, p, train):
    return dropout_variants._dropout_impl(input, p, train, True, feature=True, alpha=True)


def adaptive_avg_pool1d(input, output_size):
    return pooling1d.adaptive_avg_pool1d(input, output_size)


def avg_pool1d(input, kernel_size, stride=(), padding=0, ceil_mode=False, count_include_pad=True):
    return pooling1d.avg_pool1d(input, kernel_size, stride or None, padding, ceil_mode, count_include_pad)


def max_pool1d(input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    return pooling1d.max_pool1d(input, kernel_size, stride or None, padding, dilation, ceil_mode)


def max_pool1d_with_indices(input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    return pooling1d.max_pool1d(input, kernel_size, stride or None, padding, dilation, ceil_mode, return_indices=True)


def pixel_shuffle(input, upscale_factor):
    return shuffle.pixel_shuffle(input, upscale_factor)


def pixel_unshuffle(input, downscale_factor):
    return shuffle.pixel_unshuffle(input, downscale_factor)


def channel_shuffle(input, groups):
    return shuffle.channel_shuffle(input, groups)


def rms_norm(input, normalized_shape, weight=None, eps=None):
    return _rms_norm(input, normalized_shape, weight, eps)


def binary_cross_entropy_with_logits(input, target, weight=None, pos_weight=None, reduction=0):
    return loss.binary_cross_entropy_with_logits(input, target, weight, reduction=_REDUCTION[reduction],
                                                 pos_weight=pos_weight)


def kl_div(input, target, reduction=0, *, log_target=False):
    return divergence.aten_kl_div(input, target, _REDUCTION[reduction], log_target)


def margin_ranking_loss(input1, input2, target, margin=0.0, reduction=0):
    return loss_margin.margin_ranking_loss(input1, input2, target, margin, reduction=_REDUCTION[reduction])


def cosine_embedding_loss(input1, input2, target, margin=0.0, reduction=0):
    return loss_margin.cosine_embedding_loss(input1, input2, target, margin, reduction=_REDUCTION[reduction])


def hinge_embedding_loss(input, target, margin=1.0, reduction=0):
    return loss_margin.hinge_embedding_loss(input, target, margin, reduction=_REDUCTION[reduction])


def poisson_nll_loss(input, target, log_input, full, eps, reduction):
    return loss_likelihood.poisson_nll_loss(input, target, log_input, full, eps=eps, reduction=_REDUCTION[reduction])


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-6, swap=False, reduction=0):
    return loss_margin.triplet_margin_loss(anchor, positive, negative, margin, p, eps, swap,
                                           reduction=_REDUCTION[reduction])


def conv_transpose1d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    return conv_transpose.conv_transpose1d(input, weight, bias, stride, padding, output_padding, groups, dilation)


def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    return conv_transpose.conv_transpose2d(input, weight, bias, stride, padding, output_padding, groups, dilation)


def adaptive_max_pool1d(input, output_size):
    return adaptive_max_pool.adaptive_max_pool1d_with_indices(input, output_size)


def bilinear(input1, input2, weight, bias=None):
    return _bilinear(input1, input2, weight, bias)
