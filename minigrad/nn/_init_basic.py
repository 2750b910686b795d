"""The basic fills of `nn.init`: constants, uniform and normal draws, Xavier and Kaiming (see `init.py`)."""
import math
import warnings

from ..autograd.grad_mode import no_grad

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

