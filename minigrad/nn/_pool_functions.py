"""The built-in ops behind `F.max_pool2d`, `F.avg_pool2d` and `F.adaptive_avg_pool2d`.

Max pooling keeps, for each window, the position of its maximum (the `indices`); its backward sends each
gradient to that position, and the backward of that is a gather from the same positions. Average pooling
(plain and adaptive) is linear, and its windows are rectangles: a range of rows times a range of columns, so
one op sums over given ranges (`range_sums`) and its adjoint spreads values back over them (`range_spread`).
Each pooling op's backward is its adjoint op, and the adjoint's backward is the pooling op again, so every
derivative, to any order, is one of the two.

Inputs are (N, C, H, W) or unbatched (C, H, W); the ops work on the last two dims.
"""
import math

import numpy as np
from numpy.lib.stride_tricks import as_strided

from ..autograd.function import Function
from ..ops._common import wrap
from ..ops.scatter import Gather


def pool_output_size(size, kernel, stride, padding, dilation, ceil_mode):
    """PyTorch's `pooling_output_shape`: as for a convolution, rounded up with ceil_mode, except that the last
    window must start inside the input (or its left padding)."""
    out = (size + 2 * padding - dilation * (kernel - 1) - 1 + (stride - 1 if ceil_mode else 0)) // stride + 1
    if ceil_mode and (out - 1) * stride >= size + padding:
        out -= 1
    return out


def _windows(a, kernel, stride, padding, dilation, out_size, fill):
    """A (..., oh, ow, kh, kw) strided view of `a` (..., H, W), padded with `fill` (and on the right as far as
    ceil_mode's last windows reach)."""
    (kh, kw), (sh, sw), (ph, pw), (dh, dw), (oh, ow) = kernel, stride, padding, dilation, out_size
    h, w = a.shape[-2:]
    right_h = max(0, (oh - 1) * sh + dh * (kh - 1) + 1 - h - ph)
    right_w = max(0, (ow - 1) * sw + dw * (kw - 1) + 1 - w - pw)
    a = np.pad(a, [(0, 0)] * (a.ndim - 2) + [(ph, right_h), (pw, right_w)], constant_values=fill)
    s = a.strides
    return as_strided(a, a.shape[:-2] + (oh, ow, kh, kw), s[:-2] + (s[-2] * sh, s[-1] * sw, s[-2] * dh, s[-1] * dw),
                      writeable=False)


