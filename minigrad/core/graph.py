"""The graph that backward walks: nodes, their `next_functions` edges, saved tensors, and `AccumulateGrad`.

Every `grad_fn` is a `Node`. Its `next_functions` is a tuple of `(node, output_nr)` pairs, one per tensor input:
the node that produced that input (or the input leaf's `AccumulateGrad`), and which of that node's outputs it
was; `(None, 0)` marks an input that needs no gradient. The engine, the graph drawing and the book all read
this one structure, and `count_dependencies` (at the end) is the one walk over it that they share.
"""
import itertools
from collections import deque

from ..compat import checks
from ..compat.callable_nodes import CallableNode
from ..compat.saved_attributes import SavedAttributes
from .grad_mode import _State

_sequence = itertools.count()


class Node(SavedAttributes):     # SavedAttributes: grad_fn._saved_self and the like, by torch's names
    """A backward function in the graph. `name()`, `next_functions` and `metadata` mirror `torch.autograd.graph.Node`.

    Nodes are created by `Function.apply` (one new node per call; a leaf's `AccumulateGrad` by `accumulator`,
    once); for a custom Function the node is also the `ctx` its `forward`/`setup_context`/`backward` receive.
    Every node class writes `_run_backward`, which is what the engine calls.
    """

    # class-level defaults keep node creation cheap: an instance only stores what differs
    next_functions = ()
    _saved = None            # tuple of SavedTensor (None where save_for_backward got None), if any were saved
    _freed = False           # True once a backward without retain_graph has dropped them
    _pre_hooks = None        # {output_nr: [hook, ...]} from Tensor.register_hook on this node's outputs
    _retained = None         # {output_nr: weakref to tensor} from Tensor.retain_grad
    _output_shapes = ()      # shape and dtype of each output, to materialise missing gradients as zeros
    _node_pre_hooks = None   # [hook(grad_outputs)] from register_prehook
    _post_hooks = None       # [hook(grad_inputs, grad_outputs)] from register_hook

    def __init__(self):
        self._priority = next(_sequence)      # the ready node created last runs first, as in PyTorch

    def _sequence_nr(self):
        """The node's creation number, as PyTorch's private `grad_fn._sequence_nr()` (AccumulateGrad: 2**64 - 1)."""
        return self._priority if self._priority != float("inf") else 2 ** 64 - 1

    def name(self):
        """Return the node's class name, e.g. `'MulBackward0'`."""
        return type(self).__name__

    @property
    def metadata(self):
        try:
            return self._metadata
        except AttributeError:
            self._metadata = {}
            return self._metadata

    # ---- hooks: on a tensor (`register_hook` on an output: `_pre_hooks`), or on the node itself -------------
    def _add_pre_hook(self, output_nr, hook):
        if self._pre_hooks is None:
            self._pre_hooks = {}
        hooks = self._pre_hooks.setdefault(output_nr, [])
        hooks.append(hook)
        return RemovableHandle(hooks, hook)

    def register_prehook(self, fn):
        """Call `fn(grad_outputs)` before this node runs; a non-None result (a tuple) replaces grad_outputs."""
        if self._node_pre_hooks is None:
            self._node_pre_hooks = []
        self._node_pre_hooks.append(fn)
        return RemovableHandle(self._node_pre_hooks, fn)

    def register_hook(self, fn):
        """Call `fn(grad_inputs, grad_outputs)` after this node ran; a non-None result replaces grad_inputs."""
        if self._post_hooks is None:
            self._post_hooks = []
        self._post_hooks.append(fn)
        return RemovableHandle(self._post_hooks, fn)

    def _call_pre_hooks(self, grads):
        for hook in list(self._node_pre_hooks):
            result = hook(grads)
            if result is not None:
                grads = checks.hook_result(result, len(grads), hook)
        return grads

    def _call_post_hooks(self, grad_inputs, grad_outputs):
        for hook in list(self._post_hooks):
            result = hook(grad_inputs, grad_outputs)
            if result is not None:
                grad_inputs = checks.hook_result(result, len(grad_inputs), hook)
        return grad_inputs

    def _run_backward(self, grads):
        """Return this node's gradients: given one gradient per output of its forward (None where none arrived),
        one per entry of `next_functions`. What the engine calls for each node; every node class writes it."""
        raise NotImplementedError(f"{type(self).__name__} does not define _run_backward")

    def __repr__(self):
        return f"<{type(self).__name__} object at {hex(id(self))}>"


class RemovableHandle:
    """Returned by `register_hook`; call `.remove()` to take the hook off again."""

    def __init__(self, hooks, hook):
        self._hooks, self._hook = hooks, hook

    def remove(self):
        if self._hook in self._hooks:
            self._hooks.remove(self._hook)


class SavedTensor:
    """One tensor saved for backward, with the version it had when saved (to detect later in-place changes)."""

    __slots__ = ("tensor", "version", "grad_fn", "output_nr")

    def __init__(self, tensor, owner):
        self.tensor = tensor
        vc = tensor._vc
        self.version = 0 if vc is None else vc[0]       # the counter itself (tensor._version checks inference too)
        # name the node that produced it, for the error message; a saved output names its own node
        self.grad_fn = owner if tensor.grad_fn is owner else None
        self.output_nr = tensor._output_nr

    def unpack(self):
        t = self.tensor
        if (t._vc[0] if t._vc is not None else 0) != self.version:    # t's version, read as in __init__
            checks.modified_in_place(self, t)
        if self.grad_fn is not None:    # a saved output comes back as a new tensor object, as in PyTorch
            u = t._alias()
            u.grad_fn, u._requires_grad, u._output_nr = self.grad_fn, True, self.output_nr
            if t._tangents:
                u._tangents = t._tangents   # forward mode: it keeps its tangents (forward_ad.py)
            return u
        return t

    def register_hooks(self, pack_hook, unpack_hook):
        """From now on keep this tensor as `pack_hook(tensor)` made it, and `unpack_hook` it for backward
        (`grad_fn._raw_saved_self.register_hooks(pack, unpack)` in PyTorch). Returns the new saved tensor."""
        checks.saved_tensor_hooks(self, pack_hook, unpack_hook)
        return PackedSavedTensor(self.tensor, self.grad_fn, pack_hook, unpack_hook, detached=True)


