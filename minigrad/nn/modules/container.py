"""Containers: `Sequential` (modules run one after another), `ModuleList` and `ModuleDict` (a list and a dict
that register modules), and the deprecated `Container`; `ParameterList` and `ParameterDict` are in
parameter_containers.py.

All keep their modules in `_modules` (the lists under the names "0", "1", ...), so `named_parameters` gives
`'0.weight'` and `Module.apply`, `state_dict`, `train` and `repr` see them like any other submodule.
"""
import operator
import warnings
from collections import OrderedDict
from collections.abc import Iterable, Mapping

from ..module_repr import _addindent
from ..module import Module


class Container(Module):
    """The modules given as keywords, registered; deprecated (Module does all of it). Mirrors `torch.nn.Container`."""

    def __init__(self, **kwargs):
        warnings.warn("`nn.Container` is deprecated. All of its functionality is now implemented in `nn.Module`. "
                      "Subclass that instead.", FutureWarning, stacklevel=2)
        super().__init__()
        for key, value in kwargs.items():
            self.add_module(key, value)


class Sequential(Module):
    """Chain modules: the output of each is the input of the next. Mirrors `torch.nn.Sequential`.

    Accepts modules as arguments, or one OrderedDict of name -> module. Indexing with an int gives a module,
    with a slice a new Sequential (sharing the modules).

    Example:
        >>> model = nn.Sequential(nn.Linear(2, 8), nn.ReLU(), nn.Linear(8, 1))
        >>> model[0]
        Linear(in_features=2, out_features=8, bias=True)
    """

    def __init__(self, *args):
        super().__init__()
        if len(args) == 1 and isinstance(args[0], OrderedDict):
            for key, module in args[0].items():
                self.add_module(key, module)
        else:
            for idx, module in enumerate(args):
                self.add_module(str(idx), module)

    def _key_at(self, idx):
        size = len(self)
        idx = operator.index(idx)
        if not -size <= idx < size:
            raise IndexError(f"index {idx} is out of range")
        return list(self._modules)[idx % size]

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return type(self)(OrderedDict(list(self._modules.items())[idx]))
        return self._modules[self._key_at(idx)]

    def __setitem__(self, idx, module):
        setattr(self, self._key_at(idx), module)

    def __delitem__(self, idx):
        keys = list(self._modules)[idx] if isinstance(idx, slice) else [self._key_at(idx)]
        for key in keys:
            delattr(self, key)
        # renumber, so that the names stay "0", "1", ...
        self._modules = OrderedDict((str(i), m) for i, m in enumerate(self._modules.values()))

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules.values())

    def __dir__(self):
        return [key for key in super().__dir__() if not key.isdigit()]

    def forward(self, input):
        for module in self:
            input = module(input)
        return input

    def append(self, module):
        """Add `module` at the end; return self."""
        self.add_module(str(len(self)), module)
        return self

    def extend(self, sequential):
        """Append every module of `sequential`; return self."""
        for layer in sequential:
            self.append(layer)
        return self

    def insert(self, index, module):
        """Insert `module` before position `index`; return self."""
        if not isinstance(module, Module):
            raise AssertionError(f"module should be of type: {Module}")
        n = len(self._modules)
        if not -n <= index <= n:
            raise IndexError(f"Index out of range: {index}")
        if index < 0:
            index += n
        for i in range(n, index, -1):
            self._modules[str(i)] = self._modules[str(i - 1)]
        self._modules[str(index)] = module
        return self


