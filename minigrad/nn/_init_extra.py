"""More of `nn.init`: `eye_`, `dirac_`, `orthogonal_`, `trunc_normal_`, `sparse_`, and the deprecated names.

init.py star-imports this file's `__all__`. Random draws go through `_init_basic.uniform_`/`normal_` (the
tensor's own `uniform_`/`normal_`), in the same order, on tensors of the same shapes, as PyTorch's nn/init.py draws
them: with minigrad's generator matching PyTorch's, the same seed then gives the same weights.
"""
import math
import warnings

import numpy as np

from .. import _creation
from .._tensor import Tensor
from ..autograd.grad_mode import no_grad
from . import _init_basic as _init

__all__ = ["eye_", "dirac_", "orthogonal_", "trunc_normal_", "sparse_", "uniform", "normal", "constant",
           "xavier_uniform", "xavier_normal", "kaiming_uniform", "kaiming_normal"]


def _write(tensor, array):
    """Copy a numpy array into `tensor` in place, unrecorded (keeps its dtype)."""
    with no_grad():
        tensor.copy_(Tensor._make(np.ascontiguousarray(array, tensor._data.dtype)))
    return tensor


def eye_(tensor):
    """Fill a 2-D tensor with the identity matrix (ones on the diagonal, zeros elsewhere). Mirrors `init.eye_`.

    Example:
        >>> nn.init.eye_(torch.empty(2, 3))
        tensor([[1., 0., 0.],
                [0., 1., 0.]])
    """
    if tensor.dim() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    return _write(tensor, np.eye(*tensor.shape))


def dirac_(tensor, groups=1):
    """Fill a 3-, 4- or 5-D convolution weight so that the convolution is the identity (per group).

    Mirrors `torch.nn.init.dirac_`: a 1 at the centre of the kernel of output channel d and input channel d.
    """
    dimensions = tensor.dim()
    if dimensions not in (3, 4, 5):
        raise ValueError("Only tensors with 3, 4, or 5 dimensions are supported")
    sizes = tensor.shape
    if sizes[0] % groups != 0:
        raise ValueError("dim 0 must be divisible by groups")
    out_chans_per_grp = sizes[0] // groups
    values = np.zeros(tuple(sizes))
    centre = tuple(s // 2 for s in sizes[2:])
    for g in range(groups):
        for d in range(min(out_chans_per_grp, sizes[1])):
            values[(g * out_chans_per_grp + d, d) + centre] = 1
    return _write(tensor, values)


def orthogonal_(tensor, gain=1, generator=None):
    """Fill with a (semi-)orthogonal matrix: Q of the QR decomposition of a standard normal matrix.

    Mirrors `torch.nn.init.orthogonal_` (Saxe et al. 2013): the tensor is seen as (rows, numel / rows); the
    signs of R's diagonal are folded into Q so that the result is uniformly distributed; times `gain`.
    """
    if tensor.dim() < 2:
        raise ValueError("Only tensors with 2 or more dimensions are supported")
    if tensor.numel() == 0:
        return tensor
    rows = tensor.size(0)
    cols = tensor.numel() // rows
    flattened = _init.normal_(_creation.empty(rows, cols, dtype=tensor.dtype), 0, 1, generator)._data
    if rows < cols:
        flattened = flattened.T
    q, r = np.linalg.qr(flattened)
    q = q * np.sign(np.diag(r))
    if rows < cols:
        q = q.T
    return _write(tensor, (q * gain).astype(tensor._data.dtype).reshape(tuple(tensor.shape)))


def trunc_normal_(tensor, mean=0.0, std=1.0, a=-2.0, b=2.0, generator=None):
    """Fill with N(mean, std**2) values redrawn until they fall in [a, b]. Mirrors `torch.nn.init.trunc_normal_`.

    As in PyTorch 2.13: if [a, b] holds more than 30 % of the normal's mass, out-of-range values are redrawn
    from the normal; otherwise candidates are drawn uniformly on [a, b] and accepted with probability
    exp(-((x - mean) / std)**2 / 2) relative to the peak of the density on [a, b].
    """
    def norm_cdf(x):
        return (1.0 + math.erf(x / math.sqrt(2.0))) / 2.0

    if (mean < a - 2 * std) or (mean > b + 2 * std):
        warnings.warn("mean is more than 2 std from [a, b] in nn.init.trunc_normal_. The distribution of values may "
                      "be incorrect.", stacklevel=2)
    dt = tensor._data.dtype.type
    if norm_cdf((b - mean) / std) - norm_cdf((a - mean) / std) > 0.3:
        lo, hi = dt(a), dt(b)
        result = _init.normal_(tensor, mean, std, generator)._data.copy()
        while True:
            mask = (result < lo) | (result > hi)
            if not mask.any():
                break
            fresh = _init.normal_(_empty_like(tensor), mean, std, generator)._data
            result = np.where(mask, fresh, result)
        return _write(tensor, result)
    mode = max(a, min(mean, b))
    log_peak = -0.5 * ((mode - mean) / std) ** 2

    def log_density(x):      # candidates.sub_(mean).div_(std).pow_(2).mul_(-0.5).sub_(log_peak), in x's dtype
        z = (x - dt(mean)) / dt(std)
        return z * z * dt(-0.5) - dt(log_peak)

    def rejected(candidates):
        with np.errstate(divide="ignore"):
            return np.log(_init.uniform_(_empty_like(tensor), 0.0, 1.0, generator)._data) > log_density(candidates)

    result = _init.uniform_(tensor, a, b, generator)._data.copy()
    pending = rejected(result)
    while pending.any():
        candidates = _init.uniform_(_empty_like(tensor), a, b, generator)._data.copy()
        result = np.where(pending, candidates, result)
        pending = np.where(pending, rejected(candidates), pending)
    return _write(tensor, result)


def _empty_like(tensor):
    return _creation.empty(*tensor.shape, dtype=tensor.dtype)


def sparse_(tensor, sparsity, std=0.01, generator=None):
    """Fill a 2-D tensor with N(0, std**2) values, then zero a `sparsity` fraction of each column's rows.

    Mirrors `torch.nn.init.sparse_` (Martens, 2010); the rows to zero come from `torch.randperm`, per column.
    """
    if tensor.dim() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    rows, cols = tensor.shape
    num_zeros = math.ceil(sparsity * rows)
    _init.normal_(tensor, 0, std, generator)
    values = tensor._data.copy()
    for col_idx in range(cols):
        zero_indices = _creation.randperm(rows)._data[:num_zeros]
        values[zero_indices, col_idx] = 0
    return _write(tensor, values)


def _make_deprecate(meth):
    """The old name without the trailing underscore: warns, then calls the new one (as PyTorch's aliases do)."""
    new_name = meth.__name__
    old_name = new_name[:-1]

    def deprecated_init(*args, **kwargs):
        warnings.warn(f"`nn.init.{old_name}` is now deprecated in favor of `nn.init.{new_name}`.", FutureWarning,
                      stacklevel=2)
        return meth(*args, **kwargs)

    deprecated_init.__doc__ = f"Deprecated: use `nn.init.{new_name}`."
    deprecated_init.__name__ = old_name
    return deprecated_init


uniform, normal, constant = (_make_deprecate(_init.uniform_), _make_deprecate(_init.normal_),
                             _make_deprecate(_init.constant_))
xavier_uniform, xavier_normal = _make_deprecate(_init.xavier_uniform_), _make_deprecate(_init.xavier_normal_)
kaiming_uniform, kaiming_normal = _make_deprecate(_init.kaiming_uniform_), _make_deprecate(_init.kaiming_normal_)
