"""softmax and log_softmax along a dim: the two ops, and the checks that `F.softmax`, `torch.softmax` and
`Tensor.softmax` share (each then words its missing-dim case its own way, as PyTorch does)."""
import numpy as np

from ..core.function import Function
from ._common import wrap


def softmax(input, dim, dtype=None):
    """exp(x) / sum(exp(x)) along `dim`, after PyTorch's checks."""
    dim = _check_dim(dim, input.dim())
    input = _as_dtype(input, dtype)
    _check_floating("softmax", input, dim)
    return Softmax.apply(input, dim)


def log_softmax(input, dim, dtype=None):
    """log(softmax(x)) along `dim`, computed stably, after PyTorch's checks."""
    dim = _check_dim(dim, input.dim())
    input = _as_dtype(input, dtype)
    _check_floating("log_softmax", input, dim)
    return LogSoftmax.apply(input, dim)


def _log_softmax(a, dim):
    # subtracting the max first keeps exp from overflowing; log-sum-exp then never takes log(0)
    shifted = a - a.max(axis=dim, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=dim, keepdims=True))


class LogSoftmax(Function):
    """z = x - log(sum_j exp(x_j)) along dim;  dz/dx (vector-Jacobian) = g - exp(z) * sum_j g_j"""
    node_name = "LogSoftmaxBackward0"
    saved_names = ("result",)
    saved_attrs = {"dim": "dim"}

    @staticmethod
    def forward(x, dim):
        return wrap(_log_softmax(x._data, dim))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.dim = inputs[1]
        ctx.save_for_backward(output)

    @staticmethod
    def backward(ctx, grad):
        (z,) = ctx.saved_tensors
        return grad - z.exp() * grad.sum(ctx.dim, keepdim=True), None

    @staticmethod
    def jvp(ctx, tx, tdim):
        return tx - (ctx.result.exp() * tx).sum(ctx.dim, keepdim=True)


class Softmax(Function):
    """z = exp(x) / sum_j exp(x_j) along dim;  dz/dx (vector-Jacobian) = z * (g - sum_j g_j z_j)"""
    node_name = "SoftmaxBackward0"
    saved_names = ("result",)
    saved_attrs = {"dim": "dim"}

    @staticmethod
    def forward(x, dim):
        return wrap(np.exp(_log_softmax(x._data, dim)))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.dim = inputs[1]
        ctx.save_for_backward(output)

    @staticmethod
    def backward(ctx, grad):
        (z,) = ctx.saved_tensors
        return z * (grad - (grad * z).sum(ctx.dim, keepdim=True)), None

    @staticmethod
    def jvp(ctx, tx, tdim):
        z = ctx.result
        return z * (tx - (tx * z).sum(ctx.dim, keepdim=True))


def _check_dim(dim, ndim):
    """Return `dim` as given (nodes save it so, as in PyTorch), or raise PyTorch's IndexError."""
    n = max(ndim, 1)
    if not -n <= dim < n:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {dim})")
    return dim


def _as_dtype(input, dtype):
    return input if dtype is None else input.to(dtype)


def _check_floating(name, input, dim):
    if not input.is_floating_point():
        last = "lastdim_" if dim in (-1, input.dim() - 1) or input.dim() == 0 else ""
        raise NotImplementedError(f'"{name}_{last}kernel_impl" not implemented for \'{input.type()[6:-6]}\'')
