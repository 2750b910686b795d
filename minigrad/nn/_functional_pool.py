"""`F.max_pool2d`, `F.avg_pool2d` and `F.adaptive_avg_pool2d`: the argument checks, with PyTorch's messages
(`pooling_output_shape` and `pool2d_shape_check` in ATen), before the ops of `_pool_functions.py`."""
import numpy as np

from ..ops._common import dim_index
from ._layer_common import scalar_name, sizes
from ._pool_functions import (AdaptiveAvgPool2D, AvgPool2D, MaxPool2DWithIndices, adaptive_ranges, avg_pool_ranges,
                              pool_output_size)


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
