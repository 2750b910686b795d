"""Adaptive max pooling: the largest value of each of (oh, ow) windows chosen so that any input size gives that
output, with where it is (`F.adaptive_max_pool2d`, `F.adaptive_max_pool1d`, `nn.AdaptiveMaxPool1d/2d`).

The windows are those of adaptive average pooling (pooling.py's `adaptive_ranges`: rows [floor(i H / oh),
ceil((i + 1) H / oh)), columns likewise), so neighbouring windows may overlap. Each window keeps its first
maximum in row-major order, a nan beating every number, as ATen's kernel; the gradient goes to that position,
the scatter that max_pool2d's backward does (shared, under PyTorch's node name for double backward). A 1-D
pool is the 2-D one over a height of 1, as in ATen.
"""
import numpy as np

from ...core.forward_ad import from_backward
from ...core.function import Function
from ...ops._common import wrap
from .arguments import scalar_name, sizes
from .pooling import MaxPool2DWithIndicesBackward, adaptive_ranges
from .pooling1d import _check_dims, _one

__all__ = ["adaptive_max_pool1d", "adaptive_max_pool1d_with_indices", "adaptive_max_pool2d",
           "adaptive_max_pool2d_with_indices"]


class AdaptiveMaxPool2D(Function):
    """z = the maximum of each adaptive window, idx = where it is (flat over H * W);  dz/dx (vector-Jacobian) =
    g sent to the picked positions (added where windows overlap)"""
    node_name = "AdaptiveMaxPool2DBackward0"
    saved_names = ("self", "result1")

    @staticmethod
    def forward(x, rows, cols):
        a = x._data
        width = a.shape[-1]
        values = np.empty(a.shape[:-2] + (len(rows[0]), len(cols[0])), a.dtype)
        indices = np.empty(values.shape, np.int64)
        for i, (r0, r1) in enumerate(zip(*rows)):
            for j, (c0, c1) in enumerate(zip(*cols)):
                window = a[..., r0:r1, c0:c1].reshape(a.shape[:-2] + (-1,))
                keyed = np.where(np.isnan(window), np.inf, window) if a.dtype.kind == "f" else window
                # the first maximum; a nan counts as the largest, and the first nan wins over an inf
                pick = np.where(np.isnan(window).any(-1), np.isnan(window).argmax(-1),
                                keyed.argmax(-1)) if a.dtype.kind == "f" else keyed.argmax(-1)
                values[..., i, j] = np.take_along_axis(window, pick[..., None], -1)[..., 0]
                indices[..., i, j] = (r0 + pick // (c1 - c0)) * width + c0 + pick % (c1 - c0)
        return wrap(values), wrap(indices)

    @staticmethod
    def setup_context(ctx, inputs, output):
        x = inputs[0]
        ctx.mark_non_differentiable(output[1])
        ctx.save_for_backward(x, output[1])
        ctx.shape = x._data.shape

    @staticmethod
    def backward(ctx, grad, _grad_indices):
        _, indices = ctx.saved_tensors
        return AdaptiveMaxPool2DBackward.apply(grad, indices._data, ctx.shape), None, None

    jvp = from_backward


class AdaptiveMaxPool2DBackward(MaxPool2DWithIndicesBackward):
    """gI = zeros of the input's shape with gI.flat[idx] += g; linear in g (max_pool2d's backward, renamed)"""
    node_name = "AdaptiveMaxPool2DBackwardBackward0"


def adaptive_max_pool2d_with_indices(input, output_size, return_indices=False):
    """(output, indices) of `adaptive_max_pool2d`. Mirrors `torch.nn.functional.adaptive_max_pool2d_with_indices`."""
    if isinstance(output_size, int):
        size = [output_size, output_size]
    else:
        size = [input.shape[i - len(output_size)] if v is None else v for i, v in enumerate(output_size)]
    if input.dim() not in (3, 4):
        raise RuntimeError(f"adaptive_max_pool2d(): Expected 3D or 4D tensor, but got: {sizes(input.shape)}")
    if len(size) != 2:
        raise RuntimeError("adaptive_max_pool2d(): internal error: output_size.size() must be 2")
    for d in (-2, -1):
        if input.shape[d] == 0:
            raise RuntimeError("adaptive_max_pool2d(): Expected input to have non-zero size for non-batch "
                               f"dimensions, but input has sizes {sizes(input.shape)} with dimension "
                               f"{d + input.dim()} being empty")
    if not input.is_floating_point():
        raise NotImplementedError(f"\"adaptive_max_pool2d\" not implemented for '{scalar_name(input)}'")
    rows, cols = adaptive_ranges(input.shape[-2], size[0]), adaptive_ranges(input.shape[-1], size[1])
    return AdaptiveMaxPool2D.apply(input, rows[:2], cols[:2])


def adaptive_max_pool2d(input, output_size, return_indices=False):
    """The largest value of each window, the windows chosen so that the output is `output_size` (an int, a pair;
    None keeps that dim); with `return_indices`, also where each is. Mirrors
    `torch.nn.functional.adaptive_max_pool2d`.

    Example:
        >>> F.adaptive_max_pool2d(torch.arange(16.).view(1, 4, 4), 2)
        tensor([[[ 5.,  7.],
                 [13., 15.]]])
    """
    out, indices = adaptive_max_pool2d_with_indices(input, output_size)
    return (out, indices) if return_indices else out


def adaptive_max_pool1d_with_indices(input, output_size, return_indices=False):
    _check_dims("adaptive_max_pool1d", input)
    size = _one("adaptive_max_pool1d", "output_size", output_size)
    out, indices = adaptive_max_pool2d_with_indices(input.unsqueeze(-2), (1, size))
    return out.squeeze(-2), indices.squeeze(-2)


def adaptive_max_pool1d(input, output_size, return_indices=False):
    """The largest value of each adaptive window along the last dim of a (N, C, L) or (C, L) input."""
    out, indices = adaptive_max_pool1d_with_indices(input, output_size)
    return (out, indices) if return_indices else out
