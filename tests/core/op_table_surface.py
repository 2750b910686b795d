"""Op-table rows for the ops added for the rest of the PyTorch that programs use (issue 26): the products that add
(addmm, baddbmm, ...), addcmul/addcdiv/lerp, running extremes, var_mean, kron, cross, diff, repeat_interleave,
take_along_dim, clamp_min/max, histograms, and in-place twins. Format: see op_table.py."""
import numpy as np

from .op_table_base import A, B, C, Arg, Case, I, Ix, N, P  # noqa: F401


def K(values, dtype="float"):  # noqa: N802 - constant values that do not require grad (op_table_math.py's K)
    return Arg(np.shape(values), "constant", dtype=dtype, values=values, const=True)


def _lerp(a, b, w):
    return np.where(np.abs(w) < 0.5, a + w * (b - a), b - (b - a) * (1 - w))


def _running(x, dim, pick):
    """(values, indices) of a running max (pick=np.maximum) or min along `dim`, ties to the latest index."""
    x = np.moveaxis(x, dim, -1)
    values, indices = np.empty_like(x), np.empty(x.shape, np.int64)
    for pos in np.ndindex(x.shape[:-1]):
        best, at = x[pos][0], 0
        for k, v in enumerate(x[pos]):
            if pick(v, best) == v:
                best, at = v, k
            values[pos + (k,)], indices[pos + (k,)] = best, at
    return np.moveaxis(values, -1, dim), np.moveaxis(indices, -1, dim)


def _logcumsumexp(x, dim):
    return np.log(np.cumsum(np.exp(x), axis=dim))


def _kron(a, b):
    return np.kron(a, b)


def _take_along(x, i, dim):
    return np.take_along_axis(x, i, axis=dim)


def _histc(x, bins, lo, hi):
    return np.histogram(x, bins, (lo, hi))[0].astype(x.dtype)


