"""The pointwise methods of `Tensor`: comparisons and elementwise math (exp, log, sin, erf, floor, maximum, ...).

Each one applies a built-in `Function` from `minigrad/ops/`; most have an in-place twin, `x.sin_()`, which
writes the result into x (see `inplace.py`). Reductions are in `reductions.py`, `+ - * / @` in `tensor.py`.
"""
import numpy as np

from ..compat.batched import like
from ..core import dtype as _dtype
from ..core.tensor import TensorBase
from ..ops import arithmetic, fused, math, rounding, trig, unary
from ..ops._common import as_operand as _as_tensor, operands
from ..ops.arithmetic import OPERANDS, TensorArithmetic


def _named_comparison(name, op):
    def compare(self, other):
        if not isinstance(other, OPERANDS):
            why = f"      didn't match because some of the arguments have invalid types: (!{_parsed_type(other)}!)\n"
            raise TypeError(f"{name}() received an invalid combination of arguments - got ({type(other).__name__}), "
                            f"but expected one of:\n * (Tensor other)\n{why} * (Number other)\n{why}")
        return self._compare(other, op)
    compare.__name__ = compare.__qualname__ = name
    return compare


def _parsed_type(value):
    """How PyTorch's argument parser shows a value that fits no signature: `list of [int, float]`, `NoneType`."""
    names = [type(v).__name__ for v in value] if isinstance(value, (list, tuple)) else ()
    if isinstance(value, list):
        return f"list of [{', '.join(names)}]"
    if isinstance(value, tuple):
        return f"tuple of ({', '.join(names)}{',' if len(names) == 1 else ''})"
    return type(value).__name__


