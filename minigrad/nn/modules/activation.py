"""Activation layers: each one wraps the function of the same name in `nn.functional` (no parameters but PReLU's
slopes)."""
import warnings

from ..._tensor import creation as _creation
from .. import functional as F
from .. import init as _init
from ..module import Module
from ..parameter import Parameter


class ReLU(Module):
    """max(x, 0) elementwise. Mirrors `torch.nn.ReLU`."""

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return F.relu(input, inplace=self.inplace)

    def extra_repr(self):
        return "inplace=True" if self.inplace else ""


class Sigmoid(Module):
    """1 / (1 + exp(-x)) elementwise. Mirrors `torch.nn.Sigmoid`."""

    def forward(self, input):
        return F.sigmoid(input)


class Tanh(Module):
    """tanh(x) elementwise. Mirrors `torch.nn.Tanh`."""

    def forward(self, input):
        return F.tanh(input)


class Softmax(Module):
    """exp(x) / sum(exp(x)) along `dim`. Mirrors `torch.nn.Softmax`."""

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.softmax(input, self.dim)

    def extra_repr(self):
        return f"dim={self.dim}"


class LogSoftmax(Module):
    """log(softmax(x)) along `dim`, computed stably. Mirrors `torch.nn.LogSoftmax`."""

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.log_softmax(input, self.dim)

    def extra_repr(self):
        return f"dim={self.dim}"


class LeakyReLU(Module):
    """x where x > 0, else negative_slope * x. Mirrors `torch.nn.LeakyReLU`."""

    def __init__(self, negative_slope=1e-2, inplace=False):
        super().__init__()
        self.negative_slope = negative_slope
        self.inplace = inplace

    def forward(self, input):
        return F.leaky_relu(input, self.negative_slope, self.inplace)

    def extra_repr(self):
        return f"negative_slope={self.negative_slope}" + (", inplace=True" if self.inplace else "")


class ELU(Module):
    """x where x > 0, else alpha * (exp(x) - 1). Mirrors `torch.nn.ELU`."""

    def __init__(self, alpha=1.0, inplace=False):
        super().__init__()
        self.alpha = alpha
        self.inplace = inplace

    def forward(self, input):
        return F.elu(input, self.alpha, self.inplace)

    def extra_repr(self):
        return f"alpha={self.alpha}" + (", inplace=True" if self.inplace else "")


class SELU(Module):
    """scale * elu(x, alpha) with SELU's fixed constants (self-normalising networks). Mirrors `torch.nn.SELU`."""

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return F.selu(input, self.inplace)

    def extra_repr(self):
        return "inplace=True" if self.inplace else ""


class GELU(Module):
    """x * Phi(x), Phi the standard normal CDF; `approximate='tanh'` uses its tanh formula. Mirrors `torch.nn.GELU`."""

    def __init__(self, approximate="none"):
        super().__init__()
        self.approximate = approximate

    def forward(self, input):
        return F.gelu(input, approximate=self.approximate)

    def extra_repr(self):
        return f"approximate={self.approximate!r}"


class SiLU(Module):
    """x * sigmoid(x) (swish). Mirrors `torch.nn.SiLU`."""

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return F.silu(input, inplace=self.inplace)

    def extra_repr(self):
        return "inplace=True" if self.inplace else ""


class Softplus(Module):
    """log(1 + exp(beta x)) / beta, a smooth relu (x itself where beta x > threshold). Mirrors `torch.nn.Softplus`."""

    def __init__(self, beta=1.0, threshold=20.0):
        super().__init__()
        self.beta = beta
        self.threshold = threshold

    def forward(self, input):
        return F.softplus(input, self.beta, self.threshold)

    def extra_repr(self):
        return f"beta={self.beta}, threshold={self.threshold}"


# ---- the activations of issue 26: piecewise-linear, smooth, leaky with learned or random slopes ------------
def _inplace_repr(inplace, lead=""):
    return lead + (", inplace=True" if lead else "inplace=True") if inplace else lead


class Hardtanh(Module):
    """x clipped to [min_val, max_val]. Mirrors `torch.nn.Hardtanh`."""

    def __init__(self, min_val=-1.0, max_val=1.0, inplace=False, min_value=None, max_value=None):
        super().__init__()
        if min_value is not None:
            warnings.warn("keyword argument `min_value` is deprecated and renamed to `min_val`", FutureWarning,
                          stacklevel=2)
            min_val = min_value
        if max_value is not None:
            warnings.warn("keyword argument `max_value` is deprecated and renamed to `max_val`", FutureWarning,
                          stacklevel=2)
            max_val = max_value
        self.min_val, self.max_val, self.inplace = min_val, max_val, inplace
        if self.max_val <= self.min_val:
            raise AssertionError(f"max_val ({self.max_val}) must be greater than min_val ({self.min_val})")

    def forward(self, input):
        return F.hardtanh(input, self.min_val, self.max_val, self.inplace)

    def extra_repr(self):
        return _inplace_repr(self.inplace, f"min_val={self.min_val}, max_val={self.max_val}")


class ReLU6(Hardtanh):
    """min(max(x, 0), 6). Mirrors `torch.nn.ReLU6` (a Hardtanh(0, 6), as in PyTorch)."""

    def __init__(self, inplace=False):
        super().__init__(0.0, 6.0, inplace)

    def extra_repr(self):
        return _inplace_repr(self.inplace)


