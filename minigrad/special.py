"""`torch.special`: SciPy's names for the special functions, each the op minigrad already has (`expit` is
sigmoid, `gammaln` is lgamma, `psi` is digamma, `multigammaln` is mvlgamma, `gammainc` is igamma, ...), so
their graphs are PyTorch's. `ndtr`, the standard normal's CDF, is written as ATen writes it,
(1 + erf(x / sqrt 2)) / 2. PyTorch's Bessel, orthogonal-polynomial and scaled functions (`bessel_j0`,
`chebyshev_polynomial_t`, `i0e`, `erfcx`, ...) are not implemented."""
import math

from ._tensor.functions import log_softmax as _log_softmax, softmax as _softmax
from ._tensor.tensor import Tensor
from .ops import bessel
from .ops.arithmetic import AddScalar, MulScalar

__all__ = ["expit", "logit", "erf", "erfc", "erfinv", "exp2", "expm1", "log1p", "gammaln", "digamma", "psi",
           "polygamma", "multigammaln", "gammainc", "gammaincc", "i0", "i1", "log_softmax", "softmax", "logsumexp",
           "round", "sinc", "xlogy", "ndtr"]

expit, logit, erf, erfc, erfinv, exp2, expm1, log1p = (Tensor.sigmoid, Tensor.logit, Tensor.erf, Tensor.erfc,
                                                       Tensor.erfinv, Tensor.exp2, Tensor.expm1, Tensor.log1p)
gammaln, digamma, psi, multigammaln = Tensor.lgamma, Tensor.digamma, Tensor.digamma, Tensor.mvlgamma
gammainc, gammaincc, i0, logsumexp, sinc, xlogy = (Tensor.igamma, Tensor.igammac, Tensor.i0, Tensor.logsumexp,
                                                   Tensor.sinc, Tensor.xlogy)


def polygamma(n, input):
    """The n-th derivative of digamma. Mirrors `torch.special.polygamma`."""
    return input.polygamma(n)


def i1(input):
    """The modified Bessel function of the first kind of order 1. Mirrors `torch.special.i1`."""
    return bessel.I1.apply(input)


def log_softmax(input, dim, *, dtype=None):
    return _log_softmax(input, dim, dtype=dtype)


def softmax(input, dim, *, dtype=None):
    return _softmax(input, dim, dtype=dtype)


def round(input, *, decimals=0):
    """Round to `decimals` places (half to even). Mirrors `torch.special.round` (torch.round's decimals form)."""
    return input.round(decimals=decimals)


def ndtr(input):
    """The standard normal distribution's CDF, (1 + erf(x / sqrt 2)) / 2. Mirrors `torch.special.ndtr`."""
    scaled = MulScalar.apply(input if input.is_floating_point() else input.float(), math.sqrt(0.5))
    return MulScalar.apply(AddScalar.apply(scaled.erf(), 1), 0.5)
