"""Reading the graph: the one walk that the engine, gradcheck and the widgets share, and what a node holds.

Everything here only reads. `count_dependencies` is the engine's own walk (breadth-first, nearest the roots
first); `walk` returns the same nodes in the same order, which is the order the drawings number them in.
"""
from collections import deque

# attributes that the machinery sets on a node; every other public one was stored on ctx by forward/setup_context
NODE_ATTRIBUTES = frozenset({"needs_input_grad", "next_functions", "variable", "metadata"})


def count_dependencies(roots, parents=None):
    """Return, for each node reachable from `roots`, how many edges point at it, nearest the roots first.

    A node runs once that many gradients have arrived, so the length of the result is the number of nodes a
    backward pass from `roots` runs (a pass with `inputs=` may run fewer). Given a `parents` dict, the same
    walk records who points at each node (what a pass with `inputs=` needs).
    """
    dependencies = dict.fromkeys(roots, 0)
    queue = deque(dependencies)
    while queue:               # a loop, not recursion: a 100,000-node chain is fine
        node = queue.popleft()
        for next_node, _ in node.next_functions:
            if next_node is None:
                continue
            if parents is not None:
                parents.setdefault(next_node, []).append(node)
            if next_node in dependencies:
                dependencies[next_node] += 1
            else:
                dependencies[next_node] = 1
                queue.append(next_node)
    return dependencies


def walk(tensors):
    """Return every node reachable from the tensors' `grad_fn`s, each once, nearest the tensors first.

    Example:
        >>> [node.name() for node in walk([(x * 2).sum()])]
        ['SumBackward0', 'MulBackward0', 'torch::autograd::AccumulateGrad']
    """
    return list(count_dependencies([t.grad_fn for t in tensors if t.grad_fn is not None]))


def saved_values(node):
    """Return what `node` saved for backward: one tensor (or None) per slot, () if nothing, None once freed.

    Unlike `ctx.saved_tensors` this does not check versions: it shows what is held, even if it is stale.
    Inside `saved_tensors_hooks`, a slot holds what the pack hook returned.
    """
    if node._freed:
        return None
    return tuple(None if s is None else s.tensor for s in node._saved or ())


def output_metadata(node):
    """Return the `(shape, dtype)` of each output of the node's forward (None for a non-tensor output)."""
    return node._output_shapes


def retained_tensors(node):
    """Return `{output_nr: tensor}` for this node's outputs that asked for `retain_grad()` and are alive."""
    found = {}
    for nr, ref in (node._retained or {}).items():
        t = ref()
        if t is not None:
            found[nr] = t
    return found


def ctx_attributes(node):
    """Return what forward or setup_context stored on the node as ctx (`ctx.constant = c`), by name."""
    return {key: value for key, value in sorted(vars(node).items())
            if not key.startswith("_") and key not in NODE_ATTRIBUTES}
