"""More elementwise methods of `Tensor`: functions of two tensors (logaddexp, hypot, copysign, fmod, xlogy,
float_power, heaviside, fmax, fmin, ldexp, nextafter, igamma), frexp, the special functions (lgamma, digamma,
polygamma, mvlgamma, erfinv, i0, logit, sinc, deg2rad, rad2deg), `nan_to_num` and `signbit`, each with its
in-place twin where PyTorch has one.

The ops are in minigrad/ops/binary.py, special.py, math.py (xlogy, frexp, erfinv), bessel.py and
incomplete_gamma.py; `torch.hypot(x, y)` and the other
module-level spellings are in elementwise_functions.py.
"""
import numpy as np

from ..compat.batched import like
from ..core import dtype as _dtype
from ..core.tensor import TensorBase
from ..ops import bessel, binary, incomplete_gamma, math, special
from ..ops._common import as_operand, is_number, operands
from .integer import _result
from .pointwise import _tensor_arg
from ..return_types import make as _named


class TensorElementwise:
    """Methods of `Tensor`: elementwise functions of two tensors, and special functions."""

    # ---- functions of two tensors --------------------------------------------------------------------------------
    def logaddexp(self, other):
        """log(exp(self) + exp(other)), computed without overflow."""
        return binary.Logaddexp.apply(self, _tensor_arg(other, "logaddexp", "other", 1))

    def logaddexp2(self, other):
        """log2(2**self + 2**other), computed without overflow."""
        return binary.Logaddexp2.apply(self, _tensor_arg(other, "logaddexp2", "other", 1))

    def hypot(self, other):
        """sqrt(self**2 + other**2), the length of the hypotenuse, without overflow."""
        return binary.Hypot.apply(self, _tensor_arg(other, "hypot", "other", 1))

    def hypot_(self, other):
        return self._inplace(binary.Hypot, _tensor_arg(other, "hypot_", "other", 1))

    def copysign(self, other):
        """|self| with the sign of `other` (a tensor or a number), elementwise; -0.0 counts as negative."""
        return _by_operand(self, other, binary.Copysign, binary.CopysignScalar)

    def copysign_(self, other):
        return _by_operand(self, other, binary.Copysign, binary.CopysignScalar, in_place=True)

    def fmod(self, other):
        """self - other * trunc(self / other): the remainder with the sign of self (C's fmod; `%` takes other's)."""
        return _by_operand(self, other, binary.Fmod, binary.FmodScalar)

    def fmod_(self, other):
        return _by_operand(self, other, binary.Fmod, binary.FmodScalar, in_place=True)

    def xlogy(self, other):
        """self * log(other), and 0 where self is 0 (even where other is 0), elementwise."""
        return _by_operand(self, other, math.Xlogy, math.XlogyOtherScalar)

    def xlogy_(self, other):
        return _by_operand(self, other, math.Xlogy, math.XlogyOtherScalar, in_place=True)

    def float_power(self, exponent):
        """self ** exponent computed in float64 (both cast to double first, as PyTorch's float_power)."""
        if isinstance(exponent, TensorBase):
            return self.double() ** exponent.double()
        return self.double() ** exponent

    def float_power_(self, exponent):
        if self.dtype is not _dtype.float64:
            raise RuntimeError(f"the base given to float_power_ has dtype {self.dtype._scalar_name} but the "
                               "operation's result requires dtype Double")
        return self.pow_(exponent.double() if isinstance(exponent, TensorBase) else exponent)

    def heaviside(self, values):
        """0 where self < 0, `values` where self == 0, 1 where self > 0 (and 0 at nan); no derivative."""
        _tensor_arg(values, "heaviside", "values", 1)
        if self.dtype is not values.dtype:
            raise RuntimeError("heaviside is not yet implemented for tensors with different dtypes.")
        a, v = operands(self, values)
        return _result(np.where(a == 0, v, (a > 0).astype(a.dtype)), "aten::heaviside", self, values)

    def heaviside_(self, values):
        return self._write(self.heaviside(values))

    def fmax(self, other):
        """The larger of self and other elementwise; where one is nan, the other (maximum gives nan there)."""
        return binary.Fmax.apply(self, _tensor_arg(other, "fmax", "other", 1))

    def fmin(self, other):
        """The smaller of self and other elementwise; where one is nan, the other."""
        return binary.Fmin.apply(self, _tensor_arg(other, "fmin", "other", 1))

    def ldexp(self, other):
        """self * 2**other, in a float dtype."""
        return binary.Ldexp.apply(self, _tensor_arg(other, "ldexp", "other", 1))

    def ldexp_(self, other):
        return self._inplace(binary.Ldexp, _tensor_arg(other, "ldexp_", "other", 1))

    def nextafter(self, other):
        """The next float after self in the direction of other, elementwise."""
        return binary.Nextafter.apply(self, _tensor_arg(other, "nextafter", "other", 1))

    def nextafter_(self, other):
        return self._inplace(binary.Nextafter, _tensor_arg(other, "nextafter_", "other", 1))

    def frexp(self):
        """(mantissa, exponent) with self = mantissa * 2**exponent, |mantissa| in [0.5, 1), int32 exponents."""
        return _named("frexp", *math.Frexp.apply(self))

    def igamma(self, other):
        """The regularized lower incomplete gamma function P(self, other)."""
        return incomplete_gamma.Igamma.apply(self, _tensor_arg(other, "igamma", "other", 1))

    def igamma_(self, other):
        return self._inplace(incomplete_gamma.Igamma, _tensor_arg(other, "igamma_", "other", 1))

    def igammac(self, other):
        """The regularized upper incomplete gamma function Q(self, other) = 1 - P(self, other)."""
        return incomplete_gamma.Igammac.apply(self, _tensor_arg(other, "igammac", "other", 1))

    def igammac_(self, other):
        return self._inplace(incomplete_gamma.Igammac, _tensor_arg(other, "igammac_", "other", 1))

    # ---- special functions of one tensor ---------------------------------------------------------------------------
    def erfinv(self):
        """The inverse of erf: the y with erf(y) = self, elementwise (inf at 1, nan beyond)."""
        return math.Erfinv.apply(self)

    def erfinv_(self):
        return self._inplace(math.Erfinv)

    def i0(self):
        """The modified Bessel function of the first kind of order 0."""
        return bessel.I0.apply(self)

    def i0_(self):
        return self._inplace(bessel.I0)

    def mvlgamma(self, p):
        """The log of the multivariate gamma function of dimension p."""
        return special.Mvlgamma.apply(self, p)

    def mvlgamma_(self, p):
        return self._inplace(special.Mvlgamma, p)

    def lgamma(self):
        """log |gamma(self)|, the log of the gamma function's magnitude."""
        return special.Lgamma.apply(self)

    def lgamma_(self):
        return self._inplace(special.Lgamma)

    def digamma(self):
        """The derivative of lgamma, elementwise."""
        return special.Digamma.apply(self)

    def digamma_(self):
        return self._inplace(special.Digamma)

    def polygamma(self, n):
        """The n-th derivative of digamma, elementwise (n = 0 is digamma)."""
        return special.Polygamma.apply(self, _polygamma_order(n))

    def polygamma_(self, n):
        return self._inplace(special.PolygammaInPlace, _polygamma_order(n))

    def logit(self, eps=None):
        """log(p / (1 - p)), the inverse of sigmoid; with `eps`, p is first clamped to [eps, 1 - eps]."""
        return special.Logit.apply(self, eps)

    def logit_(self, eps=None):
        return self._inplace(special.Logit, eps)

    def sinc(self):
        """sin(pi x) / (pi x), with 1 at x = 0 (the normalized sinc)."""
        return special.Sinc.apply(self)

    def sinc_(self):
        return self._inplace(special.Sinc)

    def deg2rad(self):
        return special.Deg2Rad.apply(self)

    def deg2rad_(self):
        return self._inplace(special.Deg2Rad)

    def rad2deg(self):
        return special.Rad2Deg.apply(self)

    def rad2deg_(self):
        return self._inplace(special.Rad2Deg)

    def nan_to_num(self, nan=0.0, posinf=None, neginf=None):
        """self with nan replaced by `nan`, inf by `posinf` and -inf by `neginf` (the dtype's largest and lowest
        numbers by default)."""
        return special.NanToNum.apply(self, 0.0 if nan is None else nan, posinf, neginf)

    def nan_to_num_(self, nan=0.0, posinf=None, neginf=None):
        return self._inplace(special.NanToNum, 0.0 if nan is None else nan, posinf, neginf)

    def signbit(self):
        """True where the sign bit is set: negative numbers, -0.0 and -nan; never recorded."""
        a = self._data
        return like(TensorBase._make(np.signbit(a) if a.dtype.kind == "f" else np.asarray(a < 0)), self)


def _by_operand(t, other, tensor_op, number_op, in_place=False):
    """Apply the op for a tensor `other` or the one for a Python number (PyTorch's Tensor and Scalar overloads,
    whose nodes differ: CopysignBackward0 and CopysignBackward1), out of place or in place."""
    op, other = (number_op, other) if is_number(other) else (tensor_op, as_operand(other, t))
    return t._inplace(op, other) if in_place else op.apply(t, other)


def _polygamma_order(n):
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise TypeError(f"polygamma(): argument 'n' (position 1) must be int, not {type(n).__name__}")
    if n < 0:
        raise RuntimeError("polygamma(n, x) does not support negative n.")
    return int(n)
