"""Autograd: `Function`, the backward engine, grad modes and `gradcheck`. Mirrors `torch.autograd`."""
from .grad_mode import (enable_grad, inference_mode, is_grad_enabled, no_grad,  # noqa: I001 - order matters
                        set_grad_enabled, set_multithreading_enabled)
from .function import BackwardCFunction, Function, FunctionCtx
from .engine import BackwardStep, backward_steps
from .api import backward, grad
from .gradcheck import GradcheckError, gradcheck, gradgradcheck
from .graph import AccumulateGrad, Node
from . import functional, graph


class _VariableMeta(type):
    def __instancecheck__(cls, other):
        from .._tensor import Tensor
        return isinstance(other, Tensor)


class Variable(metaclass=_VariableMeta):
    """Kept for old code: since PyTorch 0.4 a `Variable` is just a `Tensor`, and `Variable(t)` returns a tensor."""

    def __new__(cls, data, requires_grad=False):
        # like PyTorch, a new tensor over the same memory, not `data` itself
        return data.detach().requires_grad_(requires_grad)


__all__ = ["Function", "FunctionCtx", "BackwardCFunction", "backward", "grad", "backward_steps", "BackwardStep",
           "gradcheck", "gradgradcheck", "GradcheckError", "no_grad", "enable_grad", "set_grad_enabled",
           "is_grad_enabled", "AccumulateGrad", "Node", "graph", "functional", "Variable"]