class MaxPool2DWithIndices(Function):
    """z = the maximum of each window, idx = where it is (flat over H * W, as PyTorch's `indices`);
    dz/dx (vector-Jacobian) = g sent to the picked positions (added where windows overlap), zero elsewhere"""
    node_name = "MaxPool2DWithIndicesBackward0"
    saved_names = ("self", "result1")
    saved_attrs = {"kernel_size": "kernel_size", "stride": "stride", "padding": "padding", "dilation": "dilation",
                   "ceil_mode": "ceil_mode"}

    @staticmethod
    def forward(x, kernel_size, stride, padding, dilation, ceil_mode, out_size):
        a, stride = x._data, stride or kernel_size          # stride () means kernel_size, as in PyTorch
        fill = -np.inf if a.dtype.kind == "f" else np.iinfo(a.dtype).min      # padding never wins a max
        win = _windows(a, kernel_size, stride, padding, dilation, out_size, fill)
        flat = win.reshape(win.shape[:-2] + (kernel_size[0] * kernel_size[1],))
        pick = flat.argmax(-1)                       # the first maximum in the window, as PyTorch's loop keeps
        values = np.take_along_axis(flat, pick[..., None], -1)[..., 0]
        # the picked window offset (ki, kj) as a position (row, col) of the unpadded input
        (kh, kw), (sh, sw), (ph, pw), (dh, dw), (oh, ow) = kernel_size, stride, padding, dilation, out_size
        rows = np.arange(oh)[:, None] * sh - ph + (pick // kw) * dh
        cols = np.arange(ow)[None, :] * sw - pw + (pick % kw) * dw
        return wrap(values), wrap((rows * a.shape[-1] + cols).astype(np.int64))

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, ctx.kernel_size, ctx.stride, ctx.padding, ctx.dilation, ctx.ceil_mode, _ = inputs
        ctx.save_for_backward(x, output[1])
        ctx.shape = x._data.shape

    @staticmethod
    def backward(ctx, grad, _grad_indices):
        _, indices = ctx.saved_tensors
        return MaxPool2DWithIndicesBackward.apply(grad, indices._data, ctx.shape), None, None, None, None, None, None


class MaxPool2DWithIndicesBackward(Function):
    """gI = zeros of the input's shape, with gI.flat[idx] += g (PyTorch's `max_pool2d_with_indices_backward`);
    linear in g, so d gI / dg (vector-Jacobian, for G) = G gathered at idx"""
    node_name = "MaxPool2DWithIndicesBackwardBackward0"

    @staticmethod
    def forward(grad, indices, shape):
        g = grad._data
        planes, hw = math.prod(shape[:-2]), shape[-2] * shape[-1]
        # one bincount over all planes at once: plane p's positions are offset by p * H * W
        flat = (indices.reshape(planes, g.shape[-2] * g.shape[-1]) + np.arange(planes)[:, None] * hw).ravel()
        out = np.bincount(flat, weights=g.ravel(), minlength=planes * hw)
        return wrap(out.astype(g.dtype).reshape(shape))

    @staticmethod
    def setup_context(ctx, inputs, output):
        _, ctx.indices, ctx.shape = inputs

    @staticmethod
    def backward(ctx, grad):
        idx = ctx.indices
        picked = Gather.apply(grad.flatten(-2), -1, idx.reshape(idx.shape[:-2] + (idx.shape[-2] * idx.shape[-1],)))
        return picked.view(*idx.shape), None, None


def avg_pool_ranges(size, kernel, stride, padding, out, count_include_pad):
    """Along one dim: where each average-pooling window starts and ends inside the input, and its count.

    As PyTorch's avg_pool2d: a window reaches at most into the right padding, where `count_include_pad`
    counts it (ceil_mode's overhang beyond the padding is never counted); otherwise only the inputs inside count.
    """
    start = np.arange(out) * stride - padding
    end = np.minimum(start + kernel, size + padding)
    counted = end - start
    start, end = np.maximum(start, 0), np.minimum(end, size)
    return start, end, (counted if count_include_pad else end - start)


def adaptive_ranges(size, out):
    """Along one dim: adaptive pooling's windows [floor(i size / out), ceil((i + 1) size / out)), and counts."""
    i = np.arange(out)
    start, end = (i * size) // out, -((-(i + 1) * size) // out)
    return start, end, end - start


def range_sums(a, rows, cols):
    """numpy: z[..., i, j] = the sum of a[..., rows[0][i]:rows[1][i], cols[0][j]:cols[1][j]] (summed row-wise,
    then column-wise: a window's sum is separable)."""
    by_rows = np.stack([a[..., s:e, :].sum(-2) for s, e in zip(*rows)], -2) if len(rows[0]) else \
        np.zeros(a.shape[:-2] + (0, a.shape[-1]), a.dtype)
    if not len(cols[0]):
        return np.zeros(by_rows.shape[:-1] + (0,), a.dtype)
    return np.stack([by_rows[..., s:e].sum(-1) for s, e in zip(*cols)], -1)


def range_spread(g, rows, cols, size):
    """numpy: the adjoint of `range_sums`: add each g[..., i, j] to every element of its window."""
    by_cols = np.zeros(g.shape[:-1] + (size[1],), g.dtype)
    for j, (s, e) in enumerate(zip(*cols)):
        by_cols[..., s:e] += g[..., j:j + 1]
    out = np.zeros(g.shape[:-2] + tuple(size), g.dtype)
    for i, (s, e) in enumerate(zip(*rows)):
        out[..., s:e, :] += by_cols[..., i:i + 1, :]
    return out


class AvgPool2D(Function):
    """z[i, j] = (the sum of x over window (i, j)) / D[i, j], D its count (or `divisor_override`);
    linear, so dz/dx (vector-Jacobian) = each g[i, j] / D[i, j] spread over its window"""
    node_name = "AvgPool2DBackward0"
    saved_names = ("self",)
    saved_attrs = {"kernel_size": "kernel_size", "stride": "stride", "padding": "padding",
                   "ceil_mode": "ceil_mode", "count_include_pad": "count_include_pad",
                   "divisor_override": "divisor_override"}

    @staticmethod
    def forward(x, rows, cols, divisor, *attrs):
        a = x._data
        sums = range_sums(a, rows, cols)
        if a.dtype.kind != "f":                       # integers divide as C++ does: toward zero
            return wrap((np.sign(sums) * (np.abs(sums) // divisor)).astype(a.dtype))
        return wrap((sums / divisor).astype(a.dtype))

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, ctx.rows, ctx.cols, ctx.divisor, *ctx.attrs = inputs
        if ctx.attrs:
            (ctx.kernel_size, ctx.stride, ctx.padding, ctx.ceil_mode, ctx.count_include_pad,
             ctx.divisor_override) = ctx.attrs
        ctx.size = x._data.shape[-2:]
        ctx.save_for_backward(x)

    @classmethod
    def backward(cls, ctx, grad):
        gx = cls._adjoint.apply(grad, ctx.rows, ctx.cols, ctx.divisor, ctx.size, ctx.attrs)
        return (gx, None, None, None) + (None,) * len(ctx.attrs)


class AvgPool2DBackward(Function):
    """gI = each g[i, j] / D[i, j] spread over window (i, j) (PyTorch's `avg_pool2d_backward`); linear in g,
    so d gI / dg (vector-Jacobian, for G) = avg_pool2d(G)"""
    node_name = "AvgPool2DBackwardBackward0"
    _pool = AvgPool2D

    @staticmethod
    def forward(grad, rows, cols, divisor, size, attrs):
        g = grad._data
        return wrap(range_spread((g / divisor).astype(g.dtype), rows, cols, size))

    @staticmethod
    def setup_context(ctx, inputs, output):
        _, ctx.rows, ctx.cols, ctx.divisor, _, ctx.attrs = inputs

    @classmethod
    def backward(cls, ctx, grad):
        return cls._pool.apply(grad, ctx.rows, ctx.cols, ctx.divisor, *ctx.attrs), None, None, None, None, None


class AdaptiveAvgPool2D(AvgPool2D):
    """z[i, j] = the mean of x over adaptive window (i, j);  dz/dx = g[i, j] / count spread over the window"""
    node_name = "AdaptiveAvgPool2DBackward0"
    saved_attrs = {}


class AdaptiveAvgPool2DBackward(AvgPool2DBackward):
    """The gradient of adaptive_avg_pool2d as an op (`_adaptive_avg_pool2d_backward`); its gradient is the pool"""
    node_name = "AdaptiveAvgPool2DBackwardBackward0"
    _pool = AdaptiveAvgPool2D


AvgPool2D._adjoint, AdaptiveAvgPool2D._adjoint = AvgPool2DBackward, AdaptiveAvgPool2DBackward
