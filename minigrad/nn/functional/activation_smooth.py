"""The smooth activations that activation.py does not hold: logsigmoid, mish, celu, glu, softsign, tanhshrink.

logsigmoid and glu are nodes of their own in PyTorch, and so are their gradients (`LogSigmoidBackwardBackward0`,
`GluBackwardBackward0`); mish's gradient PyTorch writes with tensor ops (so its graph is made of `TanhBackward0`,
`SigmoidBackward0`, ...), and celu is elu with `input_scale = 1 / alpha` under a node of its own. softsign and
tanhshrink are compositions in PyTorch too.
"""
import numpy as np

from ...core.forward_ad import from_backward
from ...core.function import Function
from ...ops._common import dim_index, quiet, wrap
from ..._tensor.functions import cat
from .activation import Elu, EluInplace, floating


# ---- logsigmoid --------------------------------------------------------------------------------------------
class LogSigmoid(Function):
    """z = log(sigmoid(x)) = min(x, 0) - log(1 + exp(-|x|));  dz/dx = 1 - sigmoid(x)"""
    node_name = "LogSigmoidBackward0"
    saved_names = ("self",)

    @staticmethod
    @quiet
    def forward(x):
        a = floating(x, "log_sigmoid_cpu")
        return wrap(np.minimum(a, a.dtype.type(0)) - np.log1p(np.exp(-np.abs(a))))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return LogSigmoidBackward.apply(grad, x)

    @staticmethod
    def jvp(ctx, tx):                                   # the backward formula on the tangent (elementwise)
        return LogSigmoidBackward.apply(tx, ctx.primals[0])


class LogSigmoidBackward(Function):
    """g = grad * (1 - sigmoid(x));  dg/dgrad = 1 - sigmoid(x),  dg/dx = -grad * s (1 - s), s = sigmoid(x)"""
    node_name = "LogSigmoidBackwardBackward0"
    saved_names = ("grad_output", "self")

    @staticmethod
    @quiet
    def forward(grad, x):
        g, a = grad._data, x._data
        t = a.dtype.type
        z = np.exp(-np.abs(a))          # PyTorch's `buffer`: sigmoid(-|x|) = z / (1 + z) without overflow
        negative = a < 0
        return wrap((np.where(negative, t(1), t(0)) - np.where(negative, t(1), t(-1)) * (z / (t(1) + z))) * g)

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(*inputs)

    @staticmethod
    def backward(ctx, gg):
        grad, x = ctx.saved_tensors
        needs_grad, needs_x = ctx.needs_input_grad
        g_grad = LogSigmoidBackward.apply(gg, x) if needs_grad else None
        g_x = None
        if needs_x:
            s = x.sigmoid()
            g_x = gg * grad * (s - 1) * s
        return g_grad, g_x

    jvp = from_backward


# ---- mish --------------------------------------------------------------------------------------------------
def mish_gradient(grad, x):
    """grad * (t + x * sigmoid(x) * (1 - t**2)), t = tanh(softplus(x)), with tensor ops as PyTorch writes it."""
    tanh_softplus = x.exp().log1p().tanh()
    return grad * (tanh_softplus + x * x.sigmoid() * (1.0 - tanh_softplus * tanh_softplus))


class Mish(Function):
    """z = x * tanh(softplus(x));  dz/dx = t + x * sigmoid(x) * (1 - t**2), t = tanh(softplus(x))"""
    node_name = "MishBackward0"
    saved_names = ("self",)

    @staticmethod
    @quiet
    def forward(x):
        a = floating(x, "mish_cpu")
        return wrap(a * np.tanh(np.log1p(np.exp(a))))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return mish_gradient(grad, x)

    @staticmethod
    def jvp(ctx, tx):
        return mish_gradient(tx, ctx.primals[0])


# ---- celu: elu with input_scale = 1 / alpha ----------------------------------------------------------------
class Celu(Elu):
    """z = max(0, x) + min(0, alpha * (exp(x / alpha) - 1));  dz/dx = 1 if x > 0 else exp(x / alpha)"""
    node_name = "CeluBackward0"
    saved_attrs = {"alpha": "alpha"}


class CeluInplace(EluInplace):
    """celu_, in place: the gradient read from the result, as elu_'s"""
    node_name = "CeluBackward1"
    saved_attrs = {"alpha": "alpha"}


# ---- glu ---------------------------------------------------------------------------------------------------
def _halves(a, dim):
    h = a.shape[dim] // 2
    return np.take(a, range(h), axis=dim), np.take(a, range(h, 2 * h), axis=dim)


def _sigmoid(b):
    return b.dtype.type(1) / (b.dtype.type(1) + np.exp(-b))


