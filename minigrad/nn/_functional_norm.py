"""`F.layer_norm`, `F.batch_norm`, `F.embedding` and `F.dropout`: argument checks with PyTorch's messages, then
the ops of `_norm_functions.py` and `_embedding_functions.py` (dropout is a product with a random mask)."""
import math

import numpy as np

from .. import _creation
from ..autograd.grad_mode import no_grad
from ._embedding_functions import Embedding, embedding_renorm_
from ._layer_common import defined, scalar_name, sizes
from ._norm_functions import NativeBatchNorm, NativeLayerNorm


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    """Normalise over the last len(normalized_shape) dims: (x - mean) / sqrt(var + eps) * weight + bias, each
    sample on its own. Mirrors `torch.nn.functional.layer_norm`."""
    if isinstance(normalized_shape, int):
        raise TypeError("layer_norm(): argument 'normalized_shape' (position 2) must be tuple of ints, not int")
    shape = tuple(normalized_shape)
    if not shape:
        raise RuntimeError("Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one "
                           "element, but got normalized_shape = []")
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None and tuple(t.shape) != shape:
            raise RuntimeError(f"Expected {name} to be of same shape as normalized_shape, but got {name} of shape "
                               f"{sizes(t.shape)} and normalized_shape = {sizes(shape)}")
    if input.dim() < len(shape) or tuple(input.shape[input.dim() - len(shape):]) != shape:
        raise RuntimeError(f"Given normalized_shape={sizes(shape)}, expected input with shape "
                           f"[*{''.join(f', {s}' for s in shape)}], but got input of size{sizes(input.shape)}")
    _check_mixed_dtypes(input, weight, bias)
    if not input.is_floating_point():
        raise NotImplementedError(f"\"LayerNormKernelImpl\" not implemented for '{scalar_name(input)}'")
    return NativeLayerNorm.apply(input, shape, defined(weight), defined(bias), eps)[0]


def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1, eps=1e-5):
    """Normalise each channel (dim 1) over the batch and the other dims: (x - mean) / sqrt(var + eps) * weight
    + bias. Mirrors `torch.nn.functional.batch_norm`.

    In training the batch's statistics are used, and `running_mean` and `running_var` (if given) move towards
    them in place: r = (1 - momentum) r + momentum stat (the variance unbiased). Otherwise the running
    statistics are used.
    """
    if training:
        shape = input.shape
        if shape[0] * math.prod(shape[2:]) == 1:
            raise ValueError(f"Expected more than 1 value per channel when training, got input size {input.size()}")
        if eps <= 0.0:
            raise ValueError(f"batch_norm eps must be positive during training, but got {eps}")
    elif eps < 0.0:
        raise ValueError(f"batch_norm eps must be non-negative, but got {eps}")
    features = input.shape[1] if input.dim() >= 2 else 0
    for name, t in (("running_mean", running_mean), ("running_var", running_var), ("weight", weight),
                    ("bias", bias)):
        if t is not None and t.numel() != features:
            raise RuntimeError(f"{name} should contain {features} elements not {t.numel()}")
        if t is None and not training and name.startswith("running"):
            raise RuntimeError(f"{name} must be defined in evaluation mode")
    if not input.is_floating_point():
        raise NotImplementedError(f"\"batch_norm\" not implemented for '{scalar_name(input)}'")
    _check_mixed_dtypes(input, weight, bias, running_mean, running_var)
    if input.numel() == 0:          # PyTorch's `batch_norm` for an empty batch: a copy, scaled and shifted
        out = input.clone()
        out = out if weight is None else out * weight[0]
        return out if bias is None else out + bias[0]
    running = None if running_mean is None or running_var is None else (running_mean, running_var)
    return NativeBatchNorm.apply(input, defined(weight), defined(bias), running, training, momentum, eps)[0]


def _check_mixed_dtypes(input, *params):
    """PyTorch's CPU check for parameters of another dtype than the input (`check_mixed_data_type`)."""
    params = [p for p in params if p is not None]
    if all(p._data.dtype == input._data.dtype for p in params):
        return
    if any(p._data.dtype != np.float32 for p in params):
        raise RuntimeError("mixed dtype (CPU): expect parameter to have scalar type of Float")
    raise RuntimeError("mixed dtype (CPU): all inputs must share same datatype.")


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False,
              sparse=False):
    """Look up rows of `weight` by index: the result has input's shape plus the embedding dim.
    Mirrors `torch.nn.functional.embedding`.

    Args:
        input: integer indices (int64 or int32), any shape.
        weight: (num_embeddings, embedding_dim).
        padding_idx: the row that gets no gradient.
        max_norm: rescale (in place) each looked-up row whose norm exceeds it, before the lookup.
        scale_grad_by_freq: divide each row's gradient by how often its index occurs in `input`.
    """
    num = weight.shape[0]
    if padding_idx is not None:
        if not -num <= padding_idx < num:
            raise AssertionError("Padding_idx must be within num_embeddings")
        padding_idx = padding_idx % num
    else:
        padding_idx = -1
    if max_norm is not None:
        with no_grad():
            embedding_renorm_(weight, input._data, max_norm, norm_type)
    if weight.dim() != 2:
        raise RuntimeError("'weight' must be 2-D")
    if input._data.dtype.name not in ("int64", "int32"):
        raise RuntimeError("Expected tensor for argument #1 'indices' to have one of the following scalar types: "
                           f"Long, Int; but got {input.type()} instead (while checking arguments for embedding)")
    idx = input._data
    if idx.size and (idx.min() < 0 or idx.max() >= num):
        raise IndexError("index out of range in self")
    if sparse:
        raise NotImplementedError("minigrad has no sparse tensors: embedding(sparse=True) is not supported")
    return Embedding.apply(weight, idx.astype(np.int64), padding_idx, scale_grad_by_freq, sparse)


def dropout(input, p=0.5, training=True, inplace=False):
    """Zero each element with probability p and scale the rest by 1 / (1 - p), in training; else return the
    input itself. Mirrors `torch.nn.functional.dropout`.

    As ATen's `dropout` does on the CPU: noise = empty_like(input).bernoulli_(1 - p) / (1 - p), then
    input * noise; so the mask comes from the global generator, in the same order as PyTorch's.
    """
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not training or p == 0 or input.numel() == 0:
        return input
    if p == 1:
        noise = _creation.zeros((), dtype=input.dtype)
    else:
        noise = _creation.empty_like(input).bernoulli_(1 - p)
        noise.div_(1 - p)
    return input.mul_(noise) if inplace else input * noise
