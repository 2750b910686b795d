"""`Function`: an operation with a hand-written backward. `Function.apply` runs forward and records a node.

Every built-in op of minigrad is a `Function` too (see `minigrad/ops/`), written with the very API that the
book teaches for custom Functions.
"""
import inspect
import warnings

import numpy as np

from .._grad_state import INFERENCE_SAVED, _State
from .._tensor import Tensor
from ._gradient_checks import check_gradients
from .graph import FREED, FREED_MESSAGE, Node, PackedSavedTensor, SavedTensor, _saved_tensors_hooks, accumulator
from .once_differentiable import once_differentiable  # noqa: F401  (torch.autograd.function has it too)
from .views import refresh_view


class FunctionCtx:
    """What a Function's `ctx` offers. Mirrors `torch.autograd.function.FunctionCtx`.

    In PyTorch, as here, the ctx of one `apply` call *is* the graph node recorded for that call
    (`output.grad_fn is ctx`), so each call has its own ctx and anything stored on it is private to that call.
    """

    _materialize_grads = True
    _to_save = None
    _dirty = ()
    _non_differentiable = ()

    def save_for_backward(self, *tensors):
        """Save tensors (or None) for `backward`; they come back as `ctx.saved_tensors`.

        Saved tensors are version-checked (an in-place change before backward is an error) and freed once
        backward has used them. Non-tensors belong on ctx as plain attributes: `ctx.constant = c`.
        """
        self._to_save = tensors

    @property
    def saved_tensors(self):
        """Return the tensors given to `save_for_backward`, after checking they were not modified in place."""
        saved = self._saved
        if saved is FREED:
            raise RuntimeError(FREED_MESSAGE)
        if saved is None:
            return ()
        return tuple([None if s is None else s.unpack() for s in saved])

    def mark_dirty(self, *tensors):
        """Declare the inputs that `forward` modified in place (and returned)."""
        self._dirty = tensors

    def mark_non_differentiable(self, *tensors):
        """Declare outputs that have no gradient (e.g. the indices returned by a sort)."""
        self._non_differentiable = tensors

    def set_materialize_grads(self, value):
        """Choose whether gradients of unused outputs arrive as zero tensors (True, the default) or as None."""
        self._materialize_grads = bool(value)


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
                    grads = tuple(_zeros(*meta) if g is None else g for g, meta in zip(grads, self._output_shapes))
                    break
        return check_gradients(self, self._forward_cls.backward(self, *grads))

    def __call__(self, *grad_outputs):
        if not self._forward_cls._builtin:      # as in PyTorch, only built-in nodes can be called
            raise TypeError(f"'{type(self).__name__}' object is not callable")
        return Node.__call__(self, *grad_outputs)


class Function:
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

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        name = cls.__dict__.get("node_name") or cls.__name__ + "Backward"
        cls._backward_cls = type(name, (BackwardCFunction,), {"_forward_cls": cls, "__module__": cls.__module__})
        cls._separate_setup = _plain(cls.setup_context) is not _plain(Function.setup_context)
        cls._builtin = cls.__dict__.get("node_name") is not None
        # like PyTorch, a custom Function in the separate style gets its arguments bound to forward's
        # signature, so setup_context sees defaults too (built-in ops always pass every argument)
        cls._signature = (inspect.signature(cls.forward)
                          if cls._separate_setup and cls.__dict__.get("node_name") is None else None)

    def __init__(self, *args, **kwargs):
        warnings.warn(f"{type(self)} should not be instantiated. Methods on autograd functions are all static, "
                      "so you should invoke them on the class itself. Instantiating an autograd function will "
                      "raise an error in a future version of PyTorch.", DeprecationWarning, stacklevel=2)

    def __call__(self, *args, **kwargs):
        raise RuntimeError("Legacy autograd function with non-static forward method is deprecated. Please use "
                           "new-style autograd function with static forward method. (Example: "
                           "https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)")

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

    @classmethod
    def apply(cls, *args, **kwargs):
        """Run `forward` on `args` and, if any input requires grad, record a new node (the new `ctx`) for backward.

        Returns forward's output(s); tensor outputs get `grad_fn` set to the new node.
        """
        if cls._builtin and not _State.enabled:
            # perf: a built-in op outside recording (the engine's own backward formulas when create_graph is
            # False) needs no node at all
            output = cls.forward(*args, **kwargs)
            return _mark_inference(output) if _State.inference else output
        if cls._signature is not None:
            bound = cls._signature.bind(*args, **kwargs)
            bound.apply_defaults()
            args, kwargs = bound.args, {}
        elif kwargs and cls._separate_setup:
            raise TypeError(f"{cls.__name__}.apply() takes positional arguments only")
        # keywords go to forward as keywords, and count as inputs after the positional ones (as in PyTorch)
        inputs_ = args + tuple(kwargs.values()) if kwargs else args
        ctx = cls._backward_cls()
        # one flag per argument; in PyTorch this ignores grad mode, so it is computed before checking it
        needs, requires = [], False
        for a in inputs_:
            if isinstance(a, Tensor) and a._requires_grad:
                needs.append(True)
                requires = True
            else:
                needs.append(False)
        ctx.needs_input_grad = tuple(needs)

        recording = _State.enabled
        _State.enabled = False        # forward itself is not recorded: its node is this one
        try:
            if cls._separate_setup:
                output = cls.forward(*args)
                cls.setup_context(ctx, args, output)
            else:
                output = cls.forward(ctx, *args, **kwargs)    # keywords reach forward, but are not inputs
        finally:
            _State.enabled = recording

        for t in ctx._dirty:
            t._bump_version()           # marking dirty counts as a modification, as in PyTorch
        if not (requires and recording):
            return output
        inputs, edges = [], []
        for a in inputs_:
            if isinstance(a, Tensor):
                inputs.append((a._data.shape, a._data.dtype))
                edges.append(_edge(a) if a._requires_grad else _NO_EDGE)
            else:
                inputs.append(None)
        ctx._inputs, ctx.next_functions = tuple(inputs), tuple(edges)
        if type(output) is Tensor and not (ctx._dirty or ctx._non_differentiable):
            return _record_output(ctx, inputs_, output)
        return _record_outputs(ctx, inputs_, output)


