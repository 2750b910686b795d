"""Module-level spellings (`torch.sin(x)`, `torch.std(x, 0)`, ...) of the math methods added for the tutorials'
PyTorch: each is the Tensor method itself, so `torch.sin(x)` is `x.sin()`."""
from ..ops import statistics, unary
from ..ops.join import BlockDiag
from .tensor import Tensor
from .pointwise import _tensor_arg
from .reductions import _var_args

__all__ = ["sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "asinh", "acosh", "atanh",
           "arcsin", "arccos", "arctan", "arctan2", "arcsinh", "arccosh", "arctanh",
           "log2", "log10", "log1p", "expm1", "exp2", "erf", "erfc", "rsqrt", "reciprocal", "square",
           "sign", "floor", "ceil", "trunc", "fix", "round", "frac", "maximum", "minimum",
           "std", "var", "prod", "cumsum", "cumprod", "logsumexp", "amax", "amin", "all", "any", "topk",
           "isnan", "isinf", "isfinite", "isposinf", "isneginf",
           "addcmul", "addcdiv", "lerp", "clamp_min", "clamp_max", "absolute", "negative",
           "logical_and", "logical_or", "logical_xor", "logical_not",
           "var_mean", "std_mean", "argsort", "cummax", "cummin", "logcumsumexp", "histc", "histogram",
           "abs_", "acos_", "acosh_", "arccos_", "arccosh_", "arcsin_", "arcsinh_", "arctan_", "arctanh_", "asin_",
           "asinh_", "atan_", "atanh_", "ceil_", "clamp_", "clamp_max_", "clamp_min_", "clip_", "cos_", "cosh_",
           "detach_", "erf_", "erfc_", "exp2_", "exp_", "expm1_", "fill_", "fix_", "floor_", "frac_", "log10_",
           "log1p_", "log2_", "log_", "neg_", "negative_", "reciprocal_", "relu_", "round_", "rsqrt_", "sigmoid_",
           "sin_", "sinh_", "sqrt_", "square_", "tan_", "tanh_", "trunc_", "zero_", "vdot", "dist", "renorm", "fill", "block_diag", "inverse", "det", "slogdet", "logdet", "matrix_power"]

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


addcmul, addcdiv, lerp, clamp_min, clamp_max = (Tensor.addcmul, Tensor.addcdiv, Tensor.lerp, Tensor.clamp_min,
                                                 Tensor.clamp_max)
absolute, negative = Tensor.absolute, Tensor.negative
logical_and, logical_or, logical_xor, logical_not = (Tensor.logical_and, Tensor.logical_or, Tensor.logical_xor,
                                                     Tensor.logical_not)
argsort, cummax, cummin, logcumsumexp = Tensor.argsort, Tensor.cummax, Tensor.cummin, Tensor.logcumsumexp
histc, histogram = Tensor.histc, Tensor.histogram

# the in-place functions: `torch.sin_(x)` is `x.sin_()`
abs_, acos_, acosh_, asin_, asinh_, atan_, atanh_ = (Tensor.abs_, Tensor.acos_, Tensor.acosh_, Tensor.asin_,
                                                     Tensor.asinh_, Tensor.atan_, Tensor.atanh_)
arccos_, arccosh_, arcsin_, arcsinh_, arctan_, arctanh_ = acos_, acosh_, asin_, asinh_, atan_, atanh_
ceil_, floor_, frac_, round_, trunc_, fix_ = (Tensor.ceil_, Tensor.floor_, Tensor.frac_, Tensor.round_,
                                              Tensor.trunc_, Tensor.trunc_)
clamp_, clamp_max_, clamp_min_, clip_ = Tensor.clamp_, Tensor.clamp_max_, Tensor.clamp_min_, Tensor.clip_
cos_, cosh_, sin_, sinh_, tan_, tanh_ = Tensor.cos_, Tensor.cosh_, Tensor.sin_, Tensor.sinh_, Tensor.tan_, Tensor.tanh_
erf_, erfc_, exp_, exp2_, expm1_ = Tensor.erf_, Tensor.erfc_, Tensor.exp_, Tensor.exp2_, Tensor.expm1_
log_, log10_, log1p_, log2_ = Tensor.log_, Tensor.log10_, Tensor.log1p_, Tensor.log2_
neg_, negative_, reciprocal_, rsqrt_, sqrt_, square_ = (Tensor.neg_, Tensor.neg_, Tensor.reciprocal_,
                                                        Tensor.rsqrt_, Tensor.sqrt_, Tensor.square_)
relu_, sigmoid_ = Tensor.relu_, Tensor.sigmoid_
detach_, fill_, zero_ = Tensor.detach_, Tensor.fill_, Tensor.zero_


def var_mean(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    """(var, mean) over `dim` in one pass and one node, with `var`'s arguments. Mirrors `torch.var_mean`."""
    dim, correction, keepdim = _var_args("var_mean", dim, unbiased, keepdim, correction)
    return statistics.VarMean.apply(input, dim, 1 if correction is None else correction, keepdim)


def std_mean(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    """(std, mean) over `dim` in one node, with `std`'s arguments. Mirrors `torch.std_mean`."""
    dim, correction, keepdim = _var_args("std_mean", dim, unbiased, keepdim, correction)
    return statistics.StdMean.apply(input, dim, 1 if correction is None else correction, keepdim)


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


# ---- vdot, dist, renorm, fill, block_diag ----------------------------------------------------------------------------
vdot, dist, renorm = Tensor.vdot, Tensor.dist, Tensor.renorm
inverse, det, slogdet, logdet, matrix_power = Tensor.inverse, Tensor.det, Tensor.slogdet, Tensor.logdet, Tensor.matrix_power


def fill(input, value):
    """A tensor shaped like `input`, every element `value` (a number or a 0-d tensor). Mirrors `torch.fill`."""
    if isinstance(value, Tensor):
        if value.dim() != 0:
            raise RuntimeError(f"fill_ only supports 0-dimension value tensor but got tensor with {value.dim()} "
                               "dimensions.")
        return unary.FillTensor.apply(input, value)
    return unary.FillNumber.apply(input, value)


def block_diag(*tensors):
    """The matrices on the diagonal of a zero matrix (0-d and 1-d tensors count as one row). Mirrors
    `torch.block_diag`."""
    return BlockDiag.apply(*tensors)
