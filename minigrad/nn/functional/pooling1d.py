"""1-D pooling, as ATen does it: a 1-D pool is the 2-D pool over a height of 1. So `max_pool1d(x, k)` is
`max_pool2d(x.unsqueeze(-2), (1, k)).squeeze(-2)`, and its graph is PyTorch's: SqueezeBackward1 over the 2-D
pool's node over UnsqueezeBackward0. Mirrors `torch.nn.functional.max_pool1d`, `avg_pool1d`,
`adaptive_avg_pool1d`; the argument checks (PyTorch's words) come first, then the one call to the 2-D pool."""
from .pooling import adaptive_avg_pool2d, avg_pool2d, max_pool2d, pool_output_size
from .arguments import scalar_name, sizes

__all__ = ["max_pool1d", "max_pool1d_with_indices", "avg_pool1d", "adaptive_avg_pool1d", "max_pool2d_with_indices"]


def max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """Keep the largest value of each window of a (N, C, L) or (C, L) input; with `return_indices`, also where
    each is (positions along L).

    Example:
        >>> F.max_pool1d(torch.arange(6.).view(1, 6), 2, return_indices=True)
        (tensor([[1., 3., 5.]]), tensor([[1, 3, 5]]))
    """
    kernel, stride, padding, dilation = _check_max_pool1d(input, kernel_size, stride, padding, dilation, ceil_mode)
    out, indices = max_pool2d(input.unsqueeze(-2), (1, kernel), (1, stride), (0, padding), (1, dilation),
                              ceil_mode=ceil_mode, return_indices=True)
    return (out.squeeze(-2), indices.squeeze(-2)) if return_indices else out.squeeze(-2)


def max_pool1d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=False):
    """`max_pool1d` that always returns (output, indices). Mirrors `torch.nn.functional.max_pool1d_with_indices`."""
    return max_pool1d(input, kernel_size, stride, padding, dilation, ceil_mode, return_indices=True)


def max_pool2d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=False):
    """`max_pool2d` that always returns (output, indices). Mirrors `torch.nn.functional.max_pool2d_with_indices`."""
    return max_pool2d(input, kernel_size, stride, padding, dilation, ceil_mode, return_indices=True)


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
    """Average each window of a (N, C, L) or (C, L) input (zero padding; see `avg_pool2d` for the options)."""
    _check_dims("avg_pool1d", input)
    kernel = _one("avg_pool1d", "kernel_size", kernel_size)
    stride = kernel if stride is None or stride == [] or stride == () else _one("avg_pool1d", "stride", stride)
    padding = _one("avg_pool1d", "padding", padding)
    out = avg_pool2d(input.unsqueeze(-2), (1, kernel), (1, stride), (0, padding), ceil_mode, count_include_pad)
    return out.squeeze(-2)


def adaptive_avg_pool1d(input, output_size):
    """Average over windows chosen so that the last dim becomes `output_size`, whatever its size."""
    _check_dims("adaptive_avg_pool1d", input)
    size = _one("adaptive_avg_pool1d", "output_size", output_size)
    return adaptive_avg_pool2d(input.unsqueeze(-2), (1, size)).squeeze(-2)


# ---- the argument checks, in PyTorch's words (ATen's check1d, checkDimRange, check_max_pool1d) -------------------
def _one(fn, name, value):
    """An int, or a list or tuple of one int."""
    if isinstance(value, int):
        return value
    if len(value) != 1:
        raise RuntimeError(f"{fn}() argument '{name}' should contain one int (got {len(value)})")
    return value[0]


def _check_dims(fn, input):
    if input.dim() not in (2, 3):
        raise RuntimeError(f"Expected 2 to 3 dimensions, but got {input.dim()}-dimensional tensor for argument #1 "
                           f"'self' (while checking arguments for {fn})")


def _sized(value):
    return (value,) if isinstance(value, int) else tuple(value)


def _check_max_pool1d(input, kernel_size, stride, padding, dilation, ceil_mode):
    if input.dim() not in (2, 3):
        raise RuntimeError("max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 dim batch size for "
                           f"input, but got:{sizes(input.shape)}")
    kernel, padding, dilation = _sized(kernel_size), _sized(padding), _sized(dilation)
    stride = () if stride is None else _sized(stride)
    if len(kernel) != 1:
        raise RuntimeError("max_pool1d() kernel_size must be an int, list of ints or tuple of ints of size 1 but got "
                           f"size {len(kernel)}")
    if len(stride) not in (0, 1):
        raise RuntimeError("max_pool1d() stride must be None, an int, list of ints, or tuple of ints of size 1 but "
                           f"got size {len(stride)}")
    if len(padding) != 1:
        raise RuntimeError("max_pool1d() padding must be an int, list of ints, or tuple of ints of size 1 but got "
                           f"size {len(padding)}")
    if len(dilation) != 1:
        raise RuntimeError("max_pool1d() dilation must be an int, list of ints or tuple of ints of size 1 but got "
                           f"size {len(dilation)}")
    (k,), (p,), (d,) = kernel, padding, dilation
    s = stride[0] if stride else k
    for name, value, least in (("kernel_size", k, 1), ("stride", s, 1)):
        if value < least:
            raise RuntimeError(f"max_pool1d() {name} must be greater than zero, but got {value}")
    if p < 0:
        raise RuntimeError(f"max_pool1d() padding must be non-negative, but got {p}")
    if p > k // 2:
        raise RuntimeError(f"max_pool1d() padding should be at most half of kernel size, but got padding={p} and "
                           f"kernel_size={k}")
    if d < 1:
        raise RuntimeError(f"max_pool1d() dilation must be greater than zero, but got {d}")
    out = pool_output_size(input.shape[-1], k, s, p, d, ceil_mode)
    if out <= 0:
        raise RuntimeError(f"max_pool1d() Invalid computed output size: {out}")
    if not input.is_floating_point():
        raise NotImplementedError(f"\"max_pool1d_impl\" not implemented for '{scalar_name(input)}'")
    return k, s, p, d
