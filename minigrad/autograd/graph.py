"""`torch.autograd.graph`: the graph's public face. `Node`, `get_gradient_edge`, the saved-tensor hooks
(`saved_tensors_hooks`, `save_on_cpu`, `disable_saved_tensors_hooks`, `allow_mutation_on_saved_tensors`),
`register_multi_grad_hook`, and the
readers that the widgets and the book use to look at a node without touching its internals.

The graph itself (nodes, edges, saved tensors, the walk) is `core/graph.py`; everything here builds on it.
"""
import contextlib

from .._tensor.inplace import BEFORE_WRITE
from ..compat.checks import FREED_MESSAGE  # noqa: F401 - the error of a graph used after backward freed it
from ..core.engine import current_graph_task_id, will_engine_execute_node
from ..core.graph import (SAVED_TENSOR_FACTORIES, AccumulateGrad, Node, PackedSavedTensor,  # noqa: F401
                          RemovableHandle, SavedTensor, accumulator, count_dependencies, get_gradient_edge, walk)

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
        if _DISABLED:
            raise RuntimeError(_DISABLED[-1])
        SAVED_TENSOR_FACTORIES.append(self._save)
        return self

    def __exit__(self, *exc):
        SAVED_TENSOR_FACTORIES.pop()
        return False

    def _save(self, tensor, owner):
        return PackedSavedTensor(tensor, owner, self.pack_hook, self.unpack_hook)


class save_on_cpu(saved_tensors_hooks):
    """Context manager: tensors saved for backward inside it are kept on the CPU and moved back to their device
    for backward. Mirrors `torch.autograd.graph.save_on_cpu`; minigrad has only the CPU, so nothing moves (with
    `pin_memory=True` the saved tensor is a copy, as pinned memory would be)."""

    def __init__(self, pin_memory=False, device_type="cuda"):
        def pack_to_cpu(tensor):
            return (tensor.device, tensor.cpu() if not pin_memory else tensor.detach().clone())

        def unpack_from_cpu(packed):
            device, tensor = packed
            return tensor.to(device)

        super().__init__(pack_to_cpu, unpack_from_cpu)


class _Handle:
    """What allow_mutation_on_saved_tensors saves in a tensor's place."""


class _AllowMutationOnSavedContext:
    """The state of `allow_mutation_on_saved_tensors`: each saved tensor under a handle, the clones made before
    an in-place change, and which saved tensors start at each address. As in PyTorch, a tensor is known by
    (id, address, version) and its memory by (address, version): a view that starts elsewhere in its base's
    memory is not cloned when the base changes (PyTorch's code calls this "almost definitely a bug")."""

    def __init__(self):
        self.cloned, self.original, self.tid_to_handle, self.sid_to_tid = {}, {}, {}, {}

    def clear(self):
        for table in (self.cloned, self.original, self.tid_to_handle, self.sid_to_tid):
            table.clear()

    def pack(self, tensor):
        tid, sid = _tid(tensor), _sid(tensor)
        self.sid_to_tid.setdefault(sid, set()).add(tid)
        if tid not in self.tid_to_handle:         # the same tensor, at the same version, saved twice: one handle
            handle = self.tid_to_handle[tid] = _Handle()
            self.original[handle] = tensor
        return self.tid_to_handle[tid]

    def unpack(self, handle):
        error = ("Trying to backward outside of the 'allow_mutation_on_saved_tensors' context" "in which the graph "
                 "was originally recorded.")      # (sic: PyTorch's message lacks the space)
        if not _ALLOW_MUTATION:
            raise AssertionError(error)
        if handle in self.cloned:
            return self.cloned[handle]
        if handle not in self.original:
            raise AssertionError(error)
        return self.original[handle]

    def before_write(self, tensor):
        for tid in self.sid_to_tid.get(_sid(tensor), ()):
            handle = self.tid_to_handle.get(tid)
            if handle is not None and handle not in self.cloned:
                self.cloned[handle] = self.original.pop(handle).clone()


def _tid(tensor):
    return id(tensor), tensor.data_ptr(), tensor._version


def _sid(tensor):
    return tensor.data_ptr(), tensor._version


_ALLOW_MUTATION = []    # the active context, if any


