"""numpy references for the layer ops' op-table rows (op_table_layers.py): written as plain loops over output
positions, the textbook definitions, so that they share no code or idea with minigrad's im2col, range sums
and index maps."""
import numpy as np


def _pair(v):
    return tuple(v) if isinstance(v, (tuple, list)) else (v, v)


def _out(size, k, s, p, d, ceil=False):
    o = (size + 2 * p - d * (k - 1) - 1 + (s - 1 if ceil else 0)) // s + 1
    if ceil and (o - 1) * s >= size + p:
        o -= 1
    return o


def conv2d(x, w, b=None, stride=1, padding=0, dilation=1, groups=1):
    """out[n, o, u, v] = b[o] + sum_{c, i, j} w[o, c, i, j] x_pad[n, g(o) C_g + c, u s + i d, v s + j d]."""
    unbatched = x.ndim == 3
    x = x[None] if unbatched else x
    (sh, sw), (ph, pw), (dh, dw) = _pair(stride), _pair(padding), _pair(dilation)
    n, c, h, wd = x.shape
    o, cg, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (ph, ph), (pw, pw)))
    oh, ow = _out(h, kh, sh, ph, dh), _out(wd, kw, sw, pw, dw)
    out = np.zeros((n, o, oh, ow), np.result_type(x, w))
    og = o // groups
    for oc in range(o):
        g = oc // og
        for u in range(oh):
            for v in range(ow):
                patch = xp[:, g * cg:(g + 1) * cg, u * sh:u * sh + dh * (kh - 1) + 1:dh,
                           v * sw:v * sw + dw * (kw - 1) + 1:dw]
                out[:, oc, u, v] = (patch * w[oc]).sum(axis=(1, 2, 3))
    if b is not None:
        out = out + b[:, None, None]
    return out[0] if unbatched else out


def max_pool2d(x, k, stride=None, padding=0, dilation=1, ceil_mode=False):
    """The max of each window (padding is -inf) and its flat position in the unpadded H x W plane."""
    (kh, kw), (ph, pw), (dh, dw) = _pair(k), _pair(padding), _pair(dilation)
    sh, sw = _pair(stride if stride is not None else k)
    h, w = x.shape[-2:]
    oh, ow = _out(h, kh, sh, ph, dh, ceil_mode), _out(w, kw, sw, pw, dw, ceil_mode)
    values = np.full(x.shape[:-2] + (oh, ow), -np.inf, x.dtype)
    index = np.zeros(x.shape[:-2] + (oh, ow), np.int64)
    for u in range(oh):
        for v in range(ow):
            for i in range(kh):
                for j in range(kw):
                    r, c = u * sh - ph + i * dh, v * sw - pw + j * dw
                    if 0 <= r < h and 0 <= c < w:
                        better = x[..., r, c] > values[..., u, v]
                        values[..., u, v] = np.where(better, x[..., r, c], values[..., u, v])
                        index[..., u, v] = np.where(better, r * w + c, index[..., u, v])
    return values, index


def avg_pool2d(x, k, stride=None, padding=0, ceil_mode=False, count_include_pad=True, divisor_override=None):
    """Each window's sum over PyTorch's divisor (see ATen's avg_pool2d kernel)."""
    (kh, kw), (ph, pw) = _pair(k), _pair(padding)
    sh, sw = _pair(stride if stride is not None else k)
    h, w = x.shape[-2:]
    oh, ow = _out(h, kh, sh, ph, 1, ceil_mode), _out(w, kw, sw, pw, 1, ceil_mode)
    out = np.zeros(x.shape[:-2] + (oh, ow), x.dtype)
    for u in range(oh):
        for v in range(ow):
            r0, c0 = u * sh - ph, v * sw - pw
            r1, c1 = min(r0 + kh, h + ph), min(c0 + kw, w + pw)
            pool = (r1 - r0) * (c1 - c0)
            r0, c0, r1, c1 = max(r0, 0), max(c0, 0), min(r1, h), min(c1, w)
            total = x[..., r0:r1, c0:c1].sum(axis=(-1, -2))
            div = divisor_override or (pool if count_include_pad else (r1 - r0) * (c1 - c0))
            out[..., u, v] = total / div
    return out


