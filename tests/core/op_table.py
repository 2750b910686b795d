"""The op table that drives tests/core/test_ops.py: every built-in op, with inputs and a numpy reference.

A case is ``Case(id, fn, args, ref)``:

- ``fn(lib, *tensors)`` is written against the public torch API; ``lib`` is ``torch`` or ``minigrad``.
- ``args`` says how to draw each input tensor from a seeded numpy RNG (``N`` normal, ``P`` positive, ``A``
  away from 0 and from the clamp bounds ±0.5, ``I`` integers, ``Ix`` indices, ``B`` booleans, ``C`` constant
  values). A float input without an explicit dtype takes the dtype under test: float32 for the forward check,
  float64 for gradcheck, both for parity.
- ``ref(*arrays)`` computes the expected result with numpy (never with minigrad).
- ``dtype`` overrides the expected result dtype where numpy's promotion differs from torch's.
- ``grad=False`` marks ops without a gradient (comparisons, casts to int, ...): no gradcheck, no backward.
- ``gradgrad="reason"`` skips gradgradcheck for a row whose op torch does not differentiate twice.
"""
import warnings

import numpy as np

from .op_table_base import FLOAT, A, B, C, Case, I, Ix, N, P, _max_dim, _norm, _setitem, _sigmoid, _sort  # noqa: F401

