"""`F.conv_transpose1d` and `F.conv_transpose2d`: the transposed convolution, which maps each input position to a
whole kernel-sized patch of the output (the upsampling layer of decoders and GANs).

It is the adjoint of a convolution: where `conv2d(x, w)` is `W @ im2col(x)`, `conv_transpose2d(y, w)` is
`col2im(Wᵀ @ y)` with the same kernel, stride, padding and dilation, the output size read backwards:
(H - 1) stride - 2 padding + dilation (k - 1) + output_padding + 1. So it needs nothing new: its backward is
a convolution of the gradient (for the input), an outer product with the gradient's patches (for the weight) and
a sum (for the bias), all of im2col, col2im and matrix products, and differentiable to any order. PyTorch records
it as the same node as a convolution, ConvolutionBackward0, with `_saved_transposed` True.

Shapes: input (N, C_in, H, W); weight (C_in, C_out / groups, kh, kw): the in channels come first, the reverse
of conv2d's. A 1-D one is the 2-D one over a height of 1, as in ATen.
"""
import numpy as np

from ...core.forward_ad import from_backward
from ...core.function import Function
from ...ops._common import wrap
from .arguments import UNDEFINED, defined, sizes
from .conv import Im2Col, _planar, col2im, save_convolution
from .conv_checks import check_dtypes, check_steps, expand, ints


def output_length(size, kernel, stride, padding, dilation, output_padding):
    return (size - 1) * stride - 2 * padding + dilation * (kernel - 1) + output_padding + 1