CASES = [
    # ---- beta * input + alpha * (a product) ------------------------------------------------------------------
    Case("addmm", lambda L, b, x, w: L.addmm(b, x, w), (N(3), N(2, 4), N(4, 3)), lambda b, x, w: b + x @ w),
    Case("addmm_beta_alpha", lambda L, b, x, w: L.addmm(b, x, w, beta=0.5, alpha=2), (N(2, 3), N(2, 4), N(4, 3)),
         lambda b, x, w: 0.5 * b + 2 * (x @ w)),
    Case("addmm_method_beta_0", lambda L, b, x, w: b.addmm(x, w, beta=0), (N(2, 1), N(2, 4), N(4, 3)),
         lambda b, x, w: x @ w),
    Case("addmm_", lambda L, b, x, w: b.clone().addmm_(x, w, alpha=-1), (N(2, 3), N(2, 4), N(4, 3)),
         lambda b, x, w: b - x @ w),
    Case("addmv", lambda L, b, m, v: L.addmv(b, m, v, beta=2), (N(3), N(3, 4), N(4)), lambda b, m, v: 2 * b + m @ v),
    Case("addmv_", lambda L, b, m, v: b.clone().addmv_(m, v, alpha=0.5), (N(3), N(3, 4), N(4)),
         lambda b, m, v: b + 0.5 * (m @ v)),
    Case("addr", lambda L, b, u, v: L.addr(b, u, v), (N(3, 4), N(3), N(4)), lambda b, u, v: b + np.outer(u, v)),
    Case("addr_broadcast_", lambda L, b, u, v: b.clone().expand(3, 4).clone().addr_(u, v, beta=3),
         (N(4), N(3), N(4)), lambda b, u, v: 3 * b + np.outer(u, v)),
    Case("bmm", lambda L, x, w: L.bmm(x, w), (N(2, 3, 4), N(2, 4, 5)), lambda x, w: x @ w),
    Case("bmm_method", lambda L, x, w: x.bmm(w), (N(3, 1, 2), N(3, 2, 2)), lambda x, w: x @ w),
    Case("baddbmm", lambda L, b, x, w: L.baddbmm(b, x, w, alpha=0.25), (N(3, 5), N(2, 3, 4), N(2, 4, 5)),
         lambda b, x, w: b + 0.25 * (x @ w)),
    Case("baddbmm_", lambda L, b, x, w: b.clone().baddbmm_(x, w, beta=-1), (N(2, 3, 5), N(2, 3, 4), N(2, 4, 5)),
         lambda b, x, w: -b + x @ w),
    Case("addbmm", lambda L, b, x, w: L.addbmm(b, x, w), (N(5), N(2, 3, 4), N(2, 4, 5)),
         lambda b, x, w: b + (x @ w).sum(0)),
    Case("addbmm_", lambda L, b, x, w: b.clone().addbmm_(x, w, alpha=2, beta=0.5), (N(3, 5), N(4, 3, 2), N(4, 2, 5)),
         lambda b, x, w: 0.5 * b + 2 * (x @ w).sum(0)),
    # ---- three tensors, one node ---------------------------------------------------------------------------
    Case("addcmul", lambda L, x, a, b: L.addcmul(x, a, b), (N(2, 3), N(3), N(2, 1)), lambda x, a, b: x + a * b),
    Case("addcmul_value", lambda L, x, a, b: x.addcmul(a, b, value=-0.5), (N(3), N(2, 3), N(3)),
         lambda x, a, b: x + -0.5 * a * b),
    Case("addcmul_", lambda L, x, a, b: x.clone().addcmul_(a, b, value=2), (N(2, 3), N(2, 3), N(3)),
         lambda x, a, b: x + 2 * a * b),
    Case("addcdiv", lambda L, x, a, b: L.addcdiv(x, a, b, value=0.3), (N(2, 3), N(2, 3), A(3)),
         lambda x, a, b: x + 0.3 * a / b),
    Case("addcdiv_", lambda L, x, a, b: x.clone().addcdiv_(a, b), (N(4), N(4), A(4)), lambda x, a, b: x + a / b),
    Case("lerp_scalar", lambda L, a, b: L.lerp(a, b, 0.3), (N(2, 3), N(3)), lambda a, b: _lerp(a, b, 0.3)),
    Case("lerp_scalar_far", lambda L, a, b: a.lerp(b, 0.8), (N(2, 3), N(2, 3)), lambda a, b: _lerp(a, b, 0.8)),
    Case("lerp_tensor", lambda L, a, b, w: L.lerp(a, b, w), (N(2, 3), N(2, 3), C([0.1, 0.6, 1.0])), _lerp),
    Case("lerp_", lambda L, a, b: a.clone().lerp_(b, 0.5), (N(3), N(3)), lambda a, b: _lerp(a, b, 0.5)),
    Case("lerp_tensor_", lambda L, a, b, w: a.clone().lerp_(b, w), (N(2, 2), N(2, 2), C([[0.2, 0.7], [0.4, 0.9]])),
         _lerp),
    # ---- one bound, its own node ---------------------------------------------------------------------------
    Case("clamp_min", lambda L, x: L.clamp_min(x, 0.2), (A(2, 3),), lambda x: np.maximum(x, 0.2)),
    Case("clamp_max_method", lambda L, x: x.clamp_max(-0.2), (A(2, 3),), lambda x: np.minimum(x, -0.2)),
    Case("clamp_min_", lambda L, x: x.clone().clamp_min_(0.0), (A(4),), lambda x: np.maximum(x, 0.0)),
    Case("clamp_max_", lambda L, x: L.clamp_max_(x.clone(), 0.1), (A(4),), lambda x: np.minimum(x, 0.1)),
    # ---- the in-place twins of exp, log, ... and torch's module-level in-place functions ------------------
    Case("exp_", lambda L, x: x.clone().exp_(), (N(2, 3),), np.exp),
    Case("log_", lambda L, x: x.clone().log_(), (P(3),), np.log),
    Case("abs_", lambda L, x: x.clone().abs_(), (A(3),), np.abs),
    Case("absolute", lambda L, x: L.absolute(x), (A(3),), np.abs),
    Case("sqrt_", lambda L, x: x.clone().sqrt_(), (P(3),), np.sqrt),
    Case("relu_", lambda L, x: x.clone().relu_(), (A(2, 3),), lambda x: np.maximum(x, 0)),
    Case("torch_relu_", lambda L, x: L.relu_(x * 1), (A(2, 3),), lambda x: np.maximum(x, 0)),
    Case("sigmoid_", lambda L, x: x.clone().sigmoid_(), (N(3),), lambda x: 1 / (1 + np.exp(-x))),
    Case("tanh_", lambda L, x: L.tanh_(x.clone()), (N(3),), np.tanh),
    Case("neg_", lambda L, x: x.clone().neg_(), (N(3),), np.negative),
    Case("negative_", lambda L, x: L.negative_(x.clone()), (N(3),), np.negative),
    Case("pow_", lambda L, x: x.clone().pow_(3), (N(3),), lambda x: x ** 3),
    Case("pow_tensor_", lambda L, x, y: x.clone().pow_(y), (P(3), N(3)), lambda x, y: x ** y),
    Case("torch_sin_", lambda L, x: L.sin_(x.clone()), (N(3),), np.sin),
    Case("torch_exp_", lambda L, x: L.exp_(x * 2), (N(3),), lambda x: np.exp(x * 2)),
    # ---- running extremes and log-sum-exp ------------------------------------------------------------------
    Case("cummax", lambda L, x: tuple(L.cummax(x, 1)), (N(3, 5),), lambda x: _running(x, 1, np.maximum)),
    Case("cummax_ties", lambda L, x: tuple(x.cummax(0)), (C([1.0, 3.0, 3.0, 2.0, 5.0, 5.0]),),
         lambda x: _running(x, 0, np.maximum), gradcheck=False),
    Case("cummin", lambda L, x: tuple(x.cummin(-1)), (N(2, 4),), lambda x: _running(x, -1, np.minimum)),
    Case("cummin_dim0", lambda L, x: tuple(L.cummin(x, 0)), (N(4, 2),), lambda x: _running(x, 0, np.minimum)),
    Case("logcumsumexp", lambda L, x: L.logcumsumexp(x, 1), (N(2, 4),), lambda x: _logcumsumexp(x, 1)),
    Case("logcumsumexp_dim0", lambda L, x: x.logcumsumexp(0), (N(3, 2),), lambda x: _logcumsumexp(x, 0)),
    # ---- var and std with the mean, one node ---------------------------------------------------------------
    Case("var_mean", lambda L, x: L.var_mean(x), (N(2, 3),), lambda x: (x.var(ddof=1), x.mean())),
    Case("var_mean_dim", lambda L, x: L.var_mean(x, 1, keepdim=True), (N(3, 4),),
         lambda x: (x.var(1, ddof=1, keepdims=True), x.mean(1, keepdims=True))),
    Case("var_mean_correction", lambda L, x: L.var_mean(x, (0, 1), correction=0), (N(2, 3, 2),),
         lambda x: (x.var((0, 1)), x.mean((0, 1)))),
    Case("std_mean", lambda L, x: L.std_mean(x, 0), (N(4, 3),), lambda x: (x.std(0, ddof=1), x.mean(0))),
    Case("std_mean_unbiased_false", lambda L, x: L.std_mean(x, unbiased=False), (N(5),),
         lambda x: (x.std(), x.mean())),
    Case("var_mean_only_mean_used", lambda L, x: L.var_mean(x, -1)[1], (N(2, 3),), lambda x: x.mean(-1)),
    # ---- products built from others ----------------------------------------------------------------------
    Case("kron", lambda L, a, b: L.kron(a, b), (N(2, 3), N(2, 2)), _kron),
    Case("kron_mixed_dims", lambda L, a, b: a.kron(b), (N(2, 1, 3), N(2)), _kron),
    Case("kron_vectors", lambda L, a, b: L.kron(a, b), (N(3), N(2)), _kron),
    Case("linalg_cross", lambda L, a, b: L.linalg.cross(a, b), (N(4, 3), N(4, 3)),
         lambda a, b: np.cross(a, b)),
    Case("linalg_cross_broadcast", lambda L, a, b: L.linalg.cross(a, b, dim=0), (N(3, 1), N(3, 2)),
         lambda a, b: np.cross(a, b, axis=0)),
    Case("cross_dim", lambda L, a, b: L.cross(a, b, dim=1), (N(2, 3), N(2, 3)), lambda a, b: np.cross(a, b)),
    Case("cross_method", lambda L, a, b: a.cross(b, -1), (N(3), N(3)), np.cross),
    # ---- differences, repeats, picks -----------------------------------------------------------------------
    Case("diff", lambda L, x: L.diff(x), (N(2, 5),), lambda x: np.diff(x)),
    Case("diff_n2_dim0", lambda L, x: x.diff(2, 0), (N(4, 3),), lambda x: np.diff(x, 2, 0)),
    Case("diff_prepend_append", lambda L, x, p, a: L.diff(x, prepend=p, append=a), (N(2, 3), N(2, 1), N(2, 2)),
         lambda x, p, a: np.diff(np.concatenate([p, x, a], 1))),
    Case("diff_int", lambda L, i: i.diff(), (I(6),), lambda i: np.diff(i), grad=False),
    Case("diff_bool", lambda L, b: L.diff(b), (B(6),), lambda b: b[1:] ^ b[:-1], grad=False),
    Case("repeat_interleave", lambda L, x: L.repeat_interleave(x, 2), (N(2, 3),), lambda x: np.repeat(x, 2)),
    Case("repeat_interleave_dim", lambda L, x: x.repeat_interleave(3, dim=1), (N(2, 2),),
         lambda x: np.repeat(x, 3, 1)),
    Case("repeat_interleave_counts", lambda L, x, r: x.repeat_interleave(r, dim=0), (N(3, 2), K([1, 0, 2], "int64")),
         lambda x, r: np.repeat(x, r, 0)),
    Case("repeat_interleave_0d_count", lambda L, x, r: L.repeat_interleave(x, r, dim=-1), (N(2, 2), K(2, "int64")),
         lambda x, r: np.repeat(x, 2, -1)),
    Case("repeat_interleave_indices", lambda L, r: L.repeat_interleave(r), (K([2, 0, 3], "int64"),),
         lambda r: np.repeat(np.arange(3), r), grad=False),
    Case("take_along_dim", lambda L, x, i: L.take_along_dim(x, i, 1), (N(3, 4), Ix(3, 2, high=4)),
         lambda x, i: _take_along(x, i, 1)),
    Case("take_along_dim_broadcast", lambda L, x, i: x.take_along_dim(i, dim=0), (N(3, 4), Ix(1, 4, high=3)),
         lambda x, i: _take_along(x, i, 0)),
    Case("take_along_dim_flat", lambda L, x, i: L.take_along_dim(x, i), (N(3, 4), Ix(5, high=12)),
         lambda x, i: x.reshape(-1)[i]),
    Case("argsort", lambda L, x: L.argsort(x, dim=1), (N(3, 4),), lambda x: np.argsort(x, 1, kind="stable"),
         grad=False),
    Case("argsort_descending", lambda L, x: x.argsort(descending=True), (N(5),), lambda x: np.argsort(-x),
         grad=False),
    Case("histc", lambda L, x: L.histc(x, 4, -1, 1), (N(20),), lambda x: _histc(x, 4, -1, 1), grad=False),
    Case("histc_data_range", lambda L, x: x.histc(5), (N(3, 4),), lambda x: _histc(x, 5, x.min(), x.max()),
         grad=False),
    Case("histogram", lambda L, x: tuple(L.histogram(x, 3)), (N(10, const=True),),
         lambda x: tuple(a.astype(x.dtype) for a in np.histogram(x, 3)), grad=False),
    Case("histogram_edges_weight", lambda L, x, e, w: tuple(x.histogram(e, weight=w)),
         (N(8, const=True), K([-1.0, 0.0, 0.5, 2.0]), K([1.0, 2, 3, 4, 5, 6, 7, 8])),
         lambda x, e, w: (np.histogram(x, e, weights=w)[0].astype(x.dtype), e), grad=False),
    Case("histogram_density", lambda L, x: L.histogram(x, 4, range=(-2.0, 2.0), density=True)[0],
         (N(12, const=True),),
         lambda x: np.histogram(x, 4, (-2, 2), density=True)[0].astype(x.dtype), grad=False),
    Case("logical_and", lambda L, x, y: L.logical_and(x, y), (I(2, 3), N(3)), np.logical_and, grad=False),
    Case("logical_xor_method", lambda L, x, y: x.logical_xor(y), (B(4), B(4)), np.logical_xor, grad=False),
    Case("logical_not", lambda L, x: L.logical_not(x), (I(5),), np.logical_not, grad=False),
    Case("new_tensor", lambda L, x: x.new_tensor([[1, 2], [3, 4]]), (N(3),), lambda x: np.array([[1, 2], [3, 4]], x.dtype),
         grad=False),
    Case("new_zeros", lambda L, x: x.new_zeros(2, 3), (N(3),), lambda x: np.zeros((2, 3), x.dtype), grad=False),
    Case("new_ones_tuple_dtype", lambda L, x: x.new_ones((2,), dtype=L.int32), (N(3),),
         lambda x: np.ones(2, np.int32), grad=False),
    Case("new_full_int", lambda L, i: i.new_full((3,), 2.5), (I(2),), lambda i: np.full(3, 2, np.int64), grad=False),
    Case("new_empty", lambda L, x: x.new_empty(0, 2), (N(3),), lambda x: np.zeros((0, 2), x.dtype), grad=False),
    Case("tril_indices", lambda L: L.tril_indices(3, 4, -1), (), lambda: np.stack(np.tril_indices(3, -1, 4)),
         grad=False),
    Case("triu_indices", lambda L: L.triu_indices(4, 3), (), lambda: np.stack(np.triu_indices(4, 0, 3)),
         grad=False),
]

