"""The built-in ops behind `F.conv2d`, `F.unfold` and `F.fold`: im2col, its adjoint col2im, and the convolution.

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
channel-major as PyTorch's `unfold` orders them.
"""
import numpy as np
from numpy.lib.stride_tricks import as_strided

from ..autograd.function import Function
from ..ops._common import wrap
from ._layer_common import UNDEFINED


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
        ctx.bias_sizes = (0,) if bias is UNDEFINED else bias._data.shape
        ctx.transposed, ctx.output_padding = False, (0, 0)       # PyTorch's convolution also does transposed
        needs_x, needs_w = ctx.needs_input_grad[:2]
        # as PyTorch: the input is needed for the weight's gradient, the weight for the input's
        ctx.save_for_backward(x if needs_w else None, weight if needs_x else None)
        ctx.x_shape, ctx.w_shape = x._data.shape, weight._data.shape

    @staticmethod
    def backward(ctx, grad):
        x, weight = ctx.saved_tensors
        needs_x, needs_w, needs_b = ctx.needs_input_grad[:3]
        (n, c, h, w_), (o, cg, kh, kw), groups = ctx.x_shape, ctx.w_shape, ctx.groups
        kernel, k, positions = (kh, kw), cg * kh * kw, grad.shape[2] * grad.shape[3]
        g = grad.reshape(n, groups, o // groups, positions)                # (N, groups, O / groups, L)
        gx = gw = gb = None
        if needs_x:
            cols = weight.reshape(groups, o // groups, k).transpose(1, 2).matmul(g)
            gx = Col2Im.apply(cols.reshape(n, c * kh * kw, positions), (h, w_), kernel, ctx.dilation, ctx.padding,
                              ctx.stride)
        if needs_w:
            cols = Im2Col.apply(x, kernel, ctx.dilation, ctx.padding, ctx.stride).reshape(n, groups, k, positions)
            gw = g.matmul(cols.transpose(2, 3)).sum(0).reshape(ctx.w_shape)
        if needs_b:
            gb = grad.sum((0, 2, 3))
        return gx, gw, gb, None, None, None, None