class ConvolutionTransposed(Function):
    """z = col2im(Wᵀ @ x) (+ b), per group;  for G = dz:  dz/dx = W @ im2col(G),  dz/dw = sum over n of
    x @ im2col(G)ᵀ,  dz/db = sum of G over n and the positions"""
    node_name = "ConvolutionBackward0"
    saved_names = ("input", "weight")
    saved_attrs = {"stride": "stride", "padding": "padding", "dilation": "dilation", "groups": "groups",
                   "transposed": "transposed", "output_padding": "output_padding",
                   "bias_sym_sizes_opt": "bias_sizes"}

    @staticmethod
    def forward(x, weight, bias, stride, padding, output_padding, dilation, groups):
        a, w = x._data, weight._data
        if w.ndim == 3:         # 1-D: the 2-D one over a height of 1
            out = ConvolutionTransposed.forward(wrap(a[:, :, None]), wrap(w[:, :, None]), bias,
                                                *_planar(stride, padding, dilation)[:2], (0, *output_padding),
                                                _planar(stride, padding, dilation)[2], groups)
            return wrap(out._data[:, :, 0])
        n, (c, og, kh, kw) = a.shape[0], w.shape
        size = tuple(output_length(s, k, st, p, d, op) for s, k, st, p, d, op in
                     zip(a.shape[2:], (kh, kw), stride, padding, dilation, output_padding))
        if min(size) <= 0:
            raise RuntimeError("could not construct a memory descriptor using a format tag")
        positions = a.shape[2] * a.shape[3]
        weights = w.reshape(groups, c // groups, og * kh * kw).transpose(0, 2, 1)       # (groups, og kh kw, c / g)
        cols = np.matmul(weights, a.reshape(n, groups, c // groups, positions))           # (n, g, og kh kw, L)
        out = col2im(cols.reshape(n, groups * og * kh * kw, positions), size, (kh, kw), dilation, padding, stride)
        if bias is not UNDEFINED:
            out = out + bias._data.reshape(-1, 1, 1)
        return wrap(np.ascontiguousarray(out))

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, weight, bias, ctx.stride, ctx.padding, output_padding, ctx.dilation, ctx.groups = inputs
        save_convolution(ctx, x, weight, bias, True, output_padding)

    @staticmethod
    def backward(ctx, grad):
        x, weight = ctx.saved_tensors
        needs_x, needs_w, needs_b = ctx.needs_input_grad[:3]
        stride, padding, dilation, groups = ctx.stride, ctx.padding, ctx.dilation, ctx.groups
        x_shape, w_shape, flat = ctx.x_shape, ctx.w_shape, len(ctx.w_shape) == 3
        if flat:
            stride, padding, dilation = _planar(stride, padding, dilation)
            x_shape, w_shape = x_shape[:2] + (1,) + x_shape[2:], w_shape[:2] + (1,) + w_shape[2:]
            grad = grad.unsqueeze(2)
            x = None if x is None else x.unsqueeze(2)
            weight = None if weight is None else weight.unsqueeze(2)
        (n, c, h, w_), (_, og, kh, kw) = x_shape, w_shape
        k, positions = og * kh * kw, h * w_
        cols = Im2Col.apply(grad, (kh, kw), dilation, padding, stride).reshape(n, groups, k, positions)
        gx = gw = gb = None
        if needs_x:
            gx = weight.reshape(groups, c // groups, k).matmul(cols).reshape(x_shape)
            gx = gx.squeeze(2) if flat else gx
        if needs_w:
            gw = x.reshape(n, groups, c // groups, positions).matmul(cols.transpose(2, 3)).sum(0)
            gw = gw.reshape(ctx.w_shape)
        if needs_b:
            gb = grad.sum((0, 2, 3))
        return gx, gw, gb, None, None, None, None, None

    jvp = from_backward


def conv_transpose1d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    """The transposed 1-D convolution of (N, C_in, L) by weight (C_in, C_out / groups, k): each input position
    adds a k-long patch to the output, of length (L - 1) stride - 2 padding + dilation (k - 1) + output_padding + 1.
    Mirrors `torch.nn.functional.conv_transpose1d`."""
    return _transposed(input, weight, bias, stride, padding, output_padding, groups, dilation, 1)


def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    """The transposed 2-D convolution of (N, C_in, H, W) by weight (C_in, C_out / groups, kh, kw), the adjoint of
    `conv2d` with the same arguments: each input pixel adds a kernel-sized patch to the output, of height
    (H - 1) stride - 2 padding + dilation (kh - 1) + output_padding + 1 (width likewise).
    Mirrors `torch.nn.functional.conv_transpose2d`.

    Example:
        >>> F.conv_transpose2d(torch.ones(1, 1, 2, 2), torch.ones(1, 1, 2, 2), stride=2).shape
        torch.Size([1, 1, 4, 4])
    """
    return _transposed(input, weight, bias, stride, padding, output_padding, groups, dilation, 2)


def _transposed(input, weight, bias, stride, padding, output_padding, groups, dilation, dims):
    name = f"conv_transpose{dims}d"
    if input.dim() not in (dims + 1, dims + 2):
        raise RuntimeError(f"Expected {dims + 1}D (unbatched) or {dims + 2}D (batched) input to {name}, but got "
                           f"input of size: {sizes(input.shape)}")
    if isinstance(padding, str):
        raise TypeError(f"{name}(): argument 'padding' must be tuple of ints, not str")
    if input.dim() == dims + 1:
        return _transposed(input.unsqueeze(0), weight, bias, stride, padding, output_padding, groups, dilation,
                           dims).squeeze(0)
    dim = weight.dim() - 2
    stride, padding, output_padding, dilation = (
        expand(ints(v, dims), label, dim) for v, label in ((stride, "stride"), (padding, "padding"),
                                                           (output_padding, "output_padding"), (dilation, "dilation")))
    _check(input, weight, bias, stride, padding, output_padding, dilation, groups)
    check_dtypes(input, weight, bias, groups)
    return ConvolutionTransposed.apply(input, weight, defined(bias), stride, padding, output_padding, dilation, groups)


def _check(input, weight, bias, stride, padding, output_padding, dilation, groups):
    """PyTorch's checks of a transposed convolution's arguments, in its order and words."""
    check_steps(stride, padding, dilation)
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    w, x = weight.shape, input.shape
    if weight.dim() != input.dim():
        raise RuntimeError(f"Expected {weight.dim()}-dimensional input for {weight.dim()}-dimensional weight "
                           f"{sizes(w)}, but got {input.dim()}-dimensional input of size {sizes(x)} instead")
    if w[0] % groups:
        raise RuntimeError(f"Given groups={groups}, expected weight to be divisible by {groups} at dimension 0, but "
                           f"got weight of size [{sizes(w)}] instead")
    if x[1] != w[0]:
        raise RuntimeError(f"Given transposed=1, weight of size {sizes(w)}, expected input{sizes(x)} to have {w[0]} "
                           f"channels, but got {x[1]} channels instead")
    if bias is not None and (bias.dim() != 1 or bias.shape[0] != w[1] * groups):
        raise RuntimeError(f"Given transposed=1, weight of size {sizes(w)}, expected bias to be 1-dimensional with "
                           f"{w[1] * groups} elements, but got bias of size {sizes(bias.shape)} instead")
    if any(op >= s and op >= d for op, s, d in zip(output_padding, stride, dilation)):
        if len(stride) == 1:        # ATen checks a 1-D one as the 2-D one of height 1 that it is
            output_padding, stride, dilation = (0, *output_padding), (1, *stride), (1, *dilation)
        names = ("height", "width")
        parts = [f"output_padding_{n}: {v}" for n, v in zip(names, output_padding)]
        parts += [f"stride_{n}: {v}" for n, v in zip(names, stride)]
        parts += [f"dilation_{n}: {v}" for n, v in zip(names, dilation)]
        raise RuntimeError("output padding must be smaller than either stride or dilation, but got " + " ".join(parts))
