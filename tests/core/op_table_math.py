"""Op-table rows for the math ops added for the tutorials' PyTorch (issue 11). Format: see op_table.py."""
import math

import numpy as np

from .op_table_base import A, B, C, Arg, Case, I, Ix, N, P  # noqa: F401

UNIT = [[0.1, -0.5, 0.7], [0.3, -0.9, 0.05]]         # inside (-1, 1), for asin, acos, atanh


def K(values):  # noqa: N802 - like C, constant values, but an input that does not require grad
    return Arg(np.shape(values), "constant", values=values, const=True)


def _erf(x):
    return np.vectorize(math.erf, otypes=[x.dtype])(x) if x.size else x.copy()


def _erfc(x):
    return np.vectorize(math.erfc, otypes=[x.dtype])(x)


def _round(x, d):
    f = x.dtype.type(10.0 ** abs(d))
    return np.rint(x * f) / f if d >= 0 else np.rint(x / f) * f


CASES = [
    # ---- trigonometric and hyperbolic ------------------------------------------------------------------------
    Case("sin", lambda L, x: x.sin(), (N(2, 3),), np.sin),
    Case("torch_sin", lambda L, x: L.sin(x), (N(4),), np.sin),
    Case("sin_int", lambda L, i: i.sin(), (I(4),), np.sin, dtype="float32", grad=False),
    Case("sin_bool", lambda L, b: L.sin(b), (B(4),), lambda b: np.sin(b.astype("float32")), grad=False),
    Case("sin_0d", lambda L, x: x.sin(), (N(),), np.sin),
    Case("sin_empty", lambda L, x: x.sin(), (N(0, 3),), np.sin),
    Case("sin_", lambda L, x: x.clone().sin_(), (N(2, 3),), np.sin),
    Case("cos", lambda L, x: x.cos(), (N(2, 3),), np.cos),
    Case("cos_", lambda L, x: x.clone().cos_(), (N(3),), np.cos),
    Case("tan", lambda L, x: L.tan(x), (A(2, 3),), np.tan),
    Case("tan_", lambda L, x: x.clone().tan_(), (A(3),), np.tan),
    Case("asin", lambda L, x: x.asin(), (C(UNIT),), np.arcsin),
    Case("arcsin", lambda L, x: L.arcsin(x), (C(UNIT),), np.arcsin),
    Case("asin_", lambda L, x: x.clone().asin_(), (C(UNIT),), np.arcsin),
    Case("asin_outside", lambda L, x: x.asin(), (K([2.0, -1.5]),), lambda x: np.full(2, np.nan, x.dtype),
         grad=False),
    Case("acos", lambda L, x: L.acos(x), (C(UNIT),), np.arccos),
    Case("acos_", lambda L, x: x.clone().acos_(), (C(UNIT),), np.arccos),
    Case("atan", lambda L, x: x.atan(), (N(2, 3),), np.arctan),
    Case("atan_", lambda L, x: x.clone().atan_(), (N(3),), np.arctan),
    Case("atan2", lambda L, y, x: y.atan2(x), (N(2, 3), A(2, 3)), np.arctan2),
    Case("atan2_broadcast", lambda L, y, x: L.atan2(y, x), (N(2, 1), A(3)), np.arctan2),
    Case("atan2_int_float", lambda L, i, x: L.atan2(i, x), (I(3), A(3)), np.arctan2, dtype="float32"),
    Case("atan2_int", lambda L, i, j: L.atan2(i, j), (I(3), I(3)), np.arctan2, dtype="float32", grad=False),
    Case("arctan2", lambda L, y, x: L.arctan2(y, x), (N(3), A(3)), np.arctan2),
    Case("atan2_", lambda L, y, x: y.clone().atan2_(x), (N(2, 3), A(3)), np.arctan2),
    Case("sinh", lambda L, x: x.sinh(), (N(2, 3),), np.sinh),
    Case("sinh_", lambda L, x: x.clone().sinh_(), (N(3),), np.sinh),
    Case("cosh", lambda L, x: L.cosh(x), (N(2, 3),), np.cosh),
    Case("cosh_", lambda L, x: x.clone().cosh_(), (N(3),), np.cosh),
    Case("asinh", lambda L, x: x.asinh(), (N(2, 3),), np.arcsinh),
    # torch records asinh_, acosh_ and atanh_ as nodes without a derivative (AsinhBackward1, ...); minigrad
    # differentiates them (AsinhBackward0, ...), so these rows compare values only
    Case("asinh_", lambda L, x: x.clone().asinh_(), (N(3, const=True),), np.arcsinh, grad=False),
    Case("acosh", lambda L, x: L.acosh(x), (C([[1.5, 2.0, 3.5], [1.1, 4.0, 1.25]]),), np.arccosh),
    Case("acosh_", lambda L, x: x.acosh_(), (K([1.5, 2.0, 3.5]),), np.arccosh, grad=False),
    Case("atanh", lambda L, x: x.atanh(), (C(UNIT),), np.arctanh),
    Case("atanh_", lambda L, x: x.atanh_(), (K(UNIT),), np.arctanh, grad=False),
    # ---- logarithms, exponentials, erf, roots ----------------------------------------------------------------
    Case("log2", lambda L, x: x.log2(), (P(2, 3),), np.log2),
    Case("log2_int", lambda L, i: L.log2(i.abs() + 1), (I(4),), lambda i: np.log2(np.abs(i) + 1), dtype="float32",
         grad=False),
    Case("log2_", lambda L, x: x.clone().log2_(), (P(3),), np.log2),
    Case("log10", lambda L, x: L.log10(x), (P(2, 3),), np.log10),
    Case("log10_", lambda L, x: x.clone().log10_(), (P(3),), np.log10),
    Case("log1p", lambda L, x: x.log1p(), (P(2, 3),), np.log1p),
    Case("log1p_small", lambda L, x: L.log1p(x * 1e-4), (N(4),), lambda x: np.log1p(x * np.float32(1e-4))),
    Case("log1p_", lambda L, x: x.clone().log1p_(), (P(3),), np.log1p),
    Case("expm1", lambda L, x: x.expm1(), (N(2, 3),), np.expm1),
    Case("expm1_", lambda L, x: x.clone().expm1_(), (N(3),), np.expm1),
    Case("exp2", lambda L, x: L.exp2(x), (N(2, 3),), np.exp2),
    Case("exp2_int", lambda L, i: i.exp2(), (I(4),), np.exp2, dtype="float32", grad=False),
    Case("exp2_", lambda L, x: x.clone().exp2_(), (N(3),), np.exp2),
    Case("erf", lambda L, x: x.erf(), (N(2, 3),), _erf),
    Case("torch_erf", lambda L, x: L.erf(x), (C([0.0, 0.5, -1.0, 2.5, -4.0, 6.0]),), _erf),
    Case("erf_int", lambda L, i: i.erf(), (I(4),), lambda i: _erf(i.astype("float32")), grad=False),
    Case("erf_0d", lambda L, x: x.erf(), (N(),), _erf),
    Case("erf_empty", lambda L, x: x.erf(), (N(0, 2),), _erf),
    Case("erf_", lambda L, x: x.clone().erf_(), (N(3),), _erf),
    Case("erfc", lambda L, x: L.erfc(x), (N(2, 3),), _erfc),
    Case("erfc_tail", lambda L, x: x.erfc(), (C([3.0, 5.0, 8.0, -2.0]),), _erfc),
    Case("erfc_", lambda L, x: x.clone().erfc_(), (N(3),), _erfc),
    Case("rsqrt", lambda L, x: x.rsqrt(), (P(2, 3),), lambda x: 1 / np.sqrt(x)),
    Case("rsqrt_", lambda L, x: x.clone().rsqrt_(), (P(3),), lambda x: 1 / np.sqrt(x)),
    Case("reciprocal", lambda L, x: x.reciprocal(), (A(2, 3),), lambda x: 1 / x),
    Case("torch_reciprocal", lambda L, x: L.reciprocal(x), (A(4),), lambda x: 1 / x),
    Case("reciprocal_int", lambda L, i: i.reciprocal(), (C([1, -2, 4], "int64"),), lambda i: 1 / i, dtype="float32",
         grad=False),
    Case("reciprocal_", lambda L, x: x.clone().reciprocal_(), (A(3),), lambda x: 1 / x),
    Case("square", lambda L, x: x.square(), (N(2, 3),), np.square),
    Case("torch_square", lambda L, x: L.square(x), (N(4),), np.square),
    Case("square_int", lambda L, i: i.square(), (I(4),), np.square, grad=False),
    Case("square_bool", lambda L, b: L.square(b), (B(4),), lambda b: b.astype("int64"), grad=False),
    Case("square_", lambda L, x: x.clone().square_(), (N(3),), np.square),
    # ---- step functions: a zero gradient (frac's is 1) ------------------------------------------------------
    Case("sign", lambda L, x: x.sign(), (A(2, 3),), np.sign),
    Case("sign_zero_nan", lambda L, x: L.sign(x), (C([0.0, -0.0, float("nan"), -2.0]),),
         lambda x: np.array([0.0, 0.0, 0.0, -1.0], x.dtype), gradcheck=False),
    Case("sign_int", lambda L, i: i.sign(), (I(5),), np.sign, grad=False),
    Case("sign_bool", lambda L, b: b.sign(), (B(4),), lambda b: b, grad=False),
    Case("sign_", lambda L, x: x.clone().sign_(), (A(3),), np.sign),
    Case("floor", lambda L, x: x.floor(), (N(2, 3),), np.floor),
    Case("floor_int", lambda L, i: L.floor(i), (I(4),), lambda i: i, grad=False),
    Case("floor_", lambda L, x: x.clone().floor_(), (N(3),), np.floor),
    Case("ceil", lambda L, x: L.ceil(x), (N(2, 3),), np.ceil),
    Case("ceil_", lambda L, x: x.clone().ceil_(), (N(3),), np.ceil),
    Case("trunc", lambda L, x: x.trunc(), (N(2, 3),), np.trunc),
    Case("fix", lambda L, x: L.fix(x), (N(3),), np.trunc),
    Case("trunc_", lambda L, x: x.clone().trunc_(), (N(3),), np.trunc),
    Case("round", lambda L, x: (x * 3).round(), (N(2, 3),), lambda x: np.rint(x * 3)),
    Case("round_halves", lambda L, x: L.round(x), (C([-0.5, 0.5, 1.5, 2.5, -2.5]),), np.rint, gradcheck=False),
    Case("round_int", lambda L, i: i.round(), (I(4),), lambda i: i, grad=False),
    Case("round_decimals", lambda L, x: x.round(decimals=2), (N(2, 3),), lambda x: _round(x, 2)),
    Case("torch_round_decimals", lambda L, x: L.round(x, decimals=1), (C([1.25, -0.35, 2.05]),),
         lambda x: _round(x, 1), gradcheck=False),
    Case("round_decimals_negative", lambda L, x: (x * 1000).round(decimals=-2), (N(4),),
         lambda x: _round(x * 1000, -2)),
    Case("round_decimals_0", lambda L, x: x.round(decimals=0), (N(3),), np.rint),
    Case("round_", lambda L, x: x.clone().round_(), (N(3),), np.rint),
    Case("round_decimals_", lambda L, x: x.clone().round_(decimals=1), (N(3),), lambda x: _round(x, 1)),
    Case("frac", lambda L, x: (x * 3).frac(), (N(2, 3),), lambda x: x * 3 - np.trunc(x * 3)),
    Case("frac_", lambda L, x: x.clone().frac_(), (N(3),), lambda x: x - np.trunc(x)),
    # ---- elementwise maximum and minimum ---------------------------------------------------------------------
    Case("maximum", lambda L, x, y: L.maximum(x, y), (N(2, 3), N(2, 3)), np.maximum),
    Case("maximum_method_broadcast", lambda L, x, y: x.maximum(y), (N(2, 3), N(3)), np.maximum),
    Case("maximum_ties", lambda L, x, y: L.maximum(x, y), (C([1.0, 2.0, 2.0]), C([2.0, 2.0, 1.0])), np.maximum,
         gradcheck=False),
    Case("maximum_nan", lambda L, x, y: L.maximum(x, y), (C([float("nan"), 1.0]), C([0.0, float("nan")])),
         np.maximum, gradcheck=False),
    Case("maximum_int_float", lambda L, i, x: L.maximum(i, x), (I(3), N(3)), np.maximum, dtype="float32"),
    Case("maximum_0d_f64", lambda L, x, y: L.maximum(x, y), (N(3, dtype="float32"), N(dtype="float64")),
         np.maximum, dtype="float32"),
    Case("maximum_int", lambda L, i, j: i.maximum(j), (I(4), I(4)), np.maximum, grad=False),
    Case("maximum_bool", lambda L, a, b: L.maximum(a, b), (B(4), B(4)), np.maximum, grad=False),
    Case("minimum", lambda L, x, y: L.minimum(x, y), (N(2, 3), N(2, 1)), np.minimum),
    Case("minimum_ties", lambda L, x, y: x.minimum(y), (C([1.0, 2.0, 2.0]), C([2.0, 2.0, 1.0])), np.minimum,
         gradcheck=False),
    Case("torch_clip", lambda L, x: L.clip(x, -0.5, 0.5), (A(2, 3),), lambda x: np.clip(x, -0.5, 0.5)),
    Case("clip_", lambda L, x: x.clone().clip_(max=0.5), (A(4),), lambda x: np.minimum(x, 0.5)),
]