@contextlib.contextmanager
def allow_mutation_on_saved_tensors():
    """Context manager under which a tensor saved for backward may be changed in place: it is cloned just before
    the change, and backward uses the clone. Mirrors `torch.autograd.graph.allow_mutation_on_saved_tensors`; run
    forward and backward inside it.

    Example:
        >>> with torch.autograd.graph.allow_mutation_on_saved_tensors():
        ...     b = a.clone()
        ...     out = (b ** 2).sum()        # PowBackward0 saves b
        ...     b.sin_()                    # b is cloned first
        ...     out.backward()              # a.grad is 2 * a, as without the sin_
    """
    ctx = _AllowMutationOnSavedContext()
    with saved_tensors_hooks(ctx.pack, ctx.unpack):
        try:
            if _ALLOW_MUTATION:
                raise RuntimeError("allow_mutation_on_saved_tensors contexts cannot be nested")
            _ALLOW_MUTATION.append(ctx)
            BEFORE_WRITE.append(ctx.before_write)
            yield ctx
        finally:
            ctx.clear()
            if _ALLOW_MUTATION and _ALLOW_MUTATION[-1] is ctx:
                _ALLOW_MUTATION.pop()
                BEFORE_WRITE.remove(ctx.before_write)


_DISABLED = []      # the error messages of the active disable_saved_tensors_hooks, innermost last


class disable_saved_tensors_hooks:
    """Context manager: inside it, `saved_tensors_hooks` raises RuntimeError(error_message) (for code whose
    saved tensors must stay as they are). Entering it while saved-tensor hooks are active raises the same.
    Mirrors `torch.autograd.graph.disable_saved_tensors_hooks`."""

    def __init__(self, error_message):
        self.error_message = error_message

    def __enter__(self):
        if SAVED_TENSOR_FACTORIES:
            raise RuntimeError(self.error_message)
        _DISABLED.append(self.error_message)

    def __exit__(self, *exc):
        _DISABLED.pop()
        return False


# ---- a hook on several tensors at once ---------------------------------------------------------------------------
def register_multi_grad_hook(tensors, fn, *, mode="all"):
    """Call `fn` once the gradients of `tensors` are computed in a backward pass. Mirrors
    `torch.autograd.graph.register_multi_grad_hook`, and is built the same way, on tensor hooks:

    - mode "all": `fn(grads)` after every gradient of `tensors` that this pass computes has arrived, with None
      for the tensors it does not reach (or that `inputs=` leaves out);
    - mode "any": `fn(grad)` with the first of them that arrives.

    Returns a handle whose `.remove()` removes the hook from every tensor.
    """
    if mode not in ("all", "any"):
        raise ValueError(f"Expects mode to be one of {('all', 'any')} but got {mode}")
    if mode == "all":
        nodes = [_grad_fn_or_accumulator(t) for t in tensors]
        count, buffer, expected = {}, {}, {}

        def hook_for(i):
            def inner_hook(grad):
                task = current_graph_task_id()
                if task not in count:   # the first of this pass: how many of the tensors does it reach?
                    count[task], buffer[task] = 0, [None] * len(tensors)
                    expected[task] = sum(map(will_engine_execute_node, nodes))
                count[task] += 1
                buffer[task][i] = grad
                if count[task] == expected[task]:
                    grads = buffer.pop(task)
                    del count[task], expected[task]
                    fn(grads)
            return inner_hook
        return _MultiHandle(tuple(t.register_hook(hook_for(i)) for i, t in enumerate(tensors)))

    ran = set()

    def first_only(grad):
        task = current_graph_task_id()
        if task not in ran:
            ran.add(task)
            fn(grad)
    return _MultiHandle(tuple(t.register_hook(first_only) for t in tensors if t.requires_grad))


def _grad_fn_or_accumulator(t):
    if t.requires_grad and t.grad_fn is None:
        return accumulator(t)
    if t.grad_fn is None:
        raise AssertionError("Expected gradient function to be set")
    return t.grad_fn


class _MultiHandle(RemovableHandle):
    def __init__(self, handles):
        self.handles = handles

    def remove(self):
        for handle in self.handles:
            handle.remove()


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
