"""Op-table rows (issue 11) for gather, scatter, scatter_add, index_select, index_add, masked_fill, nonzero and
the one-argument where. Format: see op_table.py; they join op_table_shape.py's CASES.

Scatter indices are distinct within each write (torch leaves the winner of a repeated index unspecified).
"""
import numpy as np

from .op_table_base import Arg, B, C, Case, I, N


def K(values):  # noqa: N802 - like C, constant values, but a float input that does not require grad
    return Arg(np.shape(values), "constant", values=values, const=True)


ROWS = [[0, 2], [1, 3], [3, 3]]           # an index for dim 1 of a (3, 4) tensor
DISTINCT = [[0, 2], [3, 1], [1, 0]]       # the same, with no repeat in a row: safe for scatter
ZEROS = [[0.0, 1.5, 0.0], [-2.0, 0.0, 0.5]]


def _positions(index, dim):
    """The numpy index of the places that gather/scatter's `index` points at along `dim`."""
    grid = list(np.indices(index.shape, sparse=True))
    grid[dim] = index
    return tuple(grid)


def _gather(x, dim, index):
    return x[_positions(index, dim)]


def _scatter(x, dim, index, src, add=False):
    out = x.copy()
    where = _positions(index, dim)
    values = src[tuple(slice(0, n) for n in index.shape)] if np.ndim(src) else src
    if add:
        np.add.at(out, where, values)
    else:
        out[where] = values
    return out


def _index_add(x, dim, index, src, alpha=1):
    out = np.moveaxis(x.copy(), dim, 0)
    np.add.at(out, index, np.moveaxis(src, dim, 0) * alpha)
    return np.moveaxis(out, 0, dim)


def _masked_fill(x, mask, value):
    return np.where(mask, np.asarray(value, x.dtype), x)


