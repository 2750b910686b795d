"""Normalization layers: `LayerNorm`, and `BatchNorm1d` / `BatchNorm2d` with their running statistics."""
import numbers

from ..._tensor import creation as _creation
from ...core.dtype import int64
from .. import functional as F
from .. import init
from ..module import Module
from ..parameter import Parameter

__all__ = ["LayerNorm", "BatchNorm1d", "BatchNorm2d"]


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
        if isinstance(normalized_shape, numbers.Integral):
            normalized_shape = (normalized_shape,)
        self.normalized_shape = tuple(normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        if elementwise_affine:
            self.weight = Parameter(_creation.empty(*self.normalized_shape, dtype=dtype))
            if bias:
                self.bias = Parameter(_creation.empty(*self.normalized_shape, dtype=dtype))
            else:
                self.register_parameter("bias", None)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        """weight = 1, bias = 0: at first the layer only normalises."""
        if self.elementwise_affine:
            init.ones_(self.weight)
            if self.bias is not None:
                init.zeros_(self.bias)

    def forward(self, input):
        return F.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self):
        return (f"{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}, "
                f"bias={self.bias is not None}")


class _BatchNorm(Module):
    """Batch normalization of dim 1 (the channels) over every other dim; `BatchNorm1d` and `BatchNorm2d` differ
    only in the input dims they accept. Mirrors torch's `_NormBase` and `_BatchNorm`.

    In training mode each batch is normalised with its own mean and (biased) variance, and the buffers
    `running_mean` and `running_var` move towards them: r = (1 - momentum) r + momentum stat, with the
    unbiased variance; `momentum=None` makes them the cumulative average over the `num_batches_tracked`
    batches so far. In eval mode the running statistics are used instead (or, with
    track_running_stats=False, the batch's own, always).
    """
    _version = 2        # PyTorch 0.4.1 added num_batches_tracked

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True, device=None,
                 dtype=None, *, bias=True):
        super().__init__()
        self.num_features, self.eps, self.momentum = num_features, eps, momentum
        self.affine, self.track_running_stats = affine, track_running_stats
        if affine:
            self.weight = Parameter(_creation.empty(num_features, dtype=dtype))
            if bias:
                self.bias = Parameter(_creation.empty(num_features, dtype=dtype))
            else:
                self.register_parameter("bias", None)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)
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
        if self.affine:
            init.ones_(self.weight)
            if self.bias is not None:
                init.zeros_(self.bias)

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

    def extra_repr(self):
        return (f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, affine={self.affine}, "
                f"bias={self.bias is not None}, track_running_stats={self.track_running_stats}")


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
