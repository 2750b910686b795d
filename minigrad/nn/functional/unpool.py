"""`F.max_unpool2d` and `F.max_unpool1d`: the partial inverse of max pooling. Given the pooled values and the
indices `max_pool2d(..., return_indices=True)` gave, put each value back where it was found, zeros elsewhere.

The output size is the pooling's input size read back, (H - 1) stride - 2 padding + kernel (or `output_size`,
within a stride of it). The gradient is the output's gradient read at the indices (a gather), and that gather's
own gradient is the scatter again, so every order exists. A 1-D unpool is the 2-D one over a width of 1, as in
PyTorch's functional.py.
"""
import numpy as np

from ...core.forward_ad import from_backward
from ...core.function import Function
from ...ops._common import wrap
from .arguments import pair, sizes

__all__ = ["max_unpool1d", "max_unpool2d"]


class MaxUnpool2D(Function):
    """z = zeros of (..., oh, ow) with z.flat[idx] = x in each plane;  dz/dx (vector-Jacobian) = g gathered at idx"""
    node_name = "MaxUnpool2DBackward0"
    saved_names = ("indices",)

    @staticmethod
    def forward(x, indices, size):
        a, idx = x._data, indices         # the indices as a numpy array: PyTorch's node has no edge for them
        planes = a.reshape(-1, a.shape[-2] * a.shape[-1])
        flat = idx.reshape(planes.shape)
        area = size[0] * size[1]
        bad = (flat < 0) | (flat >= area)
        if bad.any():
            raise RuntimeError(f"Found an invalid max index: {flat[bad][0]} (output volumes are of size "
                               f"{size[0]}x{size[1]})")
        out = np.zeros((planes.shape[0], area), a.dtype)
        np.put_along_axis(out, flat, planes, axis=1)
        return wrap(out.reshape(a.shape[:-2] + tuple(size)))

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, indices, _ = inputs
        ctx.save_for_backward(wrap(indices))
        ctx.shape = x._data.shape

    @staticmethod
    def backward(ctx, grad):
        (indices,) = ctx.saved_tensors
        picked = grad.flatten(-2).gather(-1, indices.flatten(-2))
        return picked.view(*ctx.shape), None, None

    jvp = from_backward


def _output_size(input, kernel, stride, padding, output_size):
    """PyTorch's `_unpool_output_size`: the default size, or `output_size` checked against it."""
    default = [(input.shape[d - len(kernel)] - 1) * stride[d] + kernel[d] - 2 * padding[d] for d in range(len(kernel))]
    if output_size is None:
        return default
    if len(output_size) == len(kernel) + 2:
        output_size = output_size[2:]
    if len(output_size) != len(kernel):
        raise ValueError(f"output_size should be a sequence containing {len(kernel)} or {len(kernel) + 2} elements, "
                         f"but it has a length of '{len(output_size)}'")
    for d in range(len(kernel)):
        low, high = default[d] - stride[d], default[d] + stride[d]
        if not low < output_size[d] < high:
            raise ValueError(f'invalid output_size "{output_size}" (dim {d} must be between {low} and {high})')
    return output_size


def _unpool(input, indices, size):
    """ATen's max_unpool2d checks, then the op."""
    if indices.dtype.np_type != np.int64:
        raise RuntimeError(f"elements in indices should be type int64 but got: {indices.dtype._scalar_name}")
    if input.dim() not in (3, 4):
        raise RuntimeError(f"Input to max_unpooling2d should be a 3d or 4d Tensor, but got a tensor with "
                           f"{input.dim()} dimensions.")
    if indices.shape != input.shape:
        raise RuntimeError(f"Expected shape of indices to be same as that of the input tensor ({sizes(input.shape)}) "
                           f"but got indices tensor with shape: {sizes(indices.shape)}")
    return MaxUnpool2D.apply(input, indices._data, tuple(size))


def max_unpool2d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """Put each pooled value back at its index in a zero (N, C, H, W) image. Mirrors
    `torch.nn.functional.max_unpool2d`.

    Example:
        >>> out, idx = F.max_pool2d(torch.tensor([[[[1., 2.], [4., 3.]]]]), 2, return_indices=True)
        >>> F.max_unpool2d(out, idx, 2)
        tensor([[[[0., 0.],
                  [4., 0.]]]])
    """
    kernel = pair(kernel_size)
    stride = pair(stride) if stride is not None else kernel
    size = _output_size(input, kernel, stride, pair(padding), output_size)
    return _unpool(input, indices, size)


def max_unpool1d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """Put each pooled value back at its index along the last dim. Mirrors `torch.nn.functional.max_unpool1d`."""
    single = (lambda v: tuple(v) if isinstance(v, (tuple, list)) else (v,))
    kernel = single(kernel_size)
    stride = single(stride) if stride is not None else kernel
    size = list(_output_size(input, kernel, stride, single(padding), output_size)) + [1]
    return _unpool(input.unsqueeze(-1), indices.unsqueeze(-1), size).squeeze(-1)
