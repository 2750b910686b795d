"""Normalization layers: `LayerNorm`, `RMSNorm`, `GroupNorm`, and `BatchNorm1d` / `2d` / `3d`, `InstanceNorm1d` /
`2d` / `3d` with their running statistics (what the last two share is `_NormBase`, as in torch's batchnorm.py)."""
import numbers
import warnings

from ..._tensor import creation as _creation
from ...core.dtype import int64
from .. import functional as F
from .. import init
from ..module import Module
from ..parameter import Parameter

__all__ = ["LayerNorm", "RMSNorm", "GroupNorm", "BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "InstanceNorm1d",
           "InstanceNorm2d", "InstanceNorm3d"]


class LayerNorm(Module):
    """Normalise each sample over its last dims: (x - mean) / sqrt(var + eps) * weight + bias.
    Mirrors `torch.nn.LayerNorm`.

    Args:
        normalized_shape: the trailing shape to normalise over (an int for the last dim).
        eps: added to the variance. Default: 1e-5.
        elementwise_affine: learn `weight` (ones) and `bias` (zeros) of shape normalized_shape. Default: True.
        bias: learn the bias too (with elementwise_affine). Default: True.
    """

    def __init__(self, normalized_shape, eps=1e-5, elementwise_affine=True, bias=True, device=None, dtype=None):
        super().__init__()
        _trailing_shape(self, normalized_shape, eps, elementwise_affine)
        _affine_parameters(self, elementwise_affine, bias, self.normalized_shape, dtype)
        self.reset_parameters()

    def reset_parameters(self):
        """weight = 1, bias = 0: at first the layer only normalises."""
        _ones_and_zeros(self.weight, self.bias)

    def forward(self, input):
        return F.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self):
        return (f"{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}, "
                f"bias={self.bias is not None}")


class RMSNorm(Module):
    """Scale each sample by 1 / its root mean square over the last dims, then by a learnt `weight` (ones).
    Mirrors `torch.nn.RMSNorm`; `eps=None` means the machine epsilon of the input's dtype."""

    def __init__(self, normalized_shape, eps=None, elementwise_affine=True, device=None, dtype=None):
        super().__init__()
        _trailing_shape(self, normalized_shape, eps, elementwise_affine)
        weight = Parameter(_creation.empty(*self.normalized_shape, dtype=dtype)) if elementwise_affine else None
        self.register_parameter("weight", weight)          # and no bias at all, as in PyTorch
        self.reset_parameters()

    def reset_parameters(self):
        """weight = 1."""
        _ones_and_zeros(self.weight, None)

    def forward(self, x):
        return F.rms_norm(x, self.normalized_shape, self.weight, self.eps)

    def extra_repr(self):
        return f"{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}"


def _trailing_shape(module, normalized_shape, eps, elementwise_affine):
    """LayerNorm's and RMSNorm's options: the trailing shape (an int for the last dim), eps, elementwise_affine."""
    if isinstance(normalized_shape, numbers.Integral):
        normalized_shape = (normalized_shape,)
    module.normalized_shape = tuple(normalized_shape)
    module.eps, module.elementwise_affine = eps, elementwise_affine


def _ones_and_zeros(weight, bias):
    """weight = 1 and bias = 0, for those that the layer has."""
    if weight is not None:
        init.ones_(weight)
    if bias is not None:
        init.zeros_(bias)


class GroupNorm(Module):
    """Normalise each sample's channels in `num_groups` groups, each group over its channels and positions, then
    scale and shift per channel. Mirrors `torch.nn.GroupNorm`.

    Args:
        num_groups: how many groups the channels form (num_channels divisible by it).
        num_channels: the channels C of the (N, C, *) input.
        eps: added to the variance. Default: 1e-5.
        affine: learn `weight` (ones) and `bias` (zeros), one per channel. Default: True.
        bias: learn the bias too (with affine). Default: True.

    Example:
        >>> nn.GroupNorm(2, 4)
        GroupNorm(2, 4, eps=1e-05, affine=True, bias=True)
    """

    def __init__(self, num_groups, num_channels, eps=1e-5, affine=True, device=None, dtype=None, *, bias=True):
        super().__init__()
        if num_channels % num_groups != 0:
            raise ValueError(f"num_channels ({num_channels}) must be divisible by num_groups ({num_groups})")
        self.num_groups, self.num_channels, self.eps, self.affine = num_groups, num_channels, eps, affine
        _affine_parameters(self, affine, bias, (num_channels,), dtype)
        self.reset_parameters()

    def reset_parameters(self):
        """weight = 1, bias = 0."""
        _ones_and_zeros(self.weight, self.bias)

    def forward(self, input):
        return F.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)

    def extra_repr(self):
        return (f"{self.num_groups}, {self.num_channels}, eps={self.eps}, affine={self.affine}, "
                f"bias={self.bias is not None}")


