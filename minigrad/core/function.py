"""`Function`: an operation with a hand-written backward. `Function.apply` runs forward and records a node.

Every built-in op of minigrad is a `Function` too (see `minigrad/ops/`), written with the very API that the
book teaches for custom Functions. The file reads: the `ctx` API (`FunctionCtx`: `save_for_backward`,
`saved_tensors`, ...), first only because `Function` inherits it; `Function` and its `apply`, five steps, each a
function right below the class (then the one shortcut, for built-in ops when nothing is recorded, and small
helpers); and the node that one call's ctx is (`BackwardCFunction`), which checks the gradients that `backward`
returns.
"""
import inspect
import warnings

import numpy as np

from ..compat import anomaly, batched, checks
from ..compat.callable_nodes import CallableNode
from ..compat.inference import INFERENCE_SAVED
from .dtype import _BY_NUMPY
from .forward_ad import push_tangents
from .grad_mode import _State
from .graph import SAVED_TENSOR_FACTORIES, Node, SavedTensor, accumulator, set_history
from .tensor import TensorBase


class FunctionCtx:
    """What a Function's `ctx` offers. Mirrors `torch.autograd.function.FunctionCtx`.

    In PyTorch, as here, the ctx of one `apply` call *is* the graph node recorded for that call
    (`output.grad_fn is ctx`), so each call has its own ctx and anything stored on it is private to that call.
    """

    _materialize_grads = True
    _to_save = None
    _for_forward = None
    _saved = None               # (the node's slots, here too for an old-style Function instance, as in PyTorch)
    _freed = False
    needs_input_grad = None
    _dirty = ()
    _non_differentiable = ()
    _materialize_non_diff_grads = True   # PyTorch's private switch: False gives None, not zeros, for those outputs
    _undifferentiated = ()               # which outputs then get None

    def save_for_backward(self, *tensors):
        """Save tensors (or None) for `backward`; they come back as `ctx.saved_tensors`.

        Saved tensors are version-checked (an in-place change before backward is an error) and freed once
        backward has used them. Non-tensors belong on ctx as plain attributes: `ctx.constant = c`.
        """
        self._to_save = tensors

    @property
    def saved_tensors(self):
        """Return the tensors given to `save_for_backward`, after checking they were not modified in place."""
        if self._for_forward is not None:       # inside jvp: what save_for_forward kept
            return self._for_forward
        if self._freed:
            raise RuntimeError(checks.FREED_MESSAGE)
        saved = self._saved
        if saved is None:
            return ()
        return tuple([None if s is None else s.unpack() for s in saved])

    def save_for_forward(self, *tensors):
        """Save tensors for `jvp` (forward mode); inside `jvp` they are `ctx.saved_tensors`."""
        self._for_forward = tensors

    def mark_dirty(self, *tensors):
        """Declare the inputs that `forward` modified in place (and returned)."""
        self._dirty = tensors

    def mark_non_differentiable(self, *tensors):
        """Declare outputs that have no gradient (e.g. the indices returned by a sort)."""
        self._non_differentiable = tensors

    def set_materialize_grads(self, value):
        """Choose whether gradients of unused outputs arrive as zero tensors (True, the default) or as None."""
        self._materialize_grads = bool(value)


