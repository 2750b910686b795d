"""`F.leaky_relu`, `F.elu`, `F.selu`, `F.gelu`, `F.silu`, `F.softplus` (and the in-place `leaky_relu_`, ...).

Part of `nn.functional` (functional.py star-imports `__all__`); the ops are in _activation_functions.py and
_smooth_activations.py.
"""
from ._activation_functions import Elu, EluInplace, LeakyRelu, LeakyReluInplace
from ._smooth_activations import Gelu, Silu, Softplus

__all__ = ["leaky_relu", "leaky_relu_", "elu", "elu_", "selu", "selu_", "gelu", "silu", "softplus"]

# SELU's constants (Klambauer et al., 2017), as PyTorch writes them
_SELU_ALPHA, _SELU_SCALE = 1.6732632423543772848170429916717, 1.0507009873554804934193349852946


def leaky_relu(input, negative_slope=0.01, inplace=False):
    """x where x > 0, else negative_slope * x. Mirrors `torch.nn.functional.leaky_relu`.

    Example:
        >>> F.leaky_relu(torch.tensor([-2.0, 3.0]), 0.1)
        tensor([-0.2000,  3.0000])
    """
    return leaky_relu_(input, negative_slope) if inplace else LeakyRelu.apply(input, negative_slope)


def leaky_relu_(input, negative_slope=0.01):
    """In-place `leaky_relu`; returns `input`."""
    return input._inplace(LeakyReluInplace, negative_slope)


def elu(input, alpha=1.0, inplace=False):
    """x where x > 0, else alpha * (exp(x) - 1). Mirrors `torch.nn.functional.elu`."""
    return elu_(input, alpha) if inplace else Elu.apply(input, alpha, 1.0, 1.0)


def elu_(input, alpha=1.0):
    """In-place `elu`; returns `input`."""
    return input._inplace(EluInplace, alpha, 1.0, 1.0)


def selu(input, inplace=False):
    """scale * elu(x, alpha) with SELU's fixed alpha and scale (self-normalising). Mirrors `F.selu`."""
    return selu_(input) if inplace else Elu.apply(input, _SELU_ALPHA, _SELU_SCALE, 1.0)


def selu_(input):
    """In-place `selu`; returns `input`."""
    return input._inplace(EluInplace, _SELU_ALPHA, _SELU_SCALE, 1.0)


def gelu(input, approximate="none"):
    """x * Phi(x), Phi the standard normal CDF (`approximate='tanh'`: its tanh formula). Mirrors `F.gelu`.

    Example:
        >>> F.gelu(torch.tensor([1.0]))
        tensor([0.8413])
    """
    if approximate not in ("none", "tanh"):
        raise RuntimeError("approximate argument must be either none or tanh.")
    return Gelu.apply(input, approximate)


def silu(input, inplace=False):
    """x * sigmoid(x), also called swish. Mirrors `torch.nn.functional.silu`."""
    return input._inplace(Silu) if inplace else Silu.apply(input)


def softplus(input, beta=1.0, threshold=20.0):
    """log(1 + exp(beta x)) / beta, a smooth relu; x itself where beta x > threshold. Mirrors `F.softplus`."""
    return Softplus.apply(input, beta, threshold)
