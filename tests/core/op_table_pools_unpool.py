"""Op-table rows for adaptive max pooling, max unpooling and power-average pooling (F.adaptive_max_pool1d/2d,
F.max_unpool1d/2d, F.lp_pool1d/2d; issue 26). Format: see op_table.py. The references loop over windows and
positions, the definitions, and share nothing with minigrad's code."""
import numpy as np

from .op_table_base import C, Case, N, P

CASES = []
ERRORS = []


def F(L):
    return L.nn.functional


def _starts_ends(size, out):
    return [((i * size) // out, -((-(i + 1) * size) // out)) for i in range(out)]


def adaptive_max_pool2d(x, oh, ow):
    """The first maximum of each adaptive window (row-major), and its flat index in the plane."""
    h, w = x.shape[-2:]
    values = np.zeros(x.shape[:-2] + (oh, ow), x.dtype)
    index = np.zeros(values.shape, np.int64)
    for plane in np.ndindex(x.shape[:-2]):
        for i, (r0, r1) in enumerate(_starts_ends(h, oh)):
            for j, (c0, c1) in enumerate(_starts_ends(w, ow)):
                best = None
                for r in range(r0, r1):
                    for c in range(c0, c1):
                        if best is None or x[plane + (r, c)] > x[plane + best]:
                            best = (r, c)
                values[plane + (i, j)] = x[plane + best]
                index[plane + (i, j)] = best[0] * w + best[1]
    return values, index


def _windows_max_index(x, k):
    """max_pool2d(x, k) by loops: values and flat indices (a setup for unpooling)."""
    h, w = x.shape[-2:]
    return adaptive_max_pool2d(x[..., :h // k * k, :w // k * k], h // k, w // k)


def max_unpool2d(values, index, size):
    out = np.zeros(values.shape[:-2] + size, values.dtype)
    for pos in np.ndindex(values.shape):
        plane, flat = pos[:-2], index[pos]
        out[plane + (flat // size[1], flat % size[1])] = values[pos]
    return out


def lp_pool2d(x, p, kh, kw, sh, sw):
    h, w = x.shape[-2:]
    oh, ow = (h - kh) // sh + 1, (w - kw) // sw + 1
    out = np.zeros(x.shape[:-2] + (oh, ow), x.dtype)
    for i in range(oh):
        for j in range(ow):
            out[..., i, j] = (x[..., i * sh:i * sh + kh, j * sw:j * sw + kw] ** p).sum((-1, -2)) ** (1 / p)
    return out


CASES += [
    Case("adaptive_max_pool2d", lambda L, x: F(L).adaptive_max_pool2d(x, (2, 3)), (N(2, 3, 5, 7),),
         lambda x: adaptive_max_pool2d(x, 2, 3)[0]),
    Case("adaptive_max_pool2d_indices", lambda L, x: F(L).adaptive_max_pool2d(x, 3, return_indices=True),
         (N(1, 2, 4, 5),), lambda x: adaptive_max_pool2d(x, 3, 3)),
    Case("adaptive_max_pool2d_unbatched_none", lambda L, x: F(L).adaptive_max_pool2d(x, (None, 2)), (N(2, 3, 5),),
         lambda x: adaptive_max_pool2d(x, 3, 2)[0]),
    Case("adaptive_max_pool1d", lambda L, x: F(L).adaptive_max_pool1d(x, 3, return_indices=True), (N(2, 3, 7),),
         lambda x: tuple(a[..., 0, :] for a in adaptive_max_pool2d(x[..., None, :], 1, 3))),
    Case("AdaptiveMaxPool2d", lambda L, x: L.nn.AdaptiveMaxPool2d(2)(x), (N(1, 2, 5, 5),),
         lambda x: adaptive_max_pool2d(x, 2, 2)[0]),
    Case("max_unpool2d", lambda L, x: F(L).max_unpool2d(*F(L).max_pool2d(x, 2, return_indices=True), 2),
         (N(1, 2, 4, 6),), lambda x: max_unpool2d(*_windows_max_index(x, 2), (4, 6))),
    Case("max_unpool2d_output_size", lambda L, x: F(L).max_unpool2d(*F(L).max_pool2d(x, 2, return_indices=True), 2,
                                                                   output_size=(5, 7)),
         (N(2, 4, 6),), lambda x: max_unpool2d(*_windows_max_index(x, 2), (5, 7))),
    Case("max_unpool1d", lambda L, x: F(L).max_unpool1d(*F(L).max_pool1d(x, 2, return_indices=True), 2),
         (N(2, 3, 6),), lambda x: max_unpool2d(*_windows_max_index(x[..., None, :].repeat(2, -2), 2),
                                               (1, 6))[..., 0, :]),
    Case("lp_pool2d", lambda L, x: F(L).lp_pool2d(x, 2, 2), (P(1, 2, 4, 4),), lambda x: lp_pool2d(x, 2, 2, 2, 2, 2)),
    Case("lp_pool2d_rect_stride", lambda L, x: F(L).lp_pool2d(x, 3, (2, 3), stride=1), (P(2, 3, 4),),
         lambda x: lp_pool2d(x, 3, 2, 3, 1, 1)),
    Case("lp_pool1d", lambda L, x: F(L).lp_pool1d(x, 1.5, 2), (P(2, 3, 6),),
         lambda x: lp_pool2d(x[..., None, :], 1.5, 1, 2, 1, 2)[..., 0, :]),
    Case("LPPool1d_stride", lambda L, x: L.nn.LPPool1d(2, 3, stride=1)(x), (P(1, 2, 5),),
         lambda x: lp_pool2d(x[..., None, :], 2, 1, 3, 1, 1)[..., 0, :]),
    Case("lp_pool2d_negative_gives_nan", lambda L, x: F(L).lp_pool2d(x, 3, 2), (C([[[[-1.0, -2.0], [-0.5, -1.0]]]]),),
         lambda x: np.full((1, 1, 1, 1), np.nan, x.dtype), grad=False),
]

ERRORS += [
    ("adaptive_max_pool2d_2d", lambda L: F(L).adaptive_max_pool2d(L.ones(2, 3), 2)),
    ("adaptive_max_pool2d_three_sizes", lambda L: F(L).adaptive_max_pool2d(L.ones(1, 2, 3, 3), (2, 2, 2))),
    ("adaptive_max_pool2d_empty", lambda L: F(L).adaptive_max_pool2d(L.ones(1, 2, 0, 3), 2)),
    ("adaptive_max_pool2d_int", lambda L: F(L).adaptive_max_pool2d(L.ones(1, 1, 3, 3, dtype=L.long), 2)),
    ("adaptive_max_pool1d_4d", lambda L: F(L).adaptive_max_pool1d(L.ones(2, 3, 4, 5), 2)),
    ("adaptive_max_pool1d_two_sizes", lambda L: F(L).adaptive_max_pool1d(L.ones(2, 3), (2, 2))),
    ("max_unpool2d_bad_index", lambda L: F(L).max_unpool2d(L.ones(1, 1, 2, 2), L.full((1, 1, 2, 2), 70), 2)),
    ("max_unpool2d_float_indices", lambda L: F(L).max_unpool2d(L.ones(1, 1, 2, 2), L.ones(1, 1, 2, 2), 2)),
    ("max_unpool2d_output_size", lambda L: F(L).max_unpool2d(L.ones(1, 1, 2, 2), L.zeros(1, 1, 2, 2, dtype=L.long), 2,
                                                             output_size=(9, 9))),
    ("max_unpool2d_output_size_length", lambda L: F(L).max_unpool2d(L.ones(1, 1, 2, 2), L.zeros(1, 1, 2, 2,
                                                                    dtype=L.long), 2, output_size=(4,))),
    ("max_unpool2d_2d_input", lambda L: F(L).max_unpool2d(L.ones(2, 2), L.zeros(2, 2, dtype=L.long), 2)),
    ("max_unpool2d_index_shape", lambda L: F(L).max_unpool2d(L.ones(1, 1, 2, 2), L.zeros(1, 1, 2, 1, dtype=L.long), 2)),
]