class Function(FunctionCtx):     # a FunctionCtx too, as in PyTorch: old-style instances were their own ctx
    """Base class for operations with a custom backward. Mirrors `torch.autograd.Function`.

    Write `forward` and `backward` as @staticmethods, in one of two styles:
      - combined: `forward(ctx, *args)` saves what backward needs on `ctx` itself;
      - separate (recommended): `forward(*args)` computes only, `setup_context(ctx, inputs, output)` saves.
    Then call it as `MyFunction.apply(*args)`: never call `forward` directly, and never instantiate the class.

    Example:
        >>> class MulConstant(Function):
        ...     @staticmethod
        ...     def forward(tensor, constant):
        ...         return tensor * constant
        ...     @staticmethod
        ...     def setup_context(ctx, inputs, output):
        ...         ctx.constant = inputs[1]
        ...     @staticmethod
        ...     def backward(ctx, grad_output):
        ...         return grad_output * ctx.constant, None
        >>> y = MulConstant.apply(x, 3.0)
    """

    node_name = None   # built-in ops set this to PyTorch's node name, e.g. "MulBackward0"
    saved_names = ()   # built-in ops: torch's names of the saved tensors, in save order (node._saved_self, ...)
    saved_attrs = {}   # built-in ops: torch's names of other saved values -> the ctx attribute holding them

    @classmethod
    def apply(cls, *args, **kwargs):
        """Run `forward` on `args` and, if any input requires grad, record a new node (the new `ctx`) for backward.

        Returns forward's output(s); tensor outputs get `grad_fn` set to the new node.
        """
        if cls._builtin and not _State.enabled and not _State.forward_ad:   # perf: 11 % on bench small_mlp_training
            return _forward_only(cls, args, kwargs)
        if _State.transforms and not cls._builtin:     # inside torch.func, what PyTorch asks of a custom Function
            checks.function_in_transform(cls, _State.transforms, _plain(cls.vmap) is not _plain(Function.vmap))
        args, kwargs = _bind_arguments(cls, args, kwargs)
        inputs = args + tuple(kwargs.values()) if kwargs else args
        ctx = cls._backward_cls()
        ctx.needs_input_grad = _needs_input_grad(inputs)
        output = _forward_unrecorded(cls, ctx, args, kwargs)
        if _State.enabled and True in ctx.needs_input_grad:
            _connect(ctx, inputs)
            output = _record_outputs(ctx, inputs, output)
        if _State.forward_ad:       # forward mode: the outputs' tangents (forward_ad.py)
            output = push_tangents(cls, ctx, inputs, output)
        return output

    @staticmethod
    def forward(*args, **kwargs):
        raise NotImplementedError("You must implement the forward function for custom autograd.Function.")

    @staticmethod
    def setup_context(ctx, inputs, output):
        raise NotImplementedError("setup_context is not implemented.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError("You must implement either the backward or vjp method for your custom "
                                  "autograd.Function to use it with backward mode AD.")

    generate_vmap_rule = False      # torch.func.vmap: True means "run me on each sample" (no rule of my own)

    @staticmethod
    def vmap(info, in_dims, *args):
        """torch.func.vmap's rule for this Function. minigrad's vmap is a loop over the samples, so it only checks
        that a Function has one (or `generate_vmap_rule = True`), as PyTorch does, and never calls it."""
        raise NotImplementedError("To use autograd.Function with vmap, you must either override the vmap "
                                  "staticmethod or set generate_vmap_rule=True.")

    @staticmethod
    def jvp(ctx, *grad_inputs):
        """Forward mode: the tangents of the outputs, given one tangent per input (zeros for an input that has
        none). Optional: only forward-mode AD (`torch.autograd.forward_ad`, `torch.func.jvp`) calls it."""
        raise NotImplementedError("You must implement the jvp function for custom autograd.Function to use it "
                                  "with forward mode AD.")

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        name = cls.__dict__.get("node_name") or cls.__name__ + "Backward"
        cls._builtin = cls.__dict__.get("node_name") is not None
        bases = (CallableNode, BackwardCFunction) if cls._builtin else (BackwardCFunction,)   # see CallableNode
        cls._backward_cls = type(name, bases, {"_forward_cls": cls, "__module__": cls.__module__})
        cls._separate_setup = _plain(cls.setup_context) is not _plain(Function.setup_context)
        cls._signature = inspect.signature(cls.forward) if cls._separate_setup and not cls._builtin else None

    def __init__(self, *args, **kwargs):
        warnings.warn(f"{type(self)} should not be instantiated. Methods on autograd functions are all static, "
                      "so you should invoke them on the class itself. Instantiating an autograd function will "
                      "raise an error in a future version of PyTorch.", DeprecationWarning, stacklevel=2)

    def __call__(self, *args, **kwargs):
        raise RuntimeError("Legacy autograd function with non-static forward method is deprecated. Please use "
                           "new-style autograd function with static forward method. (Example: "
                           "https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)")


