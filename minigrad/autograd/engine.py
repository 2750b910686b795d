"""The backward engine: one iterative loop over the graph, written once, as a generator of steps.

`backward_steps` yields one `BackwardStep` per node call. `Tensor.backward()` runs it to the end; the
stepper widget pulls it one step per click. A node runs once every gradient meant for it has arrived, so a
diamond or a reused tensor gets the sum of its gradients; there is no recursion, so a 100,000-node chain works.
"""
import heapq

import numpy as np

from .grad_mode import _State
from .graph import FREED, AccumulateGrad


class BackwardStep:
    """What one node call did: which node, what it received and returned, and where its results went.

    Attributes:
        index: 0 for the first node called, 1 for the next, ...
        node, name: the node (a `grad_fn` or an `AccumulateGrad`) and its `name()`.
        grad_outputs: the gradients that arrived, one per output of its forward (after tensor hooks). None
            means nothing arrived for that output; a custom Function's `backward` then receives zeros instead,
            unless it called `ctx.set_materialize_grads(False)`.
        grad_inputs: what it returned, one per entry of `node.next_functions` (None where nothing flows).
        next_functions: where each grad_input went, `(node, output_nr)` pairs; `(None, 0)` for nowhere.
        variable, grad_before, grad_after: for `AccumulateGrad` only, the leaf and its `.grad` around the call.
    """

    __slots__ = ("index", "node", "grad_outputs", "grad_inputs", "next_functions",
                 "variable", "grad_before", "grad_after")

    def __init__(self, index, node, grad_outputs, grad_inputs, variable=None, grad_before=None, grad_after=None):
        self.index, self.node = index, node
        self.grad_outputs, self.grad_inputs = grad_outputs, grad_inputs
        self.next_functions = node.next_functions
        self.variable, self.grad_before, self.grad_after = variable, grad_before, grad_after

    @property
    def name(self):
        return type(self.node).name(self.node)      # not node.name(): a ctx attribute may be called `name`

    def __repr__(self):
        return f"<BackwardStep {self.index}: {self.name}>"


def _make_grads(tensors, grad_tensors):
    """Check the starting gradients (or create 1 for a scalar), as `torch.autograd.backward` does."""
    from .._tensor import Tensor
    grads = []
    for i, (t, g) in enumerate(zip(tensors, grad_tensors)):
        if g is None:
            if t.requires_grad:
                if t.numel() != 1:
                    raise RuntimeError("grad can be implicitly created only for scalar outputs")
                g = Tensor._make(np.ones(t._data.shape, t._data.dtype))
        else:
            if not isinstance(g, Tensor):
                raise TypeError(f"gradients can be either Tensors or None, but got {type(g).__name__}")
            if g.shape != t.shape:
                raise RuntimeError(f"Mismatch in shape: grad_output[{i}] has a shape of {g.shape!r} and "
                                   f"output[{i}] has a shape of {t.shape!r}.")
        grads.append(g)
    return grads


def _as_tuple(x):
    if x is None:
        return None
    return tuple(x) if isinstance(x, (tuple, list)) else (x,)


