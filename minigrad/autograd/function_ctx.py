"""The `ctx` of a Function: `FunctionCtx` (what forward, setup_context and backward may call on it) and
`BackwardCFunction` (the graph node that the ctx of one `apply` call is). Mirrors `torch.autograd.function`.
"""
import numpy as np

from .._tensor import Tensor
from ._gradient_checks import check_gradients
from .graph import FREED_MESSAGE, Node


class FunctionCtx:
    """What a Function's `ctx` offers. Mirrors `torch.autograd.function.FunctionCtx`.

    In PyTorch, as here, the ctx of one `apply` call *is* the graph node recorded for that call
    (`output.grad_fn is ctx`), so each call has its own ctx and anything stored on it is private to that call.
    """

    _materialize_grads = True
    _to_save = None
    _saved = None               # (the node's slots, here too for an old-style Function instance, as in PyTorch)
    _freed = False
    needs_input_grad = None
    _dirty = ()
    _non_differentiable = ()

    def save_for_backward(self, *tensors):
        """Save tensors (or None) for `backward`; they come back as `ctx.saved_tensors`.

        Saved tensors are version-checked (an in-place change before backward is an error) and freed once
        backward has used them. Non-tensors belong on ctx as plain attributes: `ctx.constant = c`.
        """
        self._to_save = tensors

    @property
    def saved_tensors(self):
        """Return the tensors given to `save_for_backward`, after checking they were not modified in place."""
        if self._freed:
            raise RuntimeError(FREED_MESSAGE)
        saved = self._saved
        if saved is None:
            return ()
        return tuple([None if s is None else s.unpack() for s in saved])

    def mark_dirty(self, *tensors):
        """Declare the inputs that `forward` modified in place (and returned)."""
        self._dirty = tensors

    def mark_non_differentiable(self, *tensors):
        """Declare outputs that have no gradient (e.g. the indices returned by a sort)."""
        self._non_differentiable = tensors

    def set_materialize_grads(self, value):
        """Choose whether gradients of unused outputs arrive as zero tensors (True, the default) or as None."""
        self._materialize_grads = bool(value)


class BackwardCFunction(FunctionCtx, Node):
    """The node class behind every Function: `apply` creates one per call, named `<Function name>Backward`."""

    _forward_cls = None

    def apply(self, *grad_outputs):
        """Call the Function's `backward` with this node as ctx."""
        return self._forward_cls.backward(self, *grad_outputs)

    def _run_backward(self, grads):
        if self._materialize_grads:
            for g in grads:
                if g is None:
                    grads = tuple(_zeros(*meta) if g is None else g for g, meta in zip(grads, self._output_shapes))
                    break
        return check_gradients(self, self._forward_cls.backward(self, *grads))


def _zeros(shape, dtype):
    return Tensor._make(np.zeros(shape, dtype))
