"""Op-table rows for vdot, dist, renorm, torch.fill, block_diag, Tensor.unfold, and inverse, det, slogdet, logdet and
matrix_power (issue 26). Format: see op_table.py. The references are numpy's (np.linalg, np.block, sliding
windows), never minigrad's."""
import numpy as np

from .op_table_base import A, C, Case, N

CASES = []
ERRORS = []


def _dist(x, y, p):
    d = (x - y).ravel()
    return np.asarray(np.linalg.norm(d, p) if p not in (0,) else np.count_nonzero(d), x.dtype)


def _renorm(x, p, dim, maxnorm):
    axes = tuple(d for d in range(x.ndim) if d != dim)
    n = (np.abs(x) ** p).sum(axes, keepdims=True) ** (1 / p)
    return (x * np.where(n > maxnorm, maxnorm / (n + 1e-7), 1)).astype(x.dtype)


def _block_diag(*blocks):
    mats = [np.asarray(b).reshape(1, -1) if np.ndim(b) < 2 else b for b in blocks]
    out = np.zeros((sum(m.shape[0] for m in mats), sum(m.shape[1] for m in mats)), np.result_type(*blocks))
    r = c = 0
    for m in mats:
        out[r:r + m.shape[0], c:c + m.shape[1]] = m
        r, c = r + m.shape[0], c + m.shape[1]
    return out


def _unfold(x, dim, size, step):
    windows = np.lib.stride_tricks.sliding_window_view(x, size, axis=dim)
    return np.take(windows, np.arange(0, windows.shape[dim], step), axis=dim)


CASES += [
    Case("vdot", lambda L, x, y: L.vdot(x, y), (N(4), N(4)), np.vdot),
    Case("dist", lambda L, x, y: L.dist(x, y), (N(2, 3), N(3)), lambda x, y: _dist(x, y, 2)),
    Case("dist_p3", lambda L, x, y: x.dist(y, 3), (N(2, 3), N(2, 3)), lambda x, y: _dist(x, y, 3)),
    Case("dist_p1", lambda L, x, y: x.dist(y, 1), (A(3), N(3)), lambda x, y: _dist(x, y, 1)),
    Case("dist_inf", lambda L, x, y: L.dist(x, y, float("inf")), (N(4), N(4)), lambda x, y: _dist(x, y, np.inf)),
    Case("renorm", lambda L, x: x.renorm(2, 0, 1.0), (N(3, 4),), lambda x: _renorm(x, 2, 0, 1.0)),
    Case("renorm_p1_dim1", lambda L, x: L.renorm(x, 1, 1, 0.5), (N(2, 3),), lambda x: _renorm(x, 1, 1, 0.5)),
    Case("renorm_", lambda L, x: (x * 1).renorm_(3, 0, 0.8), (N(2, 3),), lambda x: _renorm(x, 3, 0, 0.8)),
    Case("fill", lambda L, x: L.fill(x, 2.5), (N(2, 3),), lambda x: np.full_like(x, 2.5)),
    Case("fill_tensor", lambda L, x, v: L.fill(x, v), (N(2, 3), C(1.5)), lambda x, v: np.full_like(x, v)),
    Case("block_diag", lambda L, a, b, c: L.block_diag(a, b, c), (N(2, 2), N(3), N()), _block_diag),
    Case("block_diag_rect", lambda L, a, b: L.block_diag(a, b), (N(1, 3), N(2, 1)), _block_diag),
    Case("unfold", lambda L, x: x.unfold(1, 2, 1), (N(2, 4),), lambda x: _unfold(x, 1, 2, 1)),
    Case("unfold_step", lambda L, x: x.unfold(0, 3, 2), (N(8),), lambda x: _unfold(x, 0, 3, 2)),
    Case("unfold_dim0_of_3d", lambda L, x: x.unfold(0, 2, 1), (N(3, 2, 2),), lambda x: _unfold(x, 0, 2, 1)),
]

