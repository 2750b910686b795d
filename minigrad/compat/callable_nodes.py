"""Nodes that can be called like functions: `y.grad_fn(grad)` returns the gradients, as a torch node does.

PyTorch writes the nodes of its built-in ops (and `AccumulateGrad`, `CopySlices`, ...) in C++, and those are
callable; a custom Function's node is a Python `BackwardCFunction` with `.apply` instead, and calling it is an
error. minigrad's built-in ops are Functions too, so this mixin is what tells the two kinds apart.
"""


class CallableNode:
    """Mixin for a node class whose instances run their backward when called (the nodes PyTorch writes in C++)."""

    def __call__(self, *grad_outputs):
        """Run this node's backward on `grad_outputs` and return its gradients, as calling a torch node does.

        One gradient per entry of `next_functions` (a tensor if there is one, else a tuple; None where none
        flows). Hooks do not run: they belong to the engine. Grad mode is whatever it is at the call.
        """
        expected = len(self._output_shapes) or 1          # one gradient per output of the node's forward
        if len(grad_outputs) != expected:
            raise TypeError(f"expected {expected} arguments, got {len(grad_outputs)} instead")
        grads = self._run_backward(tuple(grad_outputs))
        return grads[0] if len(grads) == 1 else tuple(grads)
