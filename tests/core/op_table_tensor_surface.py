"""Op-table rows for the smaller parts of torch.Tensor added in issue 26: the complex-number API on real tensors
(angle, conj_physical_, mT, mH, H, adjoint), the in-place comparisons and shape changes (gt_, eq_, t_,
squeeze_, ...), the float-layout and special functions (fmax, fmin, ldexp, nextafter, frexp, erfinv, i0,
mvlgamma, igamma, igammac) and the reductions nansum, nanmean, aminmax, kthvalue and mode. Format: see
op_table.py. References are numpy's (mpmath's for the special functions), never minigrad's."""

import mpmath
import numpy as np

from .op_table_base import C, Case, I, N, P
from .op_table_math import UNIT, K

CASES = []
ERRORS = []


def _mp(fn):
    """An elementwise reference of one or two arrays from an mpmath function, in the first float input's dtype."""
    def ref(*arrays):
        dtype = next((a.dtype for a in arrays if a.dtype.kind == "f"), np.dtype("float32"))
        arrays = np.broadcast_arrays(*arrays)
        values = [float(fn(*(float(v) for v in vs))) for vs in zip(*(a.ravel() for a in arrays))]
        return np.array(values, dtype).reshape(arrays[0].shape)
    return ref


_erfinv = _mp(mpmath.erfinv)
_i0 = _mp(lambda v: mpmath.besseli(0, v))
_igamma = _mp(lambda a, x: mpmath.gammainc(a, 0, x, regularized=True))
_igammac = _mp(lambda a, x: mpmath.gammainc(a, x, mpmath.inf, regularized=True))


def _mvlgamma(p):
    return _mp(lambda v: sum(mpmath.loggamma(v - j / 2) for j in range(p)) + p * (p - 1) / 4 * mpmath.log(mpmath.pi))


def _swap(x):
    return np.swapaxes(x, -1, -2)


def _fmax(x, y):
    return np.where(np.isnan(y) | (x >= y), x, y)


def _fmin(x, y):
    return np.where(np.isnan(y) | (x <= y), x, y)


def _kth(x, k, dim, keepdim=False):
    order = np.argsort(x, axis=dim, kind="stable")
    pick = np.take(order, [k - 1], axis=dim)
    values = np.take_along_axis(x, pick, dim)
    return (values, pick) if keepdim else (values.squeeze(dim), pick.squeeze(dim))


def _mode_rows(x):
    values, indices = [], []
    for row in x:
        distinct, counts = np.unique(row, return_counts=True)
        value = distinct[np.argmax(counts)]
        values.append(value)
        indices.append(np.flatnonzero(row == value)[-1])
    return np.array(values, x.dtype), np.array(indices)


NANS = [[1.0, float("nan"), -2.0], [float("nan"), 0.5, 3.0]]
REPEATS = [[2.0, -1.0, 2.0, 0.5], [0.25, 0.25, 3.0, 3.0]]
ROWS_WITH_TIES = [[3.0, 1.0, 3.0, 1.0, 2.0], [0.5, 0.5, 0.5, -1.0, 2.0]]

CASES += [
    # ---- the complex-number API on real tensors --------------------------------------------------------------
    Case("angle", lambda L, x: L.angle(x), (C([[-1.0, 0.5, 2.0], [-0.3, 1.5, -2.0]]),),
         lambda x: np.where(x < 0, np.pi, 0).astype(x.dtype)),
    Case("angle_int", lambda L, i: i.angle(), (I(5),), lambda i: np.where(i < 0, np.pi, 0), dtype="float32",
         grad=False),
    Case("conj_physical_", lambda L, x: (x * 1).conj_physical_(), (N(2, 3),), lambda x: x * 1),
    Case("mT", lambda L, x: x.mT, (N(2, 3, 4),), _swap),
    Case("mH", lambda L, x: x.mH, (N(3, 2),), _swap),
    Case("H", lambda L, x: x.H, (N(3, 2),), _swap),
    Case("adjoint", lambda L, x: L.adjoint(x), (N(2, 2, 3),), _swap),
]

_COMPARE = {"eq": np.equal, "ne": np.not_equal, "gt": np.greater, "ge": np.greater_equal, "lt": np.less,
            "le": np.less_equal}
