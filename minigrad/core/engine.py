"""The backward engine: one iterative loop over the graph, written once, as a generator of steps.

`backward_steps` yields one `BackwardStep` per node call. `backward` (what `Tensor.backward()` calls) and
`grad` (`torch.autograd.grad`), at the end of this file, run it to the end; the stepper widget pulls it one
step per click. A node runs once every gradient meant for it has arrived, so a diamond or a reused tensor gets
the sum of its gradients; there is no recursion, so a 100,000-node chain works. Which ready node runs first
is PyTorch's rule (the one created last), ties included: the ready queue is `compat/tie_order.py`.
"""
import itertools

import numpy as np

from ..compat import anomaly, checks
from ..compat.tie_order import ReadyQueue
from .grad_mode import _State
from .graph import AccumulateGrad, count_dependencies, get_gradient_edge
from .tensor import TensorBase


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
        variable, grad_after: for `AccumulateGrad` only, the leaf and its `.grad` after the call (the tensor
            itself, not a copy: a later step may add into it).
        grad_before: None from the engine, which copies nothing that only a view needs; the stepper widget
            puts its own copy of the leaf's `.grad` before the call here.
    """

    __slots__ = ("index", "node", "grad_outputs", "grad_inputs", "next_functions", "variable", "grad_after",
                 "grad_before")

    def __init__(self, index, node, grad_outputs, grad_inputs, variable=None, grad_after=None):
        self.index, self.node = index, node
        self.grad_outputs, self.grad_inputs = grad_outputs, grad_inputs
        self.next_functions = node.next_functions
        self.variable, self.grad_after, self.grad_before = variable, grad_after, None

    @property
    def name(self):
        return type(self.node).name(self.node)      # not node.name(): a ctx attribute may be called `name`

    def __repr__(self):
        return f"<BackwardStep {self.index}: {self.name}>"


def backward_steps(tensors, grad_tensors=None, retain_graph=None, create_graph=False, inputs=None,
                   accumulate_grad=True, describe=True):
    """Run backward from `tensors`, yielding a `BackwardStep` after each node call.

    Args:
        tensors: the output tensor(s) to differentiate.
        grad_tensors: d(something)/d(each tensor); may be None for single-element tensors (then 1).
        retain_graph: keep saved tensors so the graph can be run again (default: the value of create_graph).
        create_graph: record the backward pass itself, so that the gradients can be differentiated again.
        inputs: run only what is needed to reach these tensors (`backward(inputs=...)`, `autograd.grad`).
        accumulate_grad: True adds into `.grad` (`backward`); False captures the gradients of `inputs` and
            leaves every `.grad` alone (`autograd.grad`): they are the generator's return value.
        describe: yield a `BackwardStep` for each node call; False yields None instead (what `.backward()`
            and `autograd.grad` use: they read nothing but the result).

    Example:
        >>> for step in backward_steps(loss):
        ...     print(step.name, step.grad_outputs)
    """
    tensors = _as_tuple(tensors)
    grad_tensors = check_grads(tensors, _as_tuple(grad_tensors) or (None,) * len(tensors))
    if retain_graph is None:
        retain_graph = create_graph
    roots = [_root(i, t) for i, t in enumerate(tensors)]
    parents = None if inputs is None else {}        # only a pass with inputs needs the edges read backwards
    dependencies = count_dependencies([node for node, _ in roots], parents)
    plan = None if inputs is None else _Plan(parents, inputs, accumulate_grad)
    buffers = {}
    ready = ReadyQueue()
    for (node, nr), g in zip(roots, grad_tensors):
        if plan is None or node in plan.execute:
            _add_to_buffer(buffers, node, nr, g, create_graph)
    for node, _ in roots:
        if dependencies[node] == 0 and node not in ready.heap and (plan is None or node in plan.execute):
            ready.push(node)

    # The loop below is the whole engine. PyTorch's order: of the ready nodes, the one created last runs
    # first (AccumulateGrad has the highest priority, so .grad fills in as soon as it can).
    recording = _State.enabled
    task = GraphTask(dependencies, plan)
    index = 0
    while ready:
        node = ready.pop()
        grads = buffers.pop(node, None) or [None] * (len(node._output_shapes) or 1)
        _State.enabled = create_graph        # so the backward formulas record a graph only if asked to
        outer, GraphTask.running = GraphTask.running, task     # what the node's hooks see as the current pass
        try:
            if plan is not None and not plan.visit(node, grads):
                continue                    # a captured input that nothing else needs: do not run it
            grads = _run_hooks(node, grads) if node._pre_hooks or node._retained else tuple(grads)
            if node._node_pre_hooks:
                grads = node._call_pre_hooks(grads)
            grad_inputs = node._run_backward(grads)
            if node._post_hooks:
                grad_inputs = node._call_post_hooks(grad_inputs, grads)
            if _State.anomaly and _State.anomaly_check_nan:
                anomaly.check_nan(node, grad_inputs)
        except Exception:
            if _State.anomaly:
                anomaly.warn_error_in(node)     # where the failing node's forward ran, as PyTorch shows
            raise
        finally:
            _State.enabled = recording
            GraphTask.running = outer
        if not retain_graph and node._saved is not None:
            node._saved, node._freed = None, True     # drop the saved tensors: this graph cannot run again
        for (next_node, nr), g in zip(node.next_functions, grad_inputs):
            if next_node is None or (plan is not None and next_node not in plan.execute):
                continue
            if g is not None:
                _add_to_buffer(buffers, next_node, nr, g, create_graph)
            left = dependencies[next_node] - 1
            dependencies[next_node] = left
            if left == 0:
                ready.push(next_node)
        if describe:
            yield _describe(index, node, grads, grad_inputs)
            index += 1
        else:
            yield None
    return None if plan is None else plan.captured


def _describe(index, node, grads, grad_inputs):
    if type(node) is AccumulateGrad:
        return BackwardStep(index, node, grads, grad_inputs, node.variable, node.variable._grad)
    return BackwardStep(index, node, grads, grad_inputs)


class GraphTask:
    """One backward pass, as the hooks of its nodes see it while they run: an id, and which nodes it runs.
    Mirrors PyTorch's `torch._C._current_graph_task_id()` and `_will_engine_execute_node(node)`, on which
    `torch.autograd.graph.register_multi_grad_hook` is built."""

    running = None          # the pass whose node is running now (a nested backward inside a node has its own)
    _ids = itertools.count()

    def __init__(self, dependencies, plan):
        self.id, self.dependencies, self.plan = next(GraphTask._ids), dependencies, plan

    def will_execute(self, node):
        if self.plan is None:
            return node in self.dependencies
        if node not in self.plan.execute:
            return False
        if type(node) is AccumulateGrad and not self.plan.accumulate_grad:     # a leaf that grad() captures
            raise RuntimeError("A leaf node was passed to _will_engine_execute_node but we are currently running "
                               "autograd.grad(). This is currently not supported.")
        return True


def current_graph_task_id():
    """The id of the backward pass running now, -1 outside one."""
    return -1 if GraphTask.running is None else GraphTask.running.id


def will_engine_execute_node(node):
    """Whether the running backward pass runs `node` (a `grad_fn` or an `AccumulateGrad`)."""
    if GraphTask.running is None:
        raise RuntimeError("_will_engine_execute_node should only be called during the backward pass")
    return GraphTask.running.will_execute(node)


def check_grads(tensors, grad_tensors):
    """Check the starting gradients (or create 1 for a scalar), as `torch.autograd.backward` does."""
    if len(grad_tensors) < len(tensors):       # extra gradients are ignored, as in PyTorch
        raise RuntimeError(f"got {len(tensors)} tensors and {len(grad_tensors)} gradients")
    grads = []
    for i, (t, g) in enumerate(zip(tensors, grad_tensors)):
        if g is None:
            if t.requires_grad:
                if t.numel() != 1:
                    raise RuntimeError("grad can be implicitly created only for scalar outputs")
                g = TensorBase._make(np.ones(t._data.shape, t._data.dtype))
        else:
            if not isinstance(g, TensorBase):
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


def _root(i, t):
    if not t.requires_grad:
        raise RuntimeError(f"element {i} of tensors does not require grad and does not have a grad_fn")
    return get_gradient_edge(t)


def _run(steps):
    """Run a `backward_steps` generator to its end and return what it returned."""
    try:
        while True:
            next(steps)
    except StopIteration as stop:
        return stop.value


def _add_to_buffer(buffers, node, nr, g, create_graph):
    """Keep `g` for output `nr` of `node` until the node runs; gradients for the same output add up."""
    buf = buffers.get(node)
    if buf is None:
        buf = buffers[node] = [None] * (len(node._output_shapes) or 1)
    if buf[nr] is None:
        buf[nr] = g
    else:   # with create_graph the sum is recorded too (grad mode is on then); in forward mode it adds tangents
        buf[nr] = buf[nr] + g if create_graph or _State.forward_ad else _sum(buf[nr], g)


def _sum(a, b):
    return TensorBase._make(np.asarray(a._data + b._data))     # asarray: 0-d arrays add up to a numpy scalar


def _run_hooks(node, grads):
    """Apply the tensor hooks registered on this node's outputs, then fill `.grad` of retained tensors."""
    if node._pre_hooks:
        for nr, hooks in node._pre_hooks.items():
            for hook in list(hooks):
                result = hook(grads[nr])    # None too, for an output that got no gradient (as in PyTorch)
                if result is not None:
                    grads[nr] = result
    if node._retained:
        recording = _State.enabled          # True during a create_graph pass: the copy is recorded then
        for nr, ref in node._retained.items():
            t, g = ref(), grads[nr]
            if t is not None and g is not None:
                if t._grad is None:
                    t._grad = g.clone() if recording else g._detached_copy()
                else:
                    t._grad = t._grad + g if recording else _sum(t._grad, g)
    return tuple(grads)