def _affine_parameters(module, affine, bias, shape, dtype):
    """Register `weight` and `bias` of this shape (uninitialised), or None for each, as the norms do."""
    module.register_parameter("weight", Parameter(_creation.empty(*shape, dtype=dtype)) if affine else None)
    module.register_parameter("bias", Parameter(_creation.empty(*shape, dtype=dtype)) if affine and bias else None)


class _NormBase(Module):
    """What batch and instance normalization share: `num_features`, `eps`, `momentum`, the optional affine
    parameters and the running statistics (buffers `running_mean`, `running_var`, `num_batches_tracked`), their
    reset and the repr. Mirrors torch's `_NormBase`."""
    _version = 2        # PyTorch 0.4.1 added num_batches_tracked

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True, device=None,
                 dtype=None, *, bias=True):
        super().__init__()
        self.num_features, self.eps, self.momentum = num_features, eps, momentum
        self.affine, self.track_running_stats = affine, track_running_stats
        _affine_parameters(self, affine, bias, (num_features,), dtype)
        if track_running_stats:
            self.register_buffer("running_mean", _creation.zeros(num_features, dtype=dtype))
            self.register_buffer("running_var", _creation.ones(num_features, dtype=dtype))
            self.register_buffer("num_batches_tracked", _creation.tensor(0, dtype=int64))
        else:
            self.register_buffer("running_mean", None)
            self.register_buffer("running_var", None)
            self.register_buffer("num_batches_tracked", None)
        self.reset_parameters()

    def reset_running_stats(self):
        """running_mean = 0, running_var = 1, num_batches_tracked = 0."""
        if self.track_running_stats:
            self.running_mean.zero_()
            self.running_var.fill_(1)
            self.num_batches_tracked.zero_()

    def reset_parameters(self):
        """Reset the running statistics, and weight = 1, bias = 0."""
        self.reset_running_stats()
        _ones_and_zeros(self.weight, self.bias)

    def extra_repr(self):
        return (f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, affine={self.affine}, "
                f"bias={self.bias is not None}, track_running_stats={self.track_running_stats}")


class _BatchNorm(_NormBase):
    """Batch normalization of dim 1 (the channels) over every other dim; `BatchNorm1d` and `BatchNorm2d` differ
    only in the input dims they accept. Mirrors torch's `_BatchNorm`.

    In training mode each batch is normalised with its own mean and (biased) variance, and the buffers
    `running_mean` and `running_var` move towards them: r = (1 - momentum) r + momentum stat, with the
    unbiased variance; `momentum=None` makes them the cumulative average over the `num_batches_tracked`
    batches so far. In eval mode the running statistics are used instead (or, with
    track_running_stats=False, the batch's own, always).
    """

    def _check_input_dim(self, input):
        raise NotImplementedError

    def forward(self, input):
        self._check_input_dim(input)
        factor = 0.0 if self.momentum is None else self.momentum
        if self.training and self.track_running_stats and self.num_batches_tracked is not None:
            self.num_batches_tracked.add_(1)
            # momentum None: the cumulative average, each batch weighted 1 / (batches so far)
            factor = 1.0 / float(self.num_batches_tracked) if self.momentum is None else self.momentum
        # the batch's statistics in training, and in eval mode when there are no running ones
        use_batch_stats = self.training or (self.running_mean is None and self.running_var is None)
        # the buffers are passed only where they are used or updated
        update = not self.training or self.track_running_stats
        return F.batch_norm(input, self.running_mean if update else None, self.running_var if update else None,
                            self.weight, self.bias, use_batch_stats, factor, self.eps)


