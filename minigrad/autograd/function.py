"""`torch.autograd.function`: `Function`, its `ctx` (`FunctionCtx`) and node class, and `once_differentiable`.

The machinery is `core/function.py`; PyTorch programs import these names from here.
"""
from ..core.function import BackwardCFunction, Function, FunctionCtx  # noqa: F401
from .once_differentiable import once_differentiable  # noqa: F401
