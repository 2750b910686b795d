"""`grad_fn._saved_self`, `_saved_result`, `_saved_exponent`, ...: what a built-in node saved, by torch's names.

PyTorch generates one attribute per saved value of each node; minigrad's ops declare the names instead:
`saved_names` for their saved tensors (in save order) and `saved_attrs` for other values (the ctx attribute
that holds each). `Node` inherits this mixin, so the attributes exist on every node that declares them.
"""
from .checks import FREED_MESSAGE


class SavedAttributes:
    """Mixin for `Node`: the `_saved_*` attributes, read from the node's saved tensors and ctx attributes."""

    def __getattr__(self, name):
        spec = getattr(type(self), "_forward_cls", None) or type(self)
        key = name[7:] if name.startswith("_saved_") else None
        names = getattr(spec, "saved_names", ())
        if key is not None and key in names:
            if self._freed:
                raise RuntimeError(FREED_MESSAGE)
            saved = self._saved
            s = saved[names.index(key)] if saved else None
            return None if s is None else s.unpack()
        if name.startswith("_raw_saved_") and name[11:] in names:
            return RawSavedTensor(self, names.index(name[11:]))
        attrs = getattr(spec, "saved_attrs", {})
        if key is not None and key in attrs:
            return as_saved_int(getattr(self, attrs[key]))
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __dir__(self):
        spec = getattr(type(self), "_forward_cls", None) or type(self)
        names = getattr(spec, "saved_names", ())
        return sorted({*super().__dir__(), *(f"_saved_{n}" for n in names), *(f"_raw_saved_{n}" for n in names),
                       *(f"_saved_{n}" for n in getattr(spec, "saved_attrs", {}))})


class RawSavedTensor:
    """`grad_fn._raw_saved_self`: the saved slot itself, which takes one pair of hooks with `register_hooks`
    (`pack_hook(tensor)` runs at once; `unpack_hook(packed)` whenever backward or `_saved_self` reads it)."""

    def __init__(self, node, index):
        self._node, self._index = node, index

    def register_hooks(self, *hooks):
        if len(hooks) != 2 or not all(callable(h) for h in hooks):
            raise TypeError("register_hooks(): incompatible function arguments. The following argument types are "
                            "supported:\n    1. (self: torch._C._autograd.SavedTensor, arg0: collections.abc.Callable, "
                            "arg1: collections.abc.Callable) -> None\n\nInvoked with: "
                            + ", ".join(map(repr, (self,) + hooks)))
        node, i = self._node, self._index
        if node._freed:
            raise RuntimeError("Calling register_hooks on a saved tensor after it has been freed. "
                               + FREED_MESSAGE.split(". ", 1)[1].replace("saved tensors", "saved variables"))
        saved = node._saved
        if not saved or saved[i] is None:
            raise RuntimeError("Calling register_hooks on a saved tensor with value None is forbidden")
        node._saved = saved[:i] + (saved[i].register_hooks(*hooks),) + saved[i + 1:]

    def __repr__(self):
        return f"<torch._C._autograd.SavedTensor object at {hex(id(self))}>"


def as_saved_int(value):
    """torch shows a saved int64 as unsigned: a saved dim of -1 reads 18446744073709551615 (2**64 - 1)."""
    if type(value) is int:
        return value % 2**64
    if type(value) is tuple and all(type(v) is int for v in value):
        return tuple(v % 2**64 for v in value)
    return value
