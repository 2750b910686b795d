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

from ...core.forward_ad import from_backward, linear
from ...core.function import Function
from ...ops._common import wrap
from ...ops.scatter import Gather
from ...ops._common import dim_index
from .arguments import scalar_name, sizes


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

    jvp = from_backward


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

    jvp = from_backward


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

    jvp = linear


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

    jvp = linear


class AdaptiveAvgPool2D(AvgPool2D):
    """z[i, j] = the mean of x over adaptive window (i, j);  dz/dx = g[i, j] / count spread over the window"""
    node_name = "AdaptiveAvgPool2DBackward0"
    saved_attrs = {}


class AdaptiveAvgPool2DBackward(AvgPool2DBackward):
    """The gradient of adaptive_avg_pool2d as an op (`_adaptive_avg_pool2d_backward`); its gradient is the pool"""
    node_name = "AdaptiveAvgPool2DBackwardBackward0"
    _pool = AdaptiveAvgPool2D


AvgPool2D._adjoint, AdaptiveAvgPool2D._adjoint = AvgPool2DBackward, AdaptiveAvgPool2DBackward


# ---- `F.max_pool2d`, `F.avg_pool2d` and `F.adaptive_avg_pool2d`: the argument checks, with PyTorch's mess
def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """Keep the largest value of each kernel_size window. Mirrors `torch.nn.functional.max_pool2d`.

    Args:
        input: (N, C, H, W) or (C, H, W).
        kernel_size, stride (default: kernel_size), padding, dilation: an int or a pair (rows, columns).
            Padding is -inf (never the maximum), at most half the kernel.
        ceil_mode: round the output size up, so that a last, partial window is kept.
        return_indices: also return where each maximum is, as flat positions in H * W.

    Example:
        >>> F.max_pool2d(torch.arange(16.).view(1, 1, 4, 4), 2)
        tensor([[[[ 5.,  7.],
                  [13., 15.]]]])
    """
    fn = "max_pool2d"
    kernel = _two(kernel_size, f"{fn}: kernel_size must either be a single int, or a tuple of two ints")
    stride = () if stride is None or stride == [] or stride == () else _two(
        stride, f"{fn}: stride must either be omitted, a single int, or a tuple of two ints")
    padding = _two(padding, f"{fn}: padding must either be a single int, or a tuple of two ints")
    dilation = _two(dilation, f"{fn}: dilation must be either a single int, or a tuple of two ints")
    if input.dim() not in (3, 4):
        raise RuntimeError("non-empty 3D or 4D (batch mode) tensor expected for input")
    out_size = _output_size(input, kernel, stride or kernel, padding, dilation, ceil_mode)
    _check_kernel_dtype(fn, input, integers=True)
    # an omitted stride goes to the op as () (it means kernel_size), so that the node shows it as PyTorch's does
    out, indices = MaxPool2DWithIndices.apply(input, kernel, stride, padding, dilation, ceil_mode, out_size)
    return (out, indices) if return_indices else out


def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    """Average each kernel_size window. Mirrors `torch.nn.functional.avg_pool2d`.

    Args:
        kernel_size, stride (default: kernel_size), padding: an int or a pair. Padding is zeros.
        ceil_mode: round the output size up (see max_pool2d).
        count_include_pad: divide by the whole window, padding included (default), or only by the inputs in it.
        divisor_override: divide every window's sum by this number instead.
    """
    fn = "avg_pool2d"
    kernel = _two(kernel_size, f"{fn}: kernel_size must either be a single int, or a tuple of two ints")
    given_stride = () if stride is None or stride == [] or stride == () else _two(
        stride, f"{fn}: stride must either be omitted, a single int, or a tuple of two ints")
    stride = given_stride or kernel
    padding = _two(padding, f"{fn}: padding must either be a single int, or a tuple of two ints")
    if divisor_override is not None and divisor_override == 0:
        raise RuntimeError("divisor must be not zero")
    dim_index(-3, input.dim())          # PyTorch reads input.size(-3) first: a 2-D input is an IndexError
    (oh, ow) = out_size = _output_size(input, kernel, stride, padding, (1, 1), ceil_mode)
    _check_kernel_dtype(fn, input, integers=True)
    h, w = input.shape[-2:]
    rows = avg_pool_ranges(h, kernel[0], stride[0], padding[0], oh, count_include_pad)
    cols = avg_pool_ranges(w, kernel[1], stride[1], padding[1], ow, count_include_pad)
    divisor = divisor_override if divisor_override is not None else _divisor(rows[2], cols[2])
    return AvgPool2D.apply(input, rows[:2], cols[:2], divisor, kernel, given_stride, padding, ceil_mode,
                           count_include_pad, divisor_override)


