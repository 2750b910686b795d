"""The built-in ops behind `F.conv1d`, `F.conv2d`, `F.unfold`, `F.fold`: im2col, its adjoint col2im, the convolution.

Why convolution is built on im2col. A 2-D convolution is a matrix product in disguise: `Im2Col` copies every
kh x kw patch of the input into a column (`F.unfold`), and the convolution is then `weight @ columns`. Written
so, the backward needs only two more ideas: the gradient of a matrix product (two more products) and the
adjoint of im2col, `Col2Im` (`F.fold`), which adds each column back onto the patch it came from. `Im2Col` and
`Col2Im` are each other's backward and both are linear, so every derivative of a convolution, to any order, is
again made of im2col, col2im and matrix products: double backward (gradient penalties, Hessian-vector
products) comes for free, where a pair of hand-written "convolution backward" kernels would need a third and a
fourth. PyTorch computes the same thing with its own kernels; the node names match its: `ConvolutionBackward0`,
`Im2ColBackward0`, `Col2ImBackward0`.

Shapes: input (N, C, H, W); weight (O, C / groups, kh, kw); columns (N, C * kh * kw, L), L = oh * ow, ordered
channel-major as PyTorch's `unfold` orders them. A 1-D convolution (N, C, L) is, as in ATen, the 2-D one over
a height of 1: the same op and node. The argument checks, with PyTorch's messages, are in conv_checks.py.
"""
import math

import numpy as np
from numpy.lib.stride_tricks import as_strided

from ...core.forward_ad import from_backward, linear
from ...core.function import Function
from ...ops._common import wrap
from .arguments import UNDEFINED
from .arguments import defined, pair, sizes
from .conv_checks import check_dtypes, check_shapes, expand, ints, string_padding
from .padding import INDEX_PADS, ConstantPadNd, pad_circular


def output_size(size, kernel, dilation, padding, stride):
    """The number of window positions along one dim: floor((size + 2p - d (k - 1) - 1) / s) + 1."""
    return (size + 2 * padding - dilation * (kernel - 1) - 1) // stride + 1


def im2col(a, kernel, dilation, padding, stride):
    """numpy: the (N, C * kh * kw, oh * ow) patches of a (N, C, H, W) array, zero-padded by `padding`."""
    n, c, h, w = a.shape
    (kh, kw), (dh, dw), (ph, pw), (sh, sw) = kernel, dilation, padding, stride
    oh, ow = output_size(h, kh, dh, ph, sh), output_size(w, kw, dw, pw, sw)
    if ph or pw:
        a = np.pad(a, ((0, 0), (0, 0), (ph, ph), (pw, pw)))
    a = np.ascontiguousarray(a)
    s = a.strides
    # a read-only strided view (N, C, kh, kw, oh, ow) of the padded input: no copy until the reshape
    windows = as_strided(a, (n, c, kh, kw, oh, ow), (s[0], s[1], s[2] * dh, s[3] * dw, s[2] * sh, s[3] * sw),
                         writeable=False)
    return windows.reshape(n, c * kh * kw, oh * ow)


def col2im(cols, size, kernel, dilation, padding, stride):
    """numpy: the adjoint of `im2col`: add each column back onto its patch of a (N, C, H, W) array."""
    (h, w), (kh, kw), (dh, dw), (ph, pw), (sh, sw) = size, kernel, dilation, padding, stride
    n, oh, ow = cols.shape[0], output_size(h, kh, dh, ph, sh), output_size(w, kw, dw, pw, sw)
    c = cols.shape[1] // (kh * kw)
    patches = cols.reshape(n, c, kh, kw, oh, ow)
    out = np.zeros((n, c, h + 2 * ph, w + 2 * pw), cols.dtype)
    for i in range(kh):         # one vectorised add per kernel position: a patch element lands on a grid
        for j in range(kw):
            out[:, :, i * dh:i * dh + sh * (oh - 1) + 1:sh, j * dw:j * dw + sw * (ow - 1) + 1:sw] += patches[:, :, i, j]
    return out[:, :, ph:ph + h, pw:pw + w]


