"""`torch.func`: transforms that turn a function into another, built on minigrad's reverse-mode autograd.

`grad`, `grad_and_value`, `vjp` (grad.py), `jacrev`, `hessian` (jacobians.py), `vmap` (vmap.py: a loop over
the batch with PyTorch's semantics), `functional_call`, `stack_module_state` (functional_call.py). Forward-mode
transforms (`jvp`, `jacfwd`) need forward-mode AD, which minigrad does not have yet.
"""
from .functional_call import functional_call, stack_module_state
from .grad import grad, grad_and_value, vjp
from .jacobians import hessian, jacrev
from .vmap import vmap

__all__ = ["grad", "grad_and_value", "vjp", "jacrev", "hessian", "vmap", "functional_call", "stack_module_state"]
