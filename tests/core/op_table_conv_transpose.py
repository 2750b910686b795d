"""Op-table rows for the transposed convolutions, F.conv_transpose1d and F.conv_transpose2d, and their layers
(issue 26). Format: see op_table.py. The reference scatters each input pixel's weighted kernel onto the output
in plain loops, the definition, and shares nothing with minigrad's col2im."""
import numpy as np

from .op_table_base import Case, N

CASES = []
ERRORS = []


def F(L):
    return L.nn.functional


def _pair(v):
    return tuple(v) if isinstance(v, (tuple, list)) else (v, v)


def conv_transpose2d(x, w, b=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    """out[n, g og + o, u s + i d - p, v s + j d - p] += x[n, c, u, v] w[c, o, i, j], c in group g."""
    (sh, sw), (ph, pw), (oph, opw), (dh, dw) = _pair(stride), _pair(padding), _pair(output_padding), _pair(dilation)
    n, c, h, wd = x.shape
    _, og, kh, kw = w.shape
    oh = (h - 1) * sh - 2 * ph + dh * (kh - 1) + oph + 1
    ow = (wd - 1) * sw - 2 * pw + dw * (kw - 1) + opw + 1
    full = np.zeros((n, og * groups, oh + 2 * ph + kh * dh, ow + 2 * pw + kw * dw), np.result_type(x, w))
    cg = c // groups
    for ci in range(c):
        g = ci // cg
        for u in range(h):
            for v in range(wd):
                for i in range(kh):
                    for j in range(kw):
                        full[:, g * og:(g + 1) * og, u * sh + i * dh, v * sw + j * dw] += x[:, ci, u, v, None] * w[ci, :, i, j]
    out = full[:, :, ph:ph + oh, pw:pw + ow]
    return out if b is None else out + b[:, None, None]


def conv_transpose1d(x, w, b=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    return conv_transpose2d(x[:, :, None], w[:, :, None], b, (1, stride), (0, padding), (0, output_padding), groups,
                            (1, dilation))[:, :, 0]


CASES += [
    Case("conv_transpose2d", lambda L, x, w, b: F(L).conv_transpose2d(x, w, b), (N(2, 3, 3, 4), N(3, 2, 2, 3), N(2)),
         conv_transpose2d),
    Case("conv_transpose2d_stride_padding_output_padding", lambda L, x, w: F(L).conv_transpose2d(x, w, None, 2, 1, 1),
         (N(1, 2, 3, 3), N(2, 3, 3, 3)), lambda x, w: conv_transpose2d(x, w, None, 2, 1, 1)),
    Case("conv_transpose2d_groups_dilation", lambda L, x, w, b: F(L).conv_transpose2d(x, w, b, (2, 1), 0, 0, 2, 2),
         (N(1, 4, 3, 2), N(4, 1, 2, 2), N(2)), lambda x, w, b: conv_transpose2d(x, w, b, (2, 1), 0, 0, 2, 2)),
    Case("conv_transpose2d_unbatched", lambda L, x, w: F(L).conv_transpose2d(x, w, stride=2), (N(2, 2, 2), N(2, 1, 3, 3)),
         lambda x, w: conv_transpose2d(x[None], w, None, 2)[0]),
    Case("conv_transpose1d", lambda L, x, w, b: F(L).conv_transpose1d(x, w, b, stride=3, padding=1),
         (N(2, 3, 4), N(3, 2, 4), N(2)), lambda x, w, b: conv_transpose1d(x, w, b, 3, 1)),
    Case("conv_transpose1d_output_padding_dilation", lambda L, x, w: F(L).conv_transpose1d(x, w, None, 2, 0, 1, 1, 2),
         (N(1, 2, 3), N(2, 2, 2)), lambda x, w: conv_transpose1d(x, w, None, 2, 0, 1, 1, 2)),
    Case("torch_conv_transpose2d", lambda L, x, w: L.conv_transpose2d(x, w, stride=2), (N(1, 2, 2, 2), N(2, 1, 2, 2)),
         lambda x, w: conv_transpose2d(x, w, None, 2)),
]

ERRORS += [
    ("conv_transpose2d_wrong_channels", lambda L: F(L).conv_transpose2d(L.ones(2, 4, 5, 5), L.ones(3, 3, 3, 3))),
    ("conv_transpose2d_output_padding_too_large",
     lambda L: F(L).conv_transpose2d(L.ones(1, 4, 5, 5), L.ones(4, 3, 3, 3), output_padding=1)),
    ("conv_transpose1d_output_padding_too_large",
     lambda L: F(L).conv_transpose1d(L.ones(1, 4, 5), L.ones(4, 3, 3), stride=2, output_padding=2)),
    ("conv_transpose2d_groups", lambda L: F(L).conv_transpose2d(L.ones(2, 4, 5, 5), L.ones(4, 3, 3, 3), groups=3)),
    ("conv_transpose2d_negative_padding", lambda L: F(L).conv_transpose2d(L.ones(1, 4, 5, 5), L.ones(4, 3, 3, 3), padding=-1)),
    ("conv_transpose2d_bias", lambda L: F(L).conv_transpose2d(L.ones(1, 4, 5, 5), L.ones(4, 3, 3, 3), L.ones(4))),
    ("conv_transpose2d_2d_input", lambda L: F(L).conv_transpose2d(L.ones(5, 5), L.ones(4, 3, 3, 3))),
    ("conv_transpose2d_string_padding", lambda L: F(L).conv_transpose2d(L.ones(1, 4, 5, 5), L.ones(4, 3, 3, 3),
                                                                        padding="same")),
    ("ConvTranspose2d_reflect", lambda L: L.nn.ConvTranspose2d(2, 3, 2, padding_mode="reflect")),
    ("ConvTranspose2d_output_size", lambda L: L.nn.ConvTranspose2d(4, 6, 3, stride=2, padding=1)(
        L.ones(1, 4, 5, 5), output_size=[20, 20])),
]
