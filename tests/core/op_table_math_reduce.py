"""Op-table rows for the reductions added for the tutorials' PyTorch (issue 11): std, var, prod, cumsum, cumprod,
logsumexp, amax/amin, all/any, topk, and sum/mean's `keepdims`. op_table_math.py adds them to its lists."""
import numpy as np

from .op_table_base import A, B, C, Arg, Case, I, Ix, N, P  # noqa: F401

ZERO_ONCE = [[2.0, 0.0, -1.5], [0.5, 3.0, -2.0]]     # one zero: prod's and cumprod's backward without division
ZERO_TWICE = [[0.0, 1.5, 0.0, 2.0], [1.0, -0.5, 2.0, 0.0]]
CONSTANT_ROW = [[1.5, 1.5, 1.5], [0.5, -1.0, 2.0]]   # std 0 in the first row: the gradient is masked to 0 there


def _logsumexp(x, axis, keepdims=False):
    m = x.max(axis=axis, keepdims=True)
    out = np.log(np.exp(x - m).sum(axis=axis, keepdims=True)) + m
    return out if keepdims else np.squeeze(out, axis=axis)


def _topk(x, k, dim=-1, largest=True):
    idx = np.take(np.argsort(-x if largest else x, axis=dim, kind="stable"), np.arange(k), axis=dim)
    return np.take_along_axis(x, idx, axis=dim), idx