CASES = [
    # ---- + - * / ** and unary minus, with broadcasting and Python numbers on either side -------------------
    Case("add", lambda L, x, y: x + y, (N(2, 3), N(3)), lambda x, y: x + y),
    Case("add_broadcast_both", lambda L, x, y: x + y, (N(2, 1, 3), N(4, 1)), lambda x, y: x + y),
    Case("add_0d", lambda L, x, y: x + y, (N(2, 3), N()), lambda x, y: x + y),
    Case("add_scalar", lambda L, x: x + 2, (N(2, 3),), lambda x: x + 2),
    Case("radd", lambda L, x: 2.5 + x, (N(2, 3),), lambda x: 2.5 + x),
    Case("add_alpha", lambda L, x, y: x.add(y, alpha=2), (N(2, 3), N(2, 3)), lambda x, y: x + 2 * y),
    Case("torch_add", lambda L, x, y: L.add(x, y), (N(3, 1), N(1, 2)), lambda x, y: x + y),
    Case("sub", lambda L, x, y: x - y, (N(3, 1), N(1, 4)), lambda x, y: x - y),
    Case("sub_scalar", lambda L, x: x - 1.5, (N(4),), lambda x: x - 1.5),
    Case("rsub", lambda L, x: 1.5 - x, (N(2, 3),), lambda x: 1.5 - x),
    Case("sub_alpha", lambda L, x, y: x.sub(y, alpha=3), (N(2, 3), N(3)), lambda x, y: x - 3 * y),
    Case("mul", lambda L, x, y: x * y, (N(2, 3), N(2, 1)), lambda x, y: x * y),
    Case("mul_same", lambda L, x: x * x, (N(5),), lambda x: x * x),
    Case("mul_scalar", lambda L, x: x * 0.5, (N(2, 3),), lambda x: x * 0.5),
    Case("rmul", lambda L, x: 3 * x, (N(2, 3),), lambda x: 3 * x),
    Case("torch_mul", lambda L, x, y: L.mul(x, y), (N(2, 3), N(3)), lambda x, y: x * y),
    Case("div", lambda L, x, y: x / y, (N(2, 3), A(3)), lambda x, y: x / y),
    Case("div_broadcast_left", lambda L, x, y: x / y, (N(3), A(2, 3)), lambda x, y: x / y),
    Case("div_scalar", lambda L, x: x / 4, (N(2, 3),), lambda x: x / 4),
    Case("rdiv", lambda L, x: 2 / x, (A(2, 3),), lambda x: 2 / x),
    Case("torch_div", lambda L, x, y: L.div(x, y), (N(3), A(3)), lambda x, y: x / y),
    Case("pow_2", lambda L, x: x ** 2, (N(2, 3),), lambda x: x ** 2),
    Case("pow_3_method", lambda L, x: x.pow(3), (N(4),), lambda x: x ** 3),
    Case("pow_half", lambda L, x: x ** 0.5, (P(2, 3),), lambda x: x ** 0.5),
    Case("pow_negative", lambda L, x: x ** -1.5, (P(2, 3),), lambda x: x ** -1.5),
    Case("pow_0", lambda L, x: x ** 0, (N(3),), lambda x: x ** 0),
    Case("pow_tensor", lambda L, x, y: x ** y, (P(2, 3), N(3)), lambda x, y: x ** y),
    Case("torch_pow", lambda L, x: L.pow(x, 2), (N(3),), lambda x: x ** 2),
    Case("rpow", lambda L, x: 2 ** x, (N(2, 3),), lambda x: 2 ** x),
    Case("rpow_float", lambda L, x: 1.5 ** x, (N(3),), lambda x: 1.5 ** x),
    Case("neg", lambda L, x: -x, (N(2, 3),), lambda x: -x),
    Case("torch_neg", lambda L, x: L.neg(x), (N(2, 3),), lambda x: -x),
    # ---- dtype promotion (PyTorch's rule, not numpy's, where they differ) -----------------------------------
    Case("promote_f32_f64", lambda L, x, y: x + y, (N(2, 3, dtype="float32"), N(3, dtype="float64")),
         lambda x, y: x + y),
    Case("promote_0d_f64_keeps_f32", lambda L, x, y: x * y, (N(2, 3, dtype="float32"), N(dtype="float64")),
         lambda x, y: x * y, dtype="float32"),
    Case("promote_int_float", lambda L, i, x: i + x, (I(2, 3), N(3)), lambda i, x: i + x, dtype="float32"),
    Case("promote_int_times_float_scalar", lambda L, i: i * 2.5, (I(2, 3),), lambda i: i * 2.5, dtype="float32",
         grad=False),
    Case("promote_int_plus_int", lambda L, i, j: i + j, (I(2, 3), I(3)), lambda i, j: i + j, grad=False),
    Case("promote_int_div_int", lambda L, i, j: i / j, (I(2, 3), C([1, -2, 3], "int64")), lambda i, j: i / j,
         dtype="float32", grad=False),
    Case("promote_int_pow_2", lambda L, i: i ** 2, (I(2, 3),), lambda i: i ** 2, grad=False),
    Case("promote_int_pow_half", lambda L, i: i.abs() ** 0.5, (I(2, 3),), lambda i: np.abs(i) ** 0.5,
         dtype="float32", grad=False),
    Case("promote_bool_times_float", lambda L, b, x: b * x, (B(2, 3), N(2, 3)), lambda b, x: b * x),
    Case("promote_bool_plus_bool", lambda L, a, b: a + b, (B(4), B(4)), lambda a, b: a | b, grad=False),
    Case("promote_int_plus_0d_f64", lambda L, i, y: i + y, (I(3), N(dtype="float64")), lambda i, y: i + y),
    Case("promote_f64_plus_float_scalar", lambda L, x: x + 0.1, (N(3, dtype="float64"),), lambda x: x + 0.1),
    Case("promote_int_rsub_float", lambda L, i: 0.5 - i, (I(3),), lambda i: 0.5 - i, dtype="float32",
         grad=False),
    # ---- comparisons give bool tensors and are never recorded ---------------------------------------------
    Case("lt", lambda L, x, y: x < y, (N(2, 3), N(3)), lambda x, y: x < y, grad=False),
    Case("le_scalar", lambda L, x: x <= 0.1, (N(2, 3),), lambda x: x <= 0.1, grad=False),
    Case("gt", lambda L, x, y: x > y, (N(2, 3), N(2, 1)), lambda x, y: x > y, grad=False),
    Case("ge_int", lambda L, i, j: i >= j, (I(2, 3), I(3)), lambda i, j: i >= j, grad=False),
    Case("eq_int", lambda L, i, j: i == j, (I(3, 3), I(3)), lambda i, j: i == j, grad=False),
    Case("ne_scalar", lambda L, i: i != 1, (I(5),), lambda i: i != 1, grad=False),
    Case("eq_method", lambda L, x: x.eq(x), (N(3),), lambda x: x == x, grad=False),
    Case("lt_method_float_int", lambda L, x, i: x.lt(i), (N(2, 3), I(3)), lambda x, i: x < i, grad=False),
    # ---- reductions -----------------------------------------------------------------------------------------
    Case("sum", lambda L, x: x.sum(), (N(2, 3),), lambda x: x.sum()),
    Case("sum_dim0", lambda L, x: x.sum(0), (N(2, 3),), lambda x: x.sum(0)),
    Case("sum_dim_keepdim", lambda L, x: x.sum(dim=1, keepdim=True), (N(2, 3),), lambda x: x.sum(1, keepdims=True)),
    Case("sum_dims", lambda L, x: x.sum(dim=(0, 2)), (N(2, 3, 4),), lambda x: x.sum((0, 2))),
    Case("sum_neg_dim", lambda L, x: x.sum(-1), (N(2, 3, 4),), lambda x: x.sum(-1)),
    Case("torch_sum", lambda L, x: L.sum(x, 1), (N(2, 3),), lambda x: x.sum(1)),
    Case("sum_0d", lambda L, x: x.sum(), (N(),), lambda x: x.sum()),
    Case("sum_int", lambda L, i: i.sum(), (I(2, 3),), lambda i: i.sum(), grad=False),
    Case("sum_bool", lambda L, b: b.sum(), (B(2, 3),), lambda b: b.sum(dtype=np.int64), grad=False),
    Case("sum_bool_dim", lambda L, b: b.sum(0), (B(2, 3),), lambda b: b.sum(0, dtype=np.int64), grad=False),
    Case("softmax", lambda L, x: x.softmax(1), (N(2, 3),),
         lambda x: np.exp(x - x.max(1, keepdims=True)) / np.exp(x - x.max(1, keepdims=True)).sum(1, keepdims=True)),
    Case("log_softmax", lambda L, x: L.log_softmax(x, -1), (N(2, 3),),
         lambda x: x - x.max(-1, keepdims=True) - np.log(np.exp(x - x.max(-1, keepdims=True)).sum(-1, keepdims=True))),
    Case("mean", lambda L, x: x.mean(), (N(2, 3),), lambda x: x.mean()),
    Case("mean_dim", lambda L, x: x.mean(0), (N(2, 3),), lambda x: x.mean(0)),
    Case("mean_dim_keepdim", lambda L, x: x.mean(dim=-1, keepdim=True), (N(2, 3),),
         lambda x: x.mean(-1, keepdims=True)),
    Case("mean_dims", lambda L, x: x.mean((1, 2)), (N(2, 3, 4),), lambda x: x.mean((1, 2))),
    Case("torch_mean", lambda L, x: L.mean(x), (N(4),), lambda x: x.mean()),
    Case("max", lambda L, x: x.max(), (N(2, 3),), lambda x: x.max()),
    Case("min", lambda L, x: x.min(), (N(2, 3),), lambda x: x.min()),
    Case("max_ties", lambda L, x: x.max(), (C([1.0, 3.0, 3.0, -2.0]),), lambda x: x.max(), gradcheck=False),
    Case("min_ties", lambda L, x: x.min(), (C([[1.0, -2.0], [-2.0, 0.5]]),), lambda x: x.min(), gradcheck=False),
    Case("max_dim", lambda L, x: tuple(x.max(dim=1)), (N(3, 4),), lambda x: _max_dim(x, 1)),
    Case("max_dim_keepdim", lambda L, x: tuple(x.max(0, keepdim=True)), (N(3, 4),),
         lambda x: _max_dim(x, 0, True)),
    Case("max_dim_values", lambda L, x: x.max(dim=-1).values, (N(2, 3, 4),), lambda x: x.max(-1)),
    Case("min_dim", lambda L, x: tuple(x.min(dim=0)), (N(3, 4),), lambda x: _max_dim(x, 0, pick=np.argmin)),
    Case("min_dim_indices", lambda L, x: x.min(1).indices, (N(3, 4),), lambda x: x.argmin(1), grad=False),
    Case("torch_max", lambda L, x: L.max(x), (N(5),), lambda x: x.max()),
    Case("max_int", lambda L, i: i.max(), (I(2, 3),), lambda i: i.max(), grad=False),
    Case("sort", lambda L, x: tuple(x.sort()), (N(3, 4),), lambda x: _sort(x)),
    Case("sort_dim0", lambda L, x: tuple(x.sort(dim=0)), (N(3, 4),), lambda x: _sort(x, 0)),
    Case("sort_descending", lambda L, x: tuple(x.sort(descending=True)), (N(5),), lambda x: _sort(x, -1, True)),
    Case("torch_sort", lambda L, x: tuple(L.sort(x, 1)), (N(2, 3),), lambda x: _sort(x, 1)),
    Case("norm", lambda L, x: x.norm(), (N(2, 3),), lambda x: _norm(x)),
    Case("norm_p1", lambda L, x: x.norm(p=1), (A(2, 3),), lambda x: _norm(x, 1)),
    Case("norm_p3", lambda L, x: x.norm(3), (A(2, 3),), lambda x: _norm(x, 3)),
    Case("norm_inf", lambda L, x: x.norm(float("inf")), (N(2, 3),), lambda x: _norm(x, float("inf"))),
    Case("norm_dim", lambda L, x: x.norm(dim=1), (N(2, 3),), lambda x: _norm(x, 2, 1)),
    Case("norm_dim_keepdim", lambda L, x: x.norm(2, 0, True), (N(2, 3),), lambda x: _norm(x, 2, 0, True)),
    Case("norm_p1_dim", lambda L, x: x.norm(1, dim=-1), (A(2, 3),), lambda x: _norm(x, 1, -1)),
    Case("torch_norm_dim", lambda L, x: L.norm(x, dim=0), (N(2, 3),), lambda x: _norm(x, 2, 0)),
    # ---- reductions at the edges: 0-d and empty tensors ----------------------------------------------------
    Case("sum_0d_dim", lambda L, x: x.sum(0), (N(),), lambda x: x),
    Case("sum_0d_dim_keepdim", lambda L, x: x.sum(-1, keepdim=True), (N(),), lambda x: x),
    Case("mean_0d_dim", lambda L, x: x.mean(0), (N(),), lambda x: x),
    Case("sum_empty", lambda L, x: x.sum(), (N(0, 3),), lambda x: x.sum()),
    Case("sum_empty_dim", lambda L, x: x.sum(0), (N(0, 3),), lambda x: x.sum(0)),
    Case("mean_empty_dim", lambda L, x: x.mean(1), (N(0, 3),), lambda x: x.mean(1)),
    Case("max_dim_0d", lambda L, x: tuple(x.max(0)), (N(),), lambda x: (x, np.int64(0))),
    Case("norm_0d", lambda L, x: x.norm(), (N(),), lambda x: np.abs(x)),
    Case("sort_0d", lambda L, x: tuple(x.sort()), (N(),), lambda x: (x, np.int64(0))),
    Case("unsqueeze_0d", lambda L, x: x.unsqueeze(0), (N(),), lambda x: x[None]),
    Case("transpose_0d", lambda L, x: x.transpose(0, -1), (N(),), lambda x: x),
    Case("t_0d", lambda L, x: x.t(), (N(),), lambda x: x),
    Case("squeeze_0d", lambda L, x: x.squeeze(), (N(),), lambda x: x),
    Case("squeeze_0d_dim", lambda L, x: x.squeeze(0), (N(),), lambda x: x),
    Case("cat_with_empty", lambda L, x, y: L.cat([x, y]), (N(0, 2), N(2, 2)), lambda x, y: np.concatenate([x, y])),
    Case("matmul_empty", lambda L, x, w: x @ w, (N(2, 0), N(0, 3)), lambda x, w: x @ w),
    Case("index_empty_mask", lambda L, x, m: x[m], (N(3), C([False, False, False], "bool")), lambda x, m: x[m]),
    Case("reshape_0d", lambda L, x: x.reshape(1, 1), (N(),), lambda x: x.reshape(1, 1)),
    Case("view_to_0d", lambda L, x: x.view(()), (N(1),), lambda x: x.reshape(())),
    Case("expand_0d", lambda L, x: x.expand(2, 3), (N(),), lambda x: np.broadcast_to(x, (2, 3))),
    # ---- matrix products ------------------------------------------------------------------------------------
    Case("mm", lambda L, x, w: x.mm(w), (N(2, 3), N(3, 4)), lambda x, w: x @ w),
    Case("torch_mm", lambda L, x, w: L.mm(x, w), (N(2, 3), N(3, 2)), lambda x, w: x @ w),
    Case("matmul_2d", lambda L, x, w: x @ w, (N(2, 3), N(3, 4)), lambda x, w: x @ w),
    Case("matmul_mv", lambda L, x, v: x @ v, (N(2, 3), N(3)), lambda x, v: x @ v),
    Case("matmul_dot", lambda L, u, v: u @ v, (N(3), N(3)), lambda u, v: u @ v),
    Case("matmul_vector_matrix", lambda L, v, w: v @ w, (N(3), N(3, 4)), lambda v, w: v @ w),
    Case("matmul_batched", lambda L, x, w: x @ w, (N(2, 3, 4), N(2, 4, 5)), lambda x, w: x @ w),
    Case("matmul_batched_broadcast", lambda L, x, w: x.matmul(w), (N(2, 3, 4), N(4, 2)), lambda x, w: x @ w),
    Case("matmul_matrix_batched", lambda L, x, w: L.matmul(x, w), (N(3, 4), N(2, 4, 2)), lambda x, w: x @ w),
    Case("matmul_batched_vector", lambda L, x, v: x @ v, (N(2, 3, 4), N(4)), lambda x, v: x @ v),
    Case("matmul_4d_broadcast", lambda L, x, w: x @ w, (N(2, 1, 2, 3), N(3, 3, 2)), lambda x, w: x @ w),
    Case("matmul_vector_batched", lambda L, v, w: v @ w, (N(4), N(2, 4, 3)), lambda v, w: v @ w),
    Case("matmul_4d_4d", lambda L, x, w: x @ w, (N(2, 2, 3, 4), N(2, 2, 4, 5)), lambda x, w: x @ w),
    Case("matmul_batch1_batched", lambda L, x, w: x @ w, (N(1, 3, 4), N(2, 4, 5)), lambda x, w: x @ w),
    Case("matmul_batched_batch1", lambda L, x, w: x @ w, (N(2, 3, 4), N(1, 4, 5)), lambda x, w: x @ w),
    Case("matmul_batched_constant", lambda L, x, w: x @ w, (N(2, 3, 4), N(4, 5, const=True)), lambda x, w: x @ w),
    Case("matmul_constant_batched", lambda L, x, w: x @ w, (N(3, 4, const=True), N(2, 4, 3)), lambda x, w: x @ w),
    Case("matmul_constant_vector_batched", lambda L, v, w: v @ w, (N(4, const=True), N(2, 4, 3)),
         lambda v, w: v @ w),
    Case("matmul_transposed_batched_constant_vector", lambda L, x, v: x.transpose(0, 1) @ v,
         (N(3, 2, 4), N(4, const=True)), lambda x, v: x.swapaxes(0, 1) @ v),
    Case("matmul_constant_batch1_batched", lambda L, x, w: x @ w, (N(1, 3, 4, const=True), N(2, 4, 5)),
         lambda x, w: x @ w),
    Case("mv", lambda L, x, v: x.mv(v), (N(2, 3), N(3)), lambda x, v: x @ v),
    Case("torch_mv", lambda L, x, v: L.mv(x, v), (N(4, 2), N(2)), lambda x, v: x @ v),
    Case("dot", lambda L, u, v: u.dot(v), (N(4), N(4)), lambda u, v: u @ v),
    Case("torch_dot", lambda L, u, v: L.dot(u, v), (N(3), N(3)), lambda u, v: u @ v),
    # ---- elementwise functions ------------------------------------------------------------------------------
    Case("exp", lambda L, x: x.exp(), (N(2, 3),), np.exp),
    Case("torch_exp", lambda L, x: L.exp(x), (N(3),), np.exp),
    Case("exp_int", lambda L, i: i.exp(), (I(3),), np.exp, dtype="float32", grad=False),
    Case("log", lambda L, x: x.log(), (P(2, 3),), np.log),
    Case("torch_log", lambda L, x: L.log(x), (P(3),), np.log),
    Case("abs", lambda L, x: x.abs(), (A(2, 3),), np.abs),
    Case("builtin_abs", lambda L, x: abs(x), (A(2, 3),), np.abs),
    Case("abs_int", lambda L, i: i.abs(), (I(4),), np.abs, grad=False),
    Case("sqrt", lambda L, x: x.sqrt(), (P(2, 3),), np.sqrt),
    Case("torch_sqrt", lambda L, x: L.sqrt(x), (P(3),), np.sqrt),
    Case("sqrt_int", lambda L, i: i.abs().sqrt(), (I(4),), lambda i: np.sqrt(np.abs(i)), dtype="float32",
         grad=False),
    Case("clamp", lambda L, x: x.clamp(-0.5, 0.5), (A(2, 3),), lambda x: np.clip(x, -0.5, 0.5)),
    Case("clamp_min", lambda L, x: x.clamp(min=-0.5), (A(2, 3),), lambda x: np.maximum(x, -0.5)),
    Case("clamp_max", lambda L, x: x.clamp(max=0.5), (A(2, 3),), lambda x: np.minimum(x, 0.5)),
    Case("torch_clamp", lambda L, x: L.clamp(x, -0.5, 0.5), (A(4),), lambda x: np.clip(x, -0.5, 0.5)),
    Case("clip", lambda L, x: x.clip(0.5), (A(4),), lambda x: np.maximum(x, 0.5)),
    Case("clamp_int_float_bound", lambda L, i: i.clamp(0.5), (I(5),), lambda i: np.maximum(i, 0.5), dtype="float32",
         grad=False),
    Case("clamp_int", lambda L, i: i.clamp(-1, 2), (I(5),), lambda i: np.clip(i, -1, 2), grad=False),
    Case("clamp_bool_int_bounds", lambda L, b: b.clamp(0, 1), (B(4),), lambda b: b.astype("int64"), grad=False),
    Case("relu", lambda L, x: x.relu(), (A(2, 3),), lambda x: np.maximum(x, 0)),
    Case("torch_relu", lambda L, x: L.relu(x), (A(5),), lambda x: np.maximum(x, 0)),
    Case("sigmoid", lambda L, x: x.sigmoid(), (N(2, 3),), _sigmoid),
    Case("torch_sigmoid", lambda L, x: L.sigmoid(x), (N(3),), _sigmoid),
    Case("tanh", lambda L, x: x.tanh(), (N(2, 3),), np.tanh),
    Case("torch_tanh", lambda L, x: L.tanh(x), (N(3),), np.tanh),
    # ---- shape and views ------------------------------------------------------------------------------------
    Case("t", lambda L, x: x.t(), (N(2, 3),), lambda x: x.T),
    Case("T_property", lambda L, x: x.T, (N(2, 3),), lambda x: x.T),
    Case("t_1d", lambda L, x: x.t(), (N(3),), lambda x: x),
    Case("torch_t", lambda L, x: L.t(x), (N(3, 2),), lambda x: x.T),
    Case("T_3d", lambda L, x: _quiet(lambda: x.T), (N(2, 3, 4),), lambda x: x.transpose(2, 1, 0)),
    Case("permute", lambda L, x: x.permute(2, 0, 1), (N(2, 3, 4),), lambda x: x.transpose(2, 0, 1)),
    Case("permute_tuple_neg", lambda L, x: x.permute((-1, 0, 1)), (N(2, 3, 4),), lambda x: x.transpose(2, 0, 1)),
    Case("contiguous_copy", lambda L, x: x.t().contiguous(), (N(2, 3),), lambda x: x.T.copy()),
    Case("contiguous_noop", lambda L, x: x.contiguous(), (N(2, 3),), lambda x: x),
    Case("transpose", lambda L, x: x.transpose(0, 2), (N(2, 3, 4),), lambda x: x.swapaxes(0, 2)),
    Case("transpose_neg", lambda L, x: x.transpose(-1, -2), (N(2, 3, 4),), lambda x: x.swapaxes(-1, -2)),
    Case("torch_transpose", lambda L, x: L.transpose(x, 0, 1), (N(2, 3),), lambda x: x.T),
    Case("reshape", lambda L, x: x.reshape(3, 2), (N(2, 3),), lambda x: x.reshape(3, 2)),
    Case("reshape_minus1", lambda L, x: x.reshape(-1, 4), (N(2, 3, 4),), lambda x: x.reshape(-1, 4)),
    Case("reshape_tuple", lambda L, x: x.reshape((6,)), (N(2, 3),), lambda x: x.reshape(6)),
    Case("reshape_copy", lambda L, x: x.t().reshape(6), (N(2, 3),), lambda x: x.T.reshape(6)),
    Case("reshape_alias", lambda L, x: x.t().reshape(3, 1, 2), (N(2, 3),), lambda x: x.T.reshape(3, 1, 2)),
    Case("reshape_alias_slice", lambda L, x: x[:, :2].reshape(2, 2, 2), (N(4, 3),),
         lambda x: x[:, :2].reshape(2, 2, 2)),
    Case("torch_reshape", lambda L, x: L.reshape(x, (3, 2)), (N(6),), lambda x: x.reshape(3, 2)),
    Case("view", lambda L, x: x.view(3, 2), (N(2, 3),), lambda x: x.reshape(3, 2)),
    Case("repeat", lambda L, x: x.repeat(2, 1, 3), (N(2, 2),), lambda x: np.tile(x, (2, 1, 3))),
    Case("repeat_same_ndim", lambda L, x: x.repeat(1, 2), (N(3, 1),), lambda x: np.tile(x, (1, 2))),
    Case("view_minus1", lambda L, x: x.view(-1), (N(2, 3),), lambda x: x.reshape(-1)),
    Case("view_as", lambda L, x, y: x.view_as(y), (N(2, 3), N(3, 2)), lambda x, y: x.reshape(3, 2)),
    Case("flatten", lambda L, x: x.flatten(), (N(2, 3, 4),), lambda x: x.reshape(-1)),
    Case("flatten_start", lambda L, x: L.flatten(x, 1), (N(2, 3, 4),), lambda x: x.reshape(2, -1)),
    Case("unsqueeze", lambda L, x: x.unsqueeze(0), (N(2, 3),), lambda x: x[None]),
    Case("unsqueeze_neg", lambda L, x: x.unsqueeze(-1), (N(2, 3),), lambda x: x[..., None]),
    Case("torch_unsqueeze", lambda L, x: L.unsqueeze(x, 1), (N(2, 3),), lambda x: x[:, None]),
    Case("squeeze", lambda L, x: x.squeeze(), (N(1, 3, 1),), lambda x: x.squeeze()),
    Case("squeeze_dim", lambda L, x: x.squeeze(2), (N(1, 3, 1),), lambda x: x.squeeze(2)),
    Case("squeeze_dim_not_one", lambda L, x: x.squeeze(1), (N(1, 3, 1),), lambda x: x),
    Case("torch_squeeze", lambda L, x: L.squeeze(x, 0), (N(1, 3),), lambda x: x[0]),
    Case("expand", lambda L, x: x.expand(3, 4), (N(3, 1),), lambda x: np.broadcast_to(x, (3, 4))),
    Case("expand_minus1", lambda L, x: x.expand(-1, 4), (N(3, 1),), lambda x: np.broadcast_to(x, (3, 4))),
    Case("expand_new_dims", lambda L, x: x.expand((2, 3, 4)), (N(3, 1),), lambda x: np.broadcast_to(x, (2, 3, 4))),
    Case("expand_as", lambda L, x, y: x.expand_as(y), (N(3), N(2, 3)), lambda x, y: np.broadcast_to(x, (2, 3))),
    Case("clone", lambda L, x: x.clone(), (N(2, 3),), lambda x: x.copy()),
    Case("torch_clone", lambda L, x: L.clone(x), (N(3),), lambda x: x.copy()),
    # ---- dtype casts ------------------------------------------------------------------------------------
    Case("double", lambda L, x: x.double(), (N(2, 3, dtype="float32"),), lambda x: x.astype("float64")),
    Case("float", lambda L, x: x.float(), (N(2, 3, dtype="float64"),), lambda x: x.astype("float32"),
         gradcheck=False),     # a float32 result: finite differences would be too coarse
    Case("to_float64", lambda L, x: x.to(L.float64), (N(3, dtype="float32"),), lambda x: x.astype("float64")),
    Case("to_same_dtype", lambda L, x: x.to(L.float32), (N(3, dtype="float32"),), lambda x: x, gradcheck=False),
    Case("long", lambda L, x: (x * 3).long(), (N(2, 3),), lambda x: (x * 3).astype("int64"), grad=False),
    Case("bool", lambda L, x: x.bool(), (C([0.0, 1.5, -2.0]),), lambda x: x.astype(bool), grad=False),
    Case("int_to_float", lambda L, i: i.float(), (I(4),), lambda i: i.astype("float32"), grad=False),
    Case("bool_to_long", lambda L, b: b.long(), (B(4),), lambda b: b.astype("int64"), grad=False),
    # ---- indexing: basic indices are views, advanced ones (int arrays, masks) copies -----------------------
    Case("index_int", lambda L, x: x[1], (N(3, 4),), lambda x: x[1]),
    Case("index_neg", lambda L, x: x[-1], (N(3, 4),), lambda x: x[-1]),
    Case("index_column", lambda L, x: x[:, 1], (N(3, 4),), lambda x: x[:, 1]),
    Case("index_two_ints", lambda L, x: x[1, 2], (N(3, 4),), lambda x: x[1, 2]),
    Case("index_slice", lambda L, x: x[1:3], (N(4, 2),), lambda x: x[1:3]),
    Case("index_slice_step", lambda L, x: x[::2, 1:], (N(5, 3),), lambda x: x[::2, 1:]),
    Case("index_ellipsis", lambda L, x: x[..., 0], (N(2, 3, 4),), lambda x: x[..., 0]),
    Case("index_none", lambda L, x: x[None, :, None], (N(3),), lambda x: x[None, :, None]),
    Case("index_full_slice", lambda L, x: x[:], (N(3),), lambda x: x[:]),
    Case("index_full_slices", lambda L, x: x[:, :], (N(2, 3),), lambda x: x),
    Case("index_ellipsis_only", lambda L, x: x[...], (N(2, 3),), lambda x: x),
    Case("index_mask", lambda L, x, m: x[m], (N(3, 4), B(3, 4)), lambda x, m: x[m]),
    Case("index_row_mask", lambda L, x, m: x[m], (N(4, 2), C([True, False, True, True], "bool")),
         lambda x, m: x[m]),
    Case("index_computed_mask", lambda L, x: x[x > 0], (N(3, 4),), lambda x: x[x > 0]),
    Case("index_int_tensor", lambda L, x, i: x[i], (N(4, 3), Ix(5, high=4)), lambda x, i: x[i]),
    Case("index_int_repeats", lambda L, x, i: x[i], (N(3), C([0, 2, 0, 0], "int64")), lambda x, i: x[i]),
    Case("index_list", lambda L, x: x[[0, 2, 2]], (N(3, 2),), lambda x: x[[0, 2, 2]]),
    Case("index_int_tensor_then_slice", lambda L, x, i: x[i, 1:], (N(4, 3), Ix(3, high=4)), lambda x, i: x[i, 1:]),
    Case("index_slice_then_int_tensor", lambda L, x, i: x[:, i], (N(2, 4), Ix(3, high=4)), lambda x, i: x[:, i]),
    Case("index_two_int_tensors", lambda L, x, i, j: x[i, j], (N(3, 4), Ix(5, high=3), Ix(5, high=4)),
         lambda x, i, j: x[i, j]),
    # ---- __setitem__: on a clone, as in `grad_input[x < 0] = 0` ------------------------------------------
    Case("setitem_mask_scalar", lambda L, x: _set(x.clone(), x < 0, 0.0), (A(3, 4),),
         _setitem(lambda x: x < 0, 0.0)),
    Case("setitem_mask_tensor_value", lambda L, x, m, v: _set(x.clone(), m, v), (N(3), C([True, False, True], "bool"),
                                                                               N(2)),
         lambda x, m, v: _setitem(m, v)(x)),
    Case("setitem_row_tensor", lambda L, x, v: _set(x.clone(), 1, v), (N(3, 4), N(4)),
         lambda x, v: _setitem(1, v)(x)),
    Case("setitem_row_broadcast", lambda L, x, v: _set(x.clone(), 0, v), (N(3, 4), N(1)),
         lambda x, v: _setitem(0, v)(x)),
    Case("setitem_row_leading_ones", lambda L, x, v: _set(x.clone(), 2, v), (N(3, 4), N(1, 1, 4)),
         lambda x, v: _setitem(2, v[0, 0])(x)),
    Case("setitem_row_0d", lambda L, x, v: _set(x.clone(), 1, v), (N(3, 4), N()), lambda x, v: _setitem(1, v)(x)),
    Case("setitem_slice_column_value", lambda L, x, v: _set(x.clone(), slice(0, 2), v), (N(3, 4), N(2, 1)),
         lambda x, v: _setitem(slice(0, 2), v)(x)),
    Case("setitem_slice_row_value", lambda L, x, v: _set(x.clone(), slice(1, None), v), (N(3, 4), N(1, 4)),
         lambda x, v: _setitem(slice(1, None), v)(x)),
    Case("setitem_mask_row_value", lambda L, x, m, v: _set(x.clone(), m, v),
         (N(3, 4), C([True, False, True], "bool"), N(1, 4)), lambda x, m, v: _setitem(m, v)(x)),
    Case("setitem_mask_one_value", lambda L, x, v: _set(x.clone(), x > 0, v), (A(2, 3), N(1)),
         lambda x, v: _setitem(x > 0, v)(x)),
    Case("setitem_column_scalar", lambda L, x: _set(x.clone(), (slice(None), 0), 5.0), (N(3, 4),),
         _setitem((slice(None), 0), 5.0)),
    Case("setitem_slice_tensor", lambda L, x, v: _set(x.clone(), slice(1, 3), v), (N(4, 2), N(2, 2)),
         lambda x, v: _setitem(slice(1, 3), v)(x)),
    Case("setitem_int_tensor", lambda L, x, i, v: _set(x.clone(), i, v), (N(4, 2), C([3, 0], "int64"), N(2, 2)),
         lambda x, i, v: _setitem(i, v)(x)),
    Case("setitem_plain_tensor_value", lambda L, x, v: _set(x.clone(), x > 0, v[0]), (A(3), N(2)),
         lambda x, v: _setitem(x > 0, v[0])(x)),
    # ---- in-place ops on a non-leaf: the result is the same tensor, with the in-place op's node ------------
    Case("add_", lambda L, x, y: x.clone().add_(y), (N(2, 3), N(3)), lambda x, y: x + y),
    Case("add_alpha_", lambda L, x, y: (x * 1).add_(y, alpha=-2), (N(2, 3), N(2, 3)), lambda x, y: x - 2 * y),
    Case("sub_", lambda L, x: x.clone().sub_(1.5), (N(3),), lambda x: x - 1.5),
    Case("mul_", lambda L, x, y: x.clone().mul_(y), (N(2, 3), N(2, 1)), lambda x, y: x * y),
    Case("mul_scalar_", lambda L, x: (x * 1).mul_(2), (N(3),), lambda x: x * 2),
    Case("div_", lambda L, x, y: x.clone().div_(y), (N(3),) + (A(3),), lambda x, y: x / y),
    Case("iadd", lambda L, x, y: _iadd(x.clone(), y), (N(2, 3), N(2, 3)), lambda x, y: x + y),
    Case("clamp_", lambda L, x: x.clone().clamp_(-0.5, 0.5), (A(2, 3),), lambda x: np.clip(x, -0.5, 0.5)),
    Case("fill_", lambda L, x: x.clone().fill_(2.5), (N(2, 3),), lambda x: np.full_like(x, 2.5)),
    Case("zero_", lambda L, x: x.clone().zero_(), (N(2, 3),), np.zeros_like),
    Case("copy_", lambda L, x, y: x.clone().copy_(y), (N(2, 3), N(3)), lambda x, y: np.broadcast_to(y, x.shape)),
    Case("copy_from_int", lambda L, x, i: x.clone().copy_(i), (N(3), I(3)), lambda x, i: i.astype(x.dtype)),
    Case("inplace_through_select_view", lambda L, x: _write_through_views(L, x), (N(3, 2),),
         lambda x: x * np.array([[1, 1], [2, 12], [1, 1]], x.dtype), grad=False),
    Case("inplace_through_view_recorded", lambda L, x, w: _mul_through_view(L, x, w), (N(3, 2), N(2)),
         lambda x, w: np.concatenate([x[:1], x[1:2] * w, x[2:]])),
    Case("view_of_a_base_changed_in_place", lambda L, x, w: _view_of_changed_base(L, x, w), (N(3, 2), N(2)),
         lambda x, w: (x * w)[1:] * 3),
    # ---- cat, stack, where --------------------------------------------------------------------------------
    Case("cat", lambda L, x, y: L.cat([x, y]), (N(2, 3), N(1, 3)), lambda x, y: np.concatenate([x, y])),
    Case("cat_dim1", lambda L, x, y, z: L.cat((x, y, z), dim=1), (N(2, 1), N(2, 3), N(2, 2)),
         lambda x, y, z: np.concatenate([x, y, z], 1)),
    Case("cat_neg_dim", lambda L, x, y: L.cat([x, y], -1), (N(2, 2), N(2, 1)),
         lambda x, y: np.concatenate([x, y], -1)),
    Case("stack", lambda L, x, y: L.stack([x, y]), (N(2, 3), N(2, 3)), lambda x, y: np.stack([x, y])),
    Case("stack_dim1", lambda L, x, y, z: L.stack((x, y, z), dim=1), (N(2, 3), N(2, 3), N(2, 3)),
         lambda x, y, z: np.stack([x, y, z], 1)),
    Case("stack_neg_dim", lambda L, x, y: L.stack([x, y], -1), (N(3), N(3)), lambda x, y: np.stack([x, y], -1)),
    Case("where", lambda L, c, x, y: L.where(c, x, y), (B(2, 3), N(2, 3), N(3)), lambda c, x, y: np.where(c, x, y)),
    Case("where_scalar_other", lambda L, x: L.where(x > 0, x, 0.0), (A(2, 3),), lambda x: np.where(x > 0, x, 0.0)),
    Case("where_scalar_input", lambda L, c, y: L.where(c, 1.0, y), (B(3), N(2, 3)),
         lambda c, y: np.where(c, np.float32(1.0), y).astype(y.dtype)),
    Case("where_broadcast_cond", lambda L, c, x, y: L.where(c, x, y), (B(3, 1), N(1, 2), N(3, 2)),
         lambda c, x, y: np.where(c, x, y)),
]