class _Plan:
    """What a pass with `inputs` runs and captures (PyTorch's `exec_info`).

    Only nodes on a path from the roots to an input run. With `accumulate_grad=False` (`autograd.grad`) the
    gradient arriving at each input is captured instead of accumulated, and an input's node runs only if
    another input lies below it.
    """

    def __init__(self, parents, inputs, accumulate_grad):
        self.targets = [_input_edge(t, accumulate_grad) for t in inputs]
        self.captured = [None] * len(inputs)
        targets = {node for node, _ in self.targets}
        self.needed = _reaching(parents, targets if accumulate_grad else set(), targets)
        self.execute = self.needed | targets if not accumulate_grad else self.needed
        self.accumulate_grad = accumulate_grad

    def visit(self, node, grads):
        """Capture the gradients meant for inputs at `node`; return whether the node itself must run."""
        needed = node in self.needed
        if not self.accumulate_grad and any(target is node for target, _ in self.targets):
            if not needed:      # as in PyTorch, a node that will not run still applies its tensor hooks
                grads = list(_run_hooks(node, grads)) if node._pre_hooks else grads
            for i, (target, nr) in enumerate(self.targets):
                if target is node:
                    self.captured[i] = grads[nr]
        return needed


def _input_edge(t, accumulate_grad):
    """The node and output number where the gradient for input `t` arrives."""
    if accumulate_grad:
        t.retain_grad()         # as in PyTorch: a non-leaf input gets its .grad filled (and errors alike)
    if not t.requires_grad:
        raise RuntimeError("One of the differentiated Tensors does not require grad")
    return get_gradient_edge(t)


