"""Op-table rows for the writes at chosen places (issue 26): index_copy, index_fill, take, put, masked_scatter,
index_put, select_scatter, slice_scatter, diagonal_scatter, split_with_sizes and diagflat, in place too. Format:
see op_table.py. The references are numpy's own indexing, never minigrad's."""
import numpy as np

from .op_table_base import C, Case, N

CASES = []
ERRORS = []


def _set(x, key, value, add=False):
    y = x.copy()
    if add:
        np.add.at(y, key, value)
    else:
        y[key] = value
    return y


def _masked(x, mask, source):
    y = x.copy()
    m = np.broadcast_to(mask, x.shape)
    y[m] = source.reshape(-1)[:m.sum()]
    return y


def _put(x, index, source, add=False):
    flat = x.reshape(-1).copy()
    if add:
        np.add.at(flat, index, source)
    else:
        flat[index] = source
    return flat.reshape(x.shape)


def I2(*values):  # noqa: N802 - a constant int64 index
    return C(list(values), "int64")


MASK = C([[True, False, True, False], [False, False, True, True], [True, True, False, False]], "bool")

CASES += [
    Case("index_copy", lambda L, x, i, s: x.index_copy(0, i, s), (N(3, 4), I2(2, 0), N(2, 4)),
         lambda x, i, s: _set(x, i, s)),
    Case("index_copy_dim1", lambda L, x, i, s: L.index_copy(x, 1, i, s), (N(2, 4), I2(3, 1), N(2, 2)),
         lambda x, i, s: _set(x, (slice(None), i), s)),
    Case("index_copy_", lambda L, x, i, s: (x * 1).index_copy_(0, i, s), (N(3, 2), I2(1,), N(1, 2)),
         lambda x, i, s: _set(x, i, s)),
    Case("index_fill", lambda L, x, i: x.index_fill(1, i, -2.0), (N(3, 4), I2(0, 2)),
         lambda x, i: _set(x, (slice(None), i), -2.0)),
    Case("index_fill_negative", lambda L, x, i: L.index_fill(x, 0, i, 3.0), (N(3, 2), I2(-1,)),
         lambda x, i: _set(x, -1, 3.0)),
    Case("index_fill_tensor", lambda L, x, i, v: x.index_fill(0, i, v), (N(3, 4), I2(1,), C(5.0)),
         lambda x, i, v: _set(x, i, v)),
    Case("index_fill_", lambda L, x, i: (x * 1).index_fill_(1, i, 0.5), (N(2, 3), I2(1,)),
         lambda x, i: _set(x, (slice(None), i), 0.5)),
    Case("take", lambda L, x, i: L.take(x, i), (N(3, 4), C([[0, 11], [-1, 5]], "int64")),
         lambda x, i: x.reshape(-1)[i]),
    Case("take_repeated", lambda L, x, i: x.take(i), (N(2, 3), I2(1, 1, 4)), lambda x, i: x.reshape(-1)[i]),
    Case("put", lambda L, x, i, s: x.put(i, s), (N(3, 4), I2(0, 5), N(2)), _put),
    Case("put_accumulate", lambda L, x, i, s: x.put(i, s, accumulate=True), (N(3, 4), I2(1, 1, 7), N(3)),
         lambda x, i, s: _put(x, i, s, True)),
    Case("put_", lambda L, x, i, s: (x * 1).put_(i, s), (N(2, 3), I2(-1,), N(1)), _put),
    Case("masked_scatter", lambda L, x, m, s: x.masked_scatter(m, s), (N(3, 4), MASK, N(12)), _masked),
    Case("masked_scatter_broadcast_mask", lambda L, x, m, s: L.masked_scatter(x, m, s),
         (N(3, 4), C([True, False, False, True], "bool"), N(7)), _masked),
    Case("masked_scatter_", lambda L, x, m, s: (x * 1).masked_scatter_(m, s), (N(3, 4), MASK, N(6)), _masked),
    Case("index_put", lambda L, x, i, j, v: L.index_put(x, (i, j), v), (N(3, 4), I2(0, 2), I2(1, 1), N(2)),
         lambda x, i, j, v: _set(x, (i, j), v)),
    Case("index_put_accumulate", lambda L, x, i, v: x.index_put((i,), v, accumulate=True), (N(3, 4), I2(0, 0), N(4)),
         lambda x, i, v: _set(x, (i,), np.broadcast_to(v, (2, 4)), add=True)),
    Case("index_put_", lambda L, x, i, v: (x * 1).index_put_((i,), v), (N(3, 2), I2(1,), N(2)),
         lambda x, i, v: _set(x, (i,), v)),
    Case("select_scatter", lambda L, x, s: L.select_scatter(x, s, 0, 1), (N(3, 4), N(4)), lambda x, s: _set(x, 1, s)),
    Case("select_scatter_negative_dim", lambda L, x, s: x.select_scatter(s, -1, -2), (N(3, 4), N(3)),
         lambda x, s: _set(x, (slice(None), -2), s)),
    Case("slice_scatter", lambda L, x, s: L.slice_scatter(x, s, 1, 0, 4, 2), (N(3, 4), N(3, 2)),
         lambda x, s: _set(x, (slice(None), slice(0, 4, 2)), s)),
    Case("slice_scatter_default", lambda L, x, s: x.slice_scatter(s, start=2), (N(3, 4), N(1, 4)),
         lambda x, s: _set(x, slice(2, None), s)),
    Case("diagonal_scatter", lambda L, x, s: L.diagonal_scatter(x, s), (N(3, 4), N(3)),
         lambda x, s: _set(x, (np.arange(3), np.arange(3)), s)),
    Case("diagonal_scatter_offset", lambda L, x, s: x.diagonal_scatter(s, 1), (N(3, 4), N(3)),
         lambda x, s: _set(x, (np.arange(3), np.arange(1, 4)), s)),
    Case("split_with_sizes", lambda L, x: tuple(L.split_with_sizes(x, [1, 2])), (N(3, 4),),
         lambda x: (x[:1], x[1:])),
    Case("split_with_sizes_dim1", lambda L, x: tuple(x.split_with_sizes([3, 1], 1)), (N(2, 4),),
         lambda x: (x[:, :3], x[:, 3:])),
    Case("diagflat", lambda L, x: L.diagflat(x), (N(2, 2),), lambda x: np.diagflat(x)),
    Case("diagflat_offset", lambda L, x: x.diagflat(-1), (N(3),), lambda x: np.diagflat(x, -1)),
]