class ModuleList(Module):
    """Hold modules in a list, registered so that `parameters()`, `apply`, ... see them. Mirrors `torch.nn.ModuleList`.

    It has no `forward`: you decide how to call its modules.

    Example:
        >>> layers = nn.ModuleList([nn.Linear(10, 5), nn.Linear(5, 2)])
        >>> len(layers), layers[-1]
        (2, Linear(in_features=5, out_features=2, bias=True))
    """

    def __init__(self, modules=None):
        super().__init__()
        if modules is not None:
            self.extend(modules)

    def _key_at(self, idx):
        idx = operator.index(idx)
        if not -len(self) <= idx < len(self):
            raise IndexError(f"index {idx} is out of range")
        return str(idx % len(self))

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return type(self)(list(self._modules.values())[idx])
        return self._modules[self._key_at(idx)]

    def __setitem__(self, idx, module):
        setattr(self, self._key_at(idx), module)

    def __delitem__(self, idx):
        keys = [str(k) for k in range(len(self))[idx]] if isinstance(idx, slice) else [self._key_at(idx)]
        for key in keys:
            delattr(self, key)
        self._modules = OrderedDict((str(i), m) for i, m in enumerate(self._modules.values()))

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules.values())

    def __iadd__(self, modules):
        return self.extend(modules)

    def __dir__(self):
        return [key for key in super().__dir__() if not key.isdigit()]

    def append(self, module):
        """Add `module` at the end; return self."""
        self.add_module(str(len(self)), module)
        return self

    def extend(self, modules):
        """Append every module of the iterable `modules`; return self."""
        if not isinstance(modules, Iterable):
            raise TypeError("ModuleList.extend should be called with an iterable, but got " + type(modules).__name__)
        offset = len(self)
        for i, module in enumerate(modules):
            self.add_module(str(offset + i), module)
        return self

    def insert(self, index, module):
        """Insert `module` before position `index`."""
        for i in range(len(self._modules), index, -1):
            self._modules[str(i)] = self._modules[str(i - 1)]
        self._modules[str(index)] = module

    def __repr__(self):
        # runs of identical modules print once, as "(0-2): 3 x Linear(...)"
        reprs = [repr(m) for m in self]
        if not reprs:
            return self._get_name() + "()"
        blocks = []                     # [start, end, text]
        for i, r in enumerate(reprs):
            if blocks and blocks[-1][2] == r:
                blocks[-1][1] = i
            else:
                blocks.append([i, i, r])
        lines = [_addindent(f"({s}): {r}" if s == e else f"({s}-{e}): {e - s + 1} x {r}", 2) for s, e, r in blocks]
        return self._get_name() + "(\n  " + "\n  ".join(lines) + "\n)"


class ModuleDict(Module):
    """Hold modules in a dict, registered so that `parameters()`, `apply`, ... see them. Mirrors `torch.nn.ModuleDict`.

    Keys keep their insertion order (also from a plain dict); `update` and the constructor accept a mapping or
    an iterable of (key, module) pairs. It has no `forward`.

    Example:
        >>> heads = nn.ModuleDict({"cls": nn.Linear(8, 3), "box": nn.Linear(8, 4)})
        >>> list(heads.keys()), heads["box"].out_features
        (['cls', 'box'], 4)
    """

    def __init__(self, modules=None):
        super().__init__()
        if modules is not None:
            self.update(modules)

    def __getitem__(self, key):
        return self._modules[key]

    def __setitem__(self, key, module):
        self.add_module(key, module)

    def __delitem__(self, key):
        del self._modules[key]

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules)

    def __contains__(self, key):
        return key in self._modules

    def clear(self):
        """Remove every module."""
        self._modules.clear()

    def pop(self, key):
        """Remove the module under `key` and return it."""
        v = self[key]
        del self[key]
        return v

    def keys(self):
        """Return the keys, in order."""
        return self._modules.keys()

    def items(self):
        """Return the (key, module) pairs, in order."""
        return self._modules.items()

    def values(self):
        """Return the modules, in order."""
        return self._modules.values()

    def update(self, modules):
        """Add (or replace) the modules of a mapping, or of an iterable of (key, module) pairs."""
        if not isinstance(modules, Iterable):
            raise TypeError("ModuleDict.update should be called with an iterable of key/value pairs, but got "
                            + type(modules).__name__)
        if isinstance(modules, (OrderedDict, ModuleDict, Mapping)):
            for key, module in modules.items():
                self[key] = module
            return
        for j, m in enumerate(modules):
            if not isinstance(m, Iterable):
                raise TypeError("ModuleDict update sequence element #" + str(j) + " should be Iterable; is"
                                + type(m).__name__)
            if not len(m) == 2:
                raise ValueError("ModuleDict update sequence element #" + str(j) + " has length " + str(len(m))
                                 + "; 2 is required")
            self[m[0]] = m[1]


from .parameter_containers import ParameterDict, ParameterList  # noqa: E402,F401 - torch has them in this module
