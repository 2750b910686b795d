"""The built-in ops behind `nn.functional`: one `Function` per op, named as PyTorch names its node.

Same style as `minigrad/ops/`: `forward` computes in numpy, `setup_context` saves, `backward` states the math.
Targets and class weights are passed as numpy arrays, not tensors: they get no gradient and, as in PyTorch,
no edge in `next_functions`.
"""
import numpy as np

from .._tensor import Tensor, sum_to
from ..autograd.function import Function

_TYPE_NAMES = {"float32": "Float", "float64": "Double", "int64": "Long", "bool": "Bool"}
REDUCTIONS = ("none", "mean", "sum")


def _wrap(array):
    return Tensor._make(np.asarray(array))


class Addmm(Function):
    """Z = b + X @ W  (b broadcast over rows; Linear passes W = weight.t());  dZ/db = sum of G over rows,
    dZ/dX = G @ W.T,  dZ/dW = X.T @ G"""
    node_name = "AddmmBackward0"

    @staticmethod
    def forward(bias, x, w):
        a, b = x._data, w._data
        if a.shape[1] != b.shape[0]:
            raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({a.shape[0]}x{a.shape[1]} and "
                               f"{b.shape[0]}x{b.shape[1]})")
        if a.dtype != b.dtype:
            raise RuntimeError(f"mat1 and mat2 must have the same dtype, but got {_TYPE_NAMES[a.dtype.name]} and "
                               f"{_TYPE_NAMES[b.dtype.name]}")
        return _wrap(bias._data + a @ b)

    @staticmethod
    def setup_context(ctx, inputs, output):
        bias, x, w = inputs
        ctx.bias_shape = bias._data.shape
        ctx.save_for_backward(x, w)

    @staticmethod
    def backward(ctx, grad):
        x, w = ctx.saved_tensors
        g = grad._data
        return _wrap(sum_to(g, ctx.bias_shape)), _wrap(g @ w._data.T), _wrap(x._data.T @ g)


def _log_softmax(a, dim):
    # subtracting the max first keeps exp from overflowing; log-sum-exp then never takes log(0)
    shifted = a - a.max(axis=dim, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=dim, keepdims=True))


class LogSoftmax(Function):
    """z = x - log(sum_j exp(x_j)) along dim;  dz/dx (vector-Jacobian) = g - exp(z) * sum_j g_j"""
    node_name = "LogSoftmaxBackward0"

    @staticmethod
    def forward(x, dim):
        return _wrap(_log_softmax(x._data, dim))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.dim = inputs[1]
        ctx.save_for_backward(output)

    @staticmethod
    def backward(ctx, grad):
        (z,) = ctx.saved_tensors
        g = grad._data
        return _wrap(g - np.exp(z._data) * g.sum(axis=ctx.dim, keepdims=True)), None


class Softmax(Function):
    """z = exp(x) / sum_j exp(x_j) along dim;  dz/dx (vector-Jacobian) = z * (g - sum_j g_j z_j)"""
    node_name = "SoftmaxBackward0"

    @staticmethod
    def forward(x, dim):
        return _wrap(np.exp(_log_softmax(x._data, dim)))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.dim = inputs[1]
        ctx.save_for_backward(output)

    @staticmethod
    def backward(ctx, grad):
        (z,) = ctx.saved_tensors
        g, s = grad._data, z._data
        return _wrap(s * (g - (g * s).sum(axis=ctx.dim, keepdims=True))), None


class MseLoss(Function):
    """z = mean((x - y)**2)  (or the sum, or no reduction);  dz/dx = 2 (x - y) / n,  dz/dy = -dz/dx"""
    node_name = "MseLossBackward0"

    @staticmethod
    def forward(x, y, reduction):
        d = x._data - y._data
        sq = d * d
        return _wrap(sq.mean() if reduction == "mean" else sq.sum() if reduction == "sum" else sq)

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, y, ctx.reduction = inputs
        ctx.save_for_backward(x, y)

    @staticmethod
    def backward(ctx, grad):
        x, y = ctx.saved_tensors
        d = x._data - y._data
        g = 2 * d * grad._data
        if ctx.reduction == "mean":
            g = g / d.size
        g = g.astype(d.dtype, copy=False)
        return _wrap(sum_to(g, x.shape)), _wrap(sum_to(-g, y.shape)), None


class NllLoss(Function):
    """z = -sum_i w[t_i] logp[i, t_i] / sum_i w[t_i]  (reduction 'mean'; 'sum' skips the division);
    dz/dlogp[i, t_i] = -w[t_i] / sum_i w[t_i], and 0 for every other class"""
    node_name = "NllLossBackward0"

    @staticmethod
    def forward(logp, target, weight, ignore_index, reduction):
        a = logp._data
        picked, w = _pick(a, target), _class_weights(a, target, weight, ignore_index)
        losses = -w * picked
        if reduction == "none":
            return _wrap(losses)
        if reduction == "sum":
            return _wrap(losses.sum())
        with np.errstate(invalid="ignore", divide="ignore"):  # every target ignored: 0 / 0 = nan, as in PyTorch
            return _wrap((losses.sum() / w.sum()).astype(a.dtype))

    @staticmethod
    def setup_context(ctx, inputs, output):
        logp, target, weight, ignore_index, ctx.reduction = inputs
        ctx.shape, ctx.dtype = logp._data.shape, logp._data.dtype
        ctx.w = _class_weights(logp._data, target, weight, ignore_index)
        ctx.target = np.where(target < 0, 0, target)   # ignored entries have w = 0, any valid index will do

    @staticmethod
    def backward(ctx, grad):
        g = -ctx.w * grad._data
        if ctx.reduction == "mean":
            g = g / ctx.w.sum()
        out = np.zeros(ctx.shape, ctx.dtype)
        axis = 1 if len(ctx.shape) > 1 else 0
        np.put_along_axis(out, np.expand_dims(ctx.target, axis), np.expand_dims(g, axis).astype(ctx.dtype), axis)
        return _wrap(out), None, None, None, None


class NllLoss2d(NllLoss):
    """NllLoss for inputs with dimensions after the class one, (N, C, d1, ...): the same math, PyTorch's name"""
    node_name = "NllLoss2DBackward0"


def _pick(a, target):
    """logp[i, target[i]] for each sample i (the class axis is 1, or 0 for a single unbatched sample)."""
    axis = 1 if a.ndim > 1 else 0
    safe = np.where(target < 0, 0, target)      # ignored entries (negative ignore_index) get weight 0 anyway
    return np.take_along_axis(a, np.expand_dims(safe, axis), axis).squeeze(axis)


def _class_weights(a, target, weight, ignore_index):
    """The weight of each sample's target class: weight[t] (1 without weights), 0 where t == ignore_index."""
    w = np.ones(target.shape, a.dtype) if weight is None else weight[np.where(target < 0, 0, target)].astype(a.dtype)
    return np.where(target == ignore_index, a.dtype.type(0), w)
