"""Activation checkpointing: trade compute for memory. Mirrors `torch.utils.checkpoint`.

`checkpoint(fn, *args, use_reentrant=False)` runs `fn` without keeping what its ops save for backward; backward
runs `fn` again (with the random state it had, so dropout drops the same units) to get those tensors back. The
two ways PyTorch offers, both built on pieces this book teaches:

- `use_reentrant=False` (recommended): the forward runs inside `saved_tensors_hooks` whose pack hook keeps a
  placeholder instead of the tensor; the first unpack in a backward pass recomputes `fn` under a second pair of
  hooks that fill the placeholders, in save order, and stops `fn` as soon as the last one is filled ("early
  stop": the rest of `fn`, forward hooks included, does not run again). The graph is the ordinary one
  (`y.grad_fn` is `ExpBackward0`).
- `use_reentrant=True`: `fn` runs under `no_grad` inside a custom `Function`, `CheckpointFunction`; its
  `backward` recomputes `fn` with grad on and runs a second, nested backward through it ("reentrant"). The graph
  has one node, `CheckpointFunctionBackward`, and `autograd.grad` or `backward(inputs=...)` cannot go through it.

Example:
    >>> y = checkpoint(lambda t: t.sin().exp(), x, use_reentrant=False)
    >>> y.sum().backward()          # runs t.sin().exp() again, then its backward
"""
import warnings

from .. import random
from .._tensor.creation import empty
from .._tensor.tensor import Tensor
from ..autograd.function import Function
from ..autograd.graph import saved_tensors_hooks
from ..core.engine import GraphTask, backward, current_graph_task_id
from ..core.grad_mode import enable_grad, no_grad

__all__ = ["checkpoint", "checkpoint_sequential", "CheckpointFunction", "CheckpointError", "detach_variable",
           "check_backward_validity", "set_checkpoint_early_stop"]

_USE_REENTRANT_WARNING = (
    "the use_reentrant parameter should be passed explicitly. {starting} use_reentrant=False is recommended, but "
    "if you need to preserve the current default behavior, you can pass use_reentrant=True. Refer to docs for "
    "more details on the differences between the two variants.")


class CheckpointError(RuntimeError):
    """Raised when the recomputation does not save what the forward pass saved."""


class _StopRecomputation(Exception):
    """Raised by the recomputation's pack hook once it has every tensor back: the rest of `fn` need not run."""


_early_stop = [None]        # inside set_checkpoint_early_stop: its value, which wins over checkpoint's argument


class set_checkpoint_early_stop:
    """Context manager: whether non-reentrant checkpoints made inside it stop their recomputation once every saved
    tensor is back, or run the whole function again, whatever their `early_stop` argument says (as in PyTorch)."""

    def __init__(self, enable):
        self.enable = enable

    def __enter__(self):
        self.previous, _early_stop[0] = _early_stop[0], self.enable

    def __exit__(self, *exc):
        _early_stop[0] = self.previous


def checkpoint(function, *args, use_reentrant=None, context_fn=None, determinism_check="default", debug=False,
               early_stop=True, **kwargs):
    """Run `function(*args, **kwargs)` and recompute it during backward instead of keeping its saved tensors.

    Args:
        use_reentrant: False (recommended) or True, see the module docstring. Not passing it warns, as in
            PyTorch 2.13, and means True.
        preserve_rng_state: (keyword, default True) recompute with the random state the forward had.
        determinism_check: "default" compares the shape and dtype of each recomputed tensor with the saved
            one's; "none" does not.
        early_stop: (use_reentrant=False) stop the recomputation once every saved tensor is back; within
            `set_checkpoint_early_stop(False)`, never.
    """
    if use_reentrant is None:
        warnings.warn("torch.utils.checkpoint: " + _USE_REENTRANT_WARNING.format(
            starting="Starting in PyTorch 2.9, calling checkpoint without use_reentrant will raise an exception."),
            stacklevel=2)
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs and use_reentrant:
        raise ValueError("Unexpected keyword arguments: " + ",".join(arg for arg in kwargs))
    if use_reentrant:
        if context_fn is not None or debug is not False:
            raise ValueError("Passing `context_fn` or `debug` is only supported when use_reentrant=False.")
        return CheckpointFunction.apply(function, preserve, *args)
    if determinism_check not in ("default", "none"):
        raise ValueError("determinism_check should be one of ['default', 'none'], but got " + determinism_check)
    early_stop = early_stop if _early_stop[0] is None else _early_stop[0]
    return _checkpoint_without_reentrant(function, preserve, determinism_check == "default", early_stop, args, kwargs)


# ---- use_reentrant=False: saved-tensor hooks that keep placeholders ----------------------------------------------
_SAVED = object()       # in _Recomputation.args: a tensor input, kept by _NoopSaveInputs