# ---- the steps of `Function.apply` --------------------------------------------------------------------------
def _bind_arguments(cls, args, kwargs):
    """Bind the arguments: a custom Function in the separate style gets them bound to forward's signature, so
    that setup_context sees the defaults too (as in PyTorch); built-in ops always pass every argument."""
    if cls._signature is not None:
        bound = cls._signature.bind(*args, **kwargs)
        bound.apply_defaults()
        return bound.args, {}
    if kwargs and cls._separate_setup:
        checks.positional_only(cls)
    return args, kwargs             # keywords go to forward as keywords, and count as inputs after the others


def _needs_input_grad(inputs):
    """One flag per input: is it a tensor that requires grad? As in PyTorch, whatever the grad mode."""
    return _shared(tuple([isinstance(a, TensorBase) and a._requires_grad for a in inputs]))


def _forward_unrecorded(cls, ctx, args, kwargs):
    """Run forward (and setup_context) with recording off, and tangents too: the new node stands for everything
    forward does, and its `jvp` for the tangents forward would have computed."""
    recording, forward_ad = _State.enabled, _State.forward_ad
    _State.enabled, _State.forward_ad = False, 0
    try:
        if cls._separate_setup:
            output = cls.forward(*args)
            cls.setup_context(ctx, args, output)
        else:
            output = cls.forward(ctx, *args, **kwargs)      # keywords reach forward, but are not inputs
    finally:
        _State.enabled, _State.forward_ad = recording, forward_ad
    for t in ctx._dirty:
        t._bump_version()           # marking dirty counts as a modification, as in PyTorch
    if batched.LEVELS:              # inside torch.func.vmap: an output holds a sample where an input does
        batched.spread(args + tuple(kwargs.values()), output)
    return output


def _connect(ctx, inputs):
    """Give the node one edge per tensor input (`next_functions`), and keep each input's shape and dtype (to
    check the gradients that backward will return)."""
    metas, edges = [], []
    for a in inputs:
        if isinstance(a, TensorBase):
            metas.append((a._data.shape, a._data.dtype))
            edges.append(_edge(a) if a._requires_grad else (None, 0))
        else:
            metas.append(None)
    ctx._inputs, ctx.next_functions = _shared(tuple(metas)), tuple(edges)
    if _State.anomaly:
        ctx.metadata["traceback_"] = anomaly.forward_traceback()


def _record_outputs(ctx, inputs, output):
    """Point each tensor output at the node (`grad_fn`, `output_nr`), then save the tensors ctx asked for."""
    if isinstance(output, tuple):
        recorded = tuple([_record_output(ctx, inputs, out, i) for i, out in enumerate(output)])
        ctx._output_shapes = _shared(tuple([_meta(out) for out in recorded]))
    else:
        recorded = _record_output(ctx, inputs, output, 0)
        ctx._output_shapes = _shared((_meta(recorded),))
    _save(ctx)
    return recorded


def _meta(t):
    return (t._data.shape, t._data.dtype) if isinstance(t, TensorBase) else None


def _record_output(ctx, inputs, out, i):
    """Record output `i`: a tensor gets the node as its `grad_fn` (integer and bool ones never do)."""
    if not isinstance(out, TensorBase):
        return out
    dirty = ctx._dirty and _is_one_of(out, ctx._dirty)
    if dirty:
        checks.dirty_leaf(out)
    elif _is_one_of(out, inputs):
        out = out._alias()          # an input returned as-is becomes a new tensor, as in PyTorch
    if out._data.dtype.kind == "f" and not (ctx._non_differentiable and _is_one_of(out, ctx._non_differentiable)):
        if dirty:
            set_history(out, ctx, i)            # changed in place: its retain_grad() follows its new history
        else:
            out.grad_fn, out._requires_grad = ctx, True
            if i:
                out._output_nr = i
    elif not ctx._materialize_non_diff_grads:
        ctx._undifferentiated += (i,)
    return out