ERRORS += [
    ("index_copy_sizes", lambda L: L.ones(3, 4).index_copy(0, L.tensor([0, 2]), L.ones(3, 4))),
    ("index_copy_float_index", lambda L: L.ones(3, 4).index_copy(0, L.tensor([0.0, 1.0]), L.ones(2, 4))),
    ("index_copy_negative", lambda L: L.ones(3, 4).index_copy(1, L.tensor([3, -1]), L.ones(3, 2))),
    ("index_fill_out_of_bounds", lambda L: L.ones(3, 4).index_fill(1, L.tensor([5]), 1.0)),
    ("index_fill_vector_value", lambda L: L.ones(3, 4).index_fill(1, L.tensor([0]), L.ones(2))),
    ("take_out_of_range", lambda L: L.ones(3, 4).take(L.tensor([12]))),
    ("put_sizes", lambda L: L.ones(3, 4).put(L.tensor([0]), L.ones(2))),
    ("masked_scatter_short_source", lambda L: L.ones(3, 4).masked_scatter(L.ones(3, 4) > 0, L.ones(2))),
    ("masked_scatter_float_mask", lambda L: L.ones(3, 4).masked_scatter(L.ones(3, 4), L.ones(12))),
    ("select_scatter_size", lambda L: L.select_scatter(L.ones(3, 4), L.ones(3), 0, 1)),
    ("slice_scatter_size", lambda L: L.slice_scatter(L.ones(3, 4), L.ones(1, 3), 0, 0, 1)),
    ("diagonal_scatter_size", lambda L: L.diagonal_scatter(L.ones(3, 4), L.ones(2))),
    ("split_with_sizes_sum", lambda L: L.ones(3, 4).split_with_sizes([1, 1])),
    ("index_put_tensor_indices", lambda L: L.ones(3, 4).index_put(L.tensor([0]), L.ones(4))),
    ("index_put_number", lambda L: L.ones(3, 4).index_put((L.tensor([0]),), 1.0)),
    ("index_copy_leaf", lambda L: L.ones(2, requires_grad=True).index_copy_(0, L.tensor([0]), L.ones(1))),
]
