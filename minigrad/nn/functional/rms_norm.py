"""`rms_norm`: scale each sample by the reciprocal of its root mean square over the last dims (no mean is
subtracted, unlike layer_norm). Mirrors `torch.nn.functional.rms_norm`.

As ATen's composite `rms_norm` computes it, so that the graph is PyTorch's (MulBackward0 over RsqrtBackward0,
AddBackward1, MeanBackward1, PowBackward0): y = x * rsqrt(mean(x^2) + eps) * weight, with eps by default the
machine epsilon of the input's dtype.
"""
import numpy as np

from ...ops.arithmetic import AddScalar
from .arguments import scalar_name
from .normalization import check_normalized_shape

__all__ = ["rms_norm"]


def rms_norm(input, normalized_shape, weight=None, eps=None):
    """x / sqrt(mean(x^2 over the last len(normalized_shape) dims) + eps), times `weight` if given.

    Args:
        normalized_shape: the trailing shape (a tuple or list) to normalise over.
        eps: added to the mean square; None (the default) means torch.finfo(input.dtype).eps.

    Example:
        >>> F.rms_norm(torch.tensor([[3., 4.]]), (2,))
        tensor([[0.8485, 1.1314]])
    """
    shape = check_normalized_shape("rms_norm", input, normalized_shape, weight=weight)
    if not input.is_floating_point():
        raise NotImplementedError(f"\"rms_norm\" not implemented for '{scalar_name(input)}'")
    if eps is None:
        eps = float(np.finfo(input._data.dtype).eps)
    dims = [input.dim() - i - 1 for i in range(len(shape))]
    # ATen's C++ `.add_(eps)` is add(Tensor, Scalar): an AddBackward1 node, not a Python `+`'s AddBackward0
    inverse_rms = AddScalar.apply(input.pow(2).mean(dims, keepdim=True), eps).rsqrt()
    result = input.mul(inverse_rms).type_as(input)
    return result if weight is None else result.mul(weight)