def _reaching(parents, ends, targets):
    """The nodes from which some node in `targets` can be reached (the targets in `ends` included).

    `parents` maps each node below the roots to the nodes whose edges point at it (see `count_dependencies`).
    """
    reached = set(ends)
    stack = [t for t in targets if t in parents]
    while stack:
        for parent in parents.get(stack.pop(), ()):
            if parent not in reached:
                reached.add(parent)
                stack.append(parent)
    return reached


# ---- the two ways to start a pass: into `.grad` (backward) or returned (grad). Mirror `torch.autograd` --------
def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, grad_variables=None, inputs=None):
    """Compute gradients of `tensors` w.r.t. the graph's leaves, accumulating into their `.grad`.

    Mirrors `torch.autograd.backward`. With `inputs`, only those tensors accumulate (a non-leaf input gets its
    `.grad` too); with `create_graph=True` the pass is itself recorded, so `.grad` can be differentiated again.

    Example:
        >>> loss.backward()                     # the same as backward(loss)
        >>> backward(loss, inputs=[w])          # only w.grad changes
    """
    if grad_variables is not None:
        grad_tensors = checks.grad_variables(grad_tensors, grad_variables)
    if inputs is not None:
        inputs = _inputs_tuple(inputs, "backward")
    if create_graph:
        checks.warn_reference_cycle()       # once per process, as PyTorch warns
    _run(backward_steps(tensors, grad_tensors, retain_graph, create_graph, inputs, describe=False))


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, only_inputs=True,
         allow_unused=None, is_grads_batched=False, materialize_grads=False):
    """Return the gradients of `outputs` w.r.t. `inputs`, leaving every `.grad` untouched.

    Mirrors `torch.autograd.grad`.

    Args:
        outputs, inputs: tensors (or sequences of tensors); `inputs` may also be a dict of named tensors.
        grad_outputs: the vector of the vector-Jacobian product, one per output (None: 1 for a scalar).
        create_graph: record this pass, so the returned gradients have a `grad_fn` (for higher derivatives).
        allow_unused: return None for an input that the outputs do not depend on, instead of an error.
        materialize_grads: return zeros instead of None for such inputs.
    Returns:
        a tuple with one gradient per input (a dict if `inputs` was a dict).

    Example:
        >>> x = torch.tensor(2.0, requires_grad=True)
        >>> (dx,) = torch.autograd.grad(x ** 3, x, create_graph=True)     # 3 x**2 = 12, with a grad_fn
        >>> torch.autograd.grad(dx, x)                                     # 6 x = 12
        (tensor(12.),)
    """
    allow_unused = checks.grad_options(allow_unused, materialize_grads, is_grads_batched, only_inputs)
    inputs_tuple = _inputs_tuple(inputs, "grad")
    outputs = _as_tuple(outputs)
    grad_outputs = _as_tuple(grad_outputs) or (None,) * len(outputs)
    result = _run(backward_steps(outputs, grad_outputs, retain_graph, create_graph, inputs_tuple,
                                        accumulate_grad=False, describe=False))
    for i, g in enumerate(result):
        if g is None and not allow_unused:
            checks.unused_input(i)
    if materialize_grads:
        result = [TensorBase._make(np.zeros_like(t._data)).requires_grad_(create_graph) if g is None else g
                  for g, t in zip(result, inputs_tuple)]
    if type(inputs) is dict:
        return dict(zip(inputs, result))
    return tuple(result)


def _inputs_tuple(inputs, caller):
    if isinstance(inputs, TensorBase):
        inputs = (inputs,)
    elif type(inputs) is dict:
        inputs = tuple(inputs.values())
    elif hasattr(inputs, "keys"):
        checks.inputs_mapping(caller, inputs)
    else:
        inputs = tuple(inputs)
    if not inputs:
        raise RuntimeError(f"`inputs` argument to `{caller}()` cannot be empty.")
    return inputs
