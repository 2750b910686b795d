"""The graph that backward walks: nodes, their `next_functions` edges, saved tensors, and `AccumulateGrad`.

Every `grad_fn` is a `Node`. Its `next_functions` is a tuple of `(node, output_nr)` pairs, one per tensor input:
the node that produced that input (or the input leaf's `AccumulateGrad`), and which of that node's outputs it
was; `(None, 0)` marks an input that needs no gradient. The engine, the graph drawing and the book all read
this one structure, through the functions of `graph_walk.py` (`walk`, `count_dependencies`, `saved_values`,
`output_metadata`, `retained_tensors`, `ctx_attributes`), which this module offers too.
"""
import itertools
import re

from .._grad_state import _State
from .graph_walk import (count_dependencies, ctx_attributes, output_metadata, retained_tensors,  # noqa: F401
                         saved_values, walk)

_sequence = itertools.count()

FREED_MESSAGE = (
    "Trying to backward through the graph a second time (or directly access saved tensors after they have "
    "already been freed). Saved intermediate values of the graph are freed when you call .backward() or "
    "autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time or "
    "if you need to access saved tensors after calling backward.")


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
            producer = self.grad_fn or t.grad_fn
            # PyTorch names the op here without "Backward" and a 0: "output 0 of Mul", "of Clamp1", "of Fill2"
            op = re.sub(r"Backward(?:0|(\d+))?$", r"\1", type(producer).name(producer)) if producer else ""
            which = f", which is output {self.output_nr} of {op}," if producer else ""
            raise RuntimeError(
                "one of the variables needed for gradient computation has been modified by an inplace "
                f"operation: [{t.type()} {list(t.shape)}]{which} is at version {t._version}; expected version "
                f"{self.version} instead. Hint: enable anomaly detection to find the operation that failed to "
                "compute its gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False).")
        return t


class PackedSavedTensor(SavedTensor):
    """A tensor saved inside `saved_tensors_hooks`: kept as whatever `pack_hook` made of it."""

    __slots__ = ("unpack_hook", "original")

    def __init__(self, tensor, owner):
        super().__init__(tensor, owner)
        pack, self.unpack_hook = _saved_tensors_hooks[-1]
        leaf = tensor._requires_grad and tensor.grad_fn is None
        self.original = (tensor.grad_fn, tensor._output_nr, accumulator(tensor) if leaf else False)
        self.tensor = pack(tensor)

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


_saved_tensors_hooks = []      # the (pack, unpack) pairs of the active `saved_tensors_hooks`, innermost last


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
        _saved_tensors_hooks.append((self.pack_hook, self.unpack_hook))
        return self

    def __exit__(self, *exc):
        _saved_tensors_hooks.pop()
        return False


class Node:
    """A backward function in the graph. `name()`, `next_functions` and `metadata` mirror `torch.autograd.graph.Node`.

    Nodes are created by `Function.apply` (one new node per call); for a custom Function the node is also the
    `ctx` its `forward`/`setup_context`/`backward` receive.
    """

    # class-level defaults keep node creation cheap: an instance only stores what differs
    next_functions = ()
    _saved = None            # tuple of SavedTensor (None where save_for_backward got None), if any were saved
    _freed = False           # True once a backward without retain_graph has dropped them
    _pre_hooks = None        # {output_nr: [hook, ...]} from Tensor.register_hook on this node's outputs
    _retained = None         # {output_nr: tensor} from Tensor.retain_grad
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

    def _add_pre_hook(self, output_nr, hook):
        if self._pre_hooks is None:
            self._pre_hooks = {}
        hooks = self._pre_hooks.setdefault(output_nr, [])
        hooks.append(hook)
        return RemovableHandle(hooks, hook)

    def __getattr__(self, name):
        """`_saved_self`, `_saved_result`, `_saved_exponent`, ...: what a built-in node saved, by torch's names.

        An op declares them: `saved_names` for its saved tensors (in save order), `saved_attrs` for other values.
        """
        spec = getattr(type(self), "_forward_cls", None) or type(self)
        key = name[7:] if name.startswith("_saved_") else None
        names = getattr(spec, "saved_names", ())
        if key is not None and key in names:
            if self._freed:
                raise RuntimeError(FREED_MESSAGE)
            saved = self._saved
            s = saved[names.index(key)] if saved else None
            return None if s is None else s.unpack()
        attrs = getattr(spec, "saved_attrs", {})
        if key is not None and key in attrs:
            return _as_saved_int(getattr(self, attrs[key]))
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

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
                grads = _hook_result(result, len(grads), hook)
        return grads

    def _call_post_hooks(self, grad_inputs, grad_outputs):
        for hook in list(self._post_hooks):
            result = hook(grad_inputs, grad_outputs)
            if result is not None:
                grad_inputs = _hook_result(result, len(grad_inputs), hook)
        return grad_inputs

    def __repr__(self):
        return f"<{type(self).__name__} object at {hex(id(self))}>"


class CallableNode(Node):
    """A node that PyTorch writes in C++ (every built-in op's, AccumulateGrad, ...): calling it runs its backward.
    A custom Function's node is not callable, in PyTorch as here: it has `.apply` instead."""

    def __call__(self, *grad_outputs):
        """Run this node's backward on `grad_outputs` and return its gradients, as calling a torch node does.

        One gradient per entry of `next_functions` (a tensor if there is one, else a tuple; None where none
        flows). Hooks do not run: they belong to the engine. Grad mode is whatever it is at the call.
        """
        grads = self._run_backward(tuple(grad_outputs))
        return grads[0] if len(grads) == 1 else tuple(grads)


class AccumulateGrad(CallableNode):
    """The node that ends every path at a leaf: it adds the arriving gradient into `variable.grad`.

    Mirrors `torch.autograd.graph` `AccumulateGrad`; `.variable` is the leaf tensor.
    """

    def __init__(self, variable):
        super().__init__()
        self._priority = float("inf")   # run as soon as ready, as PyTorch does, so .grad fills in promptly
        self.variable = variable

    def name(self):
        return "torch::autograd::AccumulateGrad"

    def _run_backward(self, grads):
        # the gradient accumulates: g if t.grad is None else t.grad + g
        (g,) = grads
        leaf = self.variable
        if g is None:
            return ()
        if not _State.enabled:          # a plain backward: copy, then add in place (x.grad keeps its identity)
            if leaf._grad is None:
                leaf._grad = g._detached_copy()
            else:
                leaf._grad._accumulate(g)
        elif leaf._grad is None:        # create_graph=True: as in PyTorch, a recorded copy (CopyBackwards) ...
            leaf._grad = g._detached_copy().copy_(g)
        else:                           # ... and a new, recorded sum
            leaf._grad = leaf._grad + g
        return ()


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


def _as_saved_int(value):
    """torch shows a saved int64 as unsigned: a saved dim of -1 reads 18446744073709551615 (2**64 - 1)."""
    if type(value) is int:
        return value % 2**64
    if type(value) is tuple and all(type(v) is int for v in value):
        return tuple(v % 2**64 for v in value)
    return value


def _hook_result(result, expected, hook):
    """Check what a node hook returned, with PyTorch's errors."""
    if type(result) is not tuple:
        raise TypeError(f"expected tuple, but hook returned '{type(result).__name__}'")
    if len(result) != expected:
        raise RuntimeError(f"hook '{getattr(hook, '__name__', hook)}' has returned an incorrect number of values "
                           f"(got {len(result)}, but expected {expected})")
    return result