class PackedSavedTensor(SavedTensor):
    """A tensor saved inside `saved_tensors_hooks` (or given hooks by `register_hooks`): kept as whatever
    `pack_hook` made of it. A tensor given hooks after it was saved reaches `pack_hook` `detached`, as in PyTorch
    (no grad_fn, no requires_grad: the graph keeps those, not the hooks)."""

    __slots__ = ("unpack_hook", "original")

    def __init__(self, tensor, owner, pack_hook, unpack_hook, detached=False):
        super().__init__(tensor, owner)
        self.unpack_hook = unpack_hook
        leaf = tensor._requires_grad and tensor.grad_fn is None
        self.original = (tensor.grad_fn, tensor._output_nr, accumulator(tensor) if leaf else False)
        self.tensor = pack_hook(tensor.detach() if detached else tensor)

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


# The seam for `torch.autograd.graph.saved_tensors_hooks` (autograd/graph.py): while one is active, its
# factory, on top of this stack, saves the tensors instead of SavedTensor.
SAVED_TENSOR_FACTORIES = []


class AccumulateGrad(CallableNode, Node):
    """The node that ends every path at a leaf: it adds the arriving gradient into `variable.grad`.

    Mirrors `torch.autograd.graph` `AccumulateGrad`; `.variable` is the leaf tensor.
    """

    def __init__(self, variable):
        super().__init__()
        self._priority = float("inf")   # run as soon as ready, as PyTorch does, so .grad fills in promptly
        self.variable = variable

    def name(self):
        return "torch::autograd::AccumulateGrad"

    _post_accumulate_hooks = None     # [hook(tensor)] from Tensor.register_post_accumulate_grad_hook

    def _run_backward(self, grads):
        (g,) = grads
        if g is not None:
            self._accumulate(g)
            for hook in list(self._post_accumulate_hooks or ()):
                checks.post_accumulate_result(hook(self.variable))
        return ()

    def _accumulate(self, g):
        # the gradient accumulates: g if t.grad is None else t.grad + g
        leaf = self.variable
        if g._data.shape != leaf._data.shape:     # e.g. a direct call, node(g), with another shape; as PyTorch:
            if leaf._grad is not None:            # a sum out of place, of the broadcast shape (or torch's error)
                leaf._grad = leaf._grad + g
                if leaf._grad._data.shape != leaf._data.shape:
                    checks.layout_contract(leaf._grad, leaf)
                return
            g = leaf._detached_copy().copy_(g)    # g broadcast to the leaf's shape (or torch's error)
        if not _State.enabled:          # a plain backward: copy, then add in place (x.grad keeps its identity)
            if leaf._grad is None:
                leaf._grad = g._detached_copy()
            else:
                leaf._grad._accumulate(g)
        elif leaf._grad is None:        # create_graph=True: as in PyTorch, a recorded copy (CopyBackwards) ...
            leaf._grad = g._detached_copy().copy_(g)
        else:                           # ... and a new, recorded sum
            leaf._grad = leaf._grad + g


def accumulator(tensor):
    """Return the `AccumulateGrad` node of a leaf tensor (one per leaf, reused by every op that reads it)."""
    node = tensor._grad_accumulator
    if node is None:
        node = tensor._grad_accumulator = AccumulateGrad(tensor)
    return node


def get_gradient_edge(tensor):
    """Return where a gradient for `tensor` arrives: `(grad_fn, output_nr)`, or `(its AccumulateGrad, 0)` for a leaf.

    Mirrors `torch.autograd.graph.get_gradient_edge` (a `(node, output_nr)` pair, as in `next_functions`).
    """
    node = tensor.grad_fn
    return (node, tensor._output_nr) if node is not None else (accumulator(tensor), 0)


def set_history(tensor, node, output_nr):
    """Give `tensor`, just changed in place, its new history: output `output_nr` of `node`. As in PyTorch, its
    `retain_grad()` moves along, so `.grad` is the gradient of its new value."""
    old = tensor.grad_fn
    ref = old._retained.get(tensor._output_nr) if old is not None and old._retained else None
    if ref is not None and ref() is tensor:
        del old._retained[tensor._output_nr]
        if node._retained is None:
            node._retained = {}
        node._retained[output_nr] = ref
    tensor.grad_fn, tensor._output_nr, tensor._requires_grad = node, output_nr, True


def count_dependencies(roots, parents=None):
    """Return, for each node reachable from `roots`, how many edges point at it, nearest the roots first.

    A node runs once that many gradients have arrived, so the length of the result is the number of nodes a
    backward pass from `roots` runs (a pass with `inputs=` may run fewer). Given a `parents` dict, the same
    walk records who points at each node (what a pass with `inputs=` needs). The engine and the drawings (the
    widgets, through `walk`) both walk the graph with this.
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
