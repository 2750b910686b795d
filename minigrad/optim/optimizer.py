"""`Optimizer`: holds parameter groups and per-parameter state; subclasses write `step`. Mirrors `torch.optim`."""
import warnings
from collections import defaultdict

from .._tensor.tensor import Tensor
from ..core.grad_mode import enable_grad
from . import _state_dict
from ._common import typename


# beyond torch's words, when a parameter comes from real PyTorch: the program mixed the two libraries
_MIXED = (". It is real PyTorch's: this program mixes `import minigrad as torch` with another torch import (such as "
          "`import torch.nn as nn`); run it with `python -m minigrad.run script.py`, or `import minigrad.as_torch` "
          "before anything else, so that every torch import is minigrad")


class Optimizer:
    """Base class of the optimizers: `zero_grad()` clears the gradients, `step()` updates the parameters.

    Args:
        params: an iterable of tensors (e.g. `model.parameters()`), or of dicts, each a parameter group
            `{"params": [...], "lr": ...}` whose options override `defaults`.
        defaults: the default options of each group (lr, momentum, ...).

    Attributes:
        param_groups: a list of dicts, each with its "params" list and its options.
        state: a dict from parameter to that parameter's state (momentum buffers, moment estimates, ...).

    The training loop is three lines per step:
        >>> optimizer.zero_grad()
        >>> loss.backward()
        >>> optimizer.step()
    """

    def __init__(self, params, defaults):
        self.defaults = defaults
        if isinstance(params, Tensor):
            raise TypeError("params argument given to the optimizer should be an iterable of Tensors or dicts, "
                            "but got " + typename(params))
        self.state = defaultdict(dict)
        self.param_groups = []
        param_groups = list(params)
        if len(param_groups) == 0:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(param_groups[0], dict):
            param_groups = [{"params": param_groups}]
        for param_group in param_groups:
            self.add_param_group(param_group)

    def add_param_group(self, param_group):
        """Add a group of parameters with its own options (unset options take the optimizer's defaults)."""
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group)}")
        params = param_group["params"]
        if isinstance(params, Tensor):
            params = [params]
        elif isinstance(params, set):
            raise TypeError("optimizer parameters need to be organized in ordered collections, but the ordering of "
                            "tensors in sets will change between runs. Please use a list instead.")
        params = list(params)
        names = [p[0] for p in params if isinstance(p, tuple)]     # from model.named_parameters()
        param_group["params"] = params = [p[1] if isinstance(p, tuple) else p for p in params]
        if names:
            if len(names) != len(params):
                raise ValueError("all optimizer params should be with/without names. Some param names are missing")
            param_group["param_names"] = names
        for param in params:
            if not isinstance(param, Tensor):
                mixed = _MIXED if type(param).__module__.split(".")[0] == "torch" else ""
                raise TypeError("optimizer can only optimize Tensors, but one of the params is " + typename(param)
                                + mixed)
            if not self.defaults.get("differentiable", None) and not (param.is_leaf or param.retains_grad):
                raise ValueError("can't optimize a non-leaf Tensor")
        for name, default in self.defaults.items():
            param_group.setdefault(name, default)
        if len(params) != len(set(params)):
            warnings.warn("optimizer contains a parameter group with duplicate parameters; in future, this will "
                          "cause an error; see github.com/pytorch/pytorch/issues/40967 for more information",
                          UserWarning, stacklevel=3)
        seen = set()
        for group in self.param_groups:
            seen.update(group["params"])
            if ("param_names" in param_group) != ("param_names" in group):
                with_names = "with names" if "param_names" in param_group else "without names"
                raise ValueError("all optimizer param groups should be with/without names. "
                                 f"cannot add param group {with_names} to the optimizer")
        if not seen.isdisjoint(params):
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(param_group)

    def zero_grad(self, set_to_none=True):
        """Reset the gradient of every parameter: to None (the default), or to zeros in place.

        Needed before each backward, because backward adds into `.grad` rather than overwriting it.
        """
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                if set_to_none:
                    p.grad = None
                else:
                    if p.grad.grad_fn is not None:
                        p.grad.detach_()
                    else:
                        p.grad.requires_grad_(False)
                    p.grad.zero_()

    def step(self, closure=None):
        """Update the parameters from their `.grad`. Subclasses implement it."""
        raise NotImplementedError

    def state_dict(self):
        """Return the optimizer's state and options as a dict, parameters named by index (see _state_dict.py).

        Example:
            >>> checkpoint = {"model": model.state_dict(), "optimizer": copy.deepcopy(optimizer.state_dict())}
            >>> optimizer.load_state_dict(checkpoint["optimizer"])      # later, in a new optimizer
        """
        return _state_dict.state_dict(self)

    def load_state_dict(self, state_dict):
        """Restore the state and options saved by `state_dict()`, so training continues exactly where it was."""
        _state_dict.load_state_dict(self, state_dict)

    def __getstate__(self):
        """What pickling and copy.deepcopy keep of an optimizer (as PyTorch: no hooks, no wrapped step)."""
        return {"defaults": self.defaults, "state": self.state, "param_groups": self.param_groups}

    def __setstate__(self, state):
        """Take `state`'s entries as attributes (load_state_dict ends here; subclasses add fixes of old saves)."""
        self.__dict__.update(state)
        self.defaults.setdefault("differentiable", False)

    def _closure_loss(self, closure):
        """Re-evaluate the model with `closure` (some optimizers need it), recording the graph."""
        if closure is None:
            return None
        with enable_grad():
            return closure()

    def __repr__(self):
        text = type(self).__name__ + " ("
        for i, group in enumerate(self.param_groups):
            text += f"\nParameter Group {i}\n"
            for key in sorted(group):
                if key != "params":
                    text += f"    {key}: {group[key]}\n"
        return text + ")"