class TensorPointwise:
    """Methods of `Tensor`: trigonometric, exponential and step functions, elementwise maximum and minimum."""

    # ---- comparisons give bool tensors and are never recorded ----------------------------------------------
    def _compare(self, other, op):
        if not isinstance(other, OPERANDS):
            return NotImplemented   # Python then answers == with False and raises its TypeError for <, as for torch
        return like(TensorBase._make(np.asarray(op(*operands(self, _as_tensor(other, self))))), self, other)

    def __lt__(self, other):
        return self._compare(other, np.less)

    def __le__(self, other):
        return self._compare(other, np.less_equal)

    def __gt__(self, other):
        return self._compare(other, np.greater)

    def __ge__(self, other):
        return self._compare(other, np.greater_equal)

    def __eq__(self, other):
        return self._compare(other, np.equal)

    def __ne__(self, other):
        return self._compare(other, np.not_equal)

    # the named methods refuse what the operators leave to Python (`x.gt(None)` is PyTorch's TypeError)
    eq, ne, lt, le, gt, ge = (_named_comparison(n, op) for n, op in (("eq", np.equal), ("ne", np.not_equal),
                              ("lt", np.less), ("le", np.less_equal), ("gt", np.greater), ("ge", np.greater_equal)))

    # ---- logic: nonzero counts as True, results are bool, never recorded --------------------------------------
    def logical_and(self, other):
        return self._compare(_tensor_arg(other, "logical_and", "other", 1), np.logical_and)

    def logical_or(self, other):
        return self._compare(_tensor_arg(other, "logical_or", "other", 1), np.logical_or)

    def logical_xor(self, other):
        return self._compare(_tensor_arg(other, "logical_xor", "other", 1), np.logical_xor)

    def logical_not(self):
        return like(TensorBase._make(np.logical_not(self._data)), self)

    # ---- tests of each value: bool tensors, never recorded (an integer tensor is finite everywhere) -------------
    def _test(self, op):
        return like(TensorBase._make(np.asarray(op(self._data))), self)

    def isnan(self):
        return self._test(np.isnan)

    def isinf(self):
        return self._test(np.isinf)

    def isfinite(self):
        return self._test(np.isfinite)

    def isposinf(self):
        return self._test(np.isposinf) if self._data.dtype.kind == "f" else self._test(np.zeros_like).bool()

    def isneginf(self):
        return self._test(np.isneginf) if self._data.dtype.kind == "f" else self._test(np.zeros_like).bool()

    # ---- elementwise functions -----------------------------------------------------------------------------
    def exp(self):
        return unary.Exp.apply(self)

    def log(self):
        return unary.Log.apply(self)

    def abs(self):
        return unary.Abs.apply(self)

    def sqrt(self):
        return unary.Sqrt.apply(self)

    def clamp(self, min=None, max=None):
        return unary.Clamp.apply(self, min, max)

    clip = clamp

    def clamp_min(self, min):
        return unary.ClampMin.apply(self, min)

    def clamp_max(self, max):
        return unary.ClampMax.apply(self, max)

    def relu(self):
        return unary.Relu.apply(self)

    def sigmoid(self):
        return unary.Sigmoid.apply(self)

    def tanh(self):
        return unary.Tanh.apply(self)

    # ---- trigonometric and hyperbolic ------------------------------------------------------------------------
    def sin(self):
        return trig.Sin.apply(self)

    def cos(self):
        return trig.Cos.apply(self)

    def tan(self):
        return trig.Tan.apply(self)

    def asin(self):
        return trig.Asin.apply(self)

    def acos(self):
        return trig.Acos.apply(self)

    def atan(self):
        return trig.Atan.apply(self)

    def atan2(self, other):
        return trig.Atan2.apply(self, _tensor_arg(other, "atan2", "other", 1))

    def sinh(self):
        return trig.Sinh.apply(self)

    def cosh(self):
        return trig.Cosh.apply(self)

    def asinh(self):
        return trig.Asinh.apply(self)

    def acosh(self):
        return trig.Acosh.apply(self)

    def atanh(self):
        return trig.Atanh.apply(self)

    # ---- logarithms, exponentials, erf, roots --------------------------------------------------------------
    def log2(self):
        return math.Log2.apply(self)

    def log10(self):
        return math.Log10.apply(self)

    def log1p(self):
        return math.Log1p.apply(self)

    def expm1(self):
        return math.Expm1.apply(self)

    def exp2(self):
        return math.Exp2.apply(self)

    def erf(self):
        return math.Erf.apply(self)

    def erfc(self):
        return math.Erfc.apply(self)

    def rsqrt(self):
        return math.Rsqrt.apply(self)

    def reciprocal(self):
        return arithmetic.Reciprocal.apply(self)

    def square(self):
        # torch.square is pow(x, 2) (its node is PowBackward0); bools square into int64, as in PyTorch
        return (self.long() if self.dtype is _dtype.bool else self) ** 2

    # ---- step functions ------------------------------------------------------------------------------------
    def sign(self):
        return rounding.Sign.apply(self)

    def floor(self):
        return rounding.Floor.apply(self)

    def ceil(self):
        return rounding.Ceil.apply(self)

    def trunc(self):
        return rounding.Trunc.apply(self)

    def round(self, *, decimals=None):
        """Round to the nearest integer (halves to even, as PyTorch), or to `decimals` places."""
        return rounding.Round.apply(self) if decimals is None else rounding.RoundDecimals.apply(self, decimals)

    def frac(self):
        return rounding.Frac.apply(self)

    # ---- elementwise maximum and minimum of two tensors ------------------------------------------------------
    def maximum(self, other):
        return math.Maximum.apply(self, _tensor_arg(other, "maximum", "other", 1))

    def minimum(self, other):
        return math.Minimum.apply(self, _tensor_arg(other, "minimum", "other", 1))

    # ---- three tensors in one node: x + v * a * b, x + v * a / b, and the linear interpolation lerp --------
    def addcmul(self, tensor1, tensor2, *, value=1):
        return fused.Addcmul.apply(self, tensor1, tensor2, value)

    def addcdiv(self, tensor1, tensor2, *, value=1):
        return fused.Addcdiv.apply(self, tensor1, tensor2, value)

    def lerp(self, end, weight):
        """start + weight * (end - start), with `self` as start; weight a number or a tensor."""
        if isinstance(weight, TensorBase):
            return fused.LerpTensor.apply(self, end, weight)
        return fused.Lerp.apply(self, end, weight)

    def addcmul_(self, tensor1, tensor2, *, value=1):
        return self._inplace(fused.Addcmul, tensor1, tensor2, value)

    def addcdiv_(self, tensor1, tensor2, *, value=1):
        return self._inplace(fused.Addcdiv, tensor1, tensor2, value)

    def lerp_(self, end, weight):
        if isinstance(weight, TensorBase):
            return self._inplace(fused.LerpTensor, end, weight)
        return self._inplace(fused.Lerp, end, weight)

    # ---- the in-place twins: `x.sin_()` computes sin(x) and writes it into x -------------------------------
    def exp_(self):
        return self._inplace(unary.Exp)

    def log_(self):
        return self._inplace(unary.Log)

    def abs_(self):
        return self._inplace(unary.Abs)

    def sqrt_(self):
        return self._inplace(unary.Sqrt)

    def relu_(self):
        return self._inplace(unary.Relu)

    def sigmoid_(self):
        return self._inplace(unary.Sigmoid)

    def tanh_(self):
        return self._inplace(unary.Tanh)

    def neg_(self):
        return self._inplace(arithmetic.Neg)

    def pow_(self, exponent):
        if isinstance(exponent, TensorBase):
            return self._inplace(arithmetic.PowTensor, exponent)
        return self._inplace(arithmetic.Pow, exponent)

    def clamp_min_(self, min):
        return self._inplace(unary.ClampMin, min)

    def clamp_max_(self, max):
        return self._inplace(unary.ClampMax, max)

    def sin_(self):
        return self._inplace(trig.Sin)

    def cos_(self):
        return self._inplace(trig.Cos)

    def tan_(self):
        return self._inplace(trig.Tan)

    def asin_(self):
        return self._inplace(trig.Asin)

    def acos_(self):
        return self._inplace(trig.Acos)

    def atan_(self):
        return self._inplace(trig.Atan)

    def atan2_(self, other):
        return self._inplace(trig.Atan2, _tensor_arg(other, "atan2_", "other", 1))

    def sinh_(self):
        return self._inplace(trig.Sinh)

    def cosh_(self):
        return self._inplace(trig.Cosh)

    def asinh_(self):
        return self._inplace(trig.Asinh)

    def acosh_(self):
        return self._inplace(trig.Acosh)

    def atanh_(self):
        return self._inplace(trig.Atanh)

    def log2_(self):
        return self._inplace(math.Log2)

    def log10_(self):
        return self._inplace(math.Log10)

    def log1p_(self):
        return self._inplace(math.Log1p)

    def expm1_(self):
        return self._inplace(math.Expm1)

    def exp2_(self):
        return self._inplace(math.Exp2)

    def erf_(self):
        return self._inplace(math.Erf)

    def erfc_(self):
        return self._inplace(math.Erfc)

    def rsqrt_(self):
        return self._inplace(math.Rsqrt)

    def reciprocal_(self):
        return self._inplace(arithmetic.Reciprocal)

    def square_(self):
        if self.dtype is _dtype.bool:
            raise RuntimeError("result type Long can't be cast to the desired output type Bool")
        return self._inplace(arithmetic.Pow, 2)

    def sign_(self):
        return self._inplace(rounding.Sign)

    def floor_(self):
        return self._inplace(rounding.Floor)

    def ceil_(self):
        return self._inplace(rounding.Ceil)

    def trunc_(self):
        return self._inplace(rounding.Trunc)

    def round_(self, *, decimals=None):
        if decimals is None:
            return self._inplace(rounding.Round)
        return self._inplace(rounding.RoundDecimals, decimals)

    def frac_(self):
        return self._inplace(rounding.Frac)

    def clip_(self, min=None, max=None):
        return self.clamp_(min, max)

    # ---- PyTorch's other names for the same functions --------------------------------------------------------
    arcsin, arccos, arctan, arctan2, arcsinh, arccosh, arctanh = asin, acos, atan, atan2, asinh, acosh, atanh
    arcsin_, arccos_, arctan_, arctan2_, arcsinh_, arccosh_, arctanh_ = (asin_, acos_, atan_, atan2_, asinh_,
                                                                         acosh_, atanh_)
    fix, fix_ = trunc, trunc_
    absolute, absolute_, negative, negative_ = abs, abs_, TensorArithmetic.neg, neg_


def _tensor_arg(value, function, name, position):
    """Check that an argument is a tensor, with the error of PyTorch's argument parser."""
    if not isinstance(value, TensorBase):
        raise TypeError(f"{function}(): argument '{name}' (position {position}) must be Tensor, not "
                        f"{type(value).__name__}")
    return value
