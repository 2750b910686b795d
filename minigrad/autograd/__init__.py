"""Autograd: `Function`, the backward engine, grad modes and `gradcheck`. Mirrors `torch.autograd`.

`autograd.functional` (Jacobians, Hessians) is built on the ops too: `minigrad/__init__.py` loads it after them.
"""
from .._tensor import Tensor
from . import graph
from .api import backward, grad
from .engine import BackwardStep, backward_steps
from .function import BackwardCFunction, Function, FunctionCtx
from .grad_mode import (enable_grad, inference_mode, is_grad_enabled, no_grad, set_grad_enabled,
                        set_multithreading_enabled)
from .gradcheck import GradcheckError, gradcheck, gradgradcheck
from .graph import AccumulateGrad, Node


class _VariableMeta(type):
    def __instancecheck__(cls, other):
        return isinstance(other, Tensor)


class Variable(metaclass=_VariableMeta):
    """Kept for old code: since PyTorch 0.4 a `Variable` is just a `Tensor`, and `Variable(t)` returns a tensor."""

    def __new__(cls, data, requires_grad=False):
        # like PyTorch, a new tensor over the same memory, not `data` itself
        return data.detach().requires_grad_(requires_grad)


__all__ = ["Function", "FunctionCtx", "BackwardCFunction", "backward", "grad", "backward_steps", "BackwardStep",
           "gradcheck", "gradgradcheck", "GradcheckError", "no_grad", "enable_grad", "set_grad_enabled",
           "is_grad_enabled", "AccumulateGrad", "Node", "graph", "functional", "Variable"]