class Glu(Function):
    """z = a * sigmoid(b), a and b the two halves of x along dim;  dz/da = sigmoid(b),
    dz/db = a * s (1 - s), s = sigmoid(b)"""
    node_name = "GluBackward0"
    saved_names = ("self",)
    saved_attrs = {"dim": "dim"}

    @staticmethod
    @quiet
    def forward(x, dim):
        a, b = _halves(floating(x, "glu_cpu"), dim)
        return wrap(a * _sigmoid(b))

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, ctx.dim = inputs
        ctx.save_for_backward(x)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return GluBackward.apply(grad, x, ctx.dim), None

    jvp = from_backward


class GluBackward(Function):
    """g = cat(grad * s, grad * a * s (1 - s)) along dim;  its derivatives: see `backward`"""
    node_name = "GluBackwardBackward0"
    saved_names = ("grad_output", "self")
    saved_attrs = {"dim": "dim"}

    @staticmethod
    @quiet
    def forward(grad, x, dim):
        g = grad._data
        a, b = _halves(x._data, dim)
        s = _sigmoid(b)
        return wrap(np.concatenate([g * s, g * a * s * (s.dtype.type(1) - s)], axis=dim))

    @staticmethod
    def setup_context(ctx, inputs, output):
        grad, x, ctx.dim = inputs
        ctx.save_for_backward(grad, x)

    @staticmethod
    def backward(ctx, gg):
        grad, x = ctx.saved_tensors
        needs_grad, needs_x = ctx.needs_input_grad[:2]
        h = x.shape[ctx.dim] // 2
        a, b = x.narrow(ctx.dim, 0, h), x.narrow(ctx.dim, h, h)
        gg_a, gg_b = gg.narrow(ctx.dim, 0, h), gg.narrow(ctx.dim, h, h)
        s = b.sigmoid()
        ds = s * (1 - s)
        g_grad = gg_a * s + gg_b * a * ds if needs_grad else None
        g_x = None
        if needs_x:
            g_x = cat([gg_b * grad * ds, (gg_a + gg_b * a * (1 - 2 * s)) * grad * ds], ctx.dim)
        return g_grad, g_x, None

    jvp = from_backward


# ---- `F.logsigmoid`, `F.mish`, `F.celu`, `F.glu`, `F.softsign`, `F.tanhshrink` -------------------------------
__all__ = ["logsigmoid", "mish", "celu", "celu_", "glu", "softsign", "tanhshrink"]


def logsigmoid(input):
    """log(sigmoid(x)), computed without overflow. Mirrors `torch.nn.functional.logsigmoid`.

    Example:
        >>> F.logsigmoid(torch.tensor([0.0]))
        tensor([-0.6931])
    """
    return LogSigmoid.apply(input)


def mish(input, inplace=False):
    """x * tanh(softplus(x)) (Misra, 2019). Mirrors `torch.nn.functional.mish`."""
    return input._inplace(Mish) if inplace else Mish.apply(input)


def _check_alpha(alpha):
    if alpha == 0:
        raise RuntimeError("ZeroDivisionError: alpha cannot be 0 for CELU")


def celu(input, alpha=1.0, inplace=False):
    """x where x > 0, else alpha * (exp(x / alpha) - 1): elu, continuously differentiable in alpha.
    Mirrors `torch.nn.functional.celu`."""
    if inplace:
        return celu_(input, alpha)
    _check_alpha(alpha)
    return Celu.apply(input, alpha, 1.0, 1.0 / alpha)


def celu_(input, alpha=1.0):
    """In-place `celu`; returns `input`."""
    _check_alpha(alpha)
    return input._inplace(CeluInplace, alpha, 1.0, 1.0 / alpha)


def glu(input, dim=-1):
    """The gated linear unit: a * sigmoid(b), where a and b are the two halves of x along `dim`.

    Mirrors `torch.nn.functional.glu`; the size along `dim` must be even.

    Example:
        >>> F.glu(torch.tensor([1.0, 2.0, 0.0, 0.0]))
        tensor([0.5000, 1.0000])
    """
    if input.dim() == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    dim = dim_index(dim, input.dim())
    if input.shape[dim] % 2:
        raise RuntimeError(f"Halving dimension must be even, but dimension {dim} is size {input.shape[dim]}")
    return Glu.apply(input, dim)


def softsign(input):
    """x / (1 + |x|). Mirrors `torch.nn.functional.softsign`."""
    return input / (input.abs() + 1)


def tanhshrink(input):
    """x - tanh(x). Mirrors `torch.nn.functional.tanhshrink`."""
    return input - input.tanh()