class _NoopSaveInputs(Function):
    """Saves the checkpoint's inputs as saved tensors of a node of their own (as PyTorch does): the recomputation
    reads them back with the version check, so an input changed in place before backward is an error."""

    @staticmethod
    def forward(dummy, *args):
        return empty(0)

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(*[a for a in inputs[1:] if isinstance(a, Tensor)])

    @staticmethod
    def backward(ctx, *grads):
        raise AssertionError("Did not expect to backward on this graph")


class _Recomputation:
    """One checkpointed call: the placeholders its forward saved, and, per backward pass, the tensors that
    recomputing it gave back."""

    def __init__(self, function, args, kwargs, saver, rng_state, check, early_stop):
        self.function, self.args, self.kwargs, self.saver = function, args, kwargs, saver
        self.rng_state, self.check, self.early_stop = rng_state, check, early_stop
        self.metadata = []          # (shape, dtype) of each tensor the forward saved, in save order
        self.recomputed = {}        # graph task id -> {placeholder index: tensor}

    def pack(self, tensor):
        self.metadata.append((tensor.shape, tensor.dtype))
        return len(self.metadata) - 1           # the placeholder: which saved tensor this is

    def unpack(self, index):
        task = current_graph_task_id()
        if task not in self.recomputed:
            self.recomputed[task] = self._recompute()
        values = self.recomputed[task]
        if index not in values:
            raise CheckpointError(
                "torch.utils.checkpoint: Unpack is being triggered for a tensor that was already unpacked once. "
                "If you are calling ctx.saved_tensors in backward, make sure to do so only once. Otherwise please "
                "open an issue with details on your use case.")
        return values.pop(index)

    def _recompute(self):
        """Run the function again, with grad on and the forward's random state, keeping what its ops save."""
        saved = []

        def keep(tensor):
            if len(saved) == len(self.metadata):
                raise CheckpointError("torch.utils.checkpoint: trying to save more tensors during recomputation "
                                      f"than during the original forward pass.\n{_DEBUG_TIP}")
            saved.append(tensor.detach())
            if self.early_stop and len(saved) == len(self.metadata):
                raise _StopRecomputation        # the op that saved it, and the rest of the function, stop here

        def never(_):
            raise CheckpointError("torch.utils.checkpoint: unpacking during recomputation is not supported")
        with random.fork_rng(enabled=self.rng_state is not None):
            if self.rng_state is not None:
                random.set_rng_state(self.rng_state)
            saved_inputs = iter(self.saver.saved_tensors)     # the inputs, version-checked
            args = [next(saved_inputs) if a is _SAVED else a for a in self.args]
            try:
                with enable_grad(), saved_tensors_hooks(keep, never):
                    self.function(*args, **self.kwargs)
            except _StopRecomputation:
                pass
        if self.check:
            self._check(saved)
        return dict(enumerate(saved))

    def _check(self, saved):
        if len(saved) != len(self.metadata):
            raise CheckpointError(
                "torch.utils.checkpoint: A different number of tensors was saved during the original forward and "
                f"recomputation.\nNumber of tensors saved during forward: {len(self.metadata)}\n"
                f"Number of tensors saved during recomputation: {len(saved)}.\n{_DEBUG_TIP}")
        different = "".join(
            f"tensor at position {i}:\nsaved metadata: {_metadata(shape, dtype)}\n"
            f"recomputed metadata: {_metadata(t.shape, t.dtype)}\n"
            for i, (t, (shape, dtype)) in enumerate(zip(saved, self.metadata)) if (t.shape, t.dtype) != (shape, dtype))
        if different:
            raise CheckpointError("torch.utils.checkpoint: Recomputed values for the following tensors have different "
                                  f"metadata than during the forward pass.\n{different}.\n{_DEBUG_TIP}")


def _metadata(shape, dtype):
    return f"{{'shape': {shape}, 'dtype': {dtype}, 'device': device(type='cpu')}}"


# PyTorch's tip under both errors, word for word (minigrad's checkpoint has no debug mode and no torch.compile)
_DEBUG_TIP = """
Tip: To see a more detailed error message, either pass `debug=True` to
`torch.utils.checkpoint.checkpoint(...)` or wrap the code block
with `with torch.utils.checkpoint.set_checkpoint_debug_enabled(True):` to
enable checkpoint\u2011debug mode globally.

If this error occurs under torch.compile with automatic_dynamic_shapes enabled,
it may be because the recomputation selected a different compiled graph than the
forward pass (e.g., a dynamic graph instead of the original static graph).
To fix this, either:
  - Use torch._dynamo.mark_dynamic() to explicitly mark varying dimensions as
    dynamic upfront, avoiding the static-to-dynamic transition.
  - Call torch._C._dynamo.eval_frame._set_lru_cache(False) to disable LRU cache
    reordering, which can change which graph is checked first between forward
    and recompute.
See https://github.com/pytorch/pytorch/issues/166926 for more details and
workaround examples.
"""


