"""Weight initialisation: fill a tensor in place, without recording it in the graph. Mirrors `torch.nn.init`.

Each function runs under `no_grad` (so it works on parameters that require grad) and returns the tensor.
Typical use, with `Module.apply`:

    >>> def init_weights(m):
    ...     if isinstance(m, nn.Linear):
    ...         nn.init.xavier_uniform_(m.weight)
    ...         nn.init.zeros_(m.bias)
    >>> net.apply(init_weights)
"""
import math
import warnings

import numpy as np

from ..core.grad_mode import no_grad
from .._tensor import creation as _creation
from .._tensor.tensor import Tensor


_LINEAR_FNS = ("linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d")


def calculate_gain(nonlinearity, param=None):
    """Return the recommended scale for weights feeding `nonlinearity`: 1 for linear and sigmoid, 5/3 for tanh,
    sqrt(2) for relu, sqrt(2 / (1 + negative_slope**2)) for leaky_relu, 3/4 for selu."""
    if nonlinearity in _LINEAR_FNS or nonlinearity == "sigmoid":
        return 1
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        if param is None:
            negative_slope = 0.01
        elif (not isinstance(param, bool) and isinstance(param, int)) or isinstance(param, float):
            negative_slope = param
        else:
            raise ValueError(f"negative_slope {param} not a valid number")
        return math.sqrt(2.0 / (1 + negative_slope ** 2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def _calculate_fan_in_and_fan_out(tensor):
    """fan_in = size(1) * receptive field, fan_out = size(0) * receptive field (for Linear: in and out features)."""
    if tensor.dim() < 2:
        raise ValueError("Fan in and fan out can not be computed for tensor with fewer than 2 dimensions")
    receptive_field_size = 1
    for s in tensor.shape[2:]:
        receptive_field_size *= s
    return tensor.size(1) * receptive_field_size, tensor.size(0) * receptive_field_size


def _calculate_correct_fan(tensor, mode):
    mode = mode.lower()
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(f"Mode {mode} not supported, please use one of ['fan_in', 'fan_out']")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return fan_in if mode == "fan_in" else fan_out


def uniform_(tensor, a=0.0, b=1.0, generator=None):
    """Fill with samples from U(a, b) (PyTorch's numbers for the same seed, as `tensor.uniform_`)."""
    with no_grad():
        return tensor.uniform_(a, b, generator=generator)


def normal_(tensor, mean=0.0, std=1.0, generator=None):
    """Fill with samples from N(mean, std**2) (PyTorch's numbers for the same seed, as `tensor.normal_`)."""
    with no_grad():
        return tensor.normal_(mean, std, generator=generator)


def constant_(tensor, val):
    """Fill with the value `val`."""
    with no_grad():
        return tensor.fill_(val)


def ones_(tensor):
    """Fill with 1."""
    return constant_(tensor, 1.0)


def zeros_(tensor):
    """Fill with 0."""
    with no_grad():
        return tensor.zero_()


def xavier_uniform_(tensor, gain=1.0, generator=None):
    """Fill with U(-a, a), a = gain * sqrt(6 / (fan_in + fan_out)) (Glorot & Bengio, 2010)."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    a = math.sqrt(3.0) * std    # a uniform on [-a, a] has standard deviation a / sqrt(3)
    return uniform_(tensor, -a, a, generator)


def xavier_normal_(tensor, gain=1.0, generator=None):
    """Fill with N(0, std**2), std = gain * sqrt(2 / (fan_in + fan_out))."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    return normal_(tensor, 0.0, std, generator)


def kaiming_uniform_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu", generator=None):
    """Fill with U(-bound, bound), bound = gain * sqrt(3 / fan) (He et al., 2015).

    `gain = calculate_gain(nonlinearity, a)`; `fan` is fan_in (default) or fan_out. Linear's default,
    `a=sqrt(5)`, gives gain sqrt(1/3) and so bound = 1 / sqrt(in_features).
    """
    if 0 in tensor.shape:
        warnings.warn("Initializing zero-element tensors is a no-op", UserWarning, stacklevel=2)
        return tensor
    fan = _calculate_correct_fan(tensor, mode)
    std = calculate_gain(nonlinearity, a) / math.sqrt(fan)
    bound = math.sqrt(3.0) * std
    return uniform_(tensor, -bound, bound, generator)


def kaiming_normal_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu", generator=None):
    """Fill with N(0, std**2), std = gain / sqrt(fan)."""
    if 0 in tensor.shape:
        warnings.warn("Initializing zero-element tensors is a no-op", UserWarning, stacklevel=2)
        return tensor
    fan = _calculate_correct_fan(tensor, mode)
    std = calculate_gain(nonlinearity, a) / math.sqrt(fan)
    return normal_(tensor, 0.0, std, generator)


# ---- More of `nn.init`: `eye_`, `dirac_`, `orthogonal_`, `trunc_normal_`, `sparse_`, and the deprecated n


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
    flattened = normal_(_creation.empty(rows, cols, dtype=tensor.dtype), 0, 1, generator)._data
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
        result = normal_(tensor, mean, std, generator)._data.copy()
        while True:
            mask = (result < lo) | (result > hi)
            if not mask.any():
                break
            fresh = normal_(_empty_like(tensor), mean, std, generator)._data
            result = np.where(mask, fresh, result)
        return _write(tensor, result)
    mode = max(a, min(mean, b))
    log_peak = -0.5 * ((mode - mean) / std) ** 2

    def log_density(x):      # candidates.sub_(mean).div_(std).pow_(2).mul_(-0.5).sub_(log_peak), in x's dtype
        z = (x - dt(mean)) / dt(std)
        return z * z * dt(-0.5) - dt(log_peak)

    def rejected(candidates):
        with np.errstate(divide="ignore"):
            return np.log(uniform_(_empty_like(tensor), 0.0, 1.0, generator)._data) > log_density(candidates)

    result = uniform_(tensor, a, b, generator)._data.copy()
    pending = rejected(result)
    while pending.any():
        candidates = uniform_(_empty_like(tensor), a, b, generator)._data.copy()
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
    normal_(tensor, 0, std, generator)
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


uniform, normal, constant = (_make_deprecate(uniform_), _make_deprecate(normal_),
                             _make_deprecate(constant_))
xavier_uniform, xavier_normal = _make_deprecate(xavier_uniform_), _make_deprecate(xavier_normal_)
kaiming_uniform, kaiming_normal = _make_deprecate(kaiming_uniform_), _make_deprecate(kaiming_normal_)