ERRORS = [
    ("addmm_shapes", lambda L: L.addmm(L.ones(3), L.ones(2, 4), L.ones(5, 3))),
    ("addmm_input_shape", lambda L: L.addmm(L.ones(4), L.ones(2, 4), L.ones(4, 3))),
    ("addmm_dtypes", lambda L: L.addmm(L.ones(3), L.ones(2, 4, dtype=L.float64), L.ones(4, 3))),
    ("addmm_vector", lambda L: L.addmm(L.ones(3), L.ones(4), L.ones(4, 3))),
    ("addmm_input_dtype", lambda L: L.addmm(L.ones(3, dtype=L.float64), L.ones(2, 4), L.ones(4, 3))),
    ("addmm_int_float_alpha", lambda L: L.addmm(L.tensor([1]), L.tensor([[1]]), L.tensor([[2]]), alpha=0.5)),
    ("bmm_2d", lambda L: L.bmm(L.ones(2, 3), L.ones(2, 3, 4))),
    ("bmm_batches", lambda L: L.bmm(L.ones(2, 3, 4), L.ones(3, 4, 4))),
    ("baddbmm_shapes", lambda L: L.baddbmm(L.ones(3), L.ones(2, 2, 4), L.ones(2, 5, 3))),
    ("baddbmm_input", lambda L: L.baddbmm(L.ones(4), L.ones(2, 2, 4), L.ones(2, 4, 3))),
    ("addbmm_sizes", lambda L: L.addbmm(L.ones(3), L.ones(2, 2, 4), L.ones(2, 5, 3))),
    ("addbmm_batches", lambda L: L.addbmm(L.ones(3), L.ones(2, 2, 4), L.ones(3, 4, 3))),
    ("addmv_sizes", lambda L: L.addmv(L.ones(3), L.ones(2, 4), L.ones(4))),
    ("addr_2d", lambda L: L.addr(L.ones(2, 3), L.ones(2, 2), L.ones(3))),
    ("addr_input", lambda L: L.addr(L.ones(2, 3), L.ones(2), L.ones(4))),
    ("addcmul_broadcast", lambda L: L.addcmul(L.ones(2), L.ones(3), L.ones(2))),
    ("addcdiv_integers", lambda L: L.addcdiv(L.tensor([1]), L.tensor([1]), L.tensor([2]))),
    ("lerp_end_dtype", lambda L: L.lerp(L.ones(2), L.ones(2, dtype=L.float64), 0.5)),
    ("lerp_weight_dtype", lambda L: L.lerp(L.ones(2), L.ones(2), L.ones(2, dtype=L.float64))),
    ("lerp_int", lambda L: L.lerp(L.tensor([1]), L.tensor([2]), 0.5)),
    ("lerp_shapes", lambda L: L.lerp(L.ones(2), L.ones(3), 0.5)),
    ("addmm_inplace_grows", lambda L: L.ones(3).addmm_(L.ones(2, 4), L.ones(4, 3))),
    ("logcumsumexp_int", lambda L: L.logcumsumexp(L.tensor([1, 2]), 0)),
    ("cross_no_dim_of_3", lambda L: L.cross(L.ones(2, 4), L.ones(2, 4))),
    ("linalg_cross_length", lambda L: L.linalg.cross(L.ones(2, 4), L.ones(2, 4))),
    ("linalg_cross_ndim", lambda L: L.linalg.cross(L.ones(3), L.ones(2, 3))),
    ("linalg_cross_dtype", lambda L: L.linalg.cross(L.ones(3), L.ones(3, dtype=L.float64))),
    ("diff_0d", lambda L: L.diff(L.tensor(1.0))),
    ("diff_negative_n", lambda L: L.diff(L.ones(3), n=-1)),
    ("diff_prepend_dims", lambda L: L.diff(L.ones(2, 3), prepend=L.ones(3))),
    ("repeat_interleave_counts_size", lambda L: L.repeat_interleave(L.arange(2), L.tensor([1, 2, 3]))),
    ("repeat_interleave_negative", lambda L: L.repeat_interleave(L.arange(2), -1)),
    ("repeat_interleave_negative_count", lambda L: L.repeat_interleave(L.arange(2), L.tensor([1, -2]))),
    ("repeat_interleave_2d_counts", lambda L: L.repeat_interleave(L.ones(2), L.tensor([[1, 2]]))),
    ("repeat_interleave_float_counts", lambda L: L.repeat_interleave(L.tensor([1.0, 2.0]))),
    ("repeat_interleave_2d_indices", lambda L: L.repeat_interleave(L.tensor([[1, 2]]))),
    ("take_along_dim_ndim", lambda L: L.take_along_dim(L.ones(2, 3), L.tensor([0]), dim=1)),
    ("take_along_dim_int32", lambda L: L.take_along_dim(L.ones(2, 3), L.tensor([[0]], dtype=L.int32), dim=1)),
    ("histogram_backward", lambda L: L.histogram(L.ones(5, requires_grad=True), 3)[0].sum().backward()),
    ("histc_long", lambda L: L.histc(L.tensor([1, 1]), 4)),
    ("histogram_long", lambda L: L.histogram(L.tensor([1, 1]), 4)),
    ("histc_bins", lambda L: L.histc(L.tensor([1.0, 2.0]), -1)),
    ("histc_min_max", lambda L: L.histc(L.tensor([1.0, 2.0]), 4, min=3, max=1)),
    ("histogram_range", lambda L: L.histogram(L.tensor([1.0, 2.0]), 3, range=(2.0, 1.0))),
    ("logical_or_number", lambda L: L.ones(2).logical_or(1)),
    ("tril_indices_negative", lambda L: L.tril_indices(-1, 2)),
    ("pow_int_float_inplace", lambda L: L.tensor([1, 2]).pow_(0.5)),
]
