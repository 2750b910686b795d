"""PyTorch's checks of the arguments of `F.conv1d` and `F.conv2d`, with its messages and in its order: how an
int becomes one value per dim, the 'same' and 'valid' paddings, the shapes and the dtypes (conv.py calls them
before its one op, `Convolution`)."""
import warnings

from .arguments import C_TYPE_NAMES, sizes


def ints(value, dims):
    """An int argument as `dims` values, as PyTorch's argument parser makes it (before the weight is seen)."""
    return list(value) if isinstance(value, (tuple, list)) else [value] * dims


def expand(values, name, dim):
    """A list of ints as `dim` values, one value repeated (PyTorch's `expand_param_if_needed`)."""
    if len(values) == 1:
        return tuple(values) * dim
    if len(values) != dim:
        raise RuntimeError(f"expected {name} to be a single integer value or a list of {dim} values to match the "
                           f"convolution dimensions, but got {name}={sizes(values)}")
    return tuple(values)


_same_padding_warned = [False]     # PyTorch gives this warning once per process (TORCH_WARN_ONCE)


def string_padding(weight, padding, stride, dilation):
    """padding='valid' is none; 'same' pads by dilation (k - 1) in all, the extra one (even kernels) on the right:
    the convolution's padding and, where a total is odd, the extra amounts for F.pad first (else None)."""
    if padding == "valid":
        return 0, None
    if padding != "same":
        raise RuntimeError(f"Invalid padding string: '{padding}'")
    dim = weight.dim() - 2
    dilation, stride = expand(dilation, "dilation", dim), expand(stride, "stride", dim)
    if any(s != 1 for s in stride):
        raise RuntimeError("padding='same' is not supported for strided convolutions")
    total = [d * (k - 1) for d, k in zip(dilation, weight.shape[2:])]
    left = tuple(t // 2 for t in total)
    if all(t == 2 * p for t, p in zip(total, left)):
        return left, None
    if not _same_padding_warned[0]:
        _same_padding_warned[0] = True
        warnings.warn("Using padding='same' with even kernel lengths and odd dilation may require a zero-padded "
                      "copy of the input be created", UserWarning, stacklevel=4)
    extra = []
    for t, p in reversed(list(zip(total, left))):       # F.pad lists the last dim first
        extra += [0, t - 2 * p]
    return left, extra


def check_steps(stride, padding, dilation):
    """The first checks of PyTorch's `check_shape_forward`: no negative padding, positive strides and dilations."""
    if any(p < 0 for p in padding):
        raise RuntimeError("negative padding is not supported")
    if any(s <= 0 for s in stride):
        raise RuntimeError("non-positive stride is not supported")
    if any(d <= 0 for d in dilation):
        raise RuntimeError("non-positive dilation is not supported")


def check_shapes(input, weight, bias, stride, padding, dilation, groups):
    """PyTorch's `check_shape_forward`, in its order."""
    check_steps(stride, padding, dilation)
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


def check_dtypes(input, weight, bias, groups):
    x = input._data.dtype.name
    if bias is not None and bias._data.dtype.name != x:
        raise RuntimeError(f"Input type ({C_TYPE_NAMES[x]}) and bias type ({C_TYPE_NAMES[bias._data.dtype.name]}) "
                           "should be the same")
    if weight._data.dtype.name != x:
        planar = [s[:2] + (1,) * (4 - len(s)) + s[2:] for s in (tuple(input.shape), tuple(weight.shape))]
        (n, c, h, w), (_, _, kh, kw) = planar            # a 1-D convolution is one of height 1 here as well
        # PyTorch's mkldnn path (float32, and not a small problem: its `use_mkldnn`) words it so; the others as
        # a dtype mismatch
        if x == "float32" and (groups > 1 or (kh > 3 and kw > 3) or n > 1 or n * c * h * w > 20480):
            raise RuntimeError(f"Input type ({input.type()}) and weight type ({weight.type()}) should be the same or "
                               "input should be a MKLDNN tensor and weight is a dense tensor")
        raise RuntimeError(f"expected scalar type {input.type()[6:-6]} but found {weight.type()[6:-6]}")
