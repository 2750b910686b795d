"""`once_differentiable`: a backward that may run once, but not be differentiated. Mirrors PyTorch's decorator.

A custom Function whose backward computes with minigrad Tensor ops is twice differentiable for free: under
`create_graph=True` its backward is recorded like any other code. A backward that leaves the Tensor world
(numpy, say) cannot be; decorating it with `@once_differentiable` runs it unrecorded and makes its gradients
lead to an `Error` node, so that differentiating them again raises instead of silently giving zero.
"""
import functools

from ..core.grad_mode import _State
from ..core.grad_mode import no_grad
from ..compat.callable_nodes import CallableNode
from ..core.graph import Node, accumulator

MESSAGE = "trying to differentiate twice a function that was marked with @once_differentiable"


class Error(CallableNode, Node):
    """A node that raises when backward reaches it (PyTorch's `torch::autograd::Error`)."""

    def __init__(self, message, outputs):
        super().__init__()
        self.message = message
        self._output_shapes = tuple(None if t is None else (t._data.shape, t._data.dtype) for t in outputs)

    def name(self):
        return "torch::autograd::Error"

    def _run_backward(self, grads):
        raise RuntimeError(self.message)


def once_differentiable(fn):
    """Decorate a custom Function's `backward` that is not itself differentiable (e.g. it uses numpy).

    Example:
        >>> @staticmethod
        ... @once_differentiable
        ... def backward(ctx, grad_output):
        ...     return Tensor(numpy_formula(grad_output.numpy()))
    """
    @functools.wraps(fn)
    def wrapper(ctx, *args):
        with no_grad():
            outputs = fn(ctx, *args)
        if not _State.enabled or not any(getattr(a, "requires_grad", False) for a in args):
            return outputs
        single = not isinstance(outputs, tuple)
        outputs = (outputs,) if single else outputs
        # as in PyTorch: the gradients become outputs of an Error node whose inputs are detached copies
        fakes = [None if t is None else t.detach().requires_grad_() for t in outputs]
        error = Error(MESSAGE, outputs)
        error.next_functions = tuple((None, 0) if t is None else (accumulator(t), 0) for t in fakes)
        results = []
        for i, t in enumerate(fakes):
            if t is not None:
                t = t._alias()
                t.grad_fn, t._output_nr, t._requires_grad = error, i, True
            results.append(t)
        return results[0] if single else tuple(results)
    return wrapper