for _name, _np in _COMPARE.items():
    CASES += [
        # values equal to the other side, where the numerical derivative of a step jumps: no gradcheck
        Case(f"{_name}__scalar", lambda L, x, n=_name: getattr(x * 1, n + "_")(0.5),
             (C([[0.5, -1.0, 2.0], [0.25, 3.0, 0.5]]),), lambda x, f=_np: f(x, 0.5).astype(x.dtype), gradcheck=False),
        Case(f"{_name}__tensor", lambda L, x, y, n=_name: getattr(x * 1, n + "_")(y),
             (C([[0.5, -1.0, 2.0], [0.25, 3.0, 0.5]]), C([0.5, 3.0, 1.0])), lambda x, y, f=_np: f(x, y).astype(x.dtype),
             gradcheck=False),
        Case(f"{_name}__random", lambda L, x, y, n=_name: getattr(x * 1, n + "_")(y), (N(2, 3), N(3)),
             lambda x, y, f=_np: f(x, y).astype(x.dtype)),
    ]

CASES += [
    Case("gt__int", lambda L, i: i.clone().gt_(0), (I(2, 3),), lambda i: (i > 0).astype(i.dtype), grad=False),
    # ---- shape changes in place ----------------------------------------------------------------------------------
    Case("t_", lambda L, x: (x * 1).t_(), (N(2, 3),), lambda x: x.T),
    Case("transpose_", lambda L, x: (x * 1).transpose_(0, 2), (N(2, 3, 4),), lambda x: np.swapaxes(x, 0, 2)),
    Case("swapdims_", lambda L, x: (x * 1).swapdims_(-1, 0), (N(2, 3),), lambda x: x.T),
    Case("squeeze_", lambda L, x: (x * 1).squeeze_(), (N(2, 1, 3, 1),), lambda x: x.squeeze()),
    Case("squeeze__dim", lambda L, x: (x * 1).squeeze_(1), (N(2, 1, 3),), lambda x: x.squeeze(1)),
    Case("unsqueeze_", lambda L, x: (x * 1).unsqueeze_(-1), (N(2, 3),), lambda x: x[..., None]),
    # ---- two tensors: nan-ignoring extremes, the layout of floats, incomplete gamma -----------------------------
    Case("fmax", lambda L, x, y: L.fmax(x, y), (N(2, 3), N(3)), _fmax),
    Case("fmax_nan", lambda L, x, y: x.fmax(y), (C(NANS), C([[0.0, 1.0, float("nan")]])), _fmax),
    Case("fmax_int", lambda L, i, j: L.fmax(i, j), (I(2, 3), I(3)), np.fmax, grad=False),
    Case("fmin", lambda L, x, y: L.fmin(x, y), (N(2, 3), N(2, 1)), _fmin),
    Case("fmin_nan", lambda L, x, y: x.fmin(y), (C(NANS), C([[0.0, 1.0, float("nan")]])), _fmin),
    Case("ldexp", lambda L, x, i: L.ldexp(x, i), (N(2, 3), I(3)), lambda x, i: x * 2.0 ** i.astype(x.dtype)),
    Case("ldexp_float_exponent", lambda L, x, y: x.ldexp(y), (N(3), N(3)), lambda x, y: x * 2.0 ** y),
    Case("ldexp_int", lambda L, i, j: L.ldexp(i, j), (I(3), I(3)), lambda i, j: i * 2.0 ** j, dtype="float32",
         grad=False),
    # float exponents: with integer ones, torch's ldexp_ (not ldexp) differentiates through an integer power of 2,
    # so a negative exponent gets a zero gradient; minigrad gives 2**other, the derivative (a deviation kept)
    Case("ldexp_", lambda L, x, y: (x * 1).ldexp_(y), (N(2, 3), N(3)), lambda x, y: x * 2.0 ** y),
    Case("nextafter", lambda L, x, y: L.nextafter(x, y), (N(2, 3), N(3)), np.nextafter),
    Case("nextafter_", lambda L, x, y: (x * 1).nextafter_(y), (N(3), N(3)), np.nextafter),
    Case("frexp", lambda L, x: tuple(L.frexp(x)), (C([[7.0, -0.3, 0.7], [3.0, 1.25, -20.0]]),),
         lambda x: (np.frexp(x)[0], np.frexp(x)[1].astype(np.int32))),
    Case("igamma", lambda L, a, x: L.igamma(a, x), (K([1.0, 2.0, 3.5]), P(2, 3)), _igamma),
    Case("igammac", lambda L, a, x: a.igammac(x), (K([0.5, 2.0, 4.0]), P(2, 3)), _igammac),
    Case("igamma_", lambda L, a, x: a.clone().igamma_(x), (K([1.0, 2.0, 3.0]), P(3)), _igamma),
    Case("igammac_", lambda L, a, x: a.clone().igammac_(x), (K([1.0, 2.0, 3.0]), P(3)), _igammac),
    # ---- special functions of one tensor --------------------------------------------------------------------
    Case("erfinv", lambda L, x: L.erfinv(x), (C(UNIT),), _erfinv),
    Case("erfinv_", lambda L, x: (x * 1).erfinv_(), (C(UNIT),), _erfinv),
    Case("erfinv_int", lambda L, i: i.erfinv(), (C([0, 1, -1], "int64"),), lambda i: np.array([0, np.inf, -np.inf]),
         dtype="float32", grad=False),
    Case("i0", lambda L, x: L.i0(x), (N(2, 3),), _i0),
    Case("i0_", lambda L, x: (x * 1).i0_(), (N(3),), _i0),
    Case("mvlgamma", lambda L, x: L.mvlgamma(x, 3), (C([[1.5, 2.5, 4.0], [1.25, 7.0, 3.5]]),), _mvlgamma(3)),
    Case("mvlgamma_p1", lambda L, x: x.mvlgamma(1), (P(4),), _mvlgamma(1)),
    Case("mvlgamma_", lambda L, x: (x * 1).mvlgamma_(2), (C([1.5, 2.5, 4.0]),), _mvlgamma(2)),
    # ---- reductions: nan-ignoring sums and means, both extremes, by rank, most frequent ----------------------
    Case("nansum", lambda L, x: L.nansum(x), (C(NANS),), lambda x: np.nansum(x)),
    Case("nansum_dim", lambda L, x: x.nansum(1, keepdim=True), (C(NANS),), lambda x: np.nansum(x, 1, keepdims=True)),
    Case("nansum_int", lambda L, i: i.nansum(0), (I(2, 3),), lambda i: i.sum(0), grad=False),
    Case("nanmean", lambda L, x: L.nanmean(x), (C(NANS),), lambda x: np.nanmean(x)),
    Case("nanmean_dim", lambda L, x: x.nanmean(0), (C(NANS),), lambda x: np.nanmean(x, 0)),
    Case("aminmax", lambda L, x: tuple(L.aminmax(x)), (N(2, 3),), lambda x: (x.min(), x.max())),
    Case("aminmax_dim", lambda L, x: tuple(x.aminmax(dim=1, keepdim=True)), (N(2, 3),),
         lambda x: (x.min(1, keepdims=True), x.max(1, keepdims=True))),
    Case("aminmax_ties", lambda L, x: tuple(x.aminmax(dim=0)), (C(REPEATS),), lambda x: (x.min(0), x.max(0)),
         gradcheck=False),
    Case("kthvalue", lambda L, x: tuple(L.kthvalue(x, 2)), (N(3, 4),), lambda x: _kth(x, 2, -1)),
    Case("kthvalue_dim_keepdim", lambda L, x: tuple(x.kthvalue(3, 0, True)), (N(4, 2),), lambda x: _kth(x, 3, 0, True)),
    Case("mode", lambda L, x: tuple(L.mode(x)), (C(ROWS_WITH_TIES),), _mode_rows, gradcheck=False),
    Case("mode_int", lambda L, i: tuple(i.mode(1)), (C([[1, 2, 2, 1, 5], [4, 4, 0, 0, 0]], "int64"),), _mode_rows,
         grad=False),
]

