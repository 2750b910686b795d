"""Power-average pooling, `F.lp_pool2d` and `F.lp_pool1d`: (sum of x**p over each window) ** (1/p), p = 1 is sum
pooling and p -> inf max pooling. Written as PyTorch's functional.py writes it, from ops minigrad has (an average
pool of x**p, times the window's size, then the root), so its graph and its values are PyTorch's, nan included
where x**p is negative."""
from ...ops.unary import Relu
from .arguments import pair
from .pooling import avg_pool2d
from .pooling1d import avg_pool1d

__all__ = ["lp_pool1d", "lp_pool2d"]


def lp_pool2d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    """(sum of x**norm_type over each window) ** (1 / norm_type). Mirrors `torch.nn.functional.lp_pool2d`."""
    kw, kh = pair(kernel_size)
    if stride is not None:
        out = avg_pool2d(input.pow(norm_type), kernel_size, stride, 0, ceil_mode)
    else:
        out = avg_pool2d(input.pow(norm_type), kernel_size, padding=0, ceil_mode=ceil_mode)
    return (out.sign() * Relu.apply(out.abs())).mul(kw * kh).pow(1.0 / norm_type)


def lp_pool1d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    """(sum of x**norm_type over each window along the last dim) ** (1 / norm_type). Mirrors
    `torch.nn.functional.lp_pool1d`."""
    if stride is not None:
        out = avg_pool1d(input.pow(norm_type), kernel_size, stride, 0, ceil_mode)
    else:
        out = avg_pool1d(input.pow(norm_type), kernel_size, padding=0, ceil_mode=ceil_mode)
    return (out.sign() * Relu.apply(out.abs())).mul(kernel_size).pow(1.0 / norm_type)
