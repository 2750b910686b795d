"""Op-table rows for the shape ops added for the tutorials' PyTorch (issue 11). Format: see op_table.py.

Here: pieces (split, chunk, unbind, narrow), reordering (flip, roll, movedim, tile, unflatten), triangles and
diagonals, outer and einsum. Gather/scatter/index/mask rows are in op_table_shape_index.py, misuses in
op_table_shape_errors.py; all join this table's CASES and ERRORS.
"""
import numpy as np

from .op_table_base import A, B, C, Case, I, Ix, N, P  # noqa: F401
from .op_table_shape_errors import ERRORS  # noqa: F401
from .op_table_shape_index import CASES as INDEX_CASES


def _pieces(x, sizes, axis=0):
    starts = np.cumsum([0] + list(sizes[:-1]))
    return tuple(np.take(x, np.arange(s, s + n), axis=axis) for s, n in zip(starts, sizes))


def _unbind(x, axis=0):
    return tuple(np.take(x, i, axis=axis) for i in range(x.shape[axis]))


def _diag_embed(x, offset=0, dim1=-2, dim2=-1):
    n = x.shape[-1] + abs(offset)
    out = np.zeros(x.shape[:-1] + (n, n), x.dtype)
    rows = np.arange(x.shape[-1]) + max(-offset, 0)
    out[..., rows, rows + offset] = x
    return np.moveaxis(out, (-2, -1), (dim1, dim2))


def _einsum(eq):
    return lambda *arrays: np.einsum(eq, *arrays)


