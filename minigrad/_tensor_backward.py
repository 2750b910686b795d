"""What a tensor offers for the backward pass: `backward()`, `retain_grad()`, `register_hook()`.

The pass itself is `minigrad.autograd.backward_steps`; these methods start it, or ask it to do more at this
tensor's node (fill a non-leaf `.grad`, call a hook with the gradient that arrives).
"""
import weakref

from .autograd.api import backward as _backward
from .autograd.graph import accumulator


class TensorBackward:
    """Methods of `Tensor`: backward, retain_grad, register_hook."""

    @property
    def retains_grad(self):
        """True if `retain_grad()` was called on this non-leaf tensor."""
        node = self.grad_fn
        if node is None or not node._retained:
            return False
        ref = node._retained.get(self._output_nr)
        return ref is not None and ref() is self

    def retain_grad(self):
        """Ask backward to fill this non-leaf tensor's `.grad` too."""
        if not self._requires_grad:
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        if self.grad_fn is None:
            return
        if self.grad_fn._retained is None:
            self.grad_fn._retained = {}
        self.grad_fn._retained[self._output_nr] = weakref.ref(self)

    def register_hook(self, hook):
        """Call `hook(grad)` when this tensor's gradient is computed; a non-None result replaces the gradient.

        Returns a handle whose `.remove()` unregisters the hook.
        """
        if not self._requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if self.grad_fn is None:
            return accumulator(self)._add_pre_hook(0, hook)
        return self.grad_fn._add_pre_hook(self._output_nr, hook)

    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        """Compute the gradient of this tensor w.r.t. the graph's leaves. Mirrors `torch.Tensor.backward`.

        Args:
            gradient: d(something)/d(self), same shape as self; may be omitted only for a single-element tensor,
                where it defaults to 1. It is the `grad_output` that this tensor's `grad_fn` receives.
            retain_graph: keep the saved tensors so that backward can run through this graph again.
        """
        _backward(self, gradient, retain_graph, create_graph, inputs=inputs)
