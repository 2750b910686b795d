"""The built-in ops behind `nn.functional`: one `Function` per op, named as PyTorch names its node.

Same style as `minigrad/ops/`: `forward` computes in numpy, `setup_context` saves, `backward` states the math
with Tensor operations, so that with `create_graph=True` the gradient can be differentiated again.
Targets and class weights are passed as numpy arrays, not tensors: they get no gradient and, as in PyTorch,
no edge in `next_functions`.
"""
import numpy as np

from ...core.forward_ad import from_backward
from ...core.function import Function
from ...core.dtype import scalar_name
from ...ops._common import grad_to, wrap

REDUCTIONS = ("none", "mean", "sum")    # in the order of PyTorch's enum: nodes save the index as `reduction`
MEAN = REDUCTIONS.index("mean")


class MseLoss(Function):
    """z = mean((x - y)**2)  (or the sum, or no reduction);  dz/dx = 2 (x - y) / n,  dz/dy = -dz/dx"""
    node_name = "MseLossBackward0"
    saved_names = ("self", "target")
    saved_attrs = {"reduction": "reduction"}

    @staticmethod
    def forward(x, y, reduction):
        d = x._data - y._data
        sq = d * d
        return wrap(sq.mean() if reduction == "mean" else sq.sum() if reduction == "sum" else sq)

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, y, reduction = inputs
        ctx.reduction = REDUCTIONS.index(reduction)
        ctx.save_for_backward(x, y)

    @staticmethod
    def backward(ctx, grad):
        x, y = ctx.saved_tensors
        needs_x, needs_y, _ = ctx.needs_input_grad
        d = x - y
        # the constant first: for a reduced loss grad is 0-d, so only one product is elementwise
        g = d * (grad * (2 / d._data.size if ctx.reduction == MEAN else 2))
        return (grad_to(g, x._data.shape) if needs_x else None,
                grad_to(-g, y._data.shape) if needs_y else None, None)

    jvp = from_backward


class NllLoss(Function):
    """z = -sum_i w[t_i] logp[i, t_i] / sum_i w[t_i]  (reduction 'mean'; 'sum' skips the division);
    dz/dlogp[i, t_i] = -w[t_i] / sum_i w[t_i], and 0 for every other class (that is `nll_loss_backward`)"""
    node_name = "NllLossBackward0"
    saved_names = ("self",)
    saved_attrs = {"ignore_index": "ignore_index", "reduction": "reduction"}

    @staticmethod
    def forward(logp, target, weight, ignore_index, reduction):
        a = logp._data
        picked, w = _pick(a, target), _class_weights(a, target, weight, ignore_index)
        losses = -w * picked
        if reduction == "none":
            return wrap(losses)
        if reduction == "sum":
            return wrap(losses.sum())
        with np.errstate(invalid="ignore", divide="ignore"):  # every target ignored: 0 / 0 = nan, as in PyTorch
            return wrap((losses.sum() / w.sum()).astype(a.dtype))

    @staticmethod
    def setup_context(ctx, inputs, output):
        logp, ctx.target, ctx.weight, ctx.ignore_index, reduction = inputs
        ctx.reduction = REDUCTIONS.index(reduction)
        ctx.save_for_backward(logp)

    @staticmethod
    def backward(ctx, grad):
        (logp,) = ctx.saved_tensors
        grad_input = NllLossBackward.apply(grad, logp, ctx.target, ctx.weight, ctx.reduction, ctx.ignore_index)
        return grad_input, None, None, None, None

    jvp = from_backward


class NllLoss2d(NllLoss):
    """NllLoss for inputs with dimensions after the class one, (N, C, d1, ...): the same math, PyTorch's name"""
    node_name = "NllLoss2DBackward0"

    @staticmethod
    def backward(ctx, grad):
        (logp,) = ctx.saved_tensors
        grad_input = NllLoss2dBackward.apply(grad, logp, ctx.target, ctx.weight, ctx.reduction, ctx.ignore_index)
        return grad_input, None, None, None, None


class NllLossBackward(Function):
    """The gradient of nll_loss for logp, as a differentiable op (PyTorch's `nll_loss_backward`):
    gI[i, t_i] = -w[t_i] g_i (over sum_i w[t_i] for 'mean'), 0 elsewhere. gI is linear in g, so
    d gI / dg (vector-Jacobian, for a gradient G of gI) = nll_loss(G, t) with the same weights and reduction,
    and d gI / dlogp = 0"""
    node_name = "NllLossBackwardBackward0"
    saved_attrs = {"ignore_index": "ignore_index", "reduction": "reduction"}
    _loss = NllLoss         # the op whose gradient this is, and so the gradient of this one

    @staticmethod
    def forward(grad, logp, target, weight, reduction, ignore_index):
        a = logp._data
        w = _class_weights(a, target, weight, ignore_index)
        g = -w * grad._data
        if reduction == MEAN:
            with np.errstate(invalid="ignore", divide="ignore"):    # every target ignored: nan, as in PyTorch
                g = g / w.sum()
        out = np.zeros(a.shape, a.dtype)
        axis = 1 if a.ndim > 1 else 0
        safe = np.where(target < 0, 0, target)      # ignored entries have w = 0, any valid index will do
        np.put_along_axis(out, np.expand_dims(safe, axis), np.expand_dims(g, axis).astype(a.dtype), axis)
        return wrap(out)

    @staticmethod
    def setup_context(ctx, inputs, output):
        _, logp, ctx.target, ctx.weight, ctx.reduction, ctx.ignore_index = inputs
        ctx.logp_meta = (logp._data.shape, logp._data.dtype)

    @classmethod
    def backward(cls, ctx, grad):
        needs_grad, needs_logp = ctx.needs_input_grad[:2]
        gg = (cls._loss.apply(grad, ctx.target, ctx.weight, ctx.ignore_index, REDUCTIONS[ctx.reduction])
              if needs_grad else None)
        return gg, (wrap(np.zeros(*ctx.logp_meta)) if needs_logp else None), None, None, None, None

    jvp = from_backward


class NllLoss2dBackward(NllLossBackward):
    """NllLossBackward for NllLoss2d (PyTorch's `nll_loss2d_backward`): the same math, PyTorch's name"""
    node_name = "NllLoss2DBackwardBackward0"
    _loss = NllLoss2d


def _pick(a, target):
    """logp[i, target[i]] for each sample i (the class axis is 1, or 0 for a single unbatched sample)."""
    axis = 1 if a.ndim > 1 else 0
    safe = np.where(target < 0, 0, target)      # ignored entries (negative ignore_index) get weight 0 anyway
    return np.take_along_axis(a, np.expand_dims(safe, axis), axis).squeeze(axis)


def _class_weights(a, target, weight, ignore_index):
    """The weight of each sample's target class: weight[t] (1 without weights), 0 where t == ignore_index."""
    w = np.ones(target.shape, a.dtype) if weight is None else weight[np.where(target < 0, 0, target)].astype(a.dtype)
    return np.where(target == ignore_index, a.dtype.type(0), w)
