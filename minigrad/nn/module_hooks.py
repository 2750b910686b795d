"""`Module.register_forward_hook` and its siblings, and the call of a module that has hooks.

Defined here as functions of `self` and bound in `Module`'s class body (module.py stays about the module's
registries). The order of a call is PyTorch's `Module._call_impl`: global then own forward pre-hooks (which
may replace the arguments), the inputs wrapped for full backward hooks, `forward`, global then own forward
hooks (which may replace the output), the outputs wrapped, and the old-style backward hooks on the output's node.
"""
import warnings
from collections import OrderedDict

from .._tensor.tensor import Tensor
from . import hooks as _g
from .hooks import BackwardHook, RemovableHandle, _WrappedHook


def init_hooks(self):
    """Give a new module its (empty) hook registries, as `torch.nn.Module.__init__` does."""
    d = self.__dict__
    d["_is_full_backward_hook"] = None
    for name in ("_backward_pre_hooks", "_backward_hooks", "_forward_hooks", "_forward_hooks_with_kwargs",
                 "_forward_hooks_always_called", "_forward_pre_hooks", "_forward_pre_hooks_with_kwargs"):
        d[name] = OrderedDict()


def register_forward_pre_hook(self, hook, *, prepend=False, with_kwargs=False):
    """Call `hook(module, args)` before each `forward`; a non-None result replaces the positional arguments.

    With `with_kwargs=True` the hook is `hook(module, args, kwargs)` and returns None or `(args, kwargs)`.
    `prepend=True` runs it before the hooks already registered. Returns a `RemovableHandle`.
    """
    handle = RemovableHandle(self._forward_pre_hooks, extra_dict=self._forward_pre_hooks_with_kwargs)
    self._forward_pre_hooks[handle.id] = hook
    if with_kwargs:
        self._forward_pre_hooks_with_kwargs[handle.id] = True
    if prepend:
        self._forward_pre_hooks.move_to_end(handle.id, last=False)
    return handle


def register_forward_hook(self, hook, *, prepend=False, with_kwargs=False, always_call=False):
    """Call `hook(module, args, output)` after each `forward`; a non-None result replaces the output.

    Mirrors `torch.nn.Module.register_forward_hook`: `with_kwargs=True` gives `hook(module, args, kwargs, output)`,
    `always_call=True` runs the hook even when forward raised. Returns a `RemovableHandle`.

    Example:
        >>> shapes = []
        >>> handle = net.register_forward_hook(lambda m, args, out: shapes.append(out.shape))
        >>> net(x); handle.remove()
    """
    handle = RemovableHandle(self._forward_hooks,
                             extra_dict=[self._forward_hooks_with_kwargs, self._forward_hooks_always_called])
    self._forward_hooks[handle.id] = hook
    if with_kwargs:
        self._forward_hooks_with_kwargs[handle.id] = True
    if always_call:
        self._forward_hooks_always_called[handle.id] = True
    if prepend:
        self._forward_hooks.move_to_end(handle.id, last=False)
    return handle


def register_full_backward_pre_hook(self, hook, prepend=False):
    """Call `hook(module, grad_output)` when the gradients of the module's outputs are known.

    A non-None result (a tuple as long as grad_output) replaces them. Returns a `RemovableHandle`.
    """
    handle = RemovableHandle(self._backward_pre_hooks)
    self._backward_pre_hooks[handle.id] = hook
    if prepend:
        self._backward_pre_hooks.move_to_end(handle.id, last=False)
    return handle


def register_backward_hook(self, hook):
    """The deprecated backward hook: sees only the last node of forward. Use `register_full_backward_hook`."""
    if self._is_full_backward_hook is True:
        raise RuntimeError("Cannot use both regular backward hooks and full backward hooks on a single Module. "
                           "Please use only one of them.")
    self._is_full_backward_hook = False
    handle = RemovableHandle(self._backward_hooks)
    self._backward_hooks[handle.id] = hook
    return handle


def register_full_backward_hook(self, hook, prepend=False):
    """Call `hook(module, grad_input, grad_output)` once the gradients of the module's inputs are computed.

    Mirrors `torch.nn.Module.register_full_backward_hook`: the tuples hold one entry per positional argument and
    per output (None for non-tensors); a non-None result replaces grad_input. Returns a `RemovableHandle`.
    """
    if self._is_full_backward_hook is False:
        raise RuntimeError("Cannot use both regular backward hooks and full backward hooks on a single Module. "
                           "Please use only one of them.")
    self._is_full_backward_hook = True
    handle = RemovableHandle(self._backward_hooks)
    self._backward_hooks[handle.id] = hook
    if prepend:
        self._backward_hooks.move_to_end(handle.id, last=False)
    return handle


forward_registrations = register_forward_pre_hook, register_forward_hook
backward_registrations = register_full_backward_pre_hook, register_full_backward_hook, register_backward_hook


def _get_backward_hooks(self):
    """The (full, non-full) backward hooks that apply to this module: the global ones first."""
    full, non_full = [], []
    if _g._global_is_full_backward_hook is True:
        full += _g._global_backward_hooks.values()
    if self._is_full_backward_hook is True:
        full += self._backward_hooks.values()
    if _g._global_is_full_backward_hook is False:
        non_full += _g._global_backward_hooks.values()
    if self._is_full_backward_hook is False:
        non_full += self._backward_hooks.values()
    return full, non_full


