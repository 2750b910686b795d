"""Special functions of one tensor: deg2rad, rad2deg, sinc, logit, nan_to_num, and the gamma family (lgamma,
digamma, polygamma, mvlgamma).

The gamma family is computed per element in float64 by ATen's own algorithms (Math.h: `calc_digamma`,
`calc_trigamma`, Cephes' Hurwitz `zeta`), then rounded to the input's dtype; each derivative is the next member
of the family (lgamma' = digamma, digamma' = polygamma(1), polygamma(n)' = polygamma(n + 1)), so every order of
derivative exists. Integer and bool inputs give the default dtype, as in PyTorch.
"""
import math

import numpy as np

from ..core.forward_ad import from_backward, linear
from ..core.function import Function
from ._common import Pointwise, as_operand, float_dtype_of, quiet, wrap
from .math import _elementwise
from .unary import Where


class _Scaling(Function):
    """z = c x for a constant c (`factor`);  dz/dx = c. Nothing is saved, as in PyTorch."""
    factor = None

    @classmethod
    def forward(cls, x):
        return wrap(float_dtype_of(x._data) * cls.factor)

    @staticmethod
    def setup_context(ctx, inputs, output):
        pass

    @staticmethod
    def backward(ctx, grad):
        return grad * ctx._forward_cls.factor

    jvp = linear


class Deg2Rad(_Scaling):
    """z = x * pi / 180;  dz/dx = pi / 180"""
    node_name, factor = "Deg2RadBackward0", math.pi / 180


class Rad2Deg(_Scaling):
    """z = x * 180 / pi;  dz/dx = 180 / pi"""
    node_name, factor = "Rad2DegBackward0", 180 / math.pi


def _sinc(a):
    product = a * a.dtype.type(math.pi)          # in the input's precision, as ATen's kernel
    return np.where(a == 0, a.dtype.type(1), np.sin(product) / np.where(a == 0, 1, product))


class Sinc(Pointwise):
    """z = sin(pi x) / (pi x), 1 at x = 0;  dz/dx = (cos(pi x) pi x - sin(pi x)) / (pi x**2), 0 at x = 0"""
    node_name, numpy_fn, saves = "SincBackward0", staticmethod(_sinc), "self"
    quiet_forward = True

    @staticmethod
    def gradient(grad, x):
        px = x * math.pi
        slope = (px * px.cos() - px.sin()) / (px * x)
        return Where.apply(x._data == 0, as_operand(0, grad), grad * slope)


class Logit(Function):
    """z = log(x / (1 - x)), with x clamped to [eps, 1 - eps] when eps is given;
    dz/dx = 1 / (x (1 - x)) inside, 0 outside [eps, 1 - eps] (nan outside [0, 1] without eps)"""
    node_name = "LogitBackward0"
    saved_names = ("self",)
    saved_attrs = {"eps": "eps"}

    @staticmethod
    @quiet
    def forward(x, eps=None):
        a = float_dtype_of(x._data)
        if eps is not None:
            a = np.clip(a, a.dtype.type(eps), a.dtype.type(1 - eps))
        return wrap(np.log(a / (1 - a)))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])
        ctx.eps = inputs[1] if len(inputs) > 1 else None

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        a, eps = x._data, ctx.eps
        outside = (a < 0) | (a > 1) if eps is None else (a < eps) | (a > 1 - eps)
        fill = wrap(np.array(np.nan if eps is None else 0, grad._data.dtype))      # a constant: no edge to grad
        return Where.apply(outside, fill, grad / (x * (1 - x))), None

    jvp = from_backward


class NanToNum(Function):
    """z = x with nan, +inf and -inf replaced by numbers (0 and the dtype's largest and lowest by default);
    dz/dx = 1 where x is finite, else 0"""
    node_name = "NanToNumBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(x, nan=0.0, posinf=None, neginf=None):
        a = x._data
        if a.dtype.kind != "f":
            return wrap(a.copy())
        info = np.finfo(a.dtype)
        with np.errstate(over="ignore"):
            values = [a.dtype.type(v) for v in (nan, info.max if posinf is None else posinf,
                                                info.min if neginf is None else neginf)]
        return wrap(np.nan_to_num(a, nan=values[0], posinf=values[1], neginf=values[2]))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return (grad * wrap(np.isfinite(x._data)),) + (None,) * 3

    jvp = from_backward


# ---- the gamma family, per element in float64: ATen's algorithms (aten/src/ATen/native/Math.h) ------------------
def _lgamma(v):
    try:
        return math.lgamma(v)
    except ValueError:              # the poles 0, -1, -2, ...: PyTorch gives inf
        return math.inf


_PSI_10 = 2.25175258906672110764
_DIGAMMA_A = (8.33333333333333333333E-2, -2.10927960927960927961E-2, 7.57575757575757575758E-3,
              -4.16666666666666666667E-3, 3.96825396825396825397E-3, -8.33333333333333333333E-3,
              8.33333333333333333333E-2)


def _digamma(x):
    if x == 0:
        return math.copysign(math.inf, -x)          # -inf at +0, inf at -0
    if math.isnan(x) or x == -math.inf:
        return math.nan
    if x < 0:
        if x == math.trunc(x):
            return math.nan
        return _digamma(1 - x) - math.pi / math.tan(math.pi * math.modf(x)[0])
    result = 0.0
    while x < 10:
        result -= 1 / x
        x += 1
    if x == 10:
        return result + _PSI_10
    y = 0.0
    if x < 1.0e17:
        z = 1.0 / (x * x)
        y = z * _polevl(z, _DIGAMMA_A)
    return result + math.log(x) - 0.5 / x - y