class Im2Col(Function):
    """z = the patches of x as columns (`F.unfold`): z[n, (c, i, j), l] = x_padded[n, c, i d + s l_h, j d + s l_w];
    linear, so dz/dx (vector-Jacobian) = col2im(g), the patches' gradients added back where they came from"""
    node_name = "Im2ColBackward0"
    saved_attrs = {"kernel_size": "kernel_size", "dilation": "dilation", "padding": "padding", "stride": "stride",
                   "self_sym_argsize_minus_2": "height", "self_sym_argsize_minus_1": "width"}

    @staticmethod
    def forward(x, kernel_size, dilation, padding, stride):
        a = x._data
        if a.ndim == 3:                       # unbatched (C, H, W): columns (C kh kw, L)
            return wrap(im2col(a[None], kernel_size, dilation, padding, stride)[0])
        return wrap(im2col(a, kernel_size, dilation, padding, stride))

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, ctx.kernel_size, ctx.dilation, ctx.padding, ctx.stride = inputs
        ctx.size = ctx.height, ctx.width = x._data.shape[-2:]

    @staticmethod
    def backward(ctx, grad):
        gx = Col2Im.apply(grad, ctx.size, ctx.kernel_size, ctx.dilation, ctx.padding, ctx.stride)
        return gx, None, None, None, None

    jvp = linear


class Col2Im(Function):
    """z = the columns of x added onto their patches of an (H, W) image (`F.fold`), the adjoint of Im2Col;
    linear, so dz/dx (vector-Jacobian) = im2col(g)"""
    node_name = "Col2ImBackward0"
    saved_attrs = {"output_size": "size", "kernel_size": "kernel_size", "dilation": "dilation", "padding": "padding",
                   "stride": "stride"}

    @staticmethod
    def forward(x, size, kernel_size, dilation, padding, stride):
        a = x._data
        if a.ndim == 2:                       # unbatched columns (C kh kw, L): an image (C, H, W)
            return wrap(col2im(a[None], size, kernel_size, dilation, padding, stride)[0])
        return wrap(col2im(a, size, kernel_size, dilation, padding, stride))

    @staticmethod
    def setup_context(ctx, inputs, output):
        _, ctx.size, ctx.kernel_size, ctx.dilation, ctx.padding, ctx.stride = inputs

    @staticmethod
    def backward(ctx, grad):
        return Im2Col.apply(grad, ctx.kernel_size, ctx.dilation, ctx.padding, ctx.stride), None, None, None, None, None

    jvp = linear