def adaptive_avg_pool2d(x, size):
    oh, ow = _pair(size)
    h, w = x.shape[-2:]
    out = np.zeros(x.shape[:-2] + (oh, ow), x.dtype)
    for u in range(oh):
        for v in range(ow):
            r0, r1 = (u * h) // oh, -(-((u + 1) * h) // oh)
            c0, c1 = (v * w) // ow, -(-((v + 1) * w) // ow)
            out[..., u, v] = x[..., r0:r1, c0:c1].mean(axis=(-1, -2))
    return out


def unfold(x, k, dilation=1, padding=0, stride=1):
    """Columns (N, C kh kw, L), channel-major: the definition of im2col, one patch at a time."""
    (kh, kw), (dh, dw), (ph, pw), (sh, sw) = _pair(k), _pair(dilation), _pair(padding), _pair(stride)
    n, c, h, w = x.shape
    xp = np.pad(x, ((0, 0), (0, 0), (ph, ph), (pw, pw)))
    oh, ow = _out(h, kh, sh, ph, dh), _out(w, kw, sw, pw, dw)
    cols = []
    for u in range(oh):
        for v in range(ow):
            patch = xp[:, :, u * sh:u * sh + dh * (kh - 1) + 1:dh, v * sw:v * sw + dw * (kw - 1) + 1:dw]
            cols.append(patch.reshape(n, -1))
    return np.stack(cols, -1)


def fold(cols, size, k, dilation=1, padding=0, stride=1):
    (h, w), (kh, kw), (dh, dw) = _pair(size), _pair(k), _pair(dilation)
    (ph, pw), (sh, sw) = _pair(padding), _pair(stride)
    n = cols.shape[0]
    c = cols.shape[1] // (kh * kw)
    oh, ow = _out(h, kh, sh, ph, dh), _out(w, kw, sw, pw, dw)
    out = np.zeros((n, c, h + 2 * ph, w + 2 * pw), cols.dtype)
    for u in range(oh):
        for v in range(ow):
            patch = cols[:, :, u * ow + v].reshape(n, c, kh, kw)
            out[:, :, u * sh:u * sh + dh * (kh - 1) + 1:dh, v * sw:v * sw + dw * (kw - 1) + 1:dw] += patch
    return out[:, :, ph:ph + h, pw:pw + w]


def pad(x, p, mode="constant", value=0.0):
    """numpy's np.pad after cropping negative amounts; torch's reflect is numpy's 'reflect', replicate 'edge'."""
    widths, crop = [(0, 0)] * x.ndim, [slice(None)] * x.ndim
    for i in range(len(p) // 2):
        axis, left, right = x.ndim - 1 - i, p[2 * i], p[2 * i + 1]
        crop[axis] = slice(max(-left, 0), x.shape[axis] - max(-right, 0))
        widths[axis] = (max(left, 0), max(right, 0))
    x = x[tuple(crop)]
    if mode == "constant":
        return np.pad(x, widths, constant_values=value)
    return np.pad(x, widths, mode={"reflect": "reflect", "replicate": "edge"}[mode])


def layer_norm(x, shape, w=None, b=None, eps=1e-5):
    axes = tuple(range(x.ndim - len(shape), x.ndim))
    xd = x.astype(np.float64)
    out = (xd - xd.mean(axes, keepdims=True)) / np.sqrt(xd.var(axes, keepdims=True) + eps)
    out = out * (1 if w is None else w) + (0 if b is None else b)
    return out.astype(x.dtype)


def batch_norm(x, mean=None, var=None, w=None, b=None, eps=1e-5):
    """With mean/var None: the batch's statistics (training); else the given running ones (eval)."""
    axes = (0,) + tuple(range(2, x.ndim))
    shape = (1, -1) + (1,) * (x.ndim - 2)
    xd = x.astype(np.float64)
    m = xd.mean(axes) if mean is None else mean
    v = xd.var(axes) if var is None else var
    out = (xd - np.reshape(m, shape)) / np.sqrt(np.reshape(v, shape) + eps)
    if w is not None:
        out = out * np.reshape(w, shape)
    if b is not None:
        out = out + np.reshape(b, shape)
    return out.astype(x.dtype)
