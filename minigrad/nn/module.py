"""`Module`: holds parameters, buffers and submodules, and gets its backward from autograd.

Assigning a `Parameter` or a `Module` as an attribute registers it (`__setattr__` puts it in `_parameters` or
`_modules`); every traversal (`parameters`, `named_modules`, `apply`, `state_dict`, `repr`) reads those dicts.
"""
from collections import OrderedDict

from .._tensor.tensor import Tensor
from . import (module_conversion as _convert, module_hooks as _module_hooks,
               module_repr as _module_repr, module_state_dict as _state_dict)
from .module_checks import check_buffer, check_module_name, check_name, check_parameter, typename, wrong_assignment
from .module_repr import _addindent  # noqa: F401 - torch's home of it
from .hooks import *  # noqa: F401,F403 - register_module_forward_hook, ...: torch has them in this module
from .hooks import _global_backward_hooks, _global_backward_pre_hooks, _global_forward_hooks, _global_forward_pre_hooks
from .parameter import Buffer, Parameter, zero_grads


def _forward_unimplemented(self, *input):
    """Define the computation performed at every call. Every subclass overrides it."""
    raise NotImplementedError(f'Module [{type(self).__name__}] is missing the required "forward" function')


class Module:
    """Base class for all neural network modules: subclass it, assign layers in `__init__`, write `forward`.

    Mirrors `torch.nn.Module`.

    Example:
        >>> class Net(nn.Module):
        ...     def __init__(self):
        ...         super().__init__()          # must come before assigning layers
        ...         self.enc = nn.Sequential(nn.Linear(2, 8), nn.ReLU())
        ...         self.head = nn.Linear(8, 1)
        ...     def forward(self, x):
        ...         return self.head(self.enc(x))
    """

    forward = _forward_unimplemented
    _version = 1        # saved in state_dict()._metadata; a layer whose saved state changed form counts up

    def __init__(self, *args, **kwargs):
        if kwargs:
            raise TypeError(f"{type(self).__name__}.__init__() got an unexpected keyword argument "
                            f"'{next(iter(kwargs))}'")
        if args:
            raise TypeError(f"{type(self).__name__}.__init__() takes 1 positional argument but {len(args) + 1} "
                            "were given")
        # object.__setattr__: our own __setattr__ needs these dicts to exist already
        object.__setattr__(self, "training", True)
        object.__setattr__(self, "_parameters", {})
        object.__setattr__(self, "_buffers", {})
        object.__setattr__(self, "_non_persistent_buffers_set", set())
        object.__setattr__(self, "_modules", {})
        _module_hooks.init_hooks(self)

    def __call__(self, *args, **kwargs):
        """Run `forward`, and the hooks around it if any module or global hook is registered (module_hooks.py)."""
        if (self._backward_hooks or self._backward_pre_hooks or self._forward_hooks or self._forward_pre_hooks
                or _global_forward_hooks or _global_forward_pre_hooks or _global_backward_hooks
                or _global_backward_pre_hooks):
            return _module_hooks.call_with_hooks(self, args, kwargs)
        return self.forward(*args, **kwargs)

    # ---- hooks (the work is in module_hooks.py) ----------------------------------------------------------
    register_forward_pre_hook, register_forward_hook = _module_hooks.forward_registrations
    register_full_backward_pre_hook, register_full_backward_hook, register_backward_hook = \
        _module_hooks.backward_registrations

    # ---- registration -------------------------------------------------------------------------------------
    def register_parameter(self, name, param):
        """Add `param` (a Parameter, or None) under `name`. `self.name = param` does the same."""
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign parameter before Module.__init__() call")
        check_name(self, "parameter", name, self._parameters)
        if param is not None:
            check_parameter(name, param)
        self._parameters[name] = param

    def register_buffer(self, name, tensor, persistent=True):
        """Add a tensor that is state but not a parameter (no gradient), e.g. a running mean.

        Persistent buffers are saved in `state_dict`; `persistent=False` ones are not.
        """
        if "_buffers" not in self.__dict__:
            raise AttributeError("cannot assign buffer before Module.__init__() call")
        check_name(self, "buffer", name, self._buffers)
        check_buffer(name, tensor)
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def add_module(self, name, module):
        """Add a child module under `name`. `self.name = module` does the same."""
        if not isinstance(module, Module) and module is not None:
            raise TypeError(f"{typename(module)} is not a Module subclass")
        check_module_name(self, name)
        self._modules[name] = module

    register_module = add_module

    def __setattr__(self, name, value):
        """`self.name = value`: a Parameter, a Module or an `nn.Buffer` is registered; anything else is a plain
        attribute (or replaces the buffer of that name)."""
        d = self.__dict__
        params, modules, buffers = d.get("_parameters"), d.get("_modules"), d.get("_buffers")
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            self._forget(name, keep=params)
            self.register_parameter(name, value)
        elif params is not None and name in params:
            if value is not None:
                raise wrong_assignment("parameter", name, value)
            self.register_parameter(name, value)
        elif isinstance(value, Module):
            if modules is None:
                raise AttributeError("cannot assign module before Module.__init__() call")
            self._forget(name, keep=modules)
            modules[name] = value
        elif modules is not None and name in modules:
            if value is not None:
                raise wrong_assignment("child module", name, value)
            modules[name] = value
        elif isinstance(value, Buffer):
            self.register_buffer(name, value, value.persistent)
        elif buffers is not None and name in buffers:
            if value is not None and not isinstance(value, Tensor):
                raise wrong_assignment("buffer", name, value)
            buffers[name] = value
        else:
            object.__setattr__(self, name, value)

    def _forget(self, name, keep):
        """Drop `name` from the other registries, before it is registered in `keep` (where it keeps its place)."""
        for registry in (self.__dict__, self._parameters, self._buffers, self._modules):
            if registry is not keep:
                registry.pop(name, None)
        self._non_persistent_buffers_set.discard(name)

    def __getattr__(self, name):
        # only called when normal lookup fails: registered things live in the three dicts, not in __dict__
        d = self.__dict__
        for registry in ("_parameters", "_buffers", "_modules"):
            if registry in d and name in d[registry]:
                return d[registry][name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name):
        if name in self._parameters:
            del self._parameters[name]
        elif name in self._buffers:
            del self._buffers[name]
            self._non_persistent_buffers_set.discard(name)
        elif name in self._modules:
            del self._modules[name]
        else:
            object.__delattr__(self, name)

    def __dir__(self):
        keys = dir(type(self)) + list(self.__dict__) + list(self._parameters) + list(self._modules) \
            + list(self._buffers)
        return sorted(k for k in keys if not k[0].isdigit())

    # ---- traversal ----------------------------------------------------------------------------------------
    def named_children(self):
        """Yield `(name, module)` for each direct child, each module once."""
        memo = set()
        for name, module in self._modules.items():
            if module is not None and module not in memo:
                memo.add(module)
                yield name, module

    def children(self):
        """Yield each direct child module."""
        for _, module in self.named_children():
            yield module

    def named_modules(self, memo=None, prefix="", remove_duplicate=True):
        """Yield `(dotted_name, module)` for self (named `''`) and every descendant, parents before children.

        A module reachable along two paths is yielded once, under the first name, unless
        `remove_duplicate=False`.
        """
        if memo is None:
            memo = set()
        if self in memo:
            return
        if remove_duplicate:
            memo.add(self)
        yield prefix, self
        for name, module in self._modules.items():
            if module is not None:
                yield from module.named_modules(memo, prefix + ("." if prefix else "") + name, remove_duplicate)

    def modules(self, remove_duplicate=True):
        """Yield self and every descendant module, parents before children."""
        for _, module in self.named_modules(remove_duplicate=remove_duplicate):
            yield module

    def _named_members(self, registry, prefix, recurse, remove_duplicate):
        memo = set()
        modules = self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate) if recurse else [(prefix,
                                                                                                          self)]
        for module_prefix, module in modules:
            for name, value in getattr(module, registry).items():
                if value is None or value in memo:
                    continue
                if remove_duplicate:
                    memo.add(value)
                yield module_prefix + ("." if module_prefix else "") + name, value

    def named_parameters(self, prefix="", recurse=True, remove_duplicate=True):
        """Yield `(dotted_name, parameter)`, e.g. `('enc.0.weight', ...)`; a shared parameter comes once."""
        yield from self._named_members("_parameters", prefix, recurse, remove_duplicate)

    def parameters(self, recurse=True):
        """Yield every parameter, each once: what you give to an optimizer."""
        for _, param in self.named_parameters(recurse=recurse):
            yield param

    def named_buffers(self, prefix="", recurse=True, remove_duplicate=True):
        """Yield `(dotted_name, buffer)` for every buffer, each once."""
        yield from self._named_members("_buffers", prefix, recurse, remove_duplicate)

    def buffers(self, recurse=True):
        """Yield every buffer, each once."""
        for _, buf in self.named_buffers(recurse=recurse):
            yield buf

    # dotted-path look-ups: get_submodule("enc.0"), get_parameter("enc.0.weight"), get_buffer(...)
    def get_submodule(self, target):
        """Return the submodule at the dotted path `target` (`''` is self), e.g. `net.get_submodule("enc.0")`."""
        mod = self
        for item in target.split(".") if target else ():
            if not hasattr(mod, item):
                raise AttributeError(mod._get_name() + " has no attribute `" + item + "`")
            mod = getattr(mod, item)
            if not isinstance(mod, Module):
                raise AttributeError("`" + item + "` is not an nn.Module")
        return mod

    def set_submodule(self, target, module, strict=False):
        """Put `module` at the dotted path `target`, replacing a submodule or (unless `strict`) adding one."""
        if target == "":
            raise ValueError("Cannot set the submodule without a target name!")
        parent_path, _, name = target.rpartition(".")
        if not isinstance(module, Module):
            raise ValueError("`module` is not an nn.Module, found " + str(type(module)))
        parent = self.get_submodule(parent_path)
        if strict and not hasattr(parent, name):
            raise AttributeError(parent._get_name() + " has no attribute `" + name + "`")
        if hasattr(parent, name) and not isinstance(getattr(parent, name), Module):
            raise AttributeError("`" + name + "` is not an nn.Module")
        setattr(parent, name, module)

    def get_parameter(self, target):
        """Return the parameter at the dotted path `target`, e.g. `"enc.0.weight"`."""
        mod, name = _owner(self, target)
        if not isinstance(getattr(mod, name), Parameter):
            raise AttributeError("`" + name + "` is not an nn.Parameter")
        return getattr(mod, name)


    def get_buffer(self, target):
        """Return the buffer at the dotted path `target`."""
        mod, name = _owner(self, target)
        if name not in mod._buffers:
            raise AttributeError("`" + name + "` is not a buffer")
        return getattr(mod, name)

    def apply(self, fn):
        """Call `fn` on every submodule, children first and self last (post-order), and return self.

        Mirrors `torch.nn.Module.apply`. Typical use: initialising weights.

        Example:
            >>> def init_weights(m):
            ...     if isinstance(m, nn.Linear):
            ...         m.weight.data.fill_(0)
            >>> net.apply(init_weights)
        """
        for module in self.children():
            module.apply(fn)
        fn(self)
        return self

    # dtype conversions: each casts the floating-point parameters and buffers in place (see module_conversion.py)
    _apply, to, float, double, half, cpu = (_convert._apply, _convert.to, _convert.float, _convert.double,
                                            _convert.half, _convert.cpu)

    # ---- modes and gradients ------------------------------------------------------------------------------
    def train(self, mode=True):
        """Set `training = mode` on self and every descendant (layers like Dropout read it); return self."""
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        self.training = mode
        for module in self.children():
            module.train(mode)
        return self

    def eval(self):
        """Same as `train(False)`."""
        return self.train(False)

    def requires_grad_(self, requires_grad=True):
        """Set `requires_grad` on every parameter (False freezes them) and return self."""
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none=True):
        """Reset the gradients of every parameter: to None (the default), or to zeros in place."""
        zero_grads(self.parameters(), set_to_none)

    # ---- saving and loading (the work is in module_state_dict.py) -----------------------------------------------
    def state_dict(self, *, destination=None, prefix="", keep_vars=False):
        """Return an OrderedDict of every parameter and persistent buffer, by dotted name, detached.

        The tensors share memory with the module's (save a copy if you need a snapshot)."""
        if destination is None:
            destination = OrderedDict()
            destination._metadata = OrderedDict()     # each module's version, by prefix, as PyTorch saves it
        return _state_dict.save(self, destination, prefix, keep_vars)

    def load_state_dict(self, state_dict, strict=True):
        """Copy values from `state_dict` into this module's parameters and buffers, in place.

        With `strict=True` (the default) missing or unexpected keys are an error; shapes must always match.
        Returns a named tuple `(missing_keys, unexpected_keys)`.
        """
        return _state_dict.load(self, state_dict, strict)

    # ---- printing (the work is in module_repr.py) --------------------------------------------------------
    def _get_name(self):
        return type(self).__name__

    def extra_repr(self):
        """Return the text printed inside this module's parentheses; layers override it."""
        return ""
    __repr__ = _module_repr.module_repr


def _owner(self, target):
    module_path, _, name = target.rpartition(".")
    mod = self.get_submodule(module_path)
    if not hasattr(mod, name):
        raise AttributeError(mod._get_name() + " has no attribute `" + name + "`")
    return mod, name