def backward_steps(tensors, grad_tensors=None, retain_graph=None):
    """Run backward from `tensors`, yielding a `BackwardStep` after each node call.

    Args:
        tensors: the output tensor(s) to differentiate.
        grad_tensors: d(something)/d(each tensor); may be None for single-element tensors (then 1).
        retain_graph: keep saved tensors so the graph can be run again (default False: free them).

    Example:
        >>> for step in backward_steps(loss):
        ...     print(step.name, step.grad_outputs)
    """
    tensors = _as_tuple(tensors)
    given = _as_tuple(grad_tensors) or (None,) * len(tensors)
    grad_tensors = _make_grads(tensors, given)
    if len(given) != len(tensors):
        raise RuntimeError(f"got {len(given)} gradients for {len(tensors)} tensors")
    roots = []
    for i, t in enumerate(tensors):
        if not t.requires_grad:
            raise RuntimeError(f"element {i} of tensors does not require grad and does not have a grad_fn")
        roots.append((t.grad_fn, t._output_nr) if t.grad_fn is not None else (t._accumulator(), 0))

    dependencies = _count_dependencies([node for node, _ in roots])
    buffers = {}
    for (node, nr), g in zip(roots, grad_tensors):
        _add_to_buffer(buffers, node, nr, g)
    ready = []
    for node, _ in roots:
        if dependencies[node] == 0 and not any(entry[2] is node for entry in ready):
            heapq.heappush(ready, (-node._priority, id(node), node))

    # The loop below is the whole engine. PyTorch's order: of the ready nodes, the one created last runs
    # first (AccumulateGrad has the highest priority, so .grad fills in as soon as it can).
    recording = _State.enabled
    index = 0
    while ready:
        node = heapq.heappop(ready)[2]
        grads = buffers.pop(node, None) or [None] * (len(node._output_shapes) or 1)
        grads = _run_hooks(node, grads) if node._pre_hooks or node._retained else tuple(grads)
        variable = node.variable if type(node) is AccumulateGrad else None
        before = variable._grad._detached_copy() if variable is not None and variable._grad is not None else None
        _State.enabled = False          # backward's own arithmetic is not recorded (no double backward)
        try:
            grad_inputs = node._run_backward(grads)
        finally:
            _State.enabled = recording
        if not retain_graph and node._saved is not None:
            node._saved = FREED         # free the saved tensors: this graph cannot run again
        for (next_node, nr), g in zip(node.next_functions, grad_inputs):
            if next_node is None:
                continue
            if g is not None:
                _add_to_buffer(buffers, next_node, nr, g)
            left = dependencies[next_node] - 1
            dependencies[next_node] = left
            if left == 0:
                heapq.heappush(ready, (-next_node._priority, id(next_node), next_node))
        yield BackwardStep(index, node, grads, grad_inputs, variable, before,
                           variable._grad if variable is not None else None)
        index += 1


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, grad_variables=None, inputs=None):
    """Compute gradients of `tensors` w.r.t. the graph's leaves, accumulating into their `.grad`.

    Mirrors `torch.autograd.backward`; it runs `backward_steps` to the end.
    """
    if create_graph:
        raise NotImplementedError("minigrad does not support create_graph=True (higher-order gradients).")
    if inputs is not None:
        raise NotImplementedError("minigrad does not support the inputs= argument of backward.")
    for _ in backward_steps(tensors, grad_tensors, retain_graph):
        pass


def _count_dependencies(roots):
    """For each node, how many edges point at it: it runs once that many gradients have arrived."""
    dependencies = dict.fromkeys(roots, 0)
    stack = list(dependencies)
    while stack:
        for next_node, _ in stack.pop().next_functions:
            if next_node is None:
                continue
            if next_node in dependencies:
                dependencies[next_node] += 1
            else:
                dependencies[next_node] = 1
                stack.append(next_node)
    return dependencies


def _add_to_buffer(buffers, node, nr, g):
    """Keep `g` for output `nr` of `node` until the node runs; gradients for the same output add up."""
    buf = buffers.get(node)
    if buf is None:
        buf = buffers[node] = [None] * (len(node._output_shapes) or 1)
    buf[nr] = g if buf[nr] is None else _sum(buf[nr], g)


def _sum(a, b):
    from .._tensor import Tensor
    return Tensor._make(np.asarray(a._data + b._data))     # asarray: 0-d arrays add up to a numpy scalar


def _run_hooks(node, grads):
    """Apply the tensor hooks registered on this node's outputs, then fill `.grad` of retained tensors."""
    if node._pre_hooks:
        for nr, hooks in node._pre_hooks.items():
            for hook in list(hooks):
                if grads[nr] is not None:
                    result = hook(grads[nr])
                    if result is not None:
                        grads[nr] = result
    if node._retained:
        for nr, ref in node._retained.items():
            t = ref()
            if t is not None and grads[nr] is not None:
                t._grad = grads[nr]._detached_copy() if t._grad is None else _sum(t._grad, grads[nr])
    return tuple(grads)
