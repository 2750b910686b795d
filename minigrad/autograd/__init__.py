"""Autograd: `Function`, the backward engine, grad modes and `gradcheck`. Mirrors `torch.autograd`."""
from .grad_mode import enable_grad, is_grad_enabled, no_grad, set_grad_enabled  # noqa: I001 - order matters
from .function import BackwardCFunction, Function, FunctionCtx
from .engine import BackwardStep, backward, backward_steps
from .gradcheck import GradcheckError, gradcheck
from .graph import AccumulateGrad, Node
from . import graph


def Variable(data, requires_grad=False):
    """Return `data` itself: since PyTorch 0.4, `Variable` and `Tensor` are one thing (kept for old code)."""
    if requires_grad:
        data.requires_grad_(requires_grad)
    return data


__all__ = ["Function", "FunctionCtx", "BackwardCFunction", "backward", "backward_steps", "BackwardStep",
           "gradcheck", "GradcheckError", "no_grad", "enable_grad", "set_grad_enabled", "is_grad_enabled",
           "AccumulateGrad", "Node", "graph", "Variable"]
