"""`F.conv2d`, `F.unfold`, `F.fold` and `F.pad`: the argument checks, with PyTorch's messages, before the ops
of `_conv_functions.py` and `_pad_functions.py`."""
import warnings

from ._conv_functions import Col2Im, Convolution, Im2Col
from ._conv_functions import output_size as _blocks
from ._layer_common import C_TYPE_NAMES, defined, pair, sizes
from ._pad_functions import INDEX_PADS, ConstantPadNd


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
    if input.dim() not in (3, 4):
        raise RuntimeError("Expected 3D (unbatched) or 4D (batched) input to conv2d, but got input of size: "
                           f"{sizes(input.shape)}")
    if input.dim() == 3:        # PyTorch treats one image as a batch of one, so the graph shows the unsqueeze
        return conv2d(input.unsqueeze(0), weight, bias, stride, padding, dilation, groups).squeeze(0)
    if isinstance(padding, str):
        input, padding = _string_padding(input, weight, padding, stride, dilation)
    dim = weight.dim() - 2
    if dim <= 0:
        raise RuntimeError("weight should have at least three dimensions")
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    stride, padding, dilation = (_expand(v, name, dim) for v, name in
                                 ((stride, "stride"), (padding, "padding"), (dilation, "dilation")))
    _check_conv_shapes(input, weight, bias, stride, padding, dilation, groups)
    _check_conv_dtypes(input, weight, bias, groups)
    return Convolution.apply(input, weight, defined(bias), stride, padding, dilation, groups)


def _expand(value, name, dim):
    """An int or a list of ints as `dim` values (PyTorch's `expand_param_if_needed`)."""
    values = list(value) if isinstance(value, (tuple, list)) else [value, value]
    if len(values) == 1:
        return tuple(values) * dim
    if len(values) != dim:
        raise RuntimeError(f"expected {name} to be a single integer value or a list of {dim} values to match the "
                           f"convolution dimensions, but got {name}={sizes(values)}")
    return tuple(values)


_same_padding_warned = [False]     # PyTorch gives this warning once per process (TORCH_WARN_ONCE)


def _string_padding(input, weight, padding, stride, dilation):
    """padding='valid' is none; 'same' pads by dilation (k - 1) in all, the extra one (even kernels) on the right."""
    if padding == "valid":
        return input, 0
    if padding != "same":
        raise RuntimeError(f"Invalid padding string: '{padding}'")
    dim = weight.dim() - 2
    dilation, stride = _expand(dilation, "dilation", dim), _expand(stride, "stride", dim)
    if any(s != 1 for s in stride):
        raise RuntimeError("padding='same' is not supported for strided convolutions")
    total = [d * (k - 1) for d, k in zip(dilation, weight.shape[2:])]
    left = tuple(t // 2 for t in total)
    if all(t == 2 * p for t, p in zip(total, left)):
        return input, left
    if not _same_padding_warned[0]:
        _same_padding_warned[0] = True
        warnings.warn("Using padding='same' with even kernel lengths and odd dilation may require a zero-padded "
                      "copy of the input be created", UserWarning, stacklevel=3)
    extra = []
    for t, p in reversed(list(zip(total, left))):       # F.pad lists the last dim first
        extra += [0, t - 2 * p]
    return pad(input, extra), left


def _check_conv_shapes(input, weight, bias, stride, padding, dilation, groups):
    """PyTorch's `check_shape_forward`, in its order."""
    if any(p < 0 for p in padding):
        raise RuntimeError("negative padding is not supported")
    if any(s <= 0 for s in stride):
        raise RuntimeError("non-positive stride is not supported")
    if any(d <= 0 for d in dilation):
        raise RuntimeError("non-positive dilation is not supported")
    w, x = weight.shape, input.shape
    if weight.dim() != input.dim():
        raise RuntimeError(f"Expected {weight.dim()}-dimensional input for {weight.dim()}-dimensional weight "
                           f"{sizes(w)}, but got {input.dim()}-dimensional input of size {sizes(x)} instead")
    if w[0] < groups:
        raise RuntimeError(f"Given groups={groups}, expected weight to be at least {groups} at dimension 0, but got "
                           f"weight of size {sizes(w)} instead")
    if w[0] % groups:
        raise RuntimeError(f"Given groups={groups}, expected weight to be divisible by {groups} at dimension 0, but "
                           f"got weight of size [{sizes(w)}] instead")
    if x[1] != w[1] * groups:
        raise RuntimeError(f"Given groups={groups}, weight of size {sizes(w)}, expected input{sizes(x)} to have "
                           f"{w[1] * groups} channels, but got {x[1]} channels instead")
    if bias is not None and (bias.dim() != 1 or bias.shape[0] != w[0]):
        raise RuntimeError(f"Given weight of size {sizes(w)}, expected bias to be 1-dimensional with {w[0]} "
                           f"elements, but got bias of size {sizes(bias.shape)} instead")
    padded = [s + 2 * p for s, p in zip(x[2:], padding)]
    kernel = [d * (k - 1) + 1 for d, k in zip(dilation, w[2:])]
    if any(p < k for p, k in zip(padded, kernel)):
        raise RuntimeError(f"Calculated padded input size per channel: ({' x '.join(map(str, padded))}). Kernel size: "
                           f"({' x '.join(map(str, kernel))}). Kernel size can't be greater than actual input size")


def _check_conv_dtypes(input, weight, bias, groups):
    x = input._data.dtype.name
    if bias is not None and bias._data.dtype.name != x:
        raise RuntimeError(f"Input type ({C_TYPE_NAMES[x]}) and bias type ({C_TYPE_NAMES[bias._data.dtype.name]}) "
                           "should be the same")
    if weight._data.dtype.name != x:
        (n, c, h, w), (_, _, kh, kw) = input.shape, weight.shape
        # PyTorch's mkldnn path (float32, and not a small problem: its `use_mkldnn`) words it so; the others as
        # a dtype mismatch
        if x == "float32" and (groups > 1 or (kh > 3 and kw > 3) or n > 1 or n * c * h * w > 20480):
            raise RuntimeError(f"Input type ({input.type()}) and weight type ({weight.type()}) should be the same or "
                               "input should be a MKLDNN tensor and weight is a dense tensor")
        raise RuntimeError(f"expected scalar type {input.type()[6:-6]} but found {weight.type()[6:-6]}")


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
    """Add `value` (mode 'constant'), a mirror image ('reflect') or copies of the edge ('replicate') around the
    input. `pad` lists (left, right) amounts from the last dim backwards: (1, 1) pads the last dim, (1, 1, 2, 2)
    the last two; negative amounts cut. Mirrors `torch.nn.functional.pad` (not its 'circular' mode).

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
    if mode == "circular":
        raise NotImplementedError("minigrad's F.pad does not support mode='circular' (PyTorch builds it from slices "
                                  "and copies)")
    if k not in (1, 2, 3) or ndim not in (k + 1, k + 2):
        raise NotImplementedError(
            f"Padding size {len(pad)} is not supported for {ndim}D input tensor.\nSupported combinations for "
            "non-constant padding:\n  - 2D or 3D input: padding size = 2 (pads last dimension)\n  - 3D or 4D input: "
            "padding size = 4 (pads last 2 dimensions)\n  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)")
    _check_index_pad(input, pad, mode, k)
    return INDEX_PADS[mode][k - 1].apply(input, pad)


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