def _quiet(fn):
    """Run fn with warnings off (e.g. x.T on a 3-D tensor warns: the warning itself is tested in tests/parity)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn()


def _write_through_views(L, x):
    """In-place ops on views (x[1], x[1, 1]) write into the base: torch and minigrad must agree on the values."""
    with L.no_grad():
        y = x.clone()
        y[1].mul_(2)
        y[1, 1].mul_(6)
    return y


def _mul_through_view(L, x, w):
    """A recorded in-place op on a view: the base gets a CopySlices node, as in torch."""
    y = x.clone()
    y[1].mul_(w)
    return y


def _view_of_changed_base(L, x, w):
    """A view taken before its base changed in place is read back out of the new base (AsStridedBackward0)."""
    y = x.clone()
    v = y[1:]
    y.mul_(w)
    return v * 3


def _iadd(t, other):
    t += other
    return t


def _set(t, index, value):
    t[index] = value
    return t


# Misuses: each must raise PyTorch's exception type with PyTorch's message (or, like torch, not raise or warn).
ERRORS = [
    ("mm_shapes", lambda L: L.ones(2, 3).mm(L.ones(2, 3))),
    ("mm_1d", lambda L: L.ones(3).mm(L.ones(3, 2))),
    ("mm_dtype", lambda L: L.ones(2, 3).mm(L.ones(3, 2, dtype=L.float64))),
    ("mv_shapes", lambda L: L.ones(2, 3).mv(L.ones(2))),
    ("dot_shapes", lambda L: L.ones(3).dot(L.ones(2))),
    ("dot_2d", lambda L: L.ones(2, 2).dot(L.ones(2, 2))),
    ("dot_dtype", lambda L: L.ones(2).dot(L.ones(2, dtype=L.float64))),
    ("matmul_0d", lambda L: L.tensor(1.0) @ L.ones(3)),
    ("matmul_2d_mismatch", lambda L: L.ones(2, 3) @ L.ones(2, 3)),
    ("matmul_batched_mismatch", lambda L: L.ones(2, 3, 4) @ L.ones(2, 3, 4)),
    ("matmul_batch_broadcast", lambda L: L.ones(2, 3, 4) @ L.ones(3, 4, 4)),
    ("matmul_fold_mismatch", lambda L: L.ones(2, 3, 4) @ L.ones(3, 4)),
    ("matmul_fold_vector_mismatch", lambda L: L.ones(2, 3, 4) @ L.ones(3)),
    ("matmul_vector_matrix_mismatch", lambda L: L.ones(3) @ L.ones(2, 4)),
    ("add_shapes", lambda L: L.ones(2, 3) + L.ones(2)),
    ("mul_shapes", lambda L: L.ones(4, 3) * L.ones(2, 1, 2)),
    ("view_invalid", lambda L: L.ones(2, 3).view(4)),
    ("view_noncontiguous", lambda L: L.ones(2, 3).t().view(6)),
    ("reshape_invalid", lambda L: L.ones(2, 3).reshape(4, 2)),
    ("view_two_minus1", lambda L: L.ones(2, 3).view(-1, -1)),
    ("expand_invalid", lambda L: L.ones(2, 3).expand(2, 4)),
    ("expand_fewer_dims", lambda L: L.ones(2, 3).expand(3)),
    ("t_3d", lambda L: L.ones(2, 3, 4).t()),
    ("transpose_dim", lambda L: L.ones(2, 3).transpose(0, 2)),
    ("unsqueeze_dim", lambda L: L.ones(2, 3).unsqueeze(4)),
    ("squeeze_dim", lambda L: L.ones(2, 3).squeeze(3)),
    ("sum_dim", lambda L: L.ones(2, 3).sum(2)),
    ("mean_dim", lambda L: L.ones(2, 3).mean(-3)),
    ("mean_int", lambda L: L.ones(2, 3, dtype=L.int64).mean()),
    ("mean_bool", lambda L: L.ones(2, dtype=L.bool).mean(0)),
    ("max_dim", lambda L: L.ones(2, 3).max(2)),
    ("max_empty", lambda L: L.ones(0).max()),
    ("sort_dim", lambda L: L.ones(2, 3).sort(2)),
    ("norm_dim", lambda L: L.ones(2, 3).norm(dim=2)),
    ("norm_int", lambda L: L.ones(3, dtype=L.int64).norm()),
    ("index_out_of_range", lambda L: L.ones(2, 3)[2]),
    ("index_neg_out_of_range", lambda L: L.ones(2, 3)[:, -4]),
    ("index_too_many", lambda L: L.ones(2, 3)[0, 0, 0]),
    ("index_tensor_out_of_range", lambda L: L.ones(3)[L.tensor([0, 3])]),
    ("index_mask_shape", lambda L: L.ones(3)[L.tensor([True, False])]),
    ("index_float_tensor", lambda L: L.ones(3)[L.tensor([0.0, 1.0])]),
    ("slice_negative_step", lambda L: L.ones(3)[::-1]),
    ("clamp_none", lambda L: L.ones(3).clamp()),
    ("cat_dims", lambda L: L.cat([L.ones(2, 3), L.ones(3)])),
    ("cat_sizes", lambda L: L.cat([L.ones(2, 3), L.ones(2, 2)])),
    ("cat_empty_list", lambda L: L.cat([])),
    ("cat_dim_range", lambda L: L.cat([L.ones(2), L.ones(2)], 1)),
    ("stack_sizes", lambda L: L.stack([L.ones(2, 3), L.ones(3, 2)])),
    ("stack_empty", lambda L: L.stack([])),
    ("where_cond_float", lambda L: L.where(L.ones(2), L.ones(2), L.zeros(2))),
    ("where_shapes", lambda L: L.where(L.ones(2, dtype=L.bool), L.ones(3), L.zeros(2))),
    ("permute_len", lambda L: L.ones(2, 3).permute(0)),
    ("permute_dup", lambda L: L.ones(2, 3).permute(0, 0)),
    ("int_pow_negative", lambda L: L.tensor([2, 3]) ** -1),
    ("bool_neg", lambda L: -L.tensor([True, False])),
    ("bool_sub", lambda L: L.tensor([True]) - L.tensor([False])),
    ("inplace_promote", lambda L: L.ones(2, dtype=L.int64).add_(1.5)),
    ("inplace_broadcast", lambda L: L.ones(2).add_(L.ones(2, 2))),
    ("setitem_shape", lambda L: L.ones(2, 3).__setitem__(0, L.ones(2))),
    ("copy_shape", lambda L: L.ones(2, 3).copy_(L.ones(2))),
    ("abs_bool", lambda L: L.tensor([True]).abs()),
    ("sqrt_neg", lambda L: L.tensor([-1.0]).sqrt()),
    ("log_int", lambda L: L.tensor([1, 2]).log()),
    ("relu_bool", lambda L: L.tensor([True]).relu()),
    ("sigmoid_int", lambda L: L.tensor([1, 2]).sigmoid()),
    ("div_int_by_zero", lambda L: L.tensor([1]) / L.tensor([0])),
    ("flatten_start_after_end", lambda L: L.ones(2, 3, 4).flatten(2, 1)),
    ("flatten_dim_out_of_range", lambda L: L.ones(2, 3, 4).flatten(3)),
    ("mean_uint8", lambda L: L.tensor([1, 2], dtype=L.uint8).mean()),          # one name table: dtype._scalar_name
    ("dot_mixed_dtypes", lambda L: L.ones(2).dot(L.ones(2, dtype=L.float64))),
    ("leaky_relu_int", lambda L: L.nn.functional.leaky_relu(L.tensor([1, 2], dtype=L.int32))),
]


def _extend():
    """The rows of the extension tables (one per family of ops added later) join the main table."""
    from . import op_table_activations, op_table_dtype, op_table_math, op_table_nn, op_table_shape, op_table_surface
    for table in (op_table_math, op_table_shape, op_table_dtype, op_table_nn, op_table_activations, op_table_surface):
        CASES.extend(table.CASES)
        ERRORS.extend(table.ERRORS)
    from . import op_table_layers_sampling      # conv1d, group/instance norm, interpolate, cdist (issue 26)
    CASES.extend(op_table_layers_sampling.CASES)
    ERRORS.extend(op_table_layers_sampling.ERRORS)
    from . import op_table_losses_margin        # margin, embedding and likelihood losses (issue 26)
    CASES.extend(op_table_losses_margin.CASES)
    ERRORS.extend(op_table_losses_margin.ERRORS)
    from . import op_table_namespace            # torch.subtract, logaddexp, median, meshgrid, ... (issue 26)
    CASES.extend(op_table_namespace.CASES)
    ERRORS.extend(op_table_namespace.ERRORS)
    from . import op_table_pad_pool             # padding layers, 1-D pools, shuffles, rms_norm (issue 26)
    CASES.extend(op_table_pad_pool.CASES)
    ERRORS.extend(op_table_pad_pool.ERRORS)
    from . import op_table_tensor_surface       # conj/mT/angle, gt_/t_, fmax, erfinv, kthvalue, ... (issue 26)
    CASES.extend(op_table_tensor_surface.CASES)
    ERRORS.extend(op_table_tensor_surface.ERRORS)
    from . import op_table_conv_transpose       # conv_transpose1d and conv_transpose2d (issue 26)
    CASES.extend(op_table_conv_transpose.CASES)
    ERRORS.extend(op_table_conv_transpose.ERRORS)
    from . import op_table_pools_unpool         # adaptive max pools, max unpooling, lp pools (issue 26)
    CASES.extend(op_table_pools_unpool.CASES)
    ERRORS.extend(op_table_pools_unpool.ERRORS)
    from . import op_table_bilinear_multiclass  # bilinear, multi_margin_loss, multilabel_margin_loss (issue 26)
    CASES.extend(op_table_bilinear_multiclass.CASES)
    ERRORS.extend(op_table_bilinear_multiclass.ERRORS)
    from . import op_table_index_write          # index_copy, take, put, masked_scatter, *_scatter (issue 26)
    CASES.extend(op_table_index_write.CASES)
    ERRORS.extend(op_table_index_write.ERRORS)
    from . import op_table_norms_factories      # vdot, dist, renorm, fill, block_diag, unfold (issue 26)
    CASES.extend(op_table_norms_factories.CASES)
    ERRORS.extend(op_table_norms_factories.ERRORS)


_extend()