class Hardsigmoid(Module):
    """0 below -3, 1 above 3, x / 6 + 1/2 between. Mirrors `torch.nn.Hardsigmoid` (its repr shows no inplace)."""

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return F.hardsigmoid(input, self.inplace)


class Hardswish(Module):
    """x * hardsigmoid(x). Mirrors `torch.nn.Hardswish` (its repr shows no inplace)."""

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return F.hardswish(input, self.inplace)


class Threshold(Module):
    """x where x > threshold, else value. Mirrors `torch.nn.Threshold`."""

    def __init__(self, threshold, value, inplace=False):
        super().__init__()
        self.threshold, self.value, self.inplace = threshold, value, inplace

    def forward(self, input):
        return F.threshold(input, self.threshold, self.value, self.inplace)

    def extra_repr(self):
        return _inplace_repr(self.inplace, f"threshold={self.threshold}, value={self.value}")


class Softshrink(Module):
    """x moved toward 0 by lambd, 0 within [-lambd, lambd]. Mirrors `torch.nn.Softshrink`."""

    def __init__(self, lambd=0.5):
        super().__init__()
        self.lambd = lambd

    def forward(self, input):
        return F.softshrink(input, self.lambd)

    def extra_repr(self):
        return str(self.lambd)


class Hardshrink(Module):
    """x where |x| > lambd, else 0. Mirrors `torch.nn.Hardshrink`."""

    def __init__(self, lambd=0.5):
        super().__init__()
        self.lambd = lambd

    def forward(self, input):
        return F.hardshrink(input, self.lambd)

    def extra_repr(self):
        return f"{self.lambd}"


class LogSigmoid(Module):
    """log(sigmoid(x)). Mirrors `torch.nn.LogSigmoid`."""

    def forward(self, input):
        return F.logsigmoid(input)


class Mish(Module):
    """x * tanh(softplus(x)). Mirrors `torch.nn.Mish`."""

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return F.mish(input, self.inplace)

    def extra_repr(self):
        return _inplace_repr(self.inplace)


class CELU(Module):
    """x where x > 0, else alpha * (exp(x / alpha) - 1). Mirrors `torch.nn.CELU`."""

    def __init__(self, alpha=1.0, inplace=False):
        super().__init__()
        self.alpha, self.inplace = alpha, inplace

    def forward(self, input):
        return F.celu(input, self.alpha, self.inplace)

    def extra_repr(self):
        return _inplace_repr(self.inplace, f"alpha={self.alpha}")


class GLU(Module):
    """The gated linear unit a * sigmoid(b), a and b the halves of x along `dim`. Mirrors `torch.nn.GLU`."""

    def __init__(self, dim=-1):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.glu(input, self.dim)

    def extra_repr(self):
        return f"dim={self.dim}"


class Softsign(Module):
    """x / (1 + |x|). Mirrors `torch.nn.Softsign`."""

    def forward(self, input):
        return F.softsign(input)


class Tanhshrink(Module):
    """x - tanh(x). Mirrors `torch.nn.Tanhshrink`."""

    def forward(self, input):
        return F.tanhshrink(input)


class Softmin(Module):
    """softmax(-x) along `dim`. Mirrors `torch.nn.Softmin`."""

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.softmin(input, self.dim, _stacklevel=5)

    def extra_repr(self):
        return f"dim={self.dim}"


class Softmax2d(Module):
    """softmax over the channels (dim -3) of a (C, H, W) or (N, C, H, W) input. Mirrors `torch.nn.Softmax2d`."""

    def forward(self, input):
        if input.dim() not in (3, 4):
            raise ValueError(f"Softmax2d: expected input to be 3D or 4D, got {input.dim()}D instead")
        return F.softmax(input, -3, _stacklevel=5)


class PReLU(Module):
    """x where x > 0, else a * x, with `num_parameters` learned slopes a (1, or one per channel), all starting at
    `init`. Mirrors `torch.nn.PReLU`.

    Example:
        >>> nn.PReLU()(torch.tensor([-2.0, 3.0]))
        tensor([-0.5000,  3.0000], grad_fn=<PreluKernelBackward0>)
    """

    def __init__(self, num_parameters=1, init=0.25, device=None, dtype=None):
        super().__init__()
        self.num_parameters, self.init = num_parameters, init
        self.weight = Parameter(_creation.empty(num_parameters, device=device, dtype=dtype))
        self.reset_parameters()

    def reset_parameters(self):
        """Set every slope back to `init`."""
        _init.constant_(self.weight, self.init)

    def forward(self, input):
        return F.prelu(input, self.weight)

    def extra_repr(self):
        return f"num_parameters={self.num_parameters}"


class RReLU(Module):
    """Randomized leaky relu: random slopes in [lower, upper] in training, their mean in eval. Mirrors
    `torch.nn.RReLU` (the same random numbers as PyTorch after `manual_seed`)."""

    def __init__(self, lower=1.0 / 8, upper=1.0 / 3, inplace=False):
        super().__init__()
        self.lower, self.upper, self.inplace = lower, upper, inplace

    def forward(self, input):
        return F.rrelu(input, self.lower, self.upper, self.training, self.inplace)

    def extra_repr(self):
        return _inplace_repr(self.inplace, f"lower={self.lower}, upper={self.upper}")