CASES = INDEX_CASES + [
    # ---- pieces: views of the tensor, one node for all of them -----------------------------------------------
    Case("split", lambda L, x: x.split(2), (N(5, 3),), lambda x: _pieces(x, [2, 2, 1])),
    Case("split_dim_neg", lambda L, x: x.split(2, -1), (N(3, 4),), lambda x: _pieces(x, [2, 2], 1)),
    Case("split_sizes", lambda L, x: x.split([1, 3, 1]), (N(5, 2),), lambda x: _pieces(x, [1, 3, 1])),
    Case("split_sizes_with_zero", lambda L, x: x.split((0, 3), dim=1), (N(2, 3),), lambda x: _pieces(x, [0, 3], 1)),
    Case("split_larger_than_dim", lambda L, x: x.split(10), (N(3, 2),), lambda x: (x,)),
    Case("split_empty_dim", lambda L, x: x.split(2), (N(0, 3),), lambda x: (x,)),
    Case("split_one_piece_used", lambda L, x: x.split(2)[1] * 2, (N(5, 3),), lambda x: x[2:4] * 2),
    Case("torch_split", lambda L, x: L.split(x, 3, dim=1), (N(2, 4),), lambda x: _pieces(x, [3, 1], 1)),
    Case("torch_split_sizes", lambda L, x: L.split(x, [2, 1]), (N(3, 2),), lambda x: _pieces(x, [2, 1])),
    Case("chunk", lambda L, x: x.chunk(3), (N(6, 2),), lambda x: _pieces(x, [2, 2, 2])),
    Case("chunk_fewer_pieces", lambda L, x: x.chunk(4), (N(5, 2),), lambda x: _pieces(x, [2, 2, 1])),
    Case("chunk_dim1", lambda L, x: x.chunk(2, 1), (N(2, 3),), lambda x: _pieces(x, [2, 1], 1)),
    Case("chunk_empty_dim", lambda L, x: x.chunk(2), (N(0, 2),), lambda x: (x, x)),
    Case("torch_chunk", lambda L, x: L.chunk(x, 2, dim=-1), (N(3, 4),), lambda x: _pieces(x, [2, 2], 1)),
    Case("unbind", lambda L, x: x.unbind(), (N(3, 2),), _unbind),
    Case("unbind_dim1", lambda L, x: x.unbind(1), (N(2, 3, 2),), lambda x: _unbind(x, 1)),
    Case("unbind_to_0d", lambda L, x: x.unbind(-1), (N(3),), _unbind),
    Case("unbind_one_piece_used", lambda L, x: x.unbind(1)[2], (N(2, 3),), lambda x: x[:, 2]),
    Case("torch_unbind", lambda L, x: L.unbind(x, 1), (N(2, 2),), lambda x: _unbind(x, 1)),
    Case("narrow", lambda L, x: x.narrow(1, 1, 2), (N(3, 4),), lambda x: x[:, 1:3]),
    Case("narrow_negative", lambda L, x: x.narrow(-1, -3, 2), (N(3, 4),), lambda x: x[:, 1:3]),
    Case("narrow_empty", lambda L, x: x.narrow(0, 3, 0), (N(3, 2),), lambda x: x[3:]),
    Case("narrow_tensor_start", lambda L, x, s: x.narrow(0, s, 2), (N(4, 2), C(1, "int64")), lambda x, s: x[1:3]),
    Case("torch_narrow", lambda L, x: L.narrow(x, 0, 1, 1), (N(3, 2),), lambda x: x[1:2]),
    # ---- reordering -------------------------------------------------------------------------------------------
    Case("flip", lambda L, x: x.flip(0), (N(3, 2),), lambda x: x[::-1]),
    Case("flip_dims", lambda L, x: x.flip(0, 2), (N(2, 3, 4),), lambda x: x[::-1, :, ::-1]),
    Case("flip_list_neg", lambda L, x: x.flip([-1]), (N(2, 3),), lambda x: x[:, ::-1]),
    Case("flip_no_dims", lambda L, x: x.flip([]), (N(2, 3),), lambda x: x),
    Case("flip_0d", lambda L, x: x.flip(0), (N(),), lambda x: x),
    Case("flip_int", lambda L, i: i.flip(1), (I(2, 3),), lambda i: i[:, ::-1], grad=False),
    Case("torch_flip", lambda L, x: L.flip(x, (0, 1)), (N(2, 3),), lambda x: x[::-1, ::-1]),
    Case("fliplr", lambda L, x: L.fliplr(x), (N(2, 3),), np.fliplr),
    Case("flipud", lambda L, x: x.flipud(), (N(2, 3),), np.flipud),
    Case("roll_flattened", lambda L, x: x.roll(1), (N(3, 4),), lambda x: np.roll(x, 1)),
    Case("roll_dim", lambda L, x: x.roll(-1, 0), (N(3, 4),), lambda x: np.roll(x, -1, 0)),
    Case("roll_dims", lambda L, x: x.roll((1, 2), (0, -1)), (N(3, 4),), lambda x: np.roll(x, (1, 2), (0, 1))),
    Case("roll_more_than_size", lambda L, x: x.roll(7, dims=1), (N(2, 3),), lambda x: np.roll(x, 7, 1)),
    Case("roll_0d", lambda L, x: x.roll(2), (N(),), lambda x: x),
    Case("torch_roll", lambda L, x: L.roll(x, shifts=-2, dims=0), (N(4),), lambda x: np.roll(x, -2)),
    Case("torch_permute", lambda L, x: L.permute(x, (2, 0, 1)), (N(2, 3, 4),), lambda x: x.transpose(2, 0, 1)),
    Case("movedim", lambda L, x: x.movedim(0, 2), (N(2, 3, 4),), lambda x: np.moveaxis(x, 0, 2)),
    Case("movedim_several", lambda L, x: x.movedim((0, 1), (2, 0)), (N(2, 3, 4),),
         lambda x: np.moveaxis(x, (0, 1), (2, 0))),
    Case("movedim_negative", lambda L, x: x.movedim(-1, 0), (N(2, 3, 4),), lambda x: np.moveaxis(x, -1, 0)),
    Case("movedim_0d", lambda L, x: x.movedim(0, -1), (N(),), lambda x: x),
    Case("moveaxis", lambda L, x: L.moveaxis(x, 1, 0), (N(2, 3),), lambda x: x.T),
    Case("torch_movedim", lambda L, x: L.movedim(x, [0], [1]), (N(2, 3),), lambda x: x.T),
    Case("tile", lambda L, x: x.tile(2), (N(2, 3),), lambda x: np.tile(x, 2)),
    Case("tile_more_dims", lambda L, x: x.tile((2, 1, 2)), (N(2, 3),), lambda x: np.tile(x, (2, 1, 2))),
    Case("tile_0d", lambda L, x: x.tile(3), (N(),), lambda x: np.tile(x, 3)),
    Case("torch_tile", lambda L, x: L.tile(x, (1, 2)), (N(2, 3),), lambda x: np.tile(x, (1, 2))),
    Case("unflatten", lambda L, x: x.unflatten(1, (2, 3)), (N(2, 6, 2),), lambda x: x.reshape(2, 2, 3, 2)),
    Case("unflatten_infer", lambda L, x: x.unflatten(-1, (-1, 2)), (N(2, 4),), lambda x: x.reshape(2, 2, 2)),
    Case("unflatten_non_contiguous", lambda L, x: x.t().unflatten(0, [2, 2]), (N(3, 4),),
         lambda x: x.T.reshape(2, 2, 3)),
    Case("torch_unflatten", lambda L, x: L.unflatten(x, 0, (1, 3)), (N(3),), lambda x: x.reshape(1, 3)),
    # ---- triangles and diagonals ---------------------------------------------------------------------------
    Case("tril", lambda L, x: x.tril(), (N(3, 4),), np.tril),
    Case("tril_above", lambda L, x: x.tril(1), (N(3, 4),), lambda x: np.tril(x, 1)),
    Case("tril_below", lambda L, x: x.tril(diagonal=-1), (N(4, 3),), lambda x: np.tril(x, -1)),
    Case("tril_batched", lambda L, x: x.tril(), (N(2, 3, 3),), np.tril),
    Case("tril_int", lambda L, i: i.tril(), (I(3, 3),), np.tril, grad=False),
    Case("triu", lambda L, x: x.triu(), (N(3, 4),), np.triu),
    Case("triu_above", lambda L, x: L.triu(x, 2), (N(4, 4),), lambda x: np.triu(x, 2)),
    Case("torch_tril", lambda L, x: L.tril(x, diagonal=-2), (N(3, 3),), lambda x: np.tril(x, -2)),
    Case("tril_", lambda L, x: x.clone().tril_(), (N(3, 3),), np.tril),
    Case("triu_", lambda L, x: (x * 1).triu_(-1), (N(3, 3),), lambda x: np.triu(x, -1)),
    Case("diag_of_vector", lambda L, v: v.diag(), (N(3),), np.diag),
    Case("diag_of_vector_above", lambda L, v: v.diag(1), (N(3),), lambda v: np.diag(v, 1)),
    Case("diag_of_vector_below", lambda L, v: L.diag(v, -2), (N(2),), lambda v: np.diag(v, -2)),
    Case("diag_of_matrix", lambda L, x: x.diag(), (N(3, 4),), np.diag),
    Case("diag_of_matrix_above", lambda L, x: x.diag(2), (N(3, 4),), lambda x: np.diag(x, 2)),
    Case("diag_of_matrix_below", lambda L, x: L.diag(x, diagonal=-1), (N(3, 4),), lambda x: np.diag(x, -1)),
    Case("diag_of_matrix_outside", lambda L, x: x.diag(5), (N(3, 4),), lambda x: np.diag(x, 5)),
    Case("diag_int", lambda L, i: i.diag(), (I(3),), np.diag, grad=False),
    Case("diagonal", lambda L, x: x.diagonal(), (N(3, 4),), np.diagonal),
    Case("diagonal_offset", lambda L, x: x.diagonal(1), (N(3, 4),), lambda x: np.diagonal(x, 1)),
    Case("diagonal_dims", lambda L, x: x.diagonal(-1, 2, 0), (N(3, 2, 4),), lambda x: np.diagonal(x, -1, 2, 0)),
    Case("torch_diagonal", lambda L, x: L.diagonal(x, offset=0, dim1=-1, dim2=-2), (N(2, 3, 3),),
         lambda x: np.diagonal(x, 0, -1, -2)),
    Case("diag_embed", lambda L, x: x.diag_embed(), (N(2, 3),), _diag_embed),
    Case("diag_embed_offset_dims", lambda L, x: L.diag_embed(x, 1, 0, 2), (N(2, 3),),
         lambda x: _diag_embed(x, 1, 0, 2)),
    Case("outer", lambda L, u, v: u.outer(v), (N(3), N(4)), np.outer),
    Case("torch_outer", lambda L, u, v: L.outer(u, v), (N(2), N(3)), np.outer),
    Case("ger", lambda L, u, v: u.ger(v), (N(2), N(2)), np.outer),
    Case("outer_int_float", lambda L, i, v: L.outer(i, v), (I(3), N(2)), np.outer, dtype="float32"),
    # ---- einsum: torch's own decomposition (permute, bmm, ...), so the graphs match --------------------------
    Case("einsum_matmul", lambda L, x, y: L.einsum("ij,jk->ik", x, y), (N(2, 3), N(3, 4)), _einsum("ij,jk->ik")),
    Case("einsum_matmul_implicit", lambda L, x, y: L.einsum("ij,jk", x, y), (N(2, 3), N(3, 2)), _einsum("ij,jk")),
    Case("einsum_bmm", lambda L, x, y: L.einsum("bij,bjk->bik", x, y), (N(2, 2, 3), N(2, 3, 4)),
         _einsum("bij,bjk->bik")),
    Case("einsum_dot", lambda L, u, v: L.einsum("i,i->", u, v), (N(4), N(4)), _einsum("i,i->")),
    Case("einsum_outer", lambda L, u, v: L.einsum("i,j->ij", u, v), (N(3), N(2)), _einsum("i,j->ij")),
    Case("einsum_transpose", lambda L, x: L.einsum("ij->ji", x), (N(2, 3),), _einsum("ij->ji")),
    Case("einsum_diagonal", lambda L, x: L.einsum("ii->i", x), (N(3, 3),), _einsum("ii->i")),
    Case("einsum_trace", lambda L, x: L.einsum("ii", x), (N(3, 3),), _einsum("ii")),
    Case("einsum_sum", lambda L, x: L.einsum("ij->", x), (N(2, 3),), _einsum("ij->")),
    Case("einsum_sum_rows", lambda L, x: L.einsum("ij->j", x), (N(2, 3),), _einsum("ij->j")),
    Case("einsum_rowwise_dot", lambda L, x, y: L.einsum("bi,bi->b", x, y), (N(3, 4), N(3, 4)), _einsum("bi,bi->b")),
    Case("einsum_matvec", lambda L, x, v: L.einsum("ij,j->i", x, v), (N(2, 3), N(3)), _einsum("ij,j->i")),
    Case("einsum_times_transposed", lambda L, x, y: L.einsum("ij,kj->ik", x, y), (N(2, 3), N(4, 3)),
         _einsum("ij,kj->ik")),
    Case("einsum_elementwise", lambda L, x, y: L.einsum("ij,ij->ij", x, y), (N(2, 3), N(2, 3)),
         _einsum("ij,ij->ij")),
    Case("einsum_broadcast_size_1", lambda L, x, y: L.einsum("ij,ij->ij", x, y), (N(3, 1), N(3, 4)),
         lambda x, y: x * y),
    Case("einsum_attention_scores", lambda L, q, k: L.einsum("bhqd,bhkd->bhqk", q, k), (N(2, 2, 3, 4), N(2, 2, 5, 4)),
         _einsum("bhqd,bhkd->bhqk")),
    Case("einsum_ellipsis", lambda L, x, y: L.einsum("...ij,...jk->...ik", x, y), (N(2, 2, 3), N(2, 3, 2)),
         _einsum("...ij,...jk->...ik")),
    Case("einsum_three_operands", lambda L, u, x, v: L.einsum("i,ij,j->", u, x, v), (N(2), N(2, 3), N(3)),
         _einsum("i,ij,j->")),
    Case("einsum_scalar_operand", lambda L, v, s: L.einsum("i,->i", v, s), (N(3), N()), _einsum("i,->i")),
    Case("einsum_upper_case_labels", lambda L, x: L.einsum("iJ->Ji", x), (N(2, 3),), _einsum("iJ->Ji")),
    Case("einsum_operand_list", lambda L, x, y: L.einsum("ij,jk->ik", [x, y]), (N(2, 3), N(3, 2)),
         _einsum("ij,jk->ik")),
    Case("einsum_sublists", lambda L, x, y: L.einsum(x, [0, 1], y, [1, 2], [0, 2]), (N(2, 3), N(3, 2)),
         _einsum("ij,jk->ik")),
    Case("einsum_int", lambda L, i, j: L.einsum("ij,jk->ik", i, j), (I(2, 3), I(3, 2)), _einsum("ij,jk->ik"),
         grad=False),
    Case("einsum_promotes_for_mul", lambda L, u, v: L.einsum("i,j->ij", u, v), (N(3, dtype="float32"),
                                                                              N(2, dtype="float64")),
         lambda u, v: np.outer(u, v)),
]