class BatchNorm1d(_BatchNorm):
    """Batch normalization of (N, C) or (N, C, L) inputs, per channel C. Mirrors `torch.nn.BatchNorm1d`.

    Example:
        >>> bn = nn.BatchNorm1d(3)
        >>> list(bn.state_dict())
        ['weight', 'bias', 'running_mean', 'running_var', 'num_batches_tracked']
    """

    def _check_input_dim(self, input):
        if input.dim() != 2 and input.dim() != 3:
            raise ValueError(f"expected 2D or 3D input (got {input.dim()}D input)")


class BatchNorm2d(_BatchNorm):
    """Batch normalization of (N, C, H, W) inputs, per channel C. Mirrors `torch.nn.BatchNorm2d`."""

    def _check_input_dim(self, input):
        if input.dim() != 4:
            raise ValueError(f"expected 4D input (got {input.dim()}D input)")


class BatchNorm3d(_BatchNorm):
    """Batch normalization of (N, C, D, H, W) inputs, per channel C. Mirrors `torch.nn.BatchNorm3d`."""

    def _check_input_dim(self, input):
        if input.dim() != 5:
            raise ValueError(f"expected 5D input (got {input.dim()}D input)")


class _InstanceNorm(_NormBase):
    """Instance normalization: each channel of each sample over its positions (`F.instance_norm`). Unlike batch
    norm, no affine parameters and no running statistics by default; with track_running_stats=True they are
    updated in training and used in eval mode. Mirrors torch's `_InstanceNorm`."""
    _no_batch_dim = None        # the input dims of one unbatched sample: (C, L) for InstanceNorm1d

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=False, track_running_stats=False, device=None,
                 dtype=None, *, bias=True):
        super().__init__(num_features, eps, momentum, affine, track_running_stats, device, dtype, bias=bias)

    def _check_input_dim(self, input):
        dims = (self._no_batch_dim, self._no_batch_dim + 1)
        if input.dim() not in dims:
            raise ValueError(f"expected {dims[0]}D or {dims[1]}D input (got {input.dim()}D input)")

    def _apply_instance_norm(self, input):
        return F.instance_norm(input, self.running_mean, self.running_var, self.weight, self.bias,
                               self.training or not self.track_running_stats,
                               self.momentum if self.momentum is not None else 0.0, self.eps)

    def forward(self, input):
        self._check_input_dim(input)
        feature_dim = input.dim() - self._no_batch_dim
        if input.size(feature_dim) != self.num_features:
            if self.affine:
                raise ValueError(f"expected input's size at dim={feature_dim} to match num_features "
                                 f"({self.num_features}), but got: {input.size(feature_dim)}.")
            warnings.warn(f"input's size at dim={feature_dim} does not match num_features. You can silence this "
                          "warning by not passing in num_features, which is not used because affine=False",
                          UserWarning, stacklevel=2)
        if input.dim() == self._no_batch_dim:
            return self._apply_instance_norm(input.unsqueeze(0)).squeeze(0)
        return self._apply_instance_norm(input)


class InstanceNorm1d(_InstanceNorm):
    """Instance normalization of (N, C, L) or (C, L) inputs. Mirrors `torch.nn.InstanceNorm1d`.

    Example:
        >>> nn.InstanceNorm1d(3)
        InstanceNorm1d(3, eps=1e-05, momentum=0.1, affine=False, bias=False, track_running_stats=False)
    """
    _no_batch_dim = 2


class InstanceNorm2d(_InstanceNorm):
    """Instance normalization of (N, C, H, W) or (C, H, W) inputs. Mirrors `torch.nn.InstanceNorm2d`."""
    _no_batch_dim = 3


class InstanceNorm3d(_InstanceNorm):
    """Instance normalization of (N, C, D, H, W) or (C, D, H, W) inputs. Mirrors `torch.nn.InstanceNorm3d`."""
    _no_batch_dim = 4