ERRORS += [
    ("vdot_2d", lambda L: L.vdot(L.ones(2, 3), L.ones(3))),
    ("vdot_dtypes", lambda L: L.vdot(L.ones(3), L.ones(3, dtype=L.float64))),
    ("vdot_sizes", lambda L: L.vdot(L.ones(3), L.ones(2))),
    ("dist_shapes", lambda L: L.dist(L.ones(2), L.ones(3))),
    ("renorm_1d", lambda L: L.arange(6.0).renorm(2, 0, 1.0)),
    ("renorm_negative_p", lambda L: L.ones(2, 2).renorm(-1, 0, 1.0)),
    ("renorm_negative_maxnorm", lambda L: L.ones(2, 2).renorm(2, 0, -1.0)),
    ("fill_vector", lambda L: L.fill(L.ones(3), L.ones(2))),
    ("block_diag_3d", lambda L: L.block_diag(L.ones(1, 1, 1))),
    ("unfold_too_big", lambda L: L.arange(6.0).unfold(0, 7, 1)),
    ("unfold_step_0", lambda L: L.arange(6.0).unfold(0, 2, 0)),
    ("unfold_negative_size", lambda L: L.arange(6.0).unfold(0, -1, 1)),
]

# ---- inverse, determinants, powers (ops/determinant.py): well-conditioned matrices, numpy.linalg's references ----
WELL = C([[2.0, 0.5, -0.3], [0.4, 1.5, 0.2], [-0.1, 0.3, 1.8]])
BATCH = C([[[1.5, 0.2], [-0.4, 1.1]], [[0.9, -0.5], [0.3, 2.0]]])


def _logdet(a):
    sign, logabsdet = np.linalg.slogdet(a)
    return np.where(sign < 0, np.nan, logabsdet).astype(a.dtype)


CASES += [
    Case("inverse", lambda L, a: L.inverse(a), (WELL,), np.linalg.inv),
    Case("linalg_inv_batch", lambda L, a: L.linalg.inv(a), (BATCH,), np.linalg.inv),
    Case("det", lambda L, a: L.det(a), (WELL,), lambda a: np.asarray(np.linalg.det(a), a.dtype)),
    Case("det_batch", lambda L, a: a.det(), (BATCH,), lambda a: np.linalg.det(a).astype(a.dtype)),
    Case("slogdet", lambda L, a: tuple(L.slogdet(a)), (C([[0.5, 2.0], [1.5, -0.3]]),),
         lambda a: tuple(np.asarray(v, a.dtype) for v in np.linalg.slogdet(a))),
    Case("logdet", lambda L, a: a.logdet(), (WELL,), _logdet),
    Case("logdet_negative", lambda L, a: L.logdet(a), (C([[0.5, 2.0], [1.5, -0.3]]),), _logdet, grad=False),
    Case("matrix_power_3", lambda L, a: L.matrix_power(a, 3), (WELL,), lambda a: np.linalg.matrix_power(a, 3)),
    Case("matrix_power_5_batch", lambda L, a: a.matrix_power(5), (BATCH,), lambda a: np.linalg.matrix_power(a, 5)),
    Case("matrix_power_0", lambda L, a: a.matrix_power(0), (WELL,), lambda a: np.eye(3, dtype=a.dtype)),
    Case("matrix_power_negative", lambda L, a: L.linalg.matrix_power(a, -2), (WELL,),
         lambda a: np.linalg.matrix_power(np.linalg.inv(a), 2)),
]

ERRORS += [
    ("inverse_singular", lambda L: L.inverse(L.zeros(2, 2))),
    ("inverse_singular_batch", lambda L: L.inverse(L.tensor([[[1.0, 0.0], [0.0, 1.0]], [[1.0, 2.0], [2.0, 4.0]]]))),
    ("inverse_singular_rank_2", lambda L: L.inverse(L.tensor([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 0.0, 1.0]]))),
    ("inverse_not_square", lambda L: L.inverse(L.ones(2, 3))),
    ("inverse_int", lambda L: L.inverse(L.ones(2, 2, dtype=L.long))),
    ("inverse_1d", lambda L: L.inverse(L.ones(3))),
    ("det_1d", lambda L: L.det(L.ones(3))),
    ("det_int", lambda L: L.det(L.ones(2, 2, dtype=L.long))),
    ("matrix_power_not_square", lambda L: L.matrix_power(L.ones(2, 3), 2)),
]