def _checkpoint_without_reentrant(function, preserve_rng_state, check, early_stop, args, kwargs):
    rng_state = random.get_rng_state() if preserve_rng_state else None
    saver = _NoopSaveInputs.apply(empty(0, requires_grad=True), *args).grad_fn
    if saver is None:                   # grad mode is off: nothing will be recomputed
        return function(*args, **kwargs)
    frame = _Recomputation(function, [_SAVED if isinstance(a, Tensor) else a for a in args], kwargs, saver,
                           rng_state, check, early_stop)
    with saved_tensors_hooks(frame.pack, frame.unpack):
        return function(*args, **kwargs)


# ---- use_reentrant=True: a custom Function whose backward runs a backward --------------------------------------
class CheckpointFunction(Function):
    """forward runs `run_function` under no_grad and saves only the inputs; backward recomputes it with grad on
    and runs backward through the recomputed graph, into detached copies of the inputs."""

    @staticmethod
    def forward(ctx, run_function, preserve_rng_state, *args):
        check_backward_validity(args)
        ctx.run_function, ctx.preserve_rng_state = run_function, preserve_rng_state
        if preserve_rng_state:
            ctx.fwd_cpu_state = random.get_rng_state()
        ctx.inputs = [None if isinstance(a, Tensor) else a for a in args]    # tensors come back as saved
        ctx.tensor_indices = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
        ctx.save_for_backward(*[a for a in args if isinstance(a, Tensor)])
        with no_grad():
            return run_function(*args)

    @staticmethod
    def backward(ctx, *grads):
        if GraphTask.running is not None and GraphTask.running.plan is not None:
            raise RuntimeError("When use_reentrant=True, torch.utils.checkpoint is incompatible with .grad() or "
                               "passing an `inputs` parameter to .backward(). To resolve this error, you can either "
                               "set use_reentrant=False, or call .backward() without passing the `inputs` argument.")
        inputs = list(ctx.inputs)
        for i, t in zip(ctx.tensor_indices, ctx.saved_tensors):
            inputs[i] = t
        with random.fork_rng(enabled=ctx.preserve_rng_state):
            if ctx.preserve_rng_state:
                random.set_rng_state(ctx.fwd_cpu_state)
            detached = detach_variable(tuple(inputs))
            with enable_grad():
                outputs = ctx.run_function(*detached)
        if isinstance(outputs, Tensor):
            outputs = (outputs,)
        pairs = [(out, g) for out, g in zip(outputs, grads) if isinstance(out, Tensor) and out.requires_grad]
        if not pairs:
            raise RuntimeError("none of output has requires_grad=True, this checkpoint() is not necessary")
        backward([out for out, _ in pairs], [g for _, g in pairs])
        return (None, None) + tuple(a.grad if isinstance(a, Tensor) else None for a in detached)


def check_backward_validity(inputs):
    if not any(a.requires_grad for a in inputs if isinstance(a, Tensor)):
        warnings.warn("None of the inputs have requires_grad=True. Gradients will be None", stacklevel=2)


def detach_variable(inputs):
    """Detached copies of the tensors in the tuple `inputs`, each keeping its requires_grad."""
    if not isinstance(inputs, tuple):
        raise RuntimeError(f"Only tuple of tensors is supported. Got Unsupported input type: {type(inputs).__name__}")
    return tuple(a.detach().requires_grad_(a.requires_grad) if isinstance(a, Tensor) else a for a in inputs)


# ---- a sequence of layers in segments ---------------------------------------------------------------------------
def checkpoint_sequential(functions, segments, input, use_reentrant=None, **kwargs):
    """Checkpoint `functions` (a list of callables or an `nn.Sequential`) in `segments` pieces: each but the last
    runs under `checkpoint`, so only the segment boundaries stay in memory."""
    if use_reentrant is None:
        warnings.warn("torch.utils.checkpoint.checkpoint_sequential: " + _USE_REENTRANT_WARNING.format(
            starting="In version 2.9 we will raise an exception if use_reentrant is not passed."), stacklevel=2)
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs:
        raise ValueError("Unexpected keyword arguments: " + ",".join(arg for arg in kwargs))

    def run_function(start, end):
        def forward(x):
            for j in range(start, end + 1):
                x = functions[j](x)
            return x
        return forward
    if hasattr(functions, "children") and callable(functions):      # an nn.Sequential: its layers
        functions = list(functions.children())
    segment_size = len(functions) // segments
    end = -1
    for start in range(0, segment_size * (segments - 1), segment_size):
        end = start + segment_size - 1
        input = checkpoint(run_function(start, end), input, use_reentrant=use_reentrant, preserve_rng_state=preserve)
    return run_function(end + 1, len(functions) - 1)(input)