CASES = [
    # ---- var and std --------------------------------------------------------------------------------------
    Case("var", lambda L, x: x.var(), (N(2, 3),), lambda x: x.var(ddof=1)),
    Case("var_dim", lambda L, x: x.var(1), (N(3, 4),), lambda x: x.var(1, ddof=1)),
    Case("var_dim_keepdim", lambda L, x: x.var(0, keepdim=True), (N(3, 4),), lambda x: x.var(0, ddof=1, keepdims=True)),
    Case("var_unbiased_false", lambda L, x: x.var(unbiased=False), (N(2, 3),), lambda x: x.var()),
    Case("var_dim_unbiased_keepdim", lambda L, x: x.var(-1, False, True), (N(2, 3),),
         lambda x: x.var(-1, keepdims=True)),
    Case("var_correction", lambda L, x: x.var(dim=(0, 2), correction=2), (N(2, 3, 4),),
         lambda x: x.var((0, 2), ddof=2)),
    Case("var_correction_float", lambda L, x: L.var(x, 0, correction=0.5), (N(4, 2),),
         lambda x: ((x - x.mean(0)) ** 2).sum(0) / 3.5),
    Case("var_positional_bool", lambda L, x: x.var(False), (N(5),), lambda x: x.var()),
    Case("var_0d", lambda L, x: x.var(correction=0), (N(),), lambda x: x.var()),
    Case("var_3d_dim1", lambda L, x: L.var(x, 1), (N(2, 3, 2),), lambda x: x.var(1, ddof=1)),
    Case("var_1d_dim", lambda L, x: x.var(0), (N(4),), lambda x: x.var(0, ddof=1)),
    Case("std", lambda L, x: x.std(), (N(2, 3),), lambda x: x.std(ddof=1)),
    Case("torch_std", lambda L, x: L.std(x, 1), (N(3, 4),), lambda x: x.std(1, ddof=1)),
    Case("std_keepdim", lambda L, x: x.std(dim=0, keepdim=True), (N(3, 2),), lambda x: x.std(0, ddof=1, keepdims=True)),
    Case("std_unbiased_false", lambda L, x: L.std(x, unbiased=False), (N(2, 3),), lambda x: x.std()),
    Case("std_correction_0_dims", lambda L, x: x.std((0, 1), correction=0), (N(2, 3, 2),), lambda x: x.std((0, 1))),
    Case("std_list_dim", lambda L, x: x.std([1]), (N(2, 3),), lambda x: x.std(1, ddof=1)),
    Case("std_zero", lambda L, x: x.std(1), (C(CONSTANT_ROW),), lambda x: x.std(1, ddof=1), gradcheck=False),
    # ---- prod ---------------------------------------------------------------------------------------------
    Case("prod", lambda L, x: x.prod(), (A(2, 3),), np.prod),
    Case("torch_prod", lambda L, x: L.prod(x), (A(4),), np.prod),
    Case("prod_dim", lambda L, x: x.prod(1), (A(2, 3),), lambda x: x.prod(1)),
    Case("prod_dim_keepdim", lambda L, x: L.prod(x, 0, keepdim=True), (A(2, 3),), lambda x: x.prod(0, keepdims=True)),
    Case("prod_neg_dim", lambda L, x: x.prod(dim=-1), (A(2, 3, 2),), lambda x: x.prod(-1)),
    Case("prod_one_zero", lambda L, x: x.prod(), (C(ZERO_ONCE),), np.prod),
    Case("prod_two_zeros", lambda L, x: x.prod(), (C(ZERO_TWICE),), np.prod),
    Case("prod_dim_zeros", lambda L, x: x.prod(1), (C(ZERO_TWICE),), lambda x: x.prod(1)),
    Case("prod_dim0_one_zero", lambda L, x: x.prod(0), (C(ZERO_ONCE),), lambda x: x.prod(0)),
    Case("prod_0d", lambda L, x: x.prod(), (N(),), lambda x: x.copy()),
    Case("prod_0d_dim", lambda L, x: x.prod(0), (N(),), lambda x: x.copy()),
    Case("prod_empty", lambda L, x: x.prod(), (N(0, 2),), np.prod),
    Case("prod_empty_dim", lambda L, x: x.prod(0), (N(0, 2),), lambda x: x.prod(0)),
    Case("prod_int", lambda L, i: i.prod(), (I(2, 3),), np.prod, grad=False),
    Case("prod_bool", lambda L, b: b.prod(0), (B(2, 3),), lambda b: b.prod(0, dtype="int64"), grad=False),
    Case("prod_dtype", lambda L, x: x.prod(dtype=L.float64), (A(2, 3),), lambda x: x.astype("float64").prod()),
    Case("prod_dim_dtype", lambda L, i: i.prod(1, dtype=L.float32), (I(2, 3),),
         lambda i: i.prod(1).astype("float32"), grad=False),
    # ---- cumsum and cumprod -------------------------------------------------------------------------------
    Case("cumsum", lambda L, x: x.cumsum(1), (N(2, 3),), lambda x: x.cumsum(1)),
    Case("torch_cumsum", lambda L, x: L.cumsum(x, dim=0), (N(3, 2),), lambda x: x.cumsum(0)),
    Case("cumsum_neg_dim", lambda L, x: x.cumsum(-1), (N(2, 2, 3),), lambda x: x.cumsum(-1)),
    Case("cumsum_size1", lambda L, x: x.cumsum(0), (N(1, 3),), lambda x: x.cumsum(0)),
    Case("cumsum_0d", lambda L, x: x.cumsum(0), (N(),), lambda x: x.copy()),
    Case("cumsum_empty", lambda L, x: x.cumsum(0), (N(0, 2),), lambda x: x.cumsum(0)),
    Case("cumsum_int", lambda L, i: i.cumsum(0), (I(4),), lambda i: i.cumsum(0), grad=False),
    Case("cumsum_bool", lambda L, b: b.cumsum(1), (B(2, 3),), lambda b: b.cumsum(1, dtype="int64"), grad=False),
    Case("cumsum_dtype", lambda L, x: x.cumsum(0, dtype=L.float64), (N(3),), lambda x: x.astype("float64").cumsum(0)),
    Case("cumsum_", lambda L, x: x.clone().cumsum_(1), (N(2, 3),), lambda x: x.cumsum(1)),
    Case("cumprod", lambda L, x: x.cumprod(1), (A(2, 3),), lambda x: x.cumprod(1)),
    Case("torch_cumprod", lambda L, x: L.cumprod(x, 0), (A(3, 2),), lambda x: x.cumprod(0)),
    Case("cumprod_one_zero", lambda L, x: x.cumprod(1), (C(ZERO_ONCE),), lambda x: x.cumprod(1)),
    Case("cumprod_two_zeros", lambda L, x: x.cumprod(-1), (C(ZERO_TWICE),), lambda x: x.cumprod(-1)),
    Case("cumprod_0d", lambda L, x: x.cumprod(0), (N(),), lambda x: x.copy()),
    Case("cumprod_int", lambda L, i: i.cumprod(0), (I(4),), lambda i: i.cumprod(0), grad=False),
    Case("cumprod_", lambda L, x: x.clone().cumprod_(0), (A(3, 2),), lambda x: x.cumprod(0)),
    # ---- logsumexp, amax, amin ------------------------------------------------------------------------------
    Case("logsumexp", lambda L, x: x.logsumexp(1), (N(2, 3),), lambda x: _logsumexp(x, 1)),
    Case("torch_logsumexp", lambda L, x: L.logsumexp(x, 0, keepdim=True), (N(2, 3),),
         lambda x: _logsumexp(x, 0, True)),
    Case("logsumexp_dims", lambda L, x: x.logsumexp((0, 2)), (N(2, 3, 2),), lambda x: _logsumexp(x, (0, 2))),
    Case("logsumexp_large", lambda L, x: x.logsumexp(0), (C([1000.0, 1001.0, -5.0]),), lambda x: _logsumexp(x, 0)),
    Case("logsumexp_0d", lambda L, x: x.logsumexp(0), (N(),), lambda x: x.copy()),
    Case("logsumexp_int", lambda L, i: i.logsumexp(0), (I(4),), lambda i: _logsumexp(i.astype("float32"), 0),
         grad=False),
    Case("logsumexp_inf", lambda L, x: x.logsumexp(0), (C([float("-inf"), float("-inf")]),),
         lambda x: np.array(-np.inf, x.dtype), gradcheck=False),
    Case("amax", lambda L, x: x.amax(), (N(2, 3),), np.max),
    Case("torch_amax_dim", lambda L, x: L.amax(x, 1), (N(2, 3),), lambda x: x.max(1)),
    Case("amax_dims_keepdim", lambda L, x: x.amax((0, 2), keepdim=True), (N(2, 3, 2),),
         lambda x: x.max((0, 2), keepdims=True)),
    Case("amax_ties", lambda L, x: x.amax(1), (C([[3.0, 1.0, 3.0], [2.0, 2.0, 2.0]]),), lambda x: x.max(1),
         gradcheck=False),
    Case("amax_0d", lambda L, x: x.amax(), (N(),), lambda x: x.copy()),
    Case("amax_int", lambda L, i: i.amax(0), (I(3, 2),), lambda i: i.max(0), grad=False),
    Case("amax_bool", lambda L, b: b.amax(), (B(4),), np.max, grad=False),
    Case("amin", lambda L, x: x.amin(), (N(2, 3),), np.min),
    Case("amin_dim", lambda L, x: L.amin(x, dim=-1, keepdim=True), (N(2, 3),), lambda x: x.min(-1, keepdims=True)),
    Case("amin_ties", lambda L, x: x.amin(), (C([1.0, -2.0, -2.0]),), np.min, gradcheck=False),
    # ---- all and any: bool results, never recorded --------------------------------------------------------
    Case("all", lambda L, x: x.all(), (N(2, 3),), np.all, grad=False),
    Case("all_dim", lambda L, b: b.all(1), (B(3, 2),), lambda b: b.all(1), grad=False),
    Case("torch_all_keepdim", lambda L, i: L.all(i, 0, keepdim=True), (I(3, 2),), lambda i: i.all(0, keepdims=True),
         grad=False),
    Case("all_zero", lambda L, x: x.all(), (C([1.0, 0.0]),), np.all, grad=False),
    Case("all_empty", lambda L, x: x.all(), (N(0),), np.all, grad=False),
    Case("any", lambda L, b: b.any(), (B(4),), np.any, grad=False),
    Case("torch_any_dim", lambda L, x: L.any(x, dim=0), (C([[0.0, 1.0], [0.0, 0.0]]),), lambda x: x.any(0),
         grad=False),
    Case("any_dims", lambda L, b: b.any((0, 1)), (B(2, 3, 2),), lambda b: b.any((0, 1)), grad=False),
    # ---- topk ----------------------------------------------------------------------------------------------
    Case("topk", lambda L, x: tuple(x.topk(2)), (N(3, 4),), lambda x: _topk(x, 2)),
    Case("topk_dim0", lambda L, x: tuple(x.topk(2, dim=0)), (N(3, 4),), lambda x: _topk(x, 2, 0)),
    Case("topk_smallest", lambda L, x: tuple(L.topk(x, 3, largest=False)), (N(5),), lambda x: _topk(x, 3, -1, False)),
    Case("topk_values", lambda L, x: x.topk(1, -1, True, True).values, (N(2, 3),), lambda x: _topk(x, 1)[0]),
    Case("topk_all", lambda L, x: tuple(x.topk(4)), (N(4),), lambda x: _topk(x, 4)),
    Case("topk_k0", lambda L, x: tuple(x.topk(0)), (N(2, 3),), lambda x: _topk(x, 0)),
    Case("topk_0d", lambda L, x: tuple(x.topk(1)), (N(),), lambda x: (x.copy(), np.int64(0))),
    Case("topk_int", lambda L, i: tuple(i.topk(2)), (C([4, -1, 7, 2], "int64"),), lambda i: _topk(i, 2), grad=False),
    # ---- sum and mean take numpy's `keepdims` too --------------------------------------------------------
    Case("sum_keepdims", lambda L, x: x.sum(1, keepdims=True), (N(2, 3),), lambda x: x.sum(1, keepdims=True)),
    Case("torch_sum_keepdims", lambda L, x: L.sum(x, (0, 1), keepdims=True), (N(2, 3),),
         lambda x: x.sum((0, 1), keepdims=True)),
    Case("mean_keepdims", lambda L, x: x.mean(0, keepdims=True), (N(2, 3),), lambda x: x.mean(0, keepdims=True)),
    Case("sum_dim_none_keepdim", lambda L, x: x.sum(dim=None, keepdim=True), (N(2, 3),),
         lambda x: x.sum(keepdims=True)),
    Case("mean_dim_none_keepdim", lambda L, x: L.mean(x, dim=None, keepdim=True), (N(2, 3),),
         lambda x: x.mean(keepdims=True)),
]

