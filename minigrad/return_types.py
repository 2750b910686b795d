"""`torch.return_types`: the named tuples that ops with several results return, `values, indices = x.max(0)`.

Each is a tuple with a name per field (`x.max(0).indices`) that prints as PyTorch's
`torch.return_types.max(values=..., indices=...)`. `torch.return_types.max((v, i))` makes one from a sequence.
"""
import builtins


class _NamedResult(tuple):
    """A tuple whose fields are also attributes; subclasses set `_fields`."""
    _fields = ()

    def __new__(cls, sequence):
        sequence = tuple(sequence)
        if len(sequence) != len(cls._fields):
            raise TypeError(f"torch.return_types.{cls.__name__}() takes a {builtins.len(cls._fields)}-sequence "
                            f"({builtins.len(sequence)}-sequence given)")
        return super().__new__(cls, sequence)

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        for k, field in enumerate(cls._fields):
            setattr(cls, field, property(lambda self, k=k: self[k]))

    @property
    def n_fields(self):
        return builtins.len(self._fields)

    def __repr__(self):
        fields = ",\n".join(f"{name}={value!r}" for name, value in zip(self._fields, self))
        return f"torch.return_types.{type(self).__name__}(\n{fields})"

    def __reduce__(self):
        return type(self), (tuple(self),)


def _define(name, *fields):
    return type(name, (_NamedResult,), {"_fields": fields, "__module__": __name__, "__qualname__": name})


VALUES_INDICES = ("max", "min", "sort", "topk", "cummax", "cummin", "median", "nanmedian", "kthvalue", "mode")
for _name in VALUES_INDICES:
    globals()[_name] = _define(_name, "values", "indices")
aminmax = _define("aminmax", "min", "max")
histogram = _define("histogram", "hist", "bin_edges")
frexp = _define("frexp", "mantissa", "exponent")
slogdet = _define("slogdet", "sign", "logabsdet")
__all__ = list(VALUES_INDICES) + ["aminmax", "histogram", "frexp", "slogdet"]


def make(name, *values):
    """The named tuple `name` holding `values`: `make("max", values, indices)`."""
    return globals()[name](values)