ERRORS = [
    ("sin_int_inplace", lambda L: L.tensor([1, 2]).sin_()),
    ("reciprocal_int_inplace", lambda L: L.tensor([1, 2]).reciprocal_()),
    ("square_bool_inplace", lambda L: L.tensor([True]).square_()),
    ("atan2_int_inplace", lambda L: L.tensor([1, 2]).atan2_(L.tensor([1.0, 2.0]))),
    ("atan2_number", lambda L: L.ones(2).atan2(2.0)),
    ("torch_atan2_number", lambda L: L.atan2(L.ones(2), 2)),
    ("atan2_shapes", lambda L: L.ones(3).atan2(L.ones(2))),
    ("maximum_number", lambda L: L.maximum(L.ones(2), 2)),
    ("maximum_number_first", lambda L: L.maximum(2, L.ones(2))),
    ("minimum_method_number", lambda L: L.ones(2).minimum(2.0)),
    ("minimum_none", lambda L: L.ones(2).minimum(None)),
    ("maximum_shapes", lambda L: L.maximum(L.ones(3), L.ones(2))),
    ("floor_bool", lambda L: L.tensor([True]).floor()),
    ("ceil_bool", lambda L: L.tensor([True]).ceil()),
    ("trunc_bool", lambda L: L.tensor([True]).trunc()),
    ("round_bool", lambda L: L.tensor([True]).round()),
    ("round_decimals_int", lambda L: L.tensor([1, 2]).round(decimals=1)),
    ("frac_int", lambda L: L.tensor([1, 2]).frac()),
    ("frac_bool", lambda L: L.tensor([True]).frac()),
    ("clip_without_bounds", lambda L: L.clip(L.ones(2))),
]


def _add_reductions():
    """The reductions' rows live in op_table_math_reduce.py (one table file would pass 300 lines)."""
    from . import op_table_math_reduce
    CASES.extend(op_table_math_reduce.CASES)
    ERRORS.extend(op_table_math_reduce.ERRORS)


_add_reductions()
