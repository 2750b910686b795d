"""Autograd: `Function`, the backward engine, grad modes and `gradcheck`. Mirrors `torch.autograd`.

The machinery itself is `minigrad/core/`; this package is PyTorch's public face of it.

`autograd.functional` (Jacobians, Hessians) is built on the ops too: `minigrad/__init__.py` loads it after them.
"""
from ..compat import refused as _refused
__getattr__ = _refused.module_getattr(__name__)  # what minigrad leaves out on purpose, and why
from .._tensor.tensor import Tensor
from ..core.engine import BackwardStep, backward, backward_steps
from ..core.function import BackwardCFunction, Function, FunctionCtx
from ..core.graph import AccumulateGrad, Node
from . import anomaly_mode, forward_ad, function, graph  # noqa: F401 - torch.autograd.function, .graph, ...
from .anomaly_mode import detect_anomaly, set_detect_anomaly
from .batched_grad import grad
from .grad_mode import (enable_grad, inference_mode, is_grad_enabled, no_grad, set_grad_enabled,
                        set_multithreading_enabled)
from .gradcheck import GradcheckError, gradcheck, gradgradcheck


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
           "is_grad_enabled", "AccumulateGrad", "Node", "graph", "functional", "Variable", "detect_anomaly", "set_detect_anomaly"]