def adaptive_avg_pool2d(input, output_size):
    """Average over windows chosen so that the output is `output_size` (an int, a pair, None keeps that dim),
    whatever the input's size. Mirrors `torch.nn.functional.adaptive_avg_pool2d`.

    Output (1, 1) is the mean over H and W, as in PyTorch (`x.mean((-1, -2), keepdim=True)`).
    """
    if isinstance(output_size, int):
        size = [output_size, output_size]
    else:
        if input.dim() <= len(output_size):
            raise ValueError(f"Input dimension should be at least {len(output_size) + 1}")
        size = [d if v is None else v for v, d in zip(output_size, input.shape[-len(output_size):])]
    if len(size) != 2:
        raise RuntimeError("adaptive_avg_pool2d: output_size must be 2")
    if size[0] < 0 or size[1] < 0:
        raise RuntimeError("adaptive_avg_pool2d: elements of output_size must be greater than or equal to 0 but "
                           f"received {{{size[0]}, {size[1]}}}")
    if size == [1, 1]:
        return input.mean((-1, -2), keepdim=True)
    ndim = input.dim()
    if ndim not in (3, 4):
        raise RuntimeError(f"adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got {sizes(input.shape)}")
    for i in (-2, -1):
        if input.shape[i] == 0:
            raise RuntimeError("adaptive_avg_pool2d(): Expected input to have non-zero size for non-batch dimensions, "
                               f"but input has sizes {sizes(input.shape)} with dimension {i + ndim} being empty")
    _check_kernel_dtype("adaptive_avg_pool2d", input, integers=False)
    rows, cols = adaptive_ranges(input.shape[-2], size[0]), adaptive_ranges(input.shape[-1], size[1])
    return AdaptiveAvgPool2D.apply(input, rows[:2], cols[:2], _divisor(rows[2], cols[2]))


def _two(value, message):
    """An int or a sequence of one or two ints as a pair, or PyTorch's RuntimeError `message`."""
    if isinstance(value, (tuple, list)):
        if len(value) not in (1, 2):
            raise RuntimeError(message)
        return (value[0], value[0]) if len(value) == 1 else tuple(value)
    return (value, value)


def _divisor(counts_h, counts_w):
    """Each window's count, (oh, ow); an empty window (sum 0) divides by 1."""
    d = np.outer(counts_h, counts_w)
    return np.where(d == 0, 1, d)


def _pool_size(size, kernel, stride, padding, dilation, ceil_mode):
    """PyTorch's `pooling_output_shape`, with its checks."""
    if stride == 0:
        raise RuntimeError("stride should not be zero")
    if padding < 0:
        raise RuntimeError(f"pad must be non-negative, but got pad: {padding}")
    if padding > ((kernel - 1) * dilation + 1) // 2:
        raise RuntimeError(f"pad should be at most half of effective kernel size, but got pad={padding}, "
                           f"kernel_size={kernel} and dilation={dilation}")
    return pool_output_size(size, kernel, stride, padding, dilation, ceil_mode)


def _output_size(input, kernel, stride, padding, dilation, ceil_mode):
    """The pooled (oh, ow), after PyTorch's `pool2d_shape_check`."""
    (kh, kw), (sh, sw), (ph, pw), (dh, dw) = kernel, stride, padding, dilation
    planes, h, w = input.shape[-3:]
    oh = _pool_size(h, kh, sh, ph, dh, ceil_mode)
    ow = _pool_size(w, kw, sw, pw, dw, ceil_mode)
    if kh <= 0 or kw <= 0:
        raise RuntimeError(f"kernel size should be greater than zero, but got kH: {kh} kW: {kw}")
    if sh <= 0 or sw <= 0:
        raise RuntimeError(f"stride should be greater than zero, but got dH: {sh} dW: {sw}")
    if dh <= 0 or dw <= 0:
        raise RuntimeError(f"dilation should be greater than zero, but got dilationH: {dh} dilationW: {dw}")
    shape = input.shape
    if input.dim() not in (3, 4) or 0 in shape[1:] or (input.dim() == 3 and shape[0] == 0):
        raise RuntimeError("Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, but "
                           f"got:{sizes(shape)}")
    if kw // 2 < pw or kh // 2 < ph:
        raise RuntimeError(f"pad should be smaller than or equal to half of kernel size, but got padW = {pw}, "
                           f"padH = {ph}, kW = {kw}, kH = {kh}")
    if oh < 1 or ow < 1:
        raise RuntimeError(f"Given input size: ({planes}x{h}x{w}). Calculated output size: ({planes}x{oh}x{ow}). "
                           "Output size is too small")
    return oh, ow


def _check_kernel_dtype(fn, input, integers):
    kind = input._data.dtype.kind
    if kind == "b" or (kind in "iu" and not integers):
        raise NotImplementedError(f"\"{fn}\" not implemented for '{scalar_name(input)}'")