_NO_EDGE = (None, 0)


def _edge(t):
    """Where a gradient for input `t` (which requires grad) goes: the node that made it, or its leaf's
    AccumulateGrad."""
    if t._base is not None and t._base.grad_fn is not t._base_grad_fn:
        refresh_view(t)             # its base changed in place since the view was taken
    node = t.grad_fn
    return (node, t._output_nr) if node is not None else (accumulator(t), 0)


def _is_one_of(x, items):
    for item in items:
        if item is x:
            return True
    return False


def _record_output(ctx, args, output):
    """The common case of `_record_outputs`: one new tensor."""
    for a in args:
        if a is output:
            output = output._alias()
            break
    array = output._data
    ctx._output_shapes = ((array.shape, array.dtype),)
    if array.dtype.kind == "f":
        output.grad_fn, output._requires_grad = ctx, True
    _save(ctx)
    return output


def _record_outputs(ctx, args, output):
    """Point each tensor output at the new node, then save the tensors that ctx asked for."""
    outputs = output if isinstance(output, tuple) else (output,)
    recorded, shapes = [], []
    for i, out in enumerate(outputs):
        if not isinstance(out, Tensor):
            recorded.append(out)
            shapes.append(None)
            continue
        if ctx._dirty and _is_one_of(out, ctx._dirty):
            if out.grad_fn is None and out._requires_grad:
                raise RuntimeError("a leaf Variable that requires grad has been used in an in-place operation.")
        elif _is_one_of(out, args):
            out = out._alias()          # an input returned as-is becomes a new tensor, as in PyTorch
        array = out._data
        shapes.append((array.shape, array.dtype))
        # integer and bool outputs (sort indices, casts to long) are never differentiable
        if array.dtype.kind == "f" and not (ctx._non_differentiable and _is_one_of(out, ctx._non_differentiable)):
            out.grad_fn, out._requires_grad = ctx, True
            if i:
                out._output_nr = i
        recorded.append(out)
    ctx._output_shapes = tuple(shapes)
    _save(ctx)
    return tuple(recorded) if isinstance(output, tuple) else recorded[0]


def _save(ctx):
    """Turn what `save_for_backward` received into version-checked saved tensors."""
    to_save = ctx._to_save
    if to_save is not None:
        del ctx._to_save            # from now on only the version-checked SavedTensors hold them
        for i, t in enumerate(to_save):
            if t is not None and not isinstance(t, Tensor):
                raise TypeError(f"save_for_backward can only save variables, but argument {i} is of type "
                                f"{type(t).__name__}")
            if _State.inference_used and t is not None and t.is_inference():
                raise RuntimeError(INFERENCE_SAVED)
        saved = PackedSavedTensor if _saved_tensors_hooks else SavedTensor
        ctx._saved = tuple([None if t is None else saved(t, ctx) for t in to_save])


def _mark_inference(output):
    """Inside inference_mode every new tensor is an inference tensor."""
    for t in output if isinstance(output, tuple) else (output,):
        if isinstance(t, Tensor):
            t._inference = True
    return output


def _plain(fn):
    return getattr(fn, "__func__", fn)


def _zeros(shape, dtype):
    return Tensor._make(np.zeros(shape, dtype))

