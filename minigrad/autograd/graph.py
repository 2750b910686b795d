"""`torch.autograd.graph`: the graph's public face. `Node`, `get_gradient_edge`, `saved_tensors_hooks`, and the
readers that the widgets and the book use to look at a node without touching its internals.

The graph itself (nodes, edges, saved tensors, the walk) is `core/graph.py`; everything here builds on it.
"""
from ..compat.checks import FREED_MESSAGE  # noqa: F401 - the error of a graph used after backward freed it
from ..core.graph import (SAVED_TENSOR_FACTORIES, AccumulateGrad, Node, RemovableHandle, SavedTensor,  # noqa: F401
                          accumulator, count_dependencies, get_gradient_edge, walk)

# attributes that the machinery sets on a node; every other public one was stored on ctx by forward/setup_context
NODE_ATTRIBUTES = frozenset({"needs_input_grad", "next_functions", "variable", "metadata"})


# ---- saved-tensor hooks ----------------------------------------------------------------------------------------
class saved_tensors_hooks:
    """Context manager: tensors saved for backward inside it go through `pack_hook`, and `unpack_hook` when used.

    Mirrors `torch.autograd.graph.saved_tensors_hooks`. `pack_hook(tensor)` may return anything;
    `unpack_hook(packed)` must return a tensor with the original's values.

    Example:
        >>> with torch.autograd.graph.saved_tensors_hooks(lambda t: t.numpy().copy(), torch.from_numpy):
        ...     y = x.exp()             # ExpBackward0 saves its result through pack_hook
    """

    def __init__(self, pack_hook, unpack_hook):
        self.pack_hook, self.unpack_hook = pack_hook, unpack_hook

    def __enter__(self):
        SAVED_TENSOR_FACTORIES.append(self._save)
        return self

    def __exit__(self, *exc):
        SAVED_TENSOR_FACTORIES.pop()
        return False

    def _save(self, tensor, owner):
        return PackedSavedTensor(tensor, owner, self.pack_hook, self.unpack_hook)


class PackedSavedTensor(SavedTensor):
    """A tensor saved inside `saved_tensors_hooks`: kept as whatever `pack_hook` made of it."""

    __slots__ = ("unpack_hook", "original")

    def __init__(self, tensor, owner, pack_hook, unpack_hook):
        super().__init__(tensor, owner)
        self.unpack_hook = unpack_hook
        leaf = tensor._requires_grad and tensor.grad_fn is None
        self.original = (tensor.grad_fn, tensor._output_nr, accumulator(tensor) if leaf else False)
        self.tensor = pack_hook(tensor)

    def unpack(self):
        """What `unpack(pack(t))` gave, back in the graph where t was (as in PyTorch: no version check then)."""
        data = self.unpack_hook(self.tensor)
        if not hasattr(data, "_data"):
            raise TypeError("Output of saved tensor unpack_hook expected to be a Tensor but got result of type "
                            f"{type(data).__name__}")
        grad_fn, output_nr, leaf_node = self.original
        if grad_fn is None and leaf_node is False:
            return data
        t = data.detach()
        t._requires_grad, t.grad_fn, t._output_nr = True, grad_fn, output_nr
        if grad_fn is None:
            t._grad_accumulator = leaf_node
        return t


# ---- readers: what a node holds, for the drawings and the book ------------------------------------------------
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
