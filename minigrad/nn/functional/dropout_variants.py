"""Dropout variants: channel-wise (`dropout1d/2d/3d`, `feature_alpha_dropout`) and self-normalising
(`alpha_dropout`). Mirrors `torch.nn.functional`; plain `dropout` is in normalization.py.

All of them are ATen's `_dropout_impl` (Dropout.cpp): draw `noise` by `bernoulli_(1 - p)` from the global
generator, into a tensor shaped like the input (or, channel-wise, (N, C, 1, ...): one draw per channel of each
sample), and multiply. So with the same seed the masks are PyTorch's, bit for bit.

Alpha dropout keeps a SELU network's mean and variance: a dropped element becomes -alpha' (SELU's negative
saturation, alpha' = 1.7580993408473766), and the result is scaled by a and shifted by b so that a zero-mean,
unit-variance input stays so: a = 1 / sqrt((alpha'^2 p + 1)(1 - p)), b = (noise - 1) alpha' a + alpha' a p.
"""
import math
import warnings

from ..._tensor import creation as _creation

__all__ = ["dropout1d", "dropout2d", "dropout3d", "alpha_dropout", "feature_alpha_dropout"]

_ALPHA = 1.7580993408473766     # -SELU's limit at -inf: scale * alpha


def _check_p(p):
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")


def _dropout_impl(input, p, training, inplace, feature=False, alpha=False):
    """ATen's `_dropout_impl<feature_dropout, alpha_dropout, inplace>`, step by step, in its order of draws."""
    if p == 0 or not training or input.numel() == 0:
        return input
    if p == 1:
        zero = _creation.zeros((), dtype=input.dtype)
        return input.mul_(zero) if inplace else input * zero
    noise = _feature_noise(input) if feature else _creation.empty_like(input)
    noise.bernoulli_(1 - p)
    if alpha:
        a = 1.0 / math.sqrt((_ALPHA * _ALPHA * p + 1) * (1 - p))
        b = noise.add(-1).mul_(_ALPHA * a).add_(_ALPHA * a * p)
        noise.mul_(a)
        return (input.mul_(noise) if inplace else input * noise).add_(b)
    noise.div_(1 - p)
    return input.mul_(noise) if inplace else input * noise


def _feature_noise(input):
    """An empty (N, C, 1, 1, ...) tensor: the noise of channel-wise dropout, one number per channel."""
    if input.dim() < 2:
        raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
    return input.new_empty((input.shape[0], input.shape[1]) + (1,) * (input.dim() - 2))


def _channelwise(input, p, training, inplace, unbatched):
    """feature dropout of a batch; an unbatched input is made a batch of one (unsqueeze, dropout, squeeze)."""
    if unbatched and inplace:
        # PyTorch unsqueeze_s the input itself; minigrad has no in-place unsqueeze_, so it drops the channels of a
        # batch-of-one view, whose in-place multiply writes into the input: same draws, same values, same object
        _dropout_impl(input.unsqueeze(0), p, training, True, feature=True)
        return input
    if unbatched:
        input = input.unsqueeze_(0) if inplace else input.unsqueeze(0)
    result = _dropout_impl(input, p, training, inplace, feature=True)
    if unbatched:
        result = result.squeeze_(0) if inplace else result.squeeze(0)
    return result


def _warn_unusual_dims(spatial, ndim):
    """dropout2d's and dropout3d's deprecation warning for an input that is neither batched nor unbatched."""
    fn = f"dropout{spatial}d"
    if ndim not in (spatial + 1, spatial + 2):
        warnings.warn(f"{fn}: Received a {ndim}-D input to {fn}, which is deprecated and will result in an error "
                      "in a future release. To retain the behavior and silence this warning, please use dropout "
                      f"instead. Note that {fn} exists to provide channel-wise dropout on inputs with {spatial} "
                      "spatial dimensions, a channel dimension, and an optional batch dimension (i.e. "
                      f"{spatial + 1}D or {spatial + 2}D inputs).", stacklevel=3)


def dropout1d(input, p=0.5, training=True, inplace=False):
    """Zero whole channels of a (N, C, L) or (C, L) input, each with probability p, and scale the rest by
    1 / (1 - p), in training. Mirrors `torch.nn.functional.dropout1d`.

    Example:
        >>> F.dropout1d(torch.ones(1, 2, 3), 0.5, training=False)
        tensor([[[1., 1., 1.],
                 [1., 1., 1.]]])
    """
    _check_p(p)
    if input.dim() not in (2, 3):
        raise RuntimeError(f"dropout1d: Expected 2D or 3D input, but received a {input.dim()}D input. Note that "
                           "dropout1d exists to provide channel-wise dropout on inputs with 1 spatial dimension, a "
                           "channel dimension, and an optional batch dimension (i.e. 2D or 3D inputs).")
    return _channelwise(input, p, training, inplace, unbatched=input.dim() == 2)


def dropout2d(input, p=0.5, training=True, inplace=False):
    """Zero whole channels of a (N, C, H, W) input, each with probability p, and scale the rest by 1 / (1 - p).
    Mirrors `torch.nn.functional.dropout2d`, which reads a 3-D input as (N, C, L), not as one unbatched image."""
    _check_p(p)
    ndim = input.dim()
    _warn_unusual_dims(2, ndim)
    if ndim == 3:
        warnings.warn("dropout2d: Received a 3D input to dropout2d and assuming that channel-wise 1D dropout "
                      "behavior is desired - input is interpreted as shape (N, C, L), where C is the channel dim. "
                      "This behavior will change in a future release to interpret the input as one without a batch "
                      "dimension, i.e. shape (C, H, W). To maintain the 1D channel-wise dropout behavior, please "
                      "switch to using dropout1d instead.", stacklevel=2)
    return _dropout_impl(input, p, training, inplace, feature=True)


def dropout3d(input, p=0.5, training=True, inplace=False):
    """Zero whole channels of a (N, C, D, H, W) or (C, D, H, W) input, each with probability p, and scale the
    rest by 1 / (1 - p). Mirrors `torch.nn.functional.dropout3d`."""
    _check_p(p)
    ndim = input.dim()
    _warn_unusual_dims(3, ndim)
    return _channelwise(input, p, training, inplace, unbatched=ndim != 5)


def alpha_dropout(input, p=0.5, training=False, inplace=False):
    """Dropout for SELU networks: dropped elements become SELU's saturation value, and the result is rescaled so
    that mean and variance are kept. Off unless `training=True`. Mirrors `torch.nn.functional.alpha_dropout`."""
    _check_p(p)
    return _dropout_impl(input, p, training, inplace, alpha=True)


def feature_alpha_dropout(input, p=0.5, training=False, inplace=False):
    """Alpha dropout of whole channels (one draw per channel of each sample). Off unless `training=True`.
    Mirrors `torch.nn.functional.feature_alpha_dropout`."""
    _check_p(p)
    return _dropout_impl(input, p, training, inplace, feature=True, alpha=True)
