"""Module-level spellings of the methods in elementwise.py: `torch.logaddexp(x, y)` is `x.logaddexp(y)`,
`torch.polygamma(n, x)` is `x.polygamma(n)`, and so on, with the in-place `torch.sinc_(x)` ... and
`torch.special`'s spellings that live in `torch` itself."""
from ..ops import math
from ..ops._common import is_number
from .alias_functions import invalid_combination, method_function, tensor_and_operand
from .pointwise import _tensor_arg
from .tensor import Tensor

__all__ = ["logaddexp", "logaddexp2", "hypot", "copysign", "fmod", "xlogy", "xlogy_", "float_power", "heaviside",
           "lgamma", "digamma", "polygamma", "logit", "logit_", "sinc", "sinc_", "deg2rad", "deg2rad_", "rad2deg",
           "rad2deg_", "nan_to_num", "nan_to_num_", "signbit", "fmax", "fmin", "ldexp", "ldexp_", "nextafter",
           "frexp", "igamma", "igammac", "erfinv", "i0", "i0_", "mvlgamma"]


def _binary(name, other_name="other"):
    """`torch.<name>(input, other)` for two tensors (`torch.hypot(x, 2)` is PyTorch's TypeError)."""
    method = getattr(Tensor, name)

    def function(input, other):
        return method(_tensor_arg(input, name, "input", 1), _tensor_arg(other, name, other_name, 2))
    function.__name__ = function.__qualname__ = name
    function.__doc__ = f"`input.{name}({other_name})`, elementwise. Mirrors `torch.{name}`."
    return function


logaddexp, logaddexp2, hypot = _binary("logaddexp"), _binary("logaddexp2"), _binary("hypot")
heaviside = _binary("heaviside", "values")
fmax, fmin, ldexp, ldexp_, nextafter = (_binary(n) for n in ("fmax", "fmin", "ldexp", "ldexp_", "nextafter"))
igamma, igammac = _binary("igamma"), _binary("igammac")
frexp, erfinv, i0, i0_ = (method_function(n) for n in ("frexp", "erfinv", "i0", "i0_"))
copysign, fmod = tensor_and_operand("copysign", Tensor.copysign), tensor_and_operand("fmod", Tensor.fmod)
lgamma, digamma, logit, sinc, deg2rad, rad2deg, nan_to_num, signbit = (
    method_function(n) for n in ("lgamma", "digamma", "logit", "sinc", "deg2rad", "rad2deg", "nan_to_num", "signbit"))
logit_, sinc_, deg2rad_, rad2deg_, nan_to_num_, xlogy_ = (
    method_function(n) for n in ("logit_", "sinc_", "deg2rad_", "rad2deg_", "nan_to_num_", "xlogy_"))


def xlogy(input, other):
    """input * log(other), 0 where input is 0; either may be a number. Mirrors `torch.xlogy`."""
    if isinstance(input, Tensor) and (isinstance(other, Tensor) or is_number(other)):
        return input.xlogy(other)
    if is_number(input) and isinstance(other, Tensor):
        return math.XlogySelfScalar.apply(input, other)
    raise invalid_combination("xlogy", (input, other), ("(Tensor input, Tensor other, *, Tensor out = None)",
                                                        "(Number self, Tensor other, *, Tensor out = None)",
                                                        "(Tensor input, Number other, *, Tensor out = None)"))


def float_power(input, exponent):
    """input ** exponent in float64; either may be a number. Mirrors `torch.float_power`."""
    if isinstance(input, Tensor) and (isinstance(exponent, Tensor) or is_number(exponent)):
        return input.float_power(exponent)
    if is_number(input) and isinstance(exponent, Tensor):
        return input ** exponent.double()
    raise invalid_combination("float_power", (input, exponent),
                              ("(Tensor input, Tensor exponent, *, Tensor out = None)",
                               "(Number self, Tensor exponent, *, Tensor out = None)",
                               "(Tensor input, Number exponent, *, Tensor out = None)"))


def polygamma(n, input):
    """The n-th derivative of digamma at each element of `input`. Mirrors `torch.polygamma`."""
    return _tensor_arg(input, "polygamma", "input", 2).polygamma(n)


def mvlgamma(input, p):
    """The log of the multivariate gamma function of dimension p, elementwise. Mirrors `torch.mvlgamma`."""
    return _tensor_arg(input, "mvlgamma", "input", 1).mvlgamma(p)