def call_with_hooks(self, args, kwargs):
    """Run `forward` with this module's and the global hooks, in PyTorch's order (see the module docstring)."""
    result = None
    called_always = set()

    def inner():
        nonlocal result, args, kwargs
        backward_pre_hooks = [*_g._global_backward_pre_hooks.values(), *self._backward_pre_hooks.values()]
        full_backward_hooks, non_full_backward_hooks = _get_backward_hooks(self)
        for hook_id, hook in (*_g._global_forward_pre_hooks.items(), *self._forward_pre_hooks.items()):
            if hook_id in self._forward_pre_hooks_with_kwargs:
                new = hook(self, args, kwargs)
                if new is not None:
                    if not (isinstance(new, tuple) and len(new) == 2):
                        raise RuntimeError("forward pre-hook must return None or a tuple of (new_args, new_kwargs), "
                                           f"but got {new}.")
                    args, kwargs = new
            else:
                new = hook(self, args)
                if new is not None:
                    args = new if isinstance(new, tuple) else (new,)
        bw_hook = None
        if full_backward_hooks or backward_pre_hooks:
            bw_hook = BackwardHook(self, full_backward_hooks, backward_pre_hooks)
            args = bw_hook.setup_input_hook(args)
        result = self.forward(*args, **kwargs)
        for hook_id, hook in (*_g._global_forward_hooks.items(), *self._forward_hooks.items()):
            if hook_id in self._forward_hooks_always_called or hook_id in _g._global_forward_hooks_always_called:
                called_always.add(hook_id)
            if hook_id in self._forward_hooks_with_kwargs or hook_id in _g._global_forward_hooks_with_kwargs:
                new = hook(self, args, kwargs, result)
            else:
                new = hook(self, args, result)
            if new is not None:
                result = new
        if bw_hook:
            if not isinstance(result, (Tensor, tuple)):
                warnings.warn("For backward hooks to be called, module output should be a Tensor or a tuple of "
                              f"Tensors but received {type(result)}", stacklevel=2)
            result = bw_hook.setup_output_hook(result)
        if non_full_backward_hooks:
            _add_non_full_backward_hooks(self, args, result, non_full_backward_hooks)
        return result

    try:
        return inner()
    except Exception:
        # forward (or a hook) raised: still run the always_call forward hooks that have not run, then re-raise
        _run_always_called(self, args, kwargs, result, called_always)
        raise


def _run_always_called(self, args, kwargs, result, called):
    for hook_id, hook in _g._global_forward_hooks.items():
        if hook_id in _g._global_forward_hooks_always_called and hook_id not in called:
            try:
                new = hook(self, args, result)
                result = result if new is None else new
            except Exception as e:  # noqa: BLE001 - silenced with a warning, as in PyTorch
                warnings.warn("global module forward hook with ``always_call=True`` raised an exception that was "
                              f"silenced as another error was raised in forward: {str(e)}", stacklevel=3)
    for hook_id, hook in self._forward_hooks.items():
        if hook_id in self._forward_hooks_always_called and hook_id not in called:
            try:
                if hook_id in self._forward_hooks_with_kwargs:
                    new = hook(self, args, kwargs, result)
                else:
                    new = hook(self, args, result)
                result = result if new is None else new
            except Exception as e:  # noqa: BLE001
                warnings.warn("module forward hook with ``always_call=True`` raised an exception that was silenced "
                              f"as another error was raised in forward: {str(e)}", stacklevel=3)


def _add_non_full_backward_hooks(self, args, result, hooks):
    """The old-style backward hooks sit on the node that made the (first) output, called with the module first."""
    var = result
    while not isinstance(var, Tensor):
        var = next(v for v in var.values() if isinstance(v, Tensor)) if isinstance(var, dict) else var[0]
    grad_fn = var.grad_fn
    if grad_fn is not None:
        for hook in hooks:
            grad_fn.register_hook(_WrappedHook(hook, self))
        _warn_non_full_backward_hook(args, result, grad_fn)


def _warn_non_full_backward_hook(inputs, result, grad_fn):
    """PyTorch's FutureWarnings for the cases where an old-style hook misses gradients."""
    def warn(msg):
        warnings.warn(msg, FutureWarning, stacklevel=4)

    result = (result,) if isinstance(result, Tensor) else result
    if not (isinstance(result, tuple) and all(isinstance(r, Tensor) for r in result)):
        return warn("Using non-full backward hooks on a Module that does not return a single Tensor or a tuple of "
                    "Tensors is deprecated and will be removed in future versions. This hook will be missing some "
                    "of the grad_output. Please use register_full_backward_hook to get the documented behavior.")
    inputs = (inputs,) if isinstance(inputs, Tensor) else inputs
    if not (isinstance(inputs, tuple) and all(isinstance(i, Tensor) for i in inputs)):
        return warn("Using non-full backward hooks on a Module that does not take as input a single Tensor or a "
                    "tuple of Tensors is deprecated and will be removed in future versions. This hook will be "
                    "missing some of the grad_input. Please use register_full_backward_hook to get the documented "
                    "behavior.")
    out_grad_fn = {r.grad_fn for r in result if r.grad_fn is not None}
    if len(out_grad_fn) == 0 or (len(out_grad_fn) == 1 and grad_fn not in out_grad_fn):
        warn("Using a non-full backward hook when outputs are nested in python data structure is deprecated and "
             "will be removed in future versions. This hook will be missing some grad_output.")
    elif len(out_grad_fn) > 1:
        warn("Using a non-full backward hook when outputs are generated by different autograd Nodes is deprecated "
             "and will be removed in future versions. This hook will be missing some grad_output. Please use "
             "register_full_backward_hook to get the documented behavior.")
    # PyTorch warns also when the output's node is not fed directly by the inputs' nodes ("the forward contains
    # multiple autograd Nodes"); that needs the node's edges, and in minigrad only the engine reads those
    return None