ERRORS = [
    ("std_int", lambda L: L.tensor([1, 2]).std()),
    ("var_bool", lambda L: L.tensor([True, False]).var()),
    ("var_dim_out_of_range", lambda L: L.ones(2, 3).var(2)),
    ("std_dims_repeated", lambda L: L.ones(2, 3).std((0, 0))),
    ("std_one_element", lambda L: L.ones(1).std()),
    ("var_empty_dim", lambda L: L.ones(0, 3).var(0)),
    ("var_correction_too_big", lambda L: L.ones(2, 3).var(1, correction=3)),
    ("std_0d", lambda L: L.tensor(2.0).std()),
    ("prod_dim_out_of_range", lambda L: L.ones(2, 3).prod(-3)),
    ("cumsum_dim_out_of_range", lambda L: L.ones(2, 3).cumsum(2)),
    ("cumprod_dim_out_of_range", lambda L: L.ones(3).cumprod(1)),
    ("cumsum_inplace_dtype", lambda L: L.tensor([1, 2]).cumsum_(0, dtype=L.float64)),
    ("cumprod_inplace_dtype", lambda L: L.tensor([1.0, 2.0]).cumprod_(0, dtype=L.float64)),
    ("logsumexp_none", lambda L: L.ones(3).logsumexp(None)),
    ("logsumexp_dim_out_of_range", lambda L: L.ones(3).logsumexp(1)),
    ("amax_empty", lambda L: L.ones(0).amax()),
    ("amin_empty", lambda L: L.ones(0, 2).amin()),
    ("amax_empty_dim", lambda L: L.ones(0, 2).amax(0)),
    ("amin_empty_dim_neg", lambda L: L.ones(2, 0).amin(-1)),
    ("amax_dim_out_of_range", lambda L: L.ones(2).amax(1)),
    ("all_dim_out_of_range", lambda L: L.ones(2).all(1)),
    ("any_dim_out_of_range", lambda L: L.ones(2, 2).any(-3)),
    ("topk_k_too_big", lambda L: L.ones(2, 3).topk(4)),
    ("topk_k_negative", lambda L: L.ones(3).topk(-1)),
    ("topk_bool", lambda L: L.tensor([True, False]).topk(1)),
    ("topk_dim_out_of_range", lambda L: L.ones(2, 3).topk(1, dim=2)),
    ("topk_0d_k2", lambda L: L.tensor(1.0).topk(2)),
]
