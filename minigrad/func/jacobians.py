"""`torch.func.jacrev` and `hessian`: Jacobians as functions, one vector-Jacobian product per output element.

`hessian` is PyTorch's `jacfwd(jacrev(f))`, forward mode over reverse: the backward pass of `jacrev` runs on
dual tensors, so each of its gradients carries a tangent, a column of the Hessian (jvp.py has `jacfwd`).
"""
from .._tensor.creation import zeros
from .._tensor.functions import stack
from .grad import _positions, vjp
from .jvp import jacfwd

__all__ = ["jacrev", "hessian"]


def jacrev(func, argnums=0, *, has_aux=False, chunk_size=None, _preallocate_and_copy=False):
    """Return a function that computes the Jacobian of `func` with respect to the arguments `argnums`: for an
    output of shape O and an input of shape I, a tensor of shape O + I (a tuple per output and per argnum when
    those are tuples).

    Example:
        >>> torch.func.jacrev(torch.sin)(torch.tensor([0., 1.]))       # diag(cos x)
    """
    if chunk_size is not None and (not isinstance(chunk_size, int) or chunk_size <= 0):
        raise ValueError("jacrev: `chunk_size` should be greater than 0.")

    def wrapper(*args):
        positions = _positions(argnums, len(args))

        def of_chosen(*chosen):
            full = list(args)
            for p, value in zip(positions, chosen):
                full[p] = value
            return func(*full)
        result = vjp(of_chosen, *[args[p] for p in positions], has_aux=has_aux)
        output, vjp_fn = result[0], result[1]
        outputs = output if isinstance(output, tuple) else (output,)
        per_output = []
        for k, out in enumerate(outputs):
            rows = []
            for j in range(out.numel()):
                basis = [zeros(o.shape, dtype=o.dtype) for o in outputs]
                basis[k].view(-1)[j] = 1
                rows.append(vjp_fn(tuple(basis) if isinstance(output, tuple) else basis[0]))
            per_input = []
            for i, p in enumerate(positions):
                shape = tuple(out.shape) + tuple(args[p].shape)
                if rows:
                    per_input.append(stack([r[i] for r in rows]).reshape(shape))
                else:
                    per_input.append(zeros(shape, dtype=args[p].dtype))
            per_output.append(per_input[0] if isinstance(argnums, int) else tuple(per_input))
        jacobian = tuple(per_output) if isinstance(output, tuple) else per_output[0]
        return (jacobian, result[2]) if has_aux else jacobian
    return wrapper


def hessian(func, argnums=0):
    """The Hessian of a scalar `func`: `jacfwd(jacrev(func, argnums), argnums)` (see the module docstring)."""
    return jacfwd(jacrev(func, argnums), argnums)
