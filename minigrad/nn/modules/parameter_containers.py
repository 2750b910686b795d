"""`ParameterList` and `ParameterDict`: a list and a dict that register the parameters they hold.

Mirrors the classes of the same names in `torch.nn` (torch.nn.modules.container). Each entry is an attribute of
the container (named "0", "1", ... in the list, by its key in the dict), so a `Parameter` lands in `_parameters`
through `Module.__setattr__` and `parameters()`, `state_dict` and optimizers see it; a plain tensor is made a
Parameter on the way in, and any other value is kept as a plain attribute.
"""
import operator
from collections import OrderedDict
from collections.abc import Iterable, Mapping

from ..._tensor.tensor import Tensor
from ..module import Module
from ..parameter import Parameter


def _describe(k, p, type_name):
    """One line of the repr: `  (0): Parameter containing: [torch.float32 of size 2x3]`."""
    if isinstance(p, Tensor):
        size_str = "x".join(str(size) for size in p.size())
        kind = "Parameter" if isinstance(p, Parameter) else "Tensor"
        return f"  ({k}): {kind} containing: [{type_name(p)} of size {size_str}]"
    return f"  ({k}): Object of type: {type(p).__name__}"


class ParameterList(Module):
    """Hold parameters in a list, registered so that `parameters()` sees them. Mirrors `torch.nn.ParameterList`.

    Example:
        >>> ws = nn.ParameterList([nn.Parameter(torch.zeros(2, 2)) for _ in range(3)])
        >>> len(ws), len(list(ws.parameters()))
        (3, 3)
    """

    def __init__(self, values=None):
        super().__init__()
        self._size = 0
        if values is not None:
            self += values

    def _get_abs_string_index(self, idx):
        idx = operator.index(idx)
        if not (-len(self) <= idx < len(self)):
            raise IndexError(f"index {idx} is out of range")
        if idx < 0:
            idx += len(self)
        return str(idx)

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            out = self.__class__()
            for i in range(*idx.indices(len(self))):
                out.append(self[i])
            return out
        return getattr(self, self._get_abs_string_index(idx))

    def __setitem__(self, idx, param):
        idx = self._get_abs_string_index(idx)
        if isinstance(param, Tensor) and not isinstance(param, Parameter):
            param = Parameter(param)
        return setattr(self, idx, param)

    def __len__(self):
        return self._size

    def __iter__(self):
        return iter(self[i] for i in range(len(self)))

    def __iadd__(self, parameters):
        return self.extend(parameters)

    def __dir__(self):
        return [key for key in super().__dir__() if not key.isdigit()]

    def append(self, value):
        """Add `value` at the end (a tensor becomes a Parameter); return self."""
        new_idx = len(self)
        self._size += 1
        self[new_idx] = value
        return self

    def extend(self, values):
        """Append every value of the iterable `values`; return self."""
        if not isinstance(values, Iterable) or isinstance(values, Tensor):
            raise TypeError("ParameterList.extend should be called with an iterable, but got " + type(values).__name__)
        for value in values:
            self.append(value)
        return self

    def extra_repr(self):
        return "\n".join(_describe(k, p, lambda t: t.dtype) for k, p in enumerate(self))

    def __call__(self, *args, **kwargs):
        raise RuntimeError("ParameterList should not be called.")


class ParameterDict(Module):
    """Hold parameters in a dict, registered so that `parameters()` sees them. Mirrors `torch.nn.ParameterDict`.

    Keys are strings. From a plain dict the keys are taken in sorted order (an OrderedDict, another
    ParameterDict or a list of pairs keep theirs), as in PyTorch.

    Example:
        >>> pd = nn.ParameterDict({"scale": nn.Parameter(torch.ones(3))})
        >>> "scale" in pd, pd["scale"].shape
        (True, torch.Size([3]))
    """

    def __init__(self, parameters=None):
        super().__init__()
        self._keys = {}
        if parameters is not None:
            self.update(parameters)

    def _key_to_attr(self, key):
        if not isinstance(key, str):
            raise TypeError("Index given to ParameterDict cannot be used as a key as it is not a string (type is "
                            f"'{type(key).__name__}'). Open an issue on github if you need non-string keys.")
        return key

    def __getitem__(self, key):
        return getattr(self, self._key_to_attr(key))

    def __setitem__(self, key, value):
        self._keys[key] = None
        attr = self._key_to_attr(key)
        if isinstance(value, Tensor) and not isinstance(value, Parameter):
            value = Parameter(value)
        setattr(self, attr, value)

    def __delitem__(self, key):
        del self._keys[key]
        delattr(self, self._key_to_attr(key))

    def __len__(self):
        return len(self._keys)

    def __iter__(self):
        return iter(self._keys)

    def __reversed__(self):
        return reversed(self._keys)

    def __contains__(self, key):
        return key in self._keys

    def copy(self):
        """Return a new ParameterDict holding the same parameters."""
        return ParameterDict(OrderedDict((k, self[k]) for k in self._keys))

    def setdefault(self, key, default=None):
        """Return self[key], first setting it to `default` if the key is missing."""
        if key not in self:
            self[key] = default
        return self[key]

    def clear(self):
        """Remove every entry."""
        for k in self._keys.copy():
            del self[k]

    def pop(self, key):
        """Remove the entry under `key` and return its value."""
        v = self[key]
        del self[key]
        return v

    def popitem(self):
        """Remove the last-inserted entry and return it as (key, value)."""
        k, _ = self._keys.popitem()
        self._keys[k] = None        # back, so that `del self[k]` below finds it
        val = self[k]
        del self[k]
        return k, val

    def get(self, key, default=None):
        """Return self[key], or `default` if the key is missing."""
        return self[key] if key in self else default

    def fromkeys(self, keys, default=None):
        """Return a new ParameterDict with `keys`, each holding `default`."""
        return ParameterDict((k, default) for k in keys)

    def keys(self):
        """Return the keys, in order."""
        return self._keys.keys()

    def items(self):
        """Return the (key, value) pairs, in order."""
        return ((k, self[k]) for k in self._keys)

    def values(self):
        """Return the values, in order."""
        return (self[k] for k in self._keys)

    def update(self, parameters):
        """Add (or replace) entries from a mapping, or from an iterable of (key, value) pairs."""
        if not isinstance(parameters, Iterable):
            raise TypeError("ParametersDict.update should be called with an iterable of key/value pairs, but got "
                            + type(parameters).__name__)
        if isinstance(parameters, (OrderedDict, ParameterDict)):
            for key, parameter in parameters.items():
                self[key] = parameter
        elif isinstance(parameters, Mapping):
            for key, parameter in sorted(parameters.items()):
                self[key] = parameter
        else:
            for j, p in enumerate(parameters):
                if not isinstance(p, Iterable):
                    raise TypeError("ParameterDict update sequence element #" + str(j) + " should be Iterable; is"
                                    + type(p).__name__)
                if not len(p) == 2:
                    raise ValueError("ParameterDict update sequence element #" + str(j) + " has length "
                                     + str(len(p)) + "; 2 is required")
                self[p[0]] = p[1]

    def extra_repr(self):
        return "\n".join(_describe(k, p, lambda t: t.type()) for k, p in self.items())

    def __call__(self, input):
        raise RuntimeError("ParameterDict should not be called.")

    def __or__(self, other):
        copy = self.copy()
        copy.update(other)
        return copy

    def __ror__(self, other):
        copy = other.copy()
        copy.update(self)
        return copy

    def __ior__(self, other):
        self.update(other)
        return self
