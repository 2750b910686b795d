"""`torch.func`: transforms that turn a function into another, built on minigrad's reverse-mode autograd.

`grad`, `grad_and_value`, `vjp` (grad.py), `jvp`, `jacfwd` (jvp.py, on forward-mode AD), `jacrev`, `hessian`
(jacobians.py), `vmap` (vmap.py: a loop over the batch with PyTorch's semantics), `functional_call`,
`stack_module_state` (functional_call.py).
"""
from .functional_call import functional_call, stack_module_state
from .grad import grad, grad_and_value, vjp
from .jacobians import hessian, jacrev
from .jvp import jacfwd, jvp
from .vmap import vmap

__all__ = ["grad", "grad_and_value", "vjp", "jvp", "jacrev", "jacfwd", "hessian", "vmap", "functional_call", "stack_module_state"]