def _polevl(x, coefficients):
    result = 0.0
    for c in coefficients:
        result = result * x + c
    return result


def _trigamma(x):
    sign, result = 1.0, 0.0
    if x < 0.5:
        sign = -1.0
        sin_pi_x = math.sin(math.pi * x)
        if sin_pi_x == 0:
            return math.inf
        result -= math.pi * math.pi / (sin_pi_x * sin_pi_x)
        x = 1 - x
    for _ in range(6):
        result += 1 / (x * x)
        x += 1
    ixx = 1 / (x * x)
    result += (1 + 1 / (2 * x) + ixx * (1 / 6 - ixx * (1 / 30 - ixx * (1 / 42)))) / x
    return sign * result


_ZETA_A = (12.0, -720.0, 30240.0, -1209600.0, 47900160.0, -1.8924375803183791606e9, 7.47242496e10,
           -2.950130727918164224e12, 1.1646782814350067249e14, -4.5979787224074726105e15, 1.8152105401943546773e17,
           -7.1661652561756670113e18)
_MACHEP = 1.11022302462515654042E-16


def _zeta(x, q):
    """The Hurwitz zeta function sum over k of (k + q) ** -x (Cephes' algorithm, as ATen's `zeta`)."""
    if x == 1:
        return math.inf
    if x < 1 or math.isnan(q):
        return math.nan
    if q <= 0:
        if math.isinf(q) or q == math.floor(q):
            return math.inf
        if x != math.floor(x):
            return math.nan
    s, a, i, b = q ** -x, q, 0, 0.0
    while i < 9 or a <= 9.0:
        i += 1
        a += 1
        b = a ** -x
        s += b
        if -_MACHEP * s < b < _MACHEP * s:
            return s
    w = a
    s += b * w / (x - 1) - 0.5 * b
    a, k = 1.0, 0.0
    for c in _ZETA_A:
        a *= x + k
        b /= w
        t = a * b / c
        s += t
        if abs(t / s) < _MACHEP:
            return s
        k += 1
        a *= x + k
        b /= w
        k += 1
    return s


def _polygamma(n):
    """The scalar function psi^(n), n >= 2: (-1)**(n + 1) n! zeta(n + 1, x)."""
    factorial = math.exp(math.lgamma(n + 1.0))
    return lambda x: (1.0 if n % 2 else -1.0) * factorial * _zeta(n + 1.0, x)


class Lgamma(Pointwise):
    """z = log |gamma(x)|;  dz/dx = digamma(x)"""
    node_name, saves = "LgammaBackward0", "self"
    quiet_forward = True
    numpy_fn = staticmethod(lambda a: _elementwise(_lgamma, a))
    gradient = staticmethod(lambda grad, x: grad * Digamma.apply(x))


class Digamma(Pointwise):
    """z = digamma(x) = d/dx log gamma(x);  dz/dx = polygamma(1, x)"""
    node_name, saves = "DigammaBackward0", "self"
    quiet_forward = True
    numpy_fn = staticmethod(lambda a: _elementwise(_digamma, a))
    gradient = staticmethod(lambda grad, x: grad * Polygamma.apply(x, 1))


class Polygamma(Function):
    """z = polygamma(n, x), the n-th derivative of digamma (`Polygamma.apply(x, n)`);  dz/dx = polygamma(n + 1, x)"""
    node_name = "PolygammaBackward0"
    saved_names = ("self",)
    saved_attrs = {"n": "n"}

    @staticmethod
    def forward(x, n):
        fn = _digamma if n == 0 else _trigamma if n == 1 else _polygamma(n)
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
            return wrap(_elementwise(fn, x._data))

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, ctx.n = inputs
        ctx.save_for_backward(x)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * Polygamma.apply(x, ctx.n + 1), None

    @staticmethod
    def jvp(ctx, tx, tn):
        x, n = ctx.primals
        return tx * Polygamma.apply(x, n + 1)


class PolygammaInPlace(Polygamma):
    """`x.polygamma_(n)`: the same function, under the name PyTorch gives the in-place op's node"""
    node_name = "PolygammaBackward1"


class Mvlgamma(Function):
    """z = log of the multivariate gamma function of dimension p: p(p-1)/4 log(pi) + sum over j < p of
    lgamma(x - j/2);  dz/dx = sum over j of digamma(x - j/2)"""
    node_name = "MvlgammaBackward0"
    saved_names = ("self",)
    saved_attrs = {"p": "p"}

    @staticmethod
    def forward(x, p):
        if p < 1:
            raise RuntimeError("p has to be greater than or equal to 1")
        a = float_dtype_of(x._data)
        shifts = np.arange(-p * 0.5 + 0.5, 0.5, 0.5, dtype=a.dtype)      # PyTorch's order: x - (p-1)/2, ..., x
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
            terms = _elementwise(_lgamma, a[..., None] + shifts)
        return wrap(terms.sum(-1) + a.dtype.type(p * (p - 1) * math.log(math.pi) / 4))

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, ctx.p = inputs
        ctx.save_for_backward(x)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        shifts = wrap(np.arange(-ctx.p * 0.5 + 0.5, 0.5, 0.5, dtype=grad._data.dtype))
        return grad * Digamma.apply(x.unsqueeze(-1) + shifts).sum(-1), None

    jvp = from_backward