ERRORS += [
    ("frexp_int", lambda L: L.frexp(L.tensor([1, 2]))),
    ("ldexp_number", lambda L: L.ldexp(L.ones(2), 2)),
    ("nextafter_int", lambda L: L.nextafter(L.tensor([1]), L.tensor([2]))),
    ("igamma_int", lambda L: L.igamma(L.tensor([1, 2]), L.tensor([1, 2]))),
    ("igamma_input_grad", lambda L: L.igamma(L.ones(2, requires_grad=True), L.ones(2)).sum().backward()),
    ("mvlgamma_p0", lambda L: L.mvlgamma(L.ones(2), 0)),
    ("kthvalue_k_too_large", lambda L: L.kthvalue(L.ones(2), 3)),
    ("kthvalue_k_zero", lambda L: L.ones(2, 3).kthvalue(0, 0)),
    ("aminmax_empty", lambda L: L.aminmax(L.ones(0))),
    ("nanmean_int", lambda L: L.nanmean(L.tensor([1, 2]))),
    ("fmax_number", lambda L: L.fmax(L.ones(2), 1.0)),
    ("gt__leaf", lambda L: L.ones(2, requires_grad=True).gt_(0)),
    ("t__3d", lambda L: L.ones(2, 2, 2).t_()),
    ("angle_of_number", lambda L: L.angle(1.0)),
]