CASES = [
    # ---- gather ----------------------------------------------------------------------------------------------
    Case("gather", lambda L, x, i: x.gather(1, i), (N(3, 4), C(ROWS, "int64")), lambda x, i: _gather(x, 1, i)),
    Case("gather_dim0", lambda L, x, i: x.gather(0, i), (N(3, 4), C([[2, 0, 1, 1]], "int64")),
         lambda x, i: _gather(x, 0, i)),
    Case("gather_neg_dim", lambda L, x, i: x.gather(-1, i), (N(3, 4), C(ROWS, "int64")),
         lambda x, i: _gather(x, 1, i)),
    Case("gather_longer_index", lambda L, x, i: x.gather(1, i), (N(2, 3), C([[0, 1, 2, 2, 0]], "int64")),
         lambda x, i: _gather(x, 1, i)),
    Case("gather_int32_index", lambda L, x, i: x.gather(1, i), (N(3, 4), C(ROWS, "int32")),
         lambda x, i: _gather(x, 1, i)),
    Case("gather_0d", lambda L, x, i: x.gather(0, i), (N(), C(0, "int64")), lambda x, i: x),
    Case("gather_empty_index", lambda L, x, i: x.gather(1, i), (N(2, 3), C(np.zeros((2, 0), int), "int64")),
         lambda x, i: np.zeros((2, 0), x.dtype)),
    Case("torch_gather", lambda L, x, i: L.gather(x, 1, i), (N(3, 4), C(ROWS, "int64")),
         lambda x, i: _gather(x, 1, i)),
    # ---- scatter (a src tensor or a value), scatter_add ------------------------------------------------------
    Case("scatter", lambda L, x, i, s: x.scatter(1, i, s), (N(3, 4), C(DISTINCT, "int64"), N(3, 2)),
         lambda x, i, s: _scatter(x, 1, i, s)),
    Case("scatter_dim0", lambda L, x, i, s: x.scatter(0, i, s), (N(3, 2), C([[2, 0]], "int64"), N(1, 2)),
         lambda x, i, s: _scatter(x, 0, i, s)),
    Case("scatter_larger_src", lambda L, x, i, s: x.scatter(1, i, s), (N(3, 4), C(DISTINCT, "int64"),
                                                                       K(np.arange(12.0).reshape(3, 4))),
         lambda x, i, s: _scatter(x, 1, i, s)),
    Case("scatter_value", lambda L, x, i: x.scatter(1, i, 2.5), (N(3, 4), C(ROWS, "int64")),
         lambda x, i: _scatter(x, 1, i, 2.5)),
    Case("scatter_value_keyword", lambda L, x, i: x.scatter(-1, i, value=-1.0), (N(3, 4), C(ROWS, "int64")),
         lambda x, i: _scatter(x, 1, i, -1.0)),
    Case("scatter_int", lambda L, x, i: x.scatter(1, i, 2.7), (I(3, 4), C(ROWS, "int64")),
         lambda x, i: _scatter(x, 1, i, 2), grad=False),
    Case("scatter_0d", lambda L, x, i, s: x.scatter(0, i, s), (N(), C(0, "int64"), N()), lambda x, i, s: s),
    Case("scatter_", lambda L, x, i, s: x.clone().scatter_(1, i, s), (N(3, 4), C(DISTINCT, "int64"), N(3, 2)),
         lambda x, i, s: _scatter(x, 1, i, s)),
    Case("scatter_value_", lambda L, x, i: (x * 1).scatter_(1, i, 0.5), (N(3, 4), C(ROWS, "int64")),
         lambda x, i: _scatter(x, 1, i, 0.5)),
    Case("torch_scatter", lambda L, x, i, s: L.scatter(x, 0, i, s), (N(2, 3), C([[1, 0, 1]], "int64"), N(1, 3)),
         lambda x, i, s: _scatter(x, 0, i, s)),
    Case("scatter_add", lambda L, x, i, s: x.scatter_add(1, i, s), (N(3, 4), C(ROWS, "int64"), N(3, 2)),
         lambda x, i, s: _scatter(x, 1, i, s, add=True)),
    Case("scatter_add_repeated_dim0", lambda L, x, i, s: x.scatter_add(0, i, s),
         (N(3, 2), C([[1, 1], [1, 0], [2, 1]], "int64"), N(3, 2)), lambda x, i, s: _scatter(x, 0, i, s, add=True)),
    Case("scatter_add_larger_src", lambda L, x, i, s: x.scatter_add(1, i, s),
         (N(3, 4), C(ROWS, "int64"), K(np.ones((3, 3)))), lambda x, i, s: _scatter(x, 1, i, s, add=True)),
    Case("scatter_add_", lambda L, x, i, s: x.clone().scatter_add_(1, i, s), (N(3, 4), C(ROWS, "int64"), N(3, 2)),
         lambda x, i, s: _scatter(x, 1, i, s, add=True)),
    Case("torch_scatter_add", lambda L, x, i, s: L.scatter_add(x, 0, i, s), (N(4), C([1, 1, 3], "int64"), N(3)),
         lambda x, i, s: _scatter(x, 0, i, s, add=True)),
    # ---- index_select, index_add -----------------------------------------------------------------------------
    Case("index_select", lambda L, x, i: x.index_select(0, i), (N(3, 4), C([2, 0, 2], "int64")),
         lambda x, i: x[i]),
    Case("index_select_dim1", lambda L, x, i: x.index_select(-1, i), (N(3, 4), C([3, 1], "int64")),
         lambda x, i: x[:, i]),
    Case("index_select_0d_index", lambda L, x, i: x.index_select(1, i), (N(3, 4), C(2, "int64")),
         lambda x, i: x[:, [2]]),
    Case("index_select_0d_self", lambda L, x, i: x.index_select(0, i), (N(), C([0], "int64")), lambda x, i: x),
    Case("index_select_empty", lambda L, x, i: x.index_select(0, i), (N(3, 2), C(np.zeros(0, int), "int64")),
         lambda x, i: x[:0]),
    Case("index_select_int32", lambda L, x, i: x.index_select(0, i), (N(3, 2), C([1, 1], "int32")),
         lambda x, i: x[i]),
    Case("torch_index_select", lambda L, x, i: L.index_select(x, 1, i), (N(2, 3), C([0, 0, 2], "int64")),
         lambda x, i: x[:, i]),
    Case("index_add", lambda L, x, i, s: x.index_add(0, i, s), (N(3, 4), C([2, 0, 2], "int64"), N(3, 4)),
         lambda x, i, s: _index_add(x, 0, i, s)),
    Case("index_add_alpha", lambda L, x, i, s: x.index_add(1, i, s, alpha=-2.5), (N(3, 4), C([3, 0], "int64"),
                                                                                  N(3, 2)),
         lambda x, i, s: _index_add(x, 1, i, s, -2.5)),
    Case("index_add_0d", lambda L, x, i, s: x.index_add(0, i, s), (N(), C([0], "int64"), N()),
         lambda x, i, s: x + s),
    Case("index_add_int", lambda L, x, i, s: x.index_add(0, i, s, alpha=2.9), (I(3), C([1, 1], "int64"), I(2)),
         lambda x, i, s: _index_add(x, 0, i, s, 2), grad=False),
    Case("index_add_", lambda L, x, i, s: x.clone().index_add_(0, i, s), (N(3, 2), C([1, 1], "int64"), N(2, 2)),
         lambda x, i, s: _index_add(x, 0, i, s)),
    Case("torch_index_add", lambda L, x, i, s: L.index_add(x, 0, i, s, alpha=2), (N(4), C([3, 0], "int64"), N(2)),
         lambda x, i, s: _index_add(x, 0, i, s, 2)),
    # ---- masked_fill ----------------------------------------------------------------------------------------
    Case("masked_fill", lambda L, x, m: x.masked_fill(m, 0.5), (N(3, 4), B(3, 4)),
         lambda x, m: _masked_fill(x, m, 0.5)),
    Case("masked_fill_neg_inf", lambda L, x, m: x.masked_fill(m, float("-inf")), (N(3, 4), B(3, 4)),
         lambda x, m: _masked_fill(x, m, -np.inf), gradcheck=False),     # inf - inf: no finite differences
    Case("masked_fill_broadcast_mask", lambda L, x, m: x.masked_fill(m, 1.0), (N(3, 4), B(4)),
         lambda x, m: _masked_fill(x, m, 1.0)),
    Case("masked_fill_broadcast_self", lambda L, x, m: x.masked_fill(m, 1.0), (N(4), B(3, 4)),
         lambda x, m: _masked_fill(x, m, 1.0)),
    Case("masked_fill_tensor_value", lambda L, x, m, v: x.masked_fill(m, v), (N(3, 4), B(3, 4), N()),
         lambda x, m, v: _masked_fill(x, m, v)),
    Case("masked_fill_float64_value", lambda L, x, m, v: x.masked_fill(m, v),
         (N(2, 3, dtype="float32"), B(2, 3), N(dtype="float64")), lambda x, m, v: _masked_fill(x, m, v)),
    Case("masked_fill_int", lambda L, i, m: i.masked_fill(m, 2.7), (I(2, 3), B(2, 3)),
         lambda i, m: _masked_fill(i, m, 2), grad=False),
    Case("masked_fill_0d", lambda L, x, m: x.masked_fill(m, 0.0), (N(), C(True, "bool")), lambda x, m: 0 * x),
    Case("masked_fill_", lambda L, x, m: x.clone().masked_fill_(m, -1.0), (N(3, 4), B(3, 4)),
         lambda x, m: _masked_fill(x, m, -1.0)),
    Case("masked_fill_tensor_value_", lambda L, x, m, v: (x * 1).masked_fill_(m, v), (N(3, 4), B(4), N()),
         lambda x, m, v: _masked_fill(x, m, v)),
    Case("torch_masked_fill", lambda L, x, m: L.masked_fill(x, m, 3.0), (N(2, 3), B(2, 3)),
         lambda x, m: _masked_fill(x, m, 3.0)),
    # ---- nonzero and the one-argument where: int64 indices, never differentiable ----------------------------
    Case("nonzero", lambda L, x: x.nonzero(), (C(ZEROS),), np.argwhere, grad=False),
    Case("nonzero_as_tuple", lambda L, x: x.nonzero(as_tuple=True), (C(ZEROS),), np.nonzero, grad=False),
    Case("nonzero_bool", lambda L, b: L.nonzero(b), (B(2, 3),), np.argwhere, grad=False),
    Case("nonzero_0d", lambda L, x: x.nonzero(), (C(2.0),), lambda x: np.zeros((1, 0), np.int64), grad=False),
    Case("nonzero_0d_as_tuple", lambda L, x: x.nonzero(as_tuple=True), (C(0.0),),
         lambda x: (np.zeros(0, np.int64),), grad=False),
    Case("nonzero_empty", lambda L, x: L.nonzero(x), (N(0, 3),), lambda x: np.zeros((0, 2), np.int64), grad=False),
    Case("nonzero_of_requires_grad", lambda L, x: x.nonzero(), (N(2, 2),), np.argwhere, grad=False),
    Case("where_one_argument", lambda L, x: L.where(x > 0), (N(3, 4),), lambda x: np.nonzero(x > 0), grad=False),
    Case("where_method", lambda L, x, y: x.where(x > 0, y), (N(2, 3), N(3)), lambda x, y: np.where(x > 0, x, y)),
]
