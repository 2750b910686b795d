"""The regularized incomplete gamma functions: igamma(a, x) = P(a, x), the share of gamma(a) that the integral
of t**(a-1) e**-t collects from 0 to x, and igammac(a, x) = Q(a, x) = 1 - P(a, x). (`torch.igamma`,
`torch.special.gammainc`.)

Each is computed per element in float64, by the series of P for x < a + 1 and by Lentz's continued fraction of
Q beyond (Numerical Recipes, 6.2), with ATen's answers at the edges (a = 0, x = 0, infinities). Only x has a
derivative in PyTorch: dP/dx = x**(a-1) e**-x / gamma(a) (and dQ/dx its negative); asking for a's raises.
In forward mode minigrad gives the tangent along x, where PyTorch raises for any tangent (a deviation).
"""
import math

import numpy as np

from ..core.forward_ad import not_implemented_error
from ..core.function import Function
from ._common import operands, quiet, wrap
from .binary import _floats_only
from .special import Lgamma
from .unary import Exp, Log

_EPS, _TINY = 1e-16, 1e-300


def _lower_series(a, x):
    term = total = 1.0 / a
    n = a
    for _ in range(10000):
        n += 1
        term *= x / n
        total += term
        if abs(term) < abs(total) * _EPS:
            break
    return total * math.exp(-x + a * math.log(x) - math.lgamma(a))


def _upper_fraction(a, x):
    b = x + 1 - a
    c, d = 1 / _TINY, 1 / b
    h = d
    for i in range(1, 10000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = _TINY if abs(d) < _TINY else d
        c = b + an / c
        c = _TINY if abs(c) < _TINY else c
        d = 1 / d
        step = d * c
        h *= step
        if abs(step - 1) < _EPS:
            break
    return math.exp(-x + a * math.log(x) - math.lgamma(a)) * h


def _igamma(a, x, upper):
    """P(a, x), or Q(a, x) for `upper`, of two Python floats, with ATen's edge cases (calc_igamma, calc_igammac)."""
    if x < 0 or a < 0 or math.isnan(a) or math.isnan(x):
        return math.nan
    if a == 0:
        return (0.0 if upper else 1.0) if x > 0 else math.nan
    if x == 0:
        return 1.0 if upper else 0.0
    if math.isinf(a):
        return math.nan if math.isinf(x) else (1.0 if upper else 0.0)
    if math.isinf(x):
        return 0.0 if upper else 1.0
    if x < a + 1:
        p = _lower_series(a, x)
        return 1 - p if upper else p
    q = _upper_fraction(a, x)
    return q if upper else 1 - q


_lower = np.frompyfunc(lambda a, x: _igamma(a, x, False), 2, 1)
_upper = np.frompyfunc(lambda a, x: _igamma(a, x, True), 2, 1)


class Igamma(Function):
    """z = P(a, x);  dz/dx = x**(a-1) e**-x / gamma(a),  dz/da: not implemented (as in PyTorch)"""
    node_name, aten_name, sign = "IgammaBackward0", "igamma: input", 1
    saved_names = ("other", "self")

    @classmethod
    def forward(cls, a, x):
        p, q = operands(a, x)
        _floats_only("igamma" if cls.sign > 0 else "igammac", p)
        fn = _lower if cls.sign > 0 else _upper
        return wrap(np.asarray(fn(p.astype(np.float64), q.astype(np.float64)), np.float64).astype(p.dtype))

    @staticmethod
    def setup_context(ctx, inputs, output):
        a, x = inputs
        ctx.save_for_backward(x, a)
        ctx.shapes = (a._data.shape, x._data.shape)

    @staticmethod
    @quiet
    def backward(ctx, grad):
        x, a = ctx.saved_tensors
        if ctx.needs_input_grad[0]:
            raise NotImplementedError(f"the derivative for '{ctx._forward_cls.aten_name}' is not implemented.")
        density = Exp.apply((a - 1) * Log.apply(x) - x - Lgamma.apply(a))
        g = grad * density * ctx._forward_cls.sign
        return None, g if g._data.shape == ctx.shapes[1] else g.sum_to_size(ctx.shapes[1])

    @staticmethod
    @quiet
    def jvp(ctx, ta, tx):
        """The tangent along x (PyTorch has no forward mode for igamma at all: minigrad's goes this far); along a,
        PyTorch's error."""
        a, x = ctx.primals
        if ta is not None and ta._data.any():
            raise not_implemented_error("igamma" if ctx._forward_cls.sign > 0 else "igammac")
        density = Exp.apply((a - 1) * Log.apply(x) - x - Lgamma.apply(a))
        return tx * density * ctx._forward_cls.sign


class Igammac(Igamma):
    """z = Q(a, x) = 1 - P(a, x);  dz/dx = -x**(a-1) e**-x / gamma(a)"""
    node_name, aten_name, sign = "IgammacBackward0", "igammac: input", -1

