"""Op-table rows for torch's namespace functions added in issue 26: PyTorch's other spellings (torch.subtract,
torch.swapaxes, ...), the elementwise and special functions (logaddexp, hypot, fmod, xlogy, lgamma, logit, ...),
the medians and selections, and the arrangements (meshgrid, tensordot, tensor_split, rot90, ...).
Format: see op_table.py. References are numpy's (mpmath's for the gamma family), never minigrad's."""
import itertools
import math

import mpmath
import numpy as np

from .op_table_base import A, B, C, Case, I, Ix, N, P  # noqa: F401
from .op_table_math import K

CASES = []
ERRORS = []


def _mp(fn):
    """An elementwise reference from an mpmath function, in the input's float dtype."""
    def ref(x):
        x = x.astype(np.float32) if x.dtype.kind != "f" else x
        return np.array([float(fn(float(v))) for v in x.ravel()], x.dtype).reshape(x.shape)
    return ref


_lgamma = _mp(lambda v: mpmath.log(abs(mpmath.gamma(v))))
_digamma = _mp(mpmath.digamma)


def _polygamma(n):
    return _mp(lambda v: mpmath.polygamma(n, v))


def _lower_median(x, dim=None):
    if dim is None:
        flat = np.sort(x.ravel(), kind="stable")
        return flat[(flat.size - 1) // 2]
    order = np.argsort(x, axis=dim, kind="stable")
    pick = np.take(order, [(x.shape[dim] - 1) // 2], axis=dim)
    return np.take_along_axis(x, pick, dim).squeeze(dim), pick.squeeze(dim)


def _nanmedian(x):
    kept = np.sort(x[~np.isnan(x)])
    return kept[(kept.size - 1) // 2]


def _tensordot(a, b, axes):
    return np.tensordot(a, b, axes)


def _rot90(x, k=1, axes=(0, 1)):
    return np.rot90(x, k, axes)


# ---- PyTorch's other spellings: the same nodes as the methods they name -----------------------------------------
CASES.extend([
    Case("torch_subtract_alpha", lambda L, x, y: L.subtract(x, y, alpha=2), (N(2, 3), N(3)), lambda x, y: x - 2 * y),
    Case("torch_subtract_number_first", lambda L, x: L.subtract(1.5, x), (N(3),), lambda x: 1.5 - x),
    Case("torch_multiply", lambda L, x, y: L.multiply(x, y), (N(2, 3), N(2, 1)), lambda x, y: x * y),
    Case("torch_divide", lambda L, x, y: L.divide(x, y), (N(3), A(3)), lambda x, y: x / y),
    Case("divide_floor", lambda L, x, y: L.divide(x * 3, y, rounding_mode="floor"), (A(2, 3), A(3)),
         lambda x, y: np.floor(x * 3 / y)),
    Case("div_trunc", lambda L, x: x.div(0.7, rounding_mode="trunc"), (N(5),), lambda x: np.trunc(x / np.float32(0.7))),
    Case("div_trunc_int", lambda L, i, j: i.div(j, rounding_mode="trunc"), (I(6), C([2, -2, 3, -3, 5, 1], "int64")),
         lambda i, j: np.trunc(i / j).astype(np.int64), grad=False),
    Case("div__trunc", lambda L, x: (x * 4).div_(3, rounding_mode="trunc"), (N(4),),
         lambda x: np.trunc(x * 4 / 3)),
    Case("true_divide_int", lambda L, i: L.true_divide(i, 2), (I(4),), lambda i: i / 2, dtype="float32", grad=False),
    Case("torch_rsub_tensor", lambda L, x, y: L.rsub(x, y, alpha=3), (N(2, 3), N(3)), lambda x, y: y - 3 * x),
    Case("torch_rsub_number", lambda L, x: L.rsub(x, 2, alpha=0.5), (N(4),), lambda x: 2 - 0.5 * x),
    Case("torch_rsub_default", lambda L, x, y: L.rsub(x, y), (N(3), N(3)), lambda x, y: y - x),
    Case("subtract_", lambda L, x, y: (x * 1).subtract_(y, alpha=2), (N(3), N(3)), lambda x, y: x - 2 * y),
    Case("multiply_", lambda L, x: (x * 1).multiply_(3), (N(3),), lambda x: x * 3),
    Case("positive", lambda L, x: L.positive(x) * 2, (N(3),), lambda x: x * 2),
    Case("sgn", lambda L, x: L.sgn(x), (K([-1.5, 0.0, 2.0]),), np.sign, grad=False),   # torch: a ZeroTensor grad
    Case("sgn_int", lambda L, i: i.sgn(), (I(5),), np.sign, grad=False),
    Case("sgn_", lambda L, x: (x * 1).sgn_(), (K([-1.5, 0.0, 2.0]),), np.sign, grad=False),
    Case("reshape_as", lambda L, x, y: x.reshape_as(y), (N(6), N(2, 3, const=True)), lambda x, y: x.reshape(2, 3)),
    Case("torch_swapaxes", lambda L, x: L.swapaxes(x, 0, 2), (N(2, 3, 4),), lambda x: np.swapaxes(x, 0, 2)),
    Case("swapdims_method", lambda L, x: x.swapdims(-1, 0), (N(2, 3),), lambda x: x.T),
    Case("torch_ravel_contiguous", lambda L, x: L.ravel(x), (N(2, 3),), np.ravel),
    Case("ravel_of_transpose", lambda L, x: x.t().ravel(), (N(2, 3),), lambda x: x.T.ravel()),
    Case("torch_concat", lambda L, x, y: L.concat((x, y), 1), (N(2, 3), N(2, 1)),
         lambda x, y: np.concatenate([x, y], 1)),
    Case("torch_concatenate_axis", lambda L, x, y: L.concatenate([x, y], axis=0), (N(1, 3), N(2, 3)),
         lambda x, y: np.concatenate([x, y])),
    Case("cat_axis", lambda L, x, y: L.cat([x, y], axis=-1), (N(2), N(3)), lambda x, y: np.concatenate([x, y])),
    Case("torch_broadcast_to", lambda L, x: L.broadcast_to(x, (2, -1, 3)), (N(4, 1),),
         lambda x: np.broadcast_to(x, (2, 4, 3))),
    Case("torch_broadcast_tensors", lambda L, x, y: L.broadcast_tensors(x, y), (N(3, 1), N(4)),
         lambda x, y: tuple(np.broadcast_arrays(x, y))),
    Case("torch_eq_ne", lambda L, x, y: (L.eq(x, y), L.ne(x, 0.5)), (N(3), N(3)), lambda x, y: (x == y, x != 0.5),
         grad=False),
    Case("torch_gt_ge_lt_le", lambda L, x, y: (L.gt(x, y), L.ge(x, y), L.lt(x, 0), L.le(x, 0)), (N(2, 3), N(3)),
         lambda x, y: (x > y, x >= y, x < 0, x <= 0), grad=False),
    Case("torch_greater_less", lambda L, i: (L.greater(i, 0), L.greater_equal(i, 1), L.less(i, 0),
                                             L.less_equal(i, 1), L.not_equal(i, 0)), (I(6),),
         lambda i: (i > 0, i >= 1, i < 0, i <= 1, i != 0), grad=False),
    Case("greater_method", lambda L, x, y: x.greater(y), (N(4), N(4)), lambda x, y: x > y, grad=False),
    Case("torch_detach", lambda L, x: L.detach(x * 2), (N(3),), lambda x: x * 2, grad=False),
])

# ---- functions of two tensors ----------------------------------------------------------------------------------
CASES.extend([
    Case("logaddexp", lambda L, x, y: L.logaddexp(x, y), (N(2, 3), N(3)), np.logaddexp),
    Case("logaddexp_large", lambda L, x, y: x.logaddexp(y), (C([100.0, -50.0, 3.0]), C([99.0, -60.0, 3.0])),
         np.logaddexp),
    Case("logaddexp_int_float", lambda L, i, x: L.logaddexp(i, x), (I(3), N(3)), np.logaddexp, dtype="float32"),
    Case("logaddexp2", lambda L, x, y: L.logaddexp2(x, y), (N(2, 1), N(3)), np.logaddexp2),
    Case("hypot", lambda L, x, y: L.hypot(x, y), (A(2, 3), A(3)), np.hypot),
    Case("hypot_", lambda L, x, y: (x * 1).hypot_(y), (A(3), A(3)), np.hypot),
    Case("copysign", lambda L, x, y: L.copysign(x, y), (A(2, 3), A(3)), np.copysign),
    Case("copysign_number", lambda L, x: L.copysign(x, -1), (A(4),), lambda x: np.copysign(x, -1)),
    Case("copysign_int", lambda L, i, j: L.copysign(i, j), (I(4), I(4)), lambda i, j: np.copysign(i, j),
         dtype="float32", grad=False),
    Case("copysign_", lambda L, x: (x * 1).copysign_(-2.0), (A(3),), lambda x: -np.abs(x)),
    Case("fmod", lambda L, x, y: L.fmod(x, y), (C([2.5, -3.7, 4.1, -0.3]), C([1.1, 1.3, -1.7, 0.7])), np.fmod),
    Case("fmod_number", lambda L, x: L.fmod(x, 0.75), (C([2.5, -3.6, 0.2]),), lambda x: np.fmod(x, np.float32(0.75))),
    Case("fmod_int", lambda L, i: L.fmod(i, 2), (I(6),), lambda i: np.fmod(i, 2), grad=False),
    Case("fmod_", lambda L, x: (x * 1).fmod_(0.6), (C([1.3, -2.5]),), lambda x: np.fmod(x, np.float32(0.6))),
    Case("xlogy", lambda L, x, y: L.xlogy(x, y), (N(2, 3), P(3)), lambda x, y: x * np.log(y)),
    Case("xlogy_zero", lambda L, x, y: x.xlogy(y), (C([0.0, 0.0, 2.0]), C([0.5, 3.0, 1.5])),
         lambda x, y: np.where(x == 0, 0, x * np.log(y))),
    Case("xlogy_number_self", lambda L, y: L.xlogy(2, y), (P(4),), lambda y: 2 * np.log(y)),
    Case("xlogy_number_other", lambda L, x: L.xlogy(x, 3.0), (N(4),), lambda x: x * np.float32(math.log(3.0))),
    Case("xlogy_int", lambda L, i, j: L.xlogy(i, j), (I(4), C([1, 2, 3, 4], "int64")), lambda i, j: i * np.log(j),
         dtype="float32", grad=False),
    Case("xlogy_", lambda L, x, y: (x * 1).xlogy_(y), (N(3), P(3)), lambda x, y: x * np.log(y)),
    Case("float_power", lambda L, x: L.float_power(x, 2), (N(3),), lambda x: x.astype(np.float64) ** 2),
    Case("float_power_tensor", lambda L, x, y: x.float_power(y), (P(3), N(3)),
         lambda x, y: x.astype(np.float64) ** y.astype(np.float64)),
    Case("float_power_number_base", lambda L, x: L.float_power(2, x), (N(3),), lambda x: 2.0 ** x.astype(np.float64)),
    Case("heaviside", lambda L, x, v: L.heaviside(x, v), (K([-1.0, 0.0, 2.0]), K([0.5])),
         lambda x, v: np.heaviside(x, v[0]), grad=False),
])

# ---- special functions of one tensor ---------------------------------------------------------------------------
CASES.extend([
    Case("deg2rad", lambda L, x: L.deg2rad(x), (N(2, 3),), np.deg2rad),
    Case("deg2rad_int", lambda L, i: i.deg2rad(), (I(4),), lambda i: np.deg2rad(i).astype(np.float32),
         dtype="float32", grad=False),
    Case("rad2deg", lambda L, x: x.rad2deg(), (N(3),), np.rad2deg),
    Case("rad2deg_", lambda L, x: (x * 1).rad2deg_(), (N(3),), np.rad2deg),
    Case("sinc", lambda L, x: L.sinc(x), (A(2, 3),), np.sinc),
    Case("sinc_at_zero", lambda L, x: x.sinc(), (C([0.0, 0.5, -1.5]),), np.sinc,
         gradgrad="torch masks sinc's backward to 0 at x == 0, so its derivative there is 0, not -pi**2 / 3"),
    Case("sinc_", lambda L, x: (x * 1).sinc_(), (A(3),), np.sinc),
    Case("logit", lambda L, x: L.logit(x), (C([0.2, 0.7, 0.45]),), lambda x: np.log(x / (1 - x))),
    Case("logit_eps", lambda L, x: x.logit(0.25), (C([0.1, 0.5, 0.6, 0.9]),),
         lambda x: np.log(np.clip(x, 0.25, 0.75) / (1 - np.clip(x, 0.25, 0.75)))),
    Case("logit_", lambda L, x: (x * 1).logit_(), (C([0.3, 0.6]),), lambda x: np.log(x / (1 - x))),
    Case("nan_to_num", lambda L, x: L.nan_to_num(x, nan=1.0, posinf=2.0, neginf=-2.0), (N(3),), lambda x: x),
    Case("nan_to_num_values", lambda L, x: x.nan_to_num(), (C([np.nan, np.inf, -np.inf, 1.5]),),
         lambda x: np.nan_to_num(x, nan=0.0), grad=False),
    Case("nan_to_num_", lambda L, x: (x * 1).nan_to_num_(0.5), (N(3),), lambda x: x),
    Case("signbit", lambda L, x: L.signbit(x), (C([-0.0, 0.0, -1.0, 2.0]),), np.signbit, grad=False),
    Case("signbit_int", lambda L, i: i.signbit(), (I(5),), lambda i: i < 0, grad=False),
    Case("lgamma", lambda L, x: L.lgamma(x), (P(2, 3),), _lgamma),
    Case("lgamma_negative", lambda L, x: x.lgamma(), (C([-0.5, -1.5, 2.5]),), _lgamma),
    Case("lgamma_", lambda L, x: (x * 1).lgamma_(), (P(3),), _lgamma),
    Case("digamma", lambda L, x: L.digamma(x), (P(2, 3),), _digamma),
    Case("digamma_negative", lambda L, x: x.digamma(), (C([-0.5, -2.3, 12.5]),), _digamma),
    Case("polygamma_1", lambda L, x: L.polygamma(1, x), (P(3),), _polygamma(1)),
    Case("polygamma_2", lambda L, x: x.polygamma(2), (C([0.3, 1.7, -0.4]),), _polygamma(2)),
    Case("polygamma_", lambda L, x: (x * 1).polygamma_(1), (P(3),), _polygamma(1)),
    Case("digamma_int", lambda L, i: i.digamma(), (C([1, 2, 5], "int64"),), _digamma, dtype="float32", grad=False),
])

# ---- medians, selections, counts -------------------------------------------------------------------------------
_TIES = [[2.0, 1.0, 2.0, 2.0, 3.0], [5.0, 5.0, 5.0, 1.0, 1.0]]
CASES.extend([
    Case("median", lambda L, x: L.median(x), (N(3, 4),), lambda x: _lower_median(x)),
    Case("median_even", lambda L, x: x.median(), (N(6),), lambda x: _lower_median(x)),
    Case("median_ties_all", lambda L, x: x.median(), (C([1.0, 2.0, 2.0, 3.0]),), lambda x: np.float32(2.0),
         gradcheck=False),
    Case("median_dim", lambda L, x: tuple(L.median(x, 1)), (N(3, 5),), lambda x: _lower_median(x, 1)),
    Case("median_dim_ties", lambda L, x: tuple(x.median(1)), (C(_TIES),), lambda x: _lower_median(x, 1),
         gradcheck=False),
    Case("median_dim_keepdim", lambda L, x: tuple(x.median(0, keepdim=True)), (N(4, 2),),
         lambda x: tuple(np.expand_dims(v, 0) for v in _lower_median(x, 0))),
    Case("median_int", lambda L, i: i.median(), (I(7),), lambda i: _lower_median(i), grad=False),
    Case("msort", lambda L, x: L.msort(x), (N(3, 2),), lambda x: np.sort(x, 0)),
    Case("nanmedian", lambda L, x: L.nanmedian(x), (C([1.5, np.nan, -2.0, 3.0]),), _nanmedian),
    Case("nanmedian_dim", lambda L, x: tuple(x.nanmedian(-1)), (C([[1.0, np.nan, 2.0, np.nan], [4.0, 3.0, 2.0, 1.0]]),),
         lambda x: (np.array([1.0, 2.0], x.dtype), np.array([0, 2]))),
    Case("median_nan", lambda L, x: tuple(x.median(1)), (K([[1.0, np.nan, 2.0], [3.0, 1.0, 2.0]]),),
         lambda x: (np.array([np.nan, 2.0], x.dtype), np.array([1, 2])), grad=False),
    Case("masked_select", lambda L, x: L.masked_select(x, x > 0), (N(3, 4),), lambda x: x[x > 0]),
    Case("masked_select_broadcast", lambda L, x, m: x.masked_select(m), (N(2, 3), C([True, False, True], "bool")),
         lambda x, m: np.broadcast_to(x, (2, 3))[np.broadcast_to(m, (2, 3))]),
    Case("masked_select_mask_bigger", lambda L, x, m: L.masked_select(x, m), (N(3), C([[True], [False]], "bool")),
         lambda x, m: np.broadcast_to(x, (2, 3))[np.broadcast_to(m, (2, 3))]),
    Case("count_nonzero", lambda L, x: (L.count_nonzero(x), x.count_nonzero(0), L.count_nonzero(x, (0, 1))),
         (C([[0.0, 1.5, 0.0], [2.0, 0.0, np.nan]]),),
         lambda x: (np.int64(3), np.array([1, 1, 1]), np.int64(3)), grad=False),
    Case("argwhere", lambda L, x: L.argwhere(x), (C([[0.0, 1.5, 0.0], [2.0, 0.0, -1.0]]),), np.argwhere, grad=False),
    Case("unique", lambda L, x: L.unique(x, return_inverse=True, return_counts=True),
         (K([3.0, 1.0, 2.0, 3.0, 1.0, -0.0, 0.0]),),
         lambda x: (np.array([0.0, 1.0, 2.0, 3.0], x.dtype), np.array([3, 1, 2, 3, 1, 0, 0]), np.array([2, 2, 1, 2])),
         grad=False),
    Case("unique_dim", lambda L, i: i.unique(dim=0, return_counts=True), (C([[1, 2], [1, 2], [0, 5]], "int64"),),
         lambda i: (np.array([[0, 5], [1, 2]]), np.array([1, 2])), grad=False),
    Case("unique_consecutive", lambda L, i: L.unique_consecutive(i, return_inverse=True),
         (C([1, 1, 2, 2, 3, 1], "int64"),), lambda i: (np.array([1, 2, 3, 1]), np.array([0, 0, 1, 1, 2, 3])),
         grad=False),
    Case("isin", lambda L, i, j: L.isin(i, j), (I(2, 4), C([0, 2], "int64")), lambda i, j: np.isin(i, j), grad=False),
    Case("isin_invert_number", lambda L, x: L.isin(x, 0.5, invert=True), (C([0.5, 1.0]),),
         lambda x: x != 0.5, grad=False),
    Case("bincount", lambda L, i: L.bincount(i, minlength=6), (Ix(8, high=4),), lambda i: np.bincount(i, minlength=6),
         grad=False),
    Case("bincount_weights", lambda L, i, w: i.bincount(w), (Ix(5, high=3), N(5, const=True)),
         lambda i, w: np.bincount(i, w).astype(w.dtype), grad=False),
    Case("searchsorted", lambda L, s, v: (L.searchsorted(s, v), L.searchsorted(s, v, right=True)),
         (C([1.0, 3.0, 5.0, 7.0]), C([3.0, 6.0, 9.0, 0.0])),
         lambda s, v: (np.searchsorted(s, v), np.searchsorted(s, v, "right")), grad=False),
    Case("searchsorted_rows", lambda L, s, v: L.searchsorted(s, v, side="right"),
         (C([[1, 3, 5], [2, 4, 6]], "int64"), C([[3, 4], [3, 4]], "int64")),
         lambda s, v: np.stack([np.searchsorted(a, b, "right") for a, b in zip(s, v)]), grad=False),
    Case("bucketize", lambda L, v, b: L.bucketize(v, b, out_int32=True), (N(2, 3), C([-1.0, 0.0, 1.0])),
         lambda v, b: np.searchsorted(b, v).astype(np.int32), grad=False),
])

# ---- arrangements: grids, stacks, splits, turns, contractions ---------------------------------------------------
CASES.extend([
    Case("meshgrid_ij", lambda L, x, y: L.meshgrid(x, y, indexing="ij"), (N(2), N(3)),
         lambda x, y: tuple(np.meshgrid(x, y, indexing="ij"))),
    Case("meshgrid_xy", lambda L, x, y, z: L.meshgrid([x, y, z], indexing="xy"), (N(2), N(3), N(2)),
         lambda x, y, z: tuple(np.meshgrid(x, y, z, indexing="xy"))),
    Case("cartesian_prod", lambda L, x, y: L.cartesian_prod(x, y), (N(2), N(3)),
         lambda x, y: np.array(list(itertools.product(x, y)), x.dtype)),
    Case("combinations", lambda L, x: L.combinations(x, 2), (N(4),),
         lambda x: np.array(list(itertools.combinations(x, 2)), x.dtype)),
    Case("combinations_with_replacement", lambda L, x: L.combinations(x, 3, with_replacement=True), (N(3),),
         lambda x: np.array(list(itertools.combinations_with_replacement(x, 3)), x.dtype)),
    Case("atleast_nd", lambda L, x, y: (L.atleast_1d(x), L.atleast_2d(y), L.atleast_3d(y), L.atleast_3d(x)),
         (N(), N(3)), lambda x, y: (x.reshape(1), y[None], y[None, :, None], x.reshape(1, 1, 1))),
    Case("atleast_3d_matrix", lambda L, x: L.atleast_3d((x,))[0], (N(2, 3),), lambda x: x[:, :, None]),
    Case("hstack", lambda L, x, y: L.hstack([x, y]), (N(2, 1), N(2, 3)), lambda x, y: np.hstack([x, y])),
    Case("hstack_vectors", lambda L, x, y: L.hstack((x, y)), (N(2), N()), lambda x, y: np.hstack([x, y])),
    Case("vstack", lambda L, x, y: L.vstack([x, y]), (N(2, 3), N(3)), lambda x, y: np.vstack([x, y])),
    Case("row_stack", lambda L, x, y: L.row_stack([x, y]), (N(3), N(3)), lambda x, y: np.vstack([x, y])),
    Case("dstack", lambda L, x, y: L.dstack([x, y]), (N(3), N(3)), lambda x, y: np.dstack([x, y])),
    Case("column_stack", lambda L, x, y: L.column_stack([x, y]), (N(3), N(3, 2)),
         lambda x, y: np.column_stack([x, y])),
    Case("tensor_split_sections", lambda L, x: L.tensor_split(x, 3), (N(7),), lambda x: tuple(np.array_split(x, 3))),
    Case("tensor_split_indices", lambda L, x: x.tensor_split([1, 5], dim=1), (N(2, 7),),
         lambda x: tuple(np.split(x, [1, 5], axis=1))),
    Case("hsplit", lambda L, x: L.hsplit(x, 2), (N(2, 4),), lambda x: tuple(np.hsplit(x, 2))),
    Case("vsplit_dsplit", lambda L, x: L.vsplit(x, [1]) + L.dsplit(x, 2), (N(2, 3, 4),),
         lambda x: tuple(np.vsplit(x, [1])) + tuple(np.dsplit(x, 2))),
    Case("rot90", lambda L, x: L.rot90(x), (N(2, 3),), _rot90),
    Case("rot90_k", lambda L, x: (x.rot90(2), x.rot90(-1, (1, 2)), L.rot90(x, 4, [0, 2])), (N(2, 3, 4),),
         lambda x: (_rot90(x, 2), _rot90(x, -1, (1, 2)), _rot90(x, 4, (0, 2)))),
    Case("rot90_then_view", lambda L, x: x.rot90().reshape(-1), (N(2, 3),), lambda x: _rot90(x).ravel()),
    Case("trace", lambda L, x: L.trace(x), (N(3, 4),), np.trace),
    Case("trace_int", lambda L, i: i.trace(), (I(3, 3),), np.trace, grad=False),
    Case("tensordot_int_dims", lambda L, a, b: L.tensordot(a, b, 1), (N(3, 4), N(4, 2)),
         lambda a, b: _tensordot(a, b, 1)),
    Case("tensordot_lists", lambda L, a, b: L.tensordot(a, b, dims=([1, 0], [0, 1])), (N(3, 4), N(4, 3)),
         lambda a, b: _tensordot(a, b, ([1, 0], [0, 1]))),
    Case("tensordot_default", lambda L, a, b: L.tensordot(a, b), (N(2, 3, 4), N(3, 4, 5)),
         lambda a, b: _tensordot(a, b, 2)),
    Case("tensordot_outer", lambda L, a, b: L.tensordot(a, b, 0), (N(3), N(2)), lambda a, b: np.multiply.outer(a, b)),
    Case("tensordot_broadcast_dim", lambda L, a, b: L.tensordot(a, b, ([0, 1], [0, 1])), (N(3, 1), N(3, 4)),
         lambda a, b: (a * b).sum()),
    Case("inner_vectors", lambda L, x, y: L.inner(x, y), (N(4), N(4)), np.inner),
    Case("inner_matrices", lambda L, x, y: x.inner(y), (N(2, 3), N(4, 3)), np.inner),
    Case("inner_0d", lambda L, x, y: L.inner(x, y), (N(), N(3)), lambda x, y: x * y),
])

# ---- misuses: torch's errors, word for word ---------------------------------------------------------------------
ERRORS.extend([
    ("eq_number_first", lambda L: L.eq(1, L.ones(2))),
    ("gt_method_list", lambda L: L.ones(2).gt([1, 2.0])),
    ("subtract_other_list", lambda L: L.ones(2).sub([1])),
    ("divide_bad_rounding_mode", lambda L: L.divide(L.ones(2), 2, rounding_mode="round")),
    ("div_trunc_int_by_zero", lambda L: L.tensor([3]).div(0, rounding_mode="trunc")),
    ("div_floor_bool", lambda L: L.tensor([True]).div(L.tensor([True]), rounding_mode="floor")),
    ("add_float_alpha_int", lambda L: L.tensor([1, 2]).add(1, alpha=1.5)),
    ("rsub_number_first", lambda L: L.rsub(1, L.ones(2))),
    ("positive_bool", lambda L: L.positive(L.tensor([True]))),
    ("swapaxes_not_tensor", lambda L: L.swapaxes([1], 0, 1)),
    ("concat_not_list", lambda L: L.concat(L.ones(2))),
    ("concat_element", lambda L: L.concat([L.ones(2), 1])),
    ("broadcast_to_fewer_dims", lambda L: L.broadcast_to(L.ones(2, 2), (2,))),
    ("broadcast_shapes_mismatch", lambda L: L.broadcast_shapes((2, 1), (3, 2))),
    ("broadcast_shapes_negative", lambda L: L.broadcast_shapes((-1,), (2,))),
    ("is_nonzero_many", lambda L: L.is_nonzero(L.ones(2))),
    ("is_nonzero_empty", lambda L: L.ones(0).is_nonzero()),
    ("is_same_size_number", lambda L: L.is_same_size(L.ones(2), 2)),
    ("logaddexp_int", lambda L: L.logaddexp(L.tensor([1]), L.tensor([2]))),
    ("hypot_number", lambda L: L.hypot(L.ones(2), 2)),
    ("fmod_int_by_zero", lambda L: L.fmod(L.tensor([3]), 0)),
    ("fmod_bool", lambda L: L.tensor([True]).fmod(L.tensor([True]))),
    ("copysign_number_first", lambda L: L.copysign(2, L.ones(2))),
    ("xlogy_two_numbers", lambda L: L.xlogy(2, 3)),
    ("float_power__float32", lambda L: L.ones(2).float_power_(2)),
    ("heaviside_dtypes", lambda L: L.heaviside(L.ones(2), L.ones(1, dtype=L.float64))),
    ("heaviside_number", lambda L: L.heaviside(L.ones(2), 0.5)),
    ("heaviside_backward", lambda L: L.heaviside(L.ones(2, requires_grad=True), L.ones(1)).sum().backward()),
    ("polygamma_negative", lambda L: L.polygamma(-1, L.ones(2))),
    ("polygamma_float_n", lambda L: L.ones(2).polygamma(1.5)),
    ("lgamma__int", lambda L: L.tensor([1, 2]).lgamma_()),
    ("median_bool", lambda L: L.tensor([True]).median()),
    ("median_dim_bool", lambda L: L.tensor([True]).median(0)),
    ("median_empty_dim", lambda L: L.ones(3, 0).median(-1)),
    ("median_dim_none", lambda L: L.ones(2).median(dim=None)),
    ("median_keepdim_without_dim", lambda L: L.ones(2).median(keepdim=True)),
    ("masked_select_int_mask", lambda L: L.ones(2).masked_select(L.tensor([1, 0]))),
    ("masked_select_shapes", lambda L: L.ones(2, 3).masked_select(L.tensor([True, False]))),
    ("unique_backward", lambda L: L.unique(L.ones(2, requires_grad=True)).sum().backward()),
    ("unique_dim_backward", lambda L: L.ones(2, 2, requires_grad=True).unique(dim=1).sum().backward()),
    ("unique_empty_other_dim", lambda L: L.ones(0, 2).unique(dim=1)),
    ("count_nonzero_repeated_dim", lambda L: L.ones(2, 2).count_nonzero((0, 0))),
    ("isin_bool", lambda L: L.isin(L.tensor([True]), L.tensor([1]))),
    ("isin_two_numbers", lambda L: L.isin(2, 3)),
    ("bincount_negative", lambda L: L.bincount(L.tensor([-1, 2]))),
    ("bincount_float", lambda L: L.bincount(L.tensor([1.0]))),
    ("bincount_weights_length", lambda L: L.tensor([1, 2]).bincount(L.ones(3))),
    ("searchsorted_side_and_right", lambda L: L.searchsorted(L.ones(2), L.ones(1), side="left", right=True)),
    ("searchsorted_rows_mismatch", lambda L: L.searchsorted(L.ones(1, 2), L.ones(1))),
    ("bucketize_2d_boundaries", lambda L: L.bucketize(L.ones(1), L.ones(1, 2))),
    ("meshgrid_bad_indexing", lambda L: L.meshgrid(L.ones(2), indexing="yx")),
    ("meshgrid_empty", lambda L: L.meshgrid(indexing="ij")),
    ("meshgrid_dtypes", lambda L: L.meshgrid(L.ones(2), L.ones(2, dtype=L.float64), indexing="ij")),
    ("cartesian_prod_2d", lambda L: L.cartesian_prod(L.ones(2, 2))),
    ("combinations_negative", lambda L: L.combinations(L.ones(3), -1)),
    ("atleast_1d_number", lambda L: L.atleast_1d(1)),
    ("hstack_empty", lambda L: L.hstack([])),
    ("tensor_split_0d", lambda L: L.tensor_split(L.tensor(1.0), 2)),
    ("tensor_split_no_sections", lambda L: L.ones(3).tensor_split(0)),
    ("hsplit_not_divisible", lambda L: L.ones(2, 5).hsplit(2)),
    ("vsplit_1d", lambda L: L.vsplit(L.ones(4), 2)),
    ("dsplit_2d", lambda L: L.ones(2, 4).dsplit(2)),
    ("rot90_one_dim", lambda L: L.rot90(L.ones(2, 2), 1, [0])),
    ("rot90_same_dims", lambda L: L.ones(2, 2).rot90(1, [1, 1])),
    ("rot90_vector", lambda L: L.ones(3).rot90()),
    ("trace_vector", lambda L: L.trace(L.ones(3))),
    ("trace_bool", lambda L: L.tensor([[True]]).trace()),
    ("tensordot_sizes", lambda L: L.tensordot(L.ones(2, 3), L.ones(4), 1)),
    ("tensordot_dims_too_many", lambda L: L.tensordot(L.ones(2, 3), L.ones(4), 3)),
    ("tensordot_negative_dims", lambda L: L.tensordot(L.ones(2, 3), L.ones(4), -1)),
    ("tensordot_dtypes", lambda L: L.tensordot(L.ones(2, 3), L.ones(3, dtype=L.float64), 1)),
    ("tensordot_list_lengths", lambda L: L.tensordot(L.ones(2, 3), L.ones(3), ([1], [0, 1]))),
    ("inner_last_dims", lambda L: L.inner(L.ones(2, 3), L.ones(4, 2))),
])