class Convolution(Function):
    """z[n, o] = b[o] + sum over the o's group of channels c and kernel offsets (i, j) of
    w[o, c, i, j] x_padded[n, c, i d + s u, j d + s v]; with X = im2col(x) per group and W = w as a matrix,
    Z = W @ X + b, so (vector-Jacobian, for G = dz):  dz/dx = col2im(W^T @ G),  dz/dw = sum over n of G @ X^T,
    dz/db = sum of G over n and the positions"""
    node_name = "ConvolutionBackward0"
    saved_names = ("input", "weight")
    saved_attrs = {"stride": "stride", "padding": "padding", "dilation": "dilation", "groups": "groups",
                   "transposed": "transposed", "output_padding": "output_padding",
                   "bias_sym_sizes_opt": "bias_sizes"}

    @staticmethod
    def forward(x, weight, bias, stride, padding, dilation, groups):
        a, w = x._data, weight._data
        if w.ndim == 3:         # conv1d: a 2-D convolution of height 1, as ATen's view1d_as_2d
            out = Convolution.forward(wrap(a[:, :, None]), wrap(w[:, :, None]), bias, *_planar(stride, padding,
                                                                                               dilation), groups)
            return wrap(out._data[:, :, 0])
        n, (o, cg, kh, kw) = a.shape[0], w.shape
        cols = im2col(a, (kh, kw), dilation, padding, stride)            # (N, C kh kw, L)
        oh = output_size(a.shape[2], kh, dilation[0], padding[0], stride[0])
        ow = output_size(a.shape[3], kw, dilation[1], padding[1], stride[1])
        out = np.matmul(w.reshape(groups, o // groups, cg * kh * kw), cols.reshape(n, groups, cg * kh * kw, oh * ow))
        out = out.reshape(n, o, oh, ow)
        if bias is not UNDEFINED:
            out = out + bias._data.reshape(o, 1, 1)
        return wrap(out)

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, weight, bias, ctx.stride, ctx.padding, ctx.dilation, ctx.groups = inputs
        save_convolution(ctx, x, weight, bias, False, (0,) * len(ctx.stride))

    @staticmethod
    def backward(ctx, grad):
        x, weight = ctx.saved_tensors
        needs_x, needs_w, needs_b = ctx.needs_input_grad[:3]
        stride, padding, dilation = ctx.stride, ctx.padding, ctx.dilation
        x_shape, w_shape, groups = ctx.x_shape, ctx.w_shape, ctx.groups
        if len(w_shape) == 3:   # conv1d: the gradients of the 2-D convolution of height 1 that it is
            stride, padding, dilation = _planar(stride, padding, dilation)
            x_shape, w_shape = x_shape[:2] + (1,) + x_shape[2:], w_shape[:2] + (1,) + w_shape[2:]
            x = None if x is None else x.unsqueeze(2)
            weight = None if weight is None else weight.unsqueeze(2)
        (n, c, h, w_), (o, cg, kh, kw) = x_shape, w_shape
        kernel, k, positions = (kh, kw), cg * kh * kw, math.prod(grad.shape[2:])
        g = grad.reshape(n, groups, o // groups, positions)                # (N, groups, O / groups, L)
        gx = gw = gb = None
        if needs_x:
            cols = weight.reshape(groups, o // groups, k).transpose(1, 2).matmul(g)
            gx = Col2Im.apply(cols.reshape(n, c * kh * kw, positions), (h, w_), kernel, dilation, padding, stride)
            gx = gx if len(ctx.x_shape) == 4 else gx.squeeze(2)
        if needs_w:
            cols = Im2Col.apply(x, kernel, dilation, padding, stride).reshape(n, groups, k, positions)
            gw = g.matmul(cols.transpose(2, 3)).sum(0).reshape(ctx.w_shape)
        if needs_b:
            gb = grad.sum((0, *range(2, grad.dim())))
        return gx, gw, gb, None, None, None, None

    jvp = from_backward


def save_convolution(ctx, x, weight, bias, transposed, output_padding):
    """What a convolution's node keeps (both kinds: PyTorch's one node does transposed ones too)."""
    ctx.bias_sizes = (0,) if bias is UNDEFINED else bias._data.shape
    ctx.transposed, ctx.output_padding = transposed, output_padding
    needs_x, needs_w = ctx.needs_input_grad[:2]
    # as PyTorch: the input is needed for the weight's gradient, the weight for the input's
    ctx.save_for_backward(x if needs_w else None, weight if needs_x else None)
    ctx.x_shape, ctx.w_shape = x._data.shape, weight._data.shape


def _planar(stride, padding, dilation):
    """A 1-D convolution's arguments as those of a 2-D one over a height of 1."""
    return (1, *stride), (0, *padding), (1, *dilation)


# ---- `F.conv1d`, `F.conv2d`, `F.unfold`, `F.fold` and `F.pad`: the argument checks, then the ops -------------
_blocks = output_size     # (fold has an argument named output_size)


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """Slide each filter of `weight` along the input's last dim and take dot products (a cross-correlation).
    Mirrors `torch.nn.functional.conv1d`; as in ATen, it is a 2-D convolution over a height of 1.

    Args:
        input: (N, C, L), or (C, L) for one sequence.
        weight: (O, C / groups, k);  bias: (O,) or None.
        stride, padding, dilation, groups: as in `conv2d`, with one value each (an int or a 1-tuple).

    Returns:
        (N, O, ol), ol = floor((L + 2 padding - dilation (k - 1) - 1) / stride) + 1.

    Example:
        >>> F.conv1d(torch.ones(1, 1, 5), torch.ones(1, 1, 3)).shape
        torch.Size([1, 1, 3])
    """
    return _convolution(input, weight, bias, stride, padding, dilation, groups, 1)


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """Slide each filter of `weight` over the input and take dot products (a cross-correlation).
    Mirrors `torch.nn.functional.conv2d`.

    Args:
        input: (N, C, H, W), or (C, H, W) for one image.
        weight: (O, C / groups, kh, kw);  bias: (O,) or None.
        stride, padding, dilation: an int or a pair (rows, columns). padding may be "valid" (none) or "same"
            (the output as large as the input; only with stride 1).
        groups: split the channels into this many independent convolutions.

    Returns:
        (N, O, oh, ow), oh = floor((H + 2 padding - dilation (kh - 1) - 1) / stride) + 1 (ow likewise).

    Example:
        >>> F.conv2d(torch.ones(1, 1, 3, 3), torch.ones(1, 1, 2, 2)).shape
        torch.Size([1, 1, 2, 2])
    """
    return _convolution(input, weight, bias, stride, padding, dilation, groups, 2)


def _convolution(input, weight, bias, stride, padding, dilation, groups, dims):
    """`F.conv1d` (dims 1) and `F.conv2d` (dims 2): PyTorch's checks, then the one Convolution op."""
    if input.dim() not in (dims + 1, dims + 2):
        raise RuntimeError(f"Expected {dims + 1}D (unbatched) or {dims + 2}D (batched) input to conv{dims}d, but got "
                           f"input of size: {sizes(input.shape)}")
    if input.dim() == dims + 1:     # PyTorch treats one sample as a batch of one, so the graph shows the unsqueeze
        return _convolution(input.unsqueeze(0), weight, bias, stride, padding, dilation, groups, dims).squeeze(0)
    stride, dilation = ints(stride, dims), ints(dilation, dims)
    if isinstance(padding, str):
        padding, extra = string_padding(weight, padding, stride, dilation)
        input = input if extra is None else pad(input, extra)
    dim = weight.dim() - 2
    if dim <= 0:
        raise RuntimeError("weight should have at least three dimensions")
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    stride, padding, dilation = (expand(v, name, dim) for v, name in
                                 ((stride, "stride"), (ints(padding, dims), "padding"), (dilation, "dilation")))
    check_shapes(input, weight, bias, stride, padding, dilation, groups)
    check_dtypes(input, weight, bias, groups)
    return Convolution.apply(input, weight, defined(bias), stride, padding, dilation, groups)


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    """Copy every sliding kh x kw patch of the input into a column: (N, C, H, W) -> (N, C kh kw, L).
    Mirrors `torch.nn.functional.unfold` (im2col); `fold` adds columns back."""
    kernel, dilation, padding, stride = pair(kernel_size), pair(dilation), pair(padding), pair(stride)
    if input.dim() == 2:
        raise IndexError("Dimension out of range (expected to be in range of [-2, 1], but got 2)")
    h, w = input.shape[-2:]
    blocks = [_blocks(s, k, d, p, st) for s, k, d, p, st in zip((h, w), kernel, dilation, padding, stride)]
    if min(blocks) < 1:
        raise RuntimeError(f"Given input with spatial size ({h}, {w}), kernel_size={kernel}, dilation={dilation}, "
                           f"padding={padding}, calculated shape of the array of sliding blocks as {tuple(blocks)}, "
                           "but its components must be at least one.")
    return Im2Col.apply(input, kernel, dilation, padding, stride)


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """Add columns (N, C kh kw, L) back onto their patches of an image (N, C, H, W), the adjoint of `unfold`.
    Mirrors `torch.nn.functional.fold` (col2im)."""
    size, kernel = pair(output_size), pair(kernel_size)
    dilation, padding, stride = pair(dilation), pair(padding), pair(stride)
    channels, blocks = input.shape[-2:]
    if channels % (kernel[0] * kernel[1]):
        raise RuntimeError(f"Expected size of input's dimension {input.dim() - 2} to be divisible by the product of "
                           f"kernel_size, but got input.size({input.dim() - 2})={channels} and "
                           f"kernel_size={kernel}.")
    bh, bw = (_blocks(s, k, d, p, st) for s, k, d, p, st in zip(size, kernel, dilation, padding, stride))
    if blocks != bh * bw:
        raise RuntimeError(f"Given output_size={size}, kernel_size={kernel}, dilation={dilation}, padding={padding}, "
                           f"stride={stride}, expected size of input's dimension {input.dim() - 1} to match the "
                           f"calculated number of sliding blocks {bh} * {bw} = {bh * bw}, but got "
                           f"input.size({input.dim() - 1})={blocks}.")
    return Col2Im.apply(input, size, kernel, dilation, padding, stride)


_MODES = ("constant", "reflect", "replicate", "circular")


def pad(input, pad, mode="constant", value=None):
    """Add `value` (mode 'constant'), a mirror image ('reflect'), copies of the edge ('replicate') or the other end
    ('circular') around the input. `pad` lists (left, right) amounts from the last dim backwards: (1, 1) pads the
    last dim, (1, 1, 2, 2) the last two; negative amounts cut. Mirrors `torch.nn.functional.pad`.

    Example:
        >>> F.pad(torch.tensor([1., 2.]), (1, 2))
        tensor([0., 1., 2., 0., 0.])
    """
    if mode not in _MODES:
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    for i, p in enumerate(pad):
        if not isinstance(p, int) or isinstance(p, bool):
            raise TypeError("pad(): argument 'pad' (position 2) must be tuple of ints, but found element of type "
                            f"{type(p).__name__} at pos {i}")
    ndim, shape = input.dim(), input.shape
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) > 2 * ndim:
        raise RuntimeError("Padding length should be less than or equal to two times the input dimension but got "
                           f"padding length {len(pad)} and input of dimension {ndim}")
    pad = tuple(pad)
    if mode == "constant":
        for i in range(len(pad) // 2):
            if shape[ndim - 1 - i] + min(pad[2 * i], 0) + min(pad[2 * i + 1], 0) < 0:
                raise RuntimeError("narrow(): length must be non-negative.")
        return ConstantPadNd.apply(input, pad, 0 if value is None else value)
    if value is not None and value != 0:
        raise RuntimeError(f'Padding mode "{mode}" doesn\'t take in value argument')
    k = len(pad) // 2
    if k not in (1, 2, 3) or ndim not in (k + 1, k + 2):
        raise NotImplementedError(
            f"Padding size {len(pad)} is not supported for {ndim}D input tensor.\nSupported combinations for "
            "non-constant padding:\n  - 2D or 3D input: padding size = 2 (pads last dimension)\n  - 3D or 4D input: "
            "padding size = 4 (pads last 2 dimensions)\n  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)")
    if mode == "circular":
        _check_circular_pad(input, pad, k)
        return pad_circular(input, pad)
    _check_index_pad(input, pad, mode, k)
    return INDEX_PADS[mode][k - 1].apply(input, pad)


def _check_circular_pad(input, pad, k):
    """ATen's `_pad_circular` checks: wrap around at most once, and leave no negative size."""
    shape = input.shape
    for i in range(k):
        size, left, right = shape[-1 - i], pad[2 * i], pad[2 * i + 1]
        if left > size or right > size:
            raise RuntimeError("Padding value causes wrapping around more than once.")
        if size + left + right < 0:
            raise RuntimeError("Negative padding value is resulting in an empty dimension")


def _check_index_pad(input, pad, mode, k):
    ndim, shape = input.dim(), input.shape
    if 0 in (shape[1:] if ndim == k + 2 else shape):        # only the batch may be empty
        raise RuntimeError(f"Expected {k + 1}D or {k + 2}D (batch mode) tensor with possibly 0 batch size and other "
                           f"non-zero dimensions for input, but got: {sizes(shape)}")
    for i in range(k):
        axis, left, right = ndim - 1 - i, pad[2 * i], pad[2 * i + 1]
        if mode == "reflect" and (left >= shape[axis] or right >= shape[axis]):
            raise RuntimeError(f"Argument #{4 + 2 * i}: Padding size should be less than the corresponding input "
                               f"dimension, but got: padding ({left}, {right}) at dimension {axis} of input "
                               f"{sizes(shape)}")
    out = [s + pad[2 * (ndim - 1 - a)] + pad[2 * (ndim - 1 - a) + 1] if a >= ndim - k else s
           for a, s in enumerate(shape)]
    negative = [s for s in out if s < 0]
    if negative:
        raise RuntimeError(f"Trying to create tensor with negative dimension {negative[0]}: {sizes(out)}")
