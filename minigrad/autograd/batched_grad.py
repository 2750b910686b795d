"""`torch.autograd.grad(..., is_grads_batched=True)`: many vector-Jacobian products of one graph at once.

The first dimension of each grad_output is a batch of vectors; the result has one gradient per vector, stacked
along a new first dimension. PyTorch computes them in one pass with vmap; minigrad runs one pass per vector
(keeping the graph until the last), which gives the same numbers.
"""
from .._tensor.functions import stack
from .._tensor.tensor import Tensor
from ..compat import checks
from ..core.engine import grad as _grad

__all__ = ["grad"]


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, only_inputs=True,
         allow_unused=None, is_grads_batched=False, materialize_grads=False):
    """`torch.autograd.grad`: `core/engine.py`'s `grad`, plus `is_grads_batched=True` (see the module docstring)."""
    if not is_grads_batched:
        return _grad(outputs, inputs, grad_outputs, retain_graph, create_graph, only_inputs, allow_unused,
                     materialize_grads=materialize_grads)
    allow_unused = checks.grad_options(allow_unused, materialize_grads, False, only_inputs)
    outputs = tuple(outputs) if isinstance(outputs, (tuple, list)) else (outputs,)
    batches = tuple(grad_outputs) if isinstance(grad_outputs, (tuple, list)) else (grad_outputs,)
    for i, (g, out) in enumerate(zip(batches, outputs)):
        if not isinstance(g, Tensor) or g.shape[1:] != out.shape:
            raise RuntimeError(
                "If `is_grads_batched=True`, we interpret the first dimension of each grad_output as the batch "
                "dimension. The sizes of the remaining dimensions are expected to match the shape of corresponding "
                f"output, but a mismatch was detected: grad_output[{i}] has a shape of "
                f"{g.shape[1:] if isinstance(g, Tensor) else None} and output[{i}] has a shape of {out.shape}. If "
                "you only want some tensors in `grad_output` to be considered batched, consider using vmap.")
    n = batches[0].shape[0]
    keep = create_graph if retain_graph is None else retain_graph
    rows = [_grad(outputs, inputs, [g[b] for g in batches], retain_graph=True if b < n - 1 else keep,
                  create_graph=create_graph, allow_unused=True) for b in range(n)]
    inputs_tuple = (inputs,) if isinstance(inputs, Tensor) else tuple(inputs)
    result = []
    for j, column in enumerate(zip(*rows)):
        if column[0] is not None:
            result.append(stack(list(column)))
        elif materialize_grads:     # as in PyTorch: zeros of the input's shape, not batched
            result.append(inputs_tuple[j].detach().mul(0).requires_grad_(create_graph))
        elif not allow_unused:
            checks.unused_input(j)
        else:
            result.append(None)
    return tuple(result)
