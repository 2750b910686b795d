"""`Module.get_submodule`, `get_parameter`, `get_buffer`: find a member by its dotted path, with torch's errors.

Defined here as functions of `self` and bound in `Module`'s class body.
"""
from .parameter import Parameter


def get_submodule(self, target):
    """Return the submodule at the dotted path `target` (`''` is self), e.g. `net.get_submodule("enc.0")`."""
    from .module import Module
    mod = self
    for item in target.split(".") if target else ():
        if not hasattr(mod, item):
            raise AttributeError(mod._get_name() + " has no attribute `" + item + "`")
        mod = getattr(mod, item)
        if not isinstance(mod, Module):
            raise AttributeError("`" + item + "` is not an nn.Module")
    return mod


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


def _owner(self, target):
    module_path, _, name = target.rpartition(".")
    mod = self.get_submodule(module_path)
    if not hasattr(mod, name):
        raise AttributeError(mod._get_name() + " has no attribute `" + name + "`")
    return mod, name
