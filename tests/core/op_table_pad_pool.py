"""Op-table rows for the padding layers and F.pad's circular mode, the 1-D pools (and max_pool2d_with_indices),
pixel_shuffle / pixel_unshuffle / channel_shuffle and rms_norm, with their layers (issue 26). Format: see
op_table.py. The numpy references below are written from the definitions (np.pad, whose 'wrap' mode is circular
padding; loops over windows; index arithmetic) and share no code with minigrad. The layers' reprs, the dropout
variants' masks and more misuses are in tests/nn/test_nn_parity_pad_pool.py."""
import numpy as np

from .op_table_base import Case, I, N

CASES = []
ERRORS = []


def F(L):
    return L.nn.functional


def _pad(x, pad, mode="constant", value=0.0):
    """np.pad with PyTorch's flat (left, right, ...) list, last dim first; negative amounts cut first."""
    widths = [(0, 0)] * x.ndim
    cut = [slice(None)] * x.ndim
    for i in range(len(pad) // 2):
        axis, left, right = x.ndim - 1 - i, pad[2 * i], pad[2 * i + 1]
        cut[axis] = slice(max(-left, 0), x.shape[axis] - max(-right, 0))
        widths[axis] = (max(left, 0), max(right, 0))
    x = x[tuple(cut)]
    np_mode = {"constant": "constant", "reflect": "reflect", "replicate": "edge", "circular": "wrap"}[mode]
    kwargs = {"constant_values": value} if mode == "constant" else {}
    return np.pad(x, widths, mode=np_mode, **kwargs).astype(x.dtype)


def _layer(name, *args):
    """A row's fn: the padding layer nn.<name>(*args) applied to the input."""
    return lambda L, x: getattr(L.nn, name)(*args)(x)


CASES += [
    # ---- F.pad(mode='circular'): 1, 2 and 3 padded dims, batched and not, negative amounts, wider than half --------
    Case("pad_circular_1d", lambda L, x: F(L).pad(x, (2, 1), mode="circular"), (N(2, 3, 4),),
         lambda x: _pad(x, (2, 1), "circular")),
    Case("pad_circular_1d_unbatched", lambda L, x: F(L).pad(x, (3, 3), mode="circular"), (N(2, 3),),
         lambda x: _pad(x, (3, 3), "circular")),
    Case("pad_circular_2d", lambda L, x: F(L).pad(x, (1, 0, 2, 1), mode="circular"), (N(1, 2, 3, 4),),
         lambda x: _pad(x, (1, 0, 2, 1), "circular")),
    Case("pad_circular_2d_unbatched", lambda L, x: F(L).pad(x, (1, 1, 1, 1), mode="circular"), (N(2, 3, 3),),
         lambda x: _pad(x, (1, 1, 1, 1), "circular")),
    Case("pad_circular_3d", lambda L, x: F(L).pad(x, (1, 1, 0, 2, 1, 0), mode="circular"), (N(1, 1, 2, 3, 4),),
         lambda x: _pad(x, (1, 1, 0, 2, 1, 0), "circular")),
    Case("pad_circular_negative_left", lambda L, x: F(L).pad(x, (-1, 2), mode="circular"), (N(1, 2, 4),),
         lambda x: _pad(x, (-1, 2), "circular")),
    Case("pad_circular_negative_right", lambda L, x: F(L).pad(x, (2, -1), mode="circular"), (N(1, 2, 4),),
         lambda x: _pad(x, (2, -1), "circular")),
    Case("pad_circular_int", lambda L, x: F(L).pad(x, (1, 2), mode="circular"), (I(1, 2, 3),),
         lambda x: _pad(x, (1, 2), "circular"), grad=False),
    # ---- the padding layers: each mode, 1, 2 and 3 dims, an int or a tuple of amounts --------------------------
    Case("zero_pad1d", _layer("ZeroPad1d", 2), (N(2, 3),), lambda x: _pad(x, (2, 2))),
    Case("zero_pad2d", _layer("ZeroPad2d", (1, 0, 2, -1)), (N(1, 2, 3, 4),), lambda x: _pad(x, (1, 0, 2, -1))),
    Case("zero_pad3d", _layer("ZeroPad3d", 1), (N(1, 2, 2, 2),), lambda x: _pad(x, (1,) * 6)),
    Case("constant_pad1d", _layer("ConstantPad1d", (1, 2), 3.5), (N(2, 3, 4),),
         lambda x: _pad(x, (1, 2), value=3.5)),
    Case("constant_pad2d", _layer("ConstantPad2d", 1, -1.0), (N(2, 3, 2),), lambda x: _pad(x, (1,) * 4, value=-1.0)),
    Case("constant_pad3d", _layer("ConstantPad3d", (0, 1, 1, 0, 2, 1), 2.0), (N(1, 1, 2, 2, 3),),
         lambda x: _pad(x, (0, 1, 1, 0, 2, 1), value=2.0)),
    Case("reflection_pad1d", _layer("ReflectionPad1d", (2, 1)), (N(2, 3, 4),), lambda x: _pad(x, (2, 1), "reflect")),
    Case("reflection_pad2d", _layer("ReflectionPad2d", 1), (N(2, 3, 3),), lambda x: _pad(x, (1,) * 4, "reflect")),
    Case("reflection_pad3d", _layer("ReflectionPad3d", (1, 0, 1, 2, 0, 1)), (N(1, 1, 2, 3, 3),),
         lambda x: _pad(x, (1, 0, 1, 2, 0, 1), "reflect")),
    Case("replication_pad1d", _layer("ReplicationPad1d", 3), (N(3, 2),), lambda x: _pad(x, (3, 3), "replicate")),
    Case("replication_pad2d", _layer("ReplicationPad2d", (0, 2, 1, 1)), (N(1, 2, 2, 3),),
         lambda x: _pad(x, (0, 2, 1, 1), "replicate")),
    Case("replication_pad3d", _layer("ReplicationPad3d", 1), (N(1, 2, 2, 2),),
         lambda x: _pad(x, (1,) * 6, "replicate")),
    Case("circular_pad1d", _layer("CircularPad1d", 2), (N(1, 2, 3),), lambda x: _pad(x, (2, 2), "circular")),
    Case("circular_pad2d", _layer("CircularPad2d", (1, 0, 2, 1)), (N(2, 3, 4),),
         lambda x: _pad(x, (1, 0, 2, 1), "circular")),
    Case("circular_pad3d", _layer("CircularPad3d", 1), (N(1, 1, 2, 2, 3),), lambda x: _pad(x, (1,) * 6, "circular")),
]


def _x(L, *shape):
    return L.ones(*shape)


ERRORS += [
    # ---- F.pad(mode='circular') --------------------------------------------------------------------------------
    ("pad_circular_wraps_twice", lambda L: F(L).pad(_x(L, 1, 1, 3), (4, 0), mode="circular")),
    ("pad_circular_wraps_twice_right", lambda L: F(L).pad(_x(L, 1, 2, 3), (0, 0, 0, 3), mode="circular")),
    ("pad_circular_negative_size", lambda L: F(L).pad(_x(L, 1, 2, 3), (-3, -1), mode="circular")),
    ("pad_circular_value", lambda L: F(L).pad(_x(L, 1, 2, 3), (1, 1), mode="circular", value=1)),
    ("pad_circular_1d_input", lambda L: F(L).pad(_x(L, 3), (1, 1), mode="circular")),
    ("pad_circular_6d_input", lambda L: F(L).pad(_x(L, 1, 1, 1, 2, 3, 4), (1, 1), mode="circular")),
    ("pad_circular_odd_length", lambda L: F(L).pad(_x(L, 1, 2, 3), (1,), mode="circular")),
    # ---- the layers ------------------------------------------------------------------------------------------
    ("circular_pad1d_1d_input", lambda L: L.nn.CircularPad1d(1)(_x(L, 4))),
    ("circular_pad2d_2d_input", lambda L: L.nn.CircularPad2d(1)(_x(L, 2, 4))),
    ("circular_pad3d_6d_input", lambda L: L.nn.CircularPad3d(1)(_x(L, 1, 1, 1, 2, 2, 2))),
    ("reflection_pad1d_1d_input", lambda L: L.nn.ReflectionPad1d(1)(_x(L, 4))),
    ("reflection_pad2d_too_much", lambda L: L.nn.ReflectionPad2d(3)(_x(L, 1, 3, 3))),
    ("replication_pad2d_1d_input", lambda L: L.nn.ReplicationPad2d(1)(_x(L, 4))),
    ("replication_pad3d_empty_channels", lambda L: L.nn.ReplicationPad3d(1)(_x(L, 1, 0, 2, 2, 2))),
    ("constant_pad1d_no_value", lambda L: L.nn.ConstantPad1d(2)),
    ("zero_pad2d_three_amounts", lambda L: L.nn.ZeroPad2d((1, 2, 3))(_x(L, 1, 2, 2))),
]


# ---- 1-D pools: references as loops over windows, in float64 -------------------------------------------------
def _windows1d(x, k, s, p, d, ceil_mode, fill):
    """[(window values, their positions)] along the last dim of x, PyTorch's output size and padding rules."""
    size = x.shape[-1]
    out = (size + 2 * p - d * (k - 1) - 1 + (s - 1 if ceil_mode else 0)) // s + 1
    if ceil_mode and (out - 1) * s >= size + p:
        out -= 1
    padded = np.concatenate([np.full(x.shape[:-1] + (p,), fill), x, np.full(x.shape[:-1] + (p + k * d + s,), fill)],
                            -1)
    return [(padded[..., [o * s + j * d for j in range(k)]], [o * s + j * d - p for j in range(k)])
            for o in range(out)]


def _max_pool1d(x, k, s=None, p=0, d=1, ceil_mode=False, indices=False):
    wins = _windows1d(x.astype(np.float64), k, s or k, p, d, ceil_mode, -np.inf)
    values = np.stack([w.max(-1) for w, _ in wins], -1).astype(x.dtype)
    where = np.stack([np.take(pos, w.argmax(-1)) for w, pos in wins], -1)
    return (values, where) if indices else values


def _avg_pool1d(x, k, s=None, p=0, ceil_mode=False, count_include_pad=True):
    size, s = x.shape[-1], s or k
    wins = _windows1d(x.astype(np.float64), k, s, p, 1, ceil_mode, 0.0)
    out = []
    for o, (w, pos) in enumerate(wins):
        end = min(o * s - p + k, size + p)              # the window, cut at the right padding's end
        inside = [q for q in pos if 0 <= q < size]
        count = (end - (o * s - p)) if count_include_pad else len(inside)
        out.append(w[..., :end - (o * s - p)].sum(-1) / count)
    return np.stack(out, -1).astype(x.dtype)


def _adaptive_avg_pool1d(x, out):
    size = x.shape[-1]
    return np.stack([x[..., (i * size) // out:-((-(i + 1) * size) // out)].astype(np.float64).mean(-1)
                     for i in range(out)], -1).astype(x.dtype)


CASES += [
    Case("max_pool1d", lambda L, x: F(L).max_pool1d(x, 2), (N(2, 3, 8),), lambda x: _max_pool1d(x, 2)),
    Case("max_pool1d_unbatched_stride_padding", lambda L, x: F(L).max_pool1d(x, 3, 2, 1), (N(3, 7),),
         lambda x: _max_pool1d(x, 3, 2, 1)),
    Case("max_pool1d_dilation_ceil", lambda L, x: F(L).max_pool1d(x, 2, 2, 0, 2, ceil_mode=True), (N(1, 2, 8),),
         lambda x: _max_pool1d(x, 2, 2, 0, 2, True)),
    Case("max_pool1d_indices", lambda L, x: F(L).max_pool1d(x, (3,), [1], return_indices=True), (N(2, 2, 5),),
         lambda x: _max_pool1d(x, 3, 1, indices=True)),
    Case("max_pool1d_with_indices", lambda L, x: F(L).max_pool1d_with_indices(x, 2), (N(1, 3, 6),),
         lambda x: _max_pool1d(x, 2, indices=True)),
    Case("max_pool1d_module", lambda L, x: L.nn.MaxPool1d(3, 1, 1)(x), (N(2, 2, 5),),
         lambda x: _max_pool1d(x, 3, 1, 1)),
    Case("max_pool2d_with_indices", lambda L, x: F(L).max_pool2d_with_indices(x, 2)[0], (N(1, 2, 4, 4),),
         lambda x: x.reshape(1, 2, 2, 2, 2, 2).max((3, 5))),
    Case("avg_pool1d", lambda L, x: F(L).avg_pool1d(x, 2), (N(2, 3, 8),), lambda x: _avg_pool1d(x, 2)),
    Case("avg_pool1d_unbatched_padding", lambda L, x: F(L).avg_pool1d(x, 3, 2, 1), (N(3, 7),),
         lambda x: _avg_pool1d(x, 3, 2, 1)),
    Case("avg_pool1d_ceil_exclude_pad", lambda L, x: F(L).avg_pool1d(x, 3, 2, 1, True, False), (N(1, 2, 8),),
         lambda x: _avg_pool1d(x, 3, 2, 1, True, False)),
    Case("avg_pool1d_module", lambda L, x: L.nn.AvgPool1d(2, 1)(x), (N(2, 2, 5),), lambda x: _avg_pool1d(x, 2, 1)),
    Case("adaptive_avg_pool1d", lambda L, x: F(L).adaptive_avg_pool1d(x, 3), (N(2, 3, 8),),
         lambda x: _adaptive_avg_pool1d(x, 3)),
    Case("adaptive_avg_pool1d_unbatched_grow", lambda L, x: F(L).adaptive_avg_pool1d(x, (7,)), (N(2, 5),),
         lambda x: _adaptive_avg_pool1d(x, 7)),
    Case("adaptive_avg_pool1d_to_one", lambda L, x: L.nn.AdaptiveAvgPool1d(1)(x), (N(2, 3, 4),),
         lambda x: _adaptive_avg_pool1d(x, 1)),
]

ERRORS += [
    ("max_pool1d_1d_input", lambda L: F(L).max_pool1d(_x(L, 8), 2)),
    ("max_pool1d_4d_input", lambda L: F(L).max_pool1d(_x(L, 1, 2, 3, 8), 2)),
    ("max_pool1d_kernel_pair", lambda L: F(L).max_pool1d(_x(L, 2, 3, 8), (2, 2))),
    ("max_pool1d_stride_pair", lambda L: F(L).max_pool1d(_x(L, 2, 3, 8), 2, (1, 1))),
    ("max_pool1d_padding_pair", lambda L: F(L).max_pool1d(_x(L, 2, 3, 8), 2, padding=(1, 1))),
    ("max_pool1d_dilation_pair", lambda L: F(L).max_pool1d(_x(L, 2, 3, 8), 2, dilation=(1, 1))),
    ("max_pool1d_kernel_zero", lambda L: F(L).max_pool1d(_x(L, 2, 3, 8), 0)),
    ("max_pool1d_stride_zero", lambda L: F(L).max_pool1d(_x(L, 2, 3, 8), 2, 0)),
    ("max_pool1d_padding_negative", lambda L: F(L).max_pool1d(_x(L, 2, 3, 8), 2, padding=-1)),
    ("max_pool1d_padding_over_half", lambda L: F(L).max_pool1d(_x(L, 2, 3, 8), 2, padding=2)),
    ("max_pool1d_dilation_zero", lambda L: F(L).max_pool1d(_x(L, 2, 3, 8), 2, dilation=0)),
    ("max_pool1d_output_empty", lambda L: F(L).max_pool1d(_x(L, 2, 3, 8), 9)),
    ("max_pool1d_int", lambda L: F(L).max_pool1d(L.ones(2, 3, 8, dtype=L.int32), 2)),
    ("avg_pool1d_1d_input", lambda L: F(L).avg_pool1d(_x(L, 8), 2)),
    ("avg_pool1d_4d_input", lambda L: F(L).avg_pool1d(_x(L, 1, 2, 3, 8), 2)),
    ("avg_pool1d_kernel_pair", lambda L: F(L).avg_pool1d(_x(L, 2, 3, 8), (2, 2))),
    ("avg_pool1d_stride_pair", lambda L: F(L).avg_pool1d(_x(L, 2, 3, 8), 2, (1, 1))),
    ("avg_pool1d_padding_pair", lambda L: F(L).avg_pool1d(_x(L, 2, 3, 8), 2, padding=(1, 1))),
    ("avg_pool1d_padding_over_half", lambda L: F(L).avg_pool1d(_x(L, 2, 3, 8), 2, padding=2)),
    ("avg_pool1d_output_empty", lambda L: F(L).avg_pool1d(_x(L, 2, 3, 8), 9)),
    ("avg_pool1d_stride_zero", lambda L: F(L).avg_pool1d(_x(L, 2, 3, 8), 2, 0)),
    ("adaptive_avg_pool1d_1d_input", lambda L: F(L).adaptive_avg_pool1d(_x(L, 8), 2)),
    ("adaptive_avg_pool1d_size_pair", lambda L: F(L).adaptive_avg_pool1d(_x(L, 2, 3, 8), (2, 2))),
    ("adaptive_avg_pool1d_negative", lambda L: F(L).adaptive_avg_pool1d(_x(L, 2, 3, 8), -1)),
    ("adaptive_avg_pool1d_empty_length", lambda L: F(L).adaptive_avg_pool1d(_x(L, 2, 3, 0), 2)),
]


# ---- pixel and channel shuffles: references by index arithmetic, element by element ------------------------------
def _pixel_shuffle(x, r):
    *lead, c, h, w = x.shape
    out = np.empty((*lead, c // (r * r), h * r, w * r), x.dtype)
    for k in range(c // (r * r)):
        for i in range(h * r):
            for j in range(w * r):
                out[..., k, i, j] = x[..., k * r * r + (i % r) * r + j % r, i // r, j // r]
    return out


def _pixel_unshuffle(x, r):
    *lead, c, h, w = x.shape
    out = np.empty((*lead, c * r * r, h // r, w // r), x.dtype)
    for k in range(c * r * r):
        for i in range(h // r):
            for j in range(w // r):
                out[..., k, i, j] = x[..., k // (r * r), i * r + (k % (r * r)) // r, j * r + k % r]
    return out


def _channel_shuffle(x, g):
    c = x.shape[1]
    return x[:, [(k % g) * (c // g) + k // g for k in range(c)]]


CASES += [
    Case("pixel_shuffle", lambda L, x: F(L).pixel_shuffle(x, 2), (N(2, 8, 2, 3),), lambda x: _pixel_shuffle(x, 2)),
    Case("pixel_shuffle_3d_input", lambda L, x: F(L).pixel_shuffle(x, 3), (N(9, 1, 2),),
         lambda x: _pixel_shuffle(x, 3)),
    Case("pixel_shuffle_5d_input", lambda L, x: L.nn.PixelShuffle(2)(x), (N(2, 1, 4, 2, 2),),
         lambda x: _pixel_shuffle(x, 2)),
    Case("pixel_unshuffle", lambda L, x: F(L).pixel_unshuffle(x, 2), (N(2, 2, 4, 6),),
         lambda x: _pixel_unshuffle(x, 2)),
    Case("pixel_unshuffle_module_3d", lambda L, x: L.nn.PixelUnshuffle(3)(x), (N(1, 3, 6),),
         lambda x: _pixel_unshuffle(x, 3)),
    Case("pixel_shuffle_int", lambda L, x: F(L).pixel_shuffle(x, 2), (I(1, 4, 2, 2),), lambda x: _pixel_shuffle(x, 2),
         grad=False),
    Case("channel_shuffle", lambda L, x: F(L).channel_shuffle(x, 2), (N(2, 6, 3),), lambda x: _channel_shuffle(x, 2)),
    Case("channel_shuffle_module_4d", lambda L, x: L.nn.ChannelShuffle(3)(x), (N(1, 6, 2, 2),),
         lambda x: _channel_shuffle(x, 3)),
    Case("channel_shuffle_one_group", lambda L, x: F(L).channel_shuffle(x, 1), (N(2, 4, 2),),
         lambda x: _channel_shuffle(x, 1)),
]

ERRORS += [
    ("pixel_shuffle_2d_input", lambda L: F(L).pixel_shuffle(_x(L, 3, 2), 2)),
    ("pixel_shuffle_channels", lambda L: F(L).pixel_shuffle(_x(L, 1, 3, 2, 2), 2)),
    ("pixel_shuffle_zero_factor", lambda L: F(L).pixel_shuffle(_x(L, 1, 4, 2, 2), 0)),
    ("pixel_unshuffle_height", lambda L: F(L).pixel_unshuffle(_x(L, 1, 1, 3, 4), 2)),
    ("pixel_unshuffle_width", lambda L: F(L).pixel_unshuffle(_x(L, 1, 1, 4, 3), 2)),
    ("pixel_unshuffle_2d_input", lambda L: F(L).pixel_unshuffle(_x(L, 4, 4), 2)),
    ("pixel_unshuffle_zero_factor", lambda L: F(L).pixel_unshuffle(_x(L, 1, 1, 4, 4), 0)),
    ("channel_shuffle_channels", lambda L: F(L).channel_shuffle(_x(L, 1, 3, 2, 2), 2)),
    ("channel_shuffle_1d_input", lambda L: F(L).channel_shuffle(_x(L, 3), 1)),
    ("channel_shuffle_2d_input", lambda L: L.nn.ChannelShuffle(2)(_x(L, 1, 4))),
    ("channel_shuffle_zero_groups", lambda L: F(L).channel_shuffle(_x(L, 1, 4, 2), 0)),
    ("channel_shuffle_negative_groups", lambda L: F(L).channel_shuffle(_x(L, 1, 4, 2), -2)),
]


# ---- rms_norm and RMSNorm: the textbook formula, in float64 ------------------------------------------------------
def _rms_norm(x, dims, w=None, eps=None):
    eps = np.finfo(x.dtype).eps if eps is None else eps
    xd = x.astype(np.float64)
    out = xd / np.sqrt((xd * xd).mean(tuple(range(-dims, 0)), keepdims=True) + eps)
    return (out if w is None else out * w).astype(x.dtype)


CASES += [
    Case("rms_norm", lambda L, x, w: F(L).rms_norm(x, (4,), w), (N(2, 3, 4), N(4)), lambda x, w: _rms_norm(x, 1, w)),
    Case("rms_norm_two_dims_no_weight", lambda L, x: F(L).rms_norm(x, [3, 4]), (N(2, 3, 4),),
         lambda x: _rms_norm(x, 2)),
    Case("rms_norm_eps", lambda L, x, w: F(L).rms_norm(x, (5,), w, eps=0.1), (N(3, 5), N(5)),
         lambda x, w: _rms_norm(x, 1, w, 0.1)),
    Case("rms_norm_module", lambda L, x: L.nn.RMSNorm([2, 3], elementwise_affine=False)(x), (N(2, 2, 3),),
         lambda x: _rms_norm(x, 2)),
    Case("rms_norm_wrong_shape_three_dims", lambda L, x: F(L).rms_norm(x, (2, 2, 3)), (N(1, 2, 2, 3),),
         lambda x: _rms_norm(x, 3)),
]

ERRORS += [
    ("rms_norm_int_shape", lambda L: F(L).rms_norm(_x(L, 2, 4), 4)),
    ("rms_norm_empty_shape", lambda L: F(L).rms_norm(_x(L, 2, 4), [])),
    ("rms_norm_wrong_trailing_shape", lambda L: F(L).rms_norm(_x(L, 2, 3, 4), (3,))),
    ("rms_norm_weight_shape", lambda L: F(L).rms_norm(_x(L, 2, 3, 4), (4,), _x(L, 3))),
    ("rms_norm_int_input", lambda L: F(L).rms_norm(L.ones(2, 4, dtype=L.int32), (4,))),
    ("rms_norm_module_shape", lambda L: L.nn.RMSNorm(3)(_x(L, 2, 4))),
    ("rms_norm_two_dims_shape", lambda L: F(L).rms_norm(_x(L, 2, 2, 4), (3, 4))),
]