def _save(ctx):
    """Turn what `save_for_backward` received into version-checked saved tensors."""
    to_save = ctx._to_save
    if to_save is not None:
        del ctx._to_save            # from now on only the version-checked SavedTensors hold them
        for i, t in enumerate(to_save):
            if t is not None and not isinstance(t, TensorBase):
                checks.cannot_save(i, t)
            if _State.inference_used and t is not None and t.is_inference():
                raise RuntimeError(INFERENCE_SAVED)
        # inside torch.autograd.graph.saved_tensors_hooks, its factory saves them (see autograd/graph.py)
        save = SAVED_TENSOR_FACTORIES[-1] if SAVED_TENSOR_FACTORIES else SavedTensor
        ctx._saved = tuple([None if t is None else save(t, ctx) for t in to_save])


# ---- a shortcut, worth its measured time -------------------------------------------------------------------
def _forward_only(cls, args, kwargs):
    """A built-in op while nothing is recorded (e.g. the backward formulas when create_graph is False): no node."""
    output = cls.forward(*args, **kwargs)
    if batched.LEVELS:              # inside torch.func.vmap: an output holds a sample where an input does
        batched.spread(args + tuple(kwargs.values()), output)
    if _State.inference:            # inside inference_mode every new tensor is an inference tensor
        for t in output if isinstance(output, tuple) else (output,):
            if isinstance(t, TensorBase):
                t._inference = True
    return output


def _shared(value):
    """One tuple per distinct value: nodes of the same shapes share their `needs_input_grad` and their input and
    output metadata ((shape, dtype) pairs). Python's garbage collector scans a graph of Python objects again and
    again while it grows; every object a node does not hold makes the scans rarer and shorter.
    perf: 19 % on bench long_chain (min of 30 runs: 220 ms with, 272 ms without)."""
    if len(_SHARED) > 4096:
        _SHARED.clear()             # a program with ever new shapes: start again rather than grow
    return _SHARED.setdefault(value, value)


_SHARED = {}


# ---- helpers ----------------------------------------------------------------------------------------------------
def _edge(t):
    """Where a gradient for input `t` (which requires grad) goes: the node that made it, or its leaf's
    AccumulateGrad."""
    if t._base is not None and t._base.grad_fn is not t._base_grad_fn:
        t._refresh_view()           # its base changed in place since the view was taken: _tensor/views.py
    node = t.grad_fn
    return (node, t._output_nr) if node is not None else (accumulator(t), 0)


def _is_one_of(x, items):
    for item in items:
        if item is x:
            return True
    return False


def _plain(fn):
    return getattr(fn, "__func__", fn)


# ---- the node of one call, and the gradients its backward returns ------------------------------------------
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
                    grads = _materialized(self, grads)
                    break
        return _gradients_for_inputs(self, self._forward_cls.backward(self, *grads))


def _materialized(node, grads):
    """Zeros for the outputs that got no gradient, as PyTorch gives `backward` by default; None for an output
    that is not a tensor (and, with `ctx._materialize_non_diff_grads = False`, for a non-differentiable one)."""
    skip = node._undifferentiated
    return tuple(g if g is not None or meta is None or i in skip else TensorBase._make(np.zeros(*meta))
                 for i, (g, meta) in enumerate(zip(grads, node._output_shapes)))


def _gradients_for_inputs(node, grads):
    """Match backward's results to forward's inputs, as PyTorch's engine does: one gradient per input (None for
    a non-tensor one), each of its input's shape and dtype. Returns the gradients of the tensor inputs."""
    if type(grads) is not tuple:
        grads = (grads,)
    inputs = node._inputs
    if len(grads) != len(inputs):
        grads = checks.gradient_count(node, grads, inputs)
    checked = []
    for i, (g, meta) in enumerate(zip(grads, inputs)):
        if meta is None:                               # a non-tensor input: only None is allowed
            if g is not None:
                checks.wrong_gradient(node, i, g)
            continue
        if g is not None:
            array = getattr(g, "_data", None)
            if array is None:
                checks.wrong_gradient(node, i, g)
            shape, dtype = meta
            if array.shape != shape:
                checks.gradient_shape(node, i, g, shape)
                g = g.sum_to_size(shape)               # the adjoint of broadcasting, recorded under create_graph
            if g._data.dtype is not dtype and g._data.dtype != dtype:     # `is` first: equal dtypes are one object
                g = g.to(_BY_NUMPY[dtype])
        checked.append(g)
    return tuple(checked)
