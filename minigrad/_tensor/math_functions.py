"""Module-level spellings (`torch.sin(x)`, `torch.std(x, 0)`, ...) of the math methods added for the tutorials'
PyTorch: each is the Tensor method itself, so `torch.sin(x)` is `x.sin()`."""
from .tensor import Tensor
from .pointwise import _tensor_arg

__all__ = ["sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "asinh", "acosh", "atanh",
           "arcsin", "arccos", "arctan", "arctan2", "arcsinh", "arccosh", "arctanh",
           "log2", "log10", "log1p", "expm1", "exp2", "erf", "erfc", "rsqrt", "reciprocal", "square",
           "sign", "floor", "ceil", "trunc", "fix", "round", "frac", "maximum", "minimum",
           "std", "var", "prod", "cumsum", "cumprod", "logsumexp", "amax", "amin", "all", "any", "topk",
           "isnan", "isinf", "isfinite", "isposinf", "isneginf"]

sin, cos, tan, asin, acos, atan = Tensor.sin, Tensor.cos, Tensor.tan, Tensor.asin, Tensor.acos, Tensor.atan
sinh, cosh, asinh, acosh, atanh = Tensor.sinh, Tensor.cosh, Tensor.asinh, Tensor.acosh, Tensor.atanh
arcsin, arccos, arctan, arcsinh, arccosh, arctanh = asin, acos, atan, asinh, acosh, atanh
log2, log10, log1p, expm1, exp2 = Tensor.log2, Tensor.log10, Tensor.log1p, Tensor.expm1, Tensor.exp2
erf, erfc, rsqrt, reciprocal, square = Tensor.erf, Tensor.erfc, Tensor.rsqrt, Tensor.reciprocal, Tensor.square
sign, floor, ceil, trunc, frac = Tensor.sign, Tensor.floor, Tensor.ceil, Tensor.trunc, Tensor.frac
fix, round = Tensor.trunc, Tensor.round  # noqa: A001 - torch.round
std, var, prod, cumsum, cumprod = Tensor.std, Tensor.var, Tensor.prod, Tensor.cumsum, Tensor.cumprod
logsumexp, amax, amin, topk = Tensor.logsumexp, Tensor.amax, Tensor.amin, Tensor.topk
all, any = Tensor.all, Tensor.any  # noqa: A001 - torch.all, torch.any
isnan, isinf, isfinite, isposinf, isneginf = (Tensor.isnan, Tensor.isinf, Tensor.isfinite, Tensor.isposinf,
                                              Tensor.isneginf)


def atan2(input, other):
    """The angle of the point (other, input), elementwise, in (-pi, pi]. Mirrors `torch.atan2`."""
    return _tensor_arg(input, "atan2", "input", 1).atan2(_tensor_arg(other, "atan2", "other", 2))


def maximum(input, other):
    """The larger of two tensors, elementwise (nan if either is nan). Mirrors `torch.maximum`."""
    return _tensor_arg(input, "maximum", "input", 1).maximum(_tensor_arg(other, "maximum", "other", 2))


def minimum(input, other):
    """The smaller of two tensors, elementwise (nan if either is nan). Mirrors `torch.minimum`."""
    return _tensor_arg(input, "minimum", "input", 1).minimum(_tensor_arg(other, "minimum", "other", 2))


arctan2 = atan2
