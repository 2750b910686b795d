"""dtypes, `Size`, and PyTorch's type-promotion rule.

minigrad has the dtypes that numpy can hold and PyTorch computes with on the CPU: bool, the integers uint8, int8,
int16, int32, int64, and the floats float16, float32, float64. uint16, uint32 and uint64 exist as in PyTorch
(a tensor can hold them, e.g. from `from_numpy`) but, as there, take part in no type promotion.
"""
import builtins
import functools

import numpy as np


class dtype:
    """A tensor element type. Prints as PyTorch prints it (`torch.float32`), so outputs read alike."""

    is_complex = False

    def __init__(self, name, np_type, category, legacy):
        self.name = name
        self.np_type = np.dtype(np_type)
        self.is_floating_point = category == 2
        self.is_signed = self.np_type.kind in "fi"
        self.itemsize = self.np_type.itemsize
        self._category = category               # 0 bool, 1 integer, 2 floating: what promotion compares first
        self._scalar_name = legacy              # ATen's name, used in error messages: "Long did not match Float"
        self._tensor_type = f"torch.{legacy}Tensor"   # the legacy type name, as `Tensor.type()` gives it

    def __repr__(self):
        return f"torch.{self.name}"

    def __reduce__(self):
        return self.name                         # unpickles to the same object, as `minigrad._dtype.<name>`

    def to_real(self):
        return self


bool = dtype("bool", np.bool_, 0, "Bool")  # noqa: A001 - PyTorch's name
uint8 = dtype("uint8", np.uint8, 1, "Byte")
int8 = dtype("int8", np.int8, 1, "Char")
int16 = dtype("int16", np.int16, 1, "Short")
int32 = dtype("int32", np.int32, 1, "Int")
int64 = dtype("int64", np.int64, 1, "Long")
float16 = dtype("float16", np.float16, 2, "Half")
float32 = dtype("float32", np.float32, 2, "Float")
float64 = dtype("float64", np.float64, 2, "Double")
uint16 = dtype("uint16", np.uint16, 1, "UInt16")
uint32 = dtype("uint32", np.uint32, 1, "UInt32")
uint64 = dtype("uint64", np.uint64, 1, "UInt64")


class _ComplexDtype(dtype):
    """complex64 and complex128 exist, so that code naming them imports and compares, but no tensor holds them:
    minigrad computes with real numbers only, and says so when one is asked for."""

    is_complex = True

    def __init__(self, name, legacy):
        self.name, self._scalar_name, self._tensor_type = name, legacy, f"torch.{legacy}Tensor"
        self.is_floating_point, self.is_signed, self._category = False, True, 3
        self.itemsize = 8 if name == "complex64" else 16

    @property
    def np_type(self):
        raise TypeError(f"minigrad has no complex tensors: torch.{self.name} is not supported (it computes with "
                        "real numbers only)")

    def to_real(self):
        return float32 if self.name == "complex64" else float64


complex64 = _ComplexDtype("complex64", "ComplexFloat")
complex128 = _ComplexDtype("complex128", "ComplexDouble")
cfloat, cdouble = complex64, complex128
# PyTorch's other names for the same objects: `torch.int is torch.int32`
float = float32  # noqa: A001
double = float64
half = float16
long = int64
int = int32  # noqa: A001
short = int16

ALL = (bool, uint8, int8, int16, int32, int64, float16, float32, float64, uint16, uint32, uint64)
_BY_NUMPY = {d.np_type: d for d in ALL}
_CATEGORY = {d: d._category for d in ALL}
_SHELL = (uint16, uint32, uint64)     # PyTorch's "barely supported" unsigned types

# the names C++ gives the dtypes: PyTorch's errors show them ("expected m1 and m2 to have the same dtype, but got:
# float != double")
_CPP_NAMES = {"bool": "bool", "uint8": "unsigned char", "int8": "signed char", "int16": "short int", "int32": "int",
              "int64": "long int", "float16": "c10::Half", "float32": "float", "float64": "double",
              "uint16": "unsigned short", "uint32": "unsigned int", "uint64": "unsigned long"}


def cpp_name(dt):
    """The C++ name of a minigrad or numpy dtype, or of a dtype's name, as PyTorch's error messages print it."""
    return _CPP_NAMES[dt if isinstance(dt, str) else dt.name]


def scalar_name(x):
    """ATen's name of the dtype of a tensor, numpy array or numpy dtype, as its messages print it: Float, Long, ..."""
    x = getattr(x, "_data", x)
    return from_numpy_dtype(x.dtype if isinstance(x, np.ndarray) else np.dtype(x))._scalar_name


def from_numpy_dtype(np_dtype):
    """Map a numpy dtype to minigrad's (numpy's other names for a width, like `intc` or `longlong`, included)."""
    found = _BY_NUMPY.get(np_dtype)
    if found is not None:
        return found
    np_dtype = np.dtype(np_dtype)
    if np_dtype.kind in "biuf" and np_dtype.isnative:
        for d in ALL:
            if d.np_type.kind == np_dtype.kind and d.itemsize == np_dtype.itemsize:
                return d
    if np_dtype.kind == "c":
        raise TypeError(f"minigrad has no complex dtypes: can't convert np.ndarray of type {np_dtype}")
    raise TypeError(f"can't convert np.ndarray of type numpy.{np_dtype.type.__name__}. The only supported types are: "
                    "float64, float32, float16, complex64, complex128, int64, int32, int16, int8, uint64, uint32, "
                    "uint16, uint8, and bool.")


# ---- the default dtype (torch.set_default_dtype): of Python floats, of factories without a dtype, of int -> float ----
_DEFAULT = [float32]


def default_float():
    """The dtype of Python floats in tensors, of `zeros(2)` and `randn(2)`, and of float math on integer tensors
    (`exp`, true division). Mirrors `torch.get_default_dtype`; float32 unless `torch.set_default_dtype` changed it."""
    return _DEFAULT[0]


def set_default_float(d):
    """Make `d` (a floating dtype) the default dtype; torch.set_default_dtype checks its argument first."""
    _DEFAULT[0] = _PYTHON[builtins.float] = d


def scalar_dtype(value):
    """The dtype a Python number (or numpy scalar, which PyTorch treats alike) gets next to a tensor."""
    if isinstance(value, (builtins.bool, np.bool_)):
        return bool
    if isinstance(value, (builtins.int, np.integer)):
        return int64
    return _DEFAULT[0]


# ---- type promotion ---------------------------------------------------------------------------------------------
@functools.cache
def promote_types(a, b):
    """Return the smallest dtype both `a` and `b` convert to without losing their kind. Mirrors `torch.promote_types`.

    Categories rank bool < integer < floating, and the higher category wins whatever the widths: int64 and float16
    give float16. Within a category the result holds both: uint8 and int8 give int16, float16 and float32 float32.
    """
    if a is b:
        return a
    if (a in _SHELL or b in _SHELL) and not (a.is_floating_point or b.is_floating_point):
        raise RuntimeError("Promotion for uint16, uint32, uint64 types is not supported, attempted to promote "
                           f"{a._scalar_name} and {b._scalar_name}")
    if a._category != b._category:
        return a if a._category > b._category else b
    return _BY_NUMPY[np.promote_types(a.np_type, b.np_type)]     # numpy's rule agrees within one category


def promote(a, b):
    """Return the result dtype of a binary op, by PyTorch's rule.

    Each operand comes as (dtype, rank), rank 2 for a tensor with dimensions, 1 for a 0-d tensor, 0 for a Python
    number (whose dtype is already the default one: float32 for floats, int64 for ints). Operands of the same
    rank promote as `promote_types`; a lower-ranked one decides only if it is of a higher category.
    """
    (da, rank_a), (db, rank_b) = a, b
    if da is db:
        return da
    if rank_a == rank_b:
        return promote_types(da, db)
    return _combine(da, db) if rank_a > rank_b else _combine(db, da)


def _combine(higher, lower):
    """ATen's combine_categories: `higher` is the dtype of the higher-ranked operands."""
    if higher.is_floating_point:
        return higher                 # a float tensor keeps its dtype next to a float64 0-d tensor or a float
    if higher is bool or lower.is_floating_point:
        return promote_types(higher, lower)     # int tensor * 2.5 is float32; bool tensor + 1 is int64
    return higher                     # an int8 tensor stays int8 next to an int64 0-d tensor or a Python int


def result_type(*operands):
    """The dtype of an op on `operands`, each (dtype, rank) as in `promote`. Mirrors ATen's `result_type`."""
    by_rank = [None, None, None]
    for d, rank in operands:
        by_rank[rank] = d if by_rank[rank] is None else promote_types(by_rank[rank], d)
    wrapped, zero_dim, dims = by_rank
    low = zero_dim if wrapped is None else (wrapped if zero_dim is None else _combine(zero_dim, wrapped))
    return low if dims is None else (dims if low is None else _combine(dims, low))


def can_cast(from_, to):
    """Whether PyTorch's in-place ops and `out=` may write a `from_` result into a `to` tensor."""
    return not (from_._category > to._category)


# ---- what `torch.tensor(data)` infers from nested lists ---------------------------------------------------------
_PYTHON = {builtins.bool: bool, builtins.int: int64, builtins.float: float32}


def infer(data):
    """The dtype PyTorch gives `tensor(data)` for a number or a nested sequence: Python floats are float32,
    ints int64, bools bool, numpy scalars and arrays and tensors keep their dtype, and a mix promotes.

    Empty lists give the default dtype, float32.
    """
    found = set()
    _collect(data, found)
    return functools.reduce(promote_types, found) if found else _DEFAULT[0]


def _collect(data, found):
    kind = type(data)
    if kind in _PYTHON:
        found.add(_PYTHON[kind])
    elif isinstance(data, np.generic):
        found.add(from_numpy_dtype(data.dtype))
    elif isinstance(data, (list, tuple)):
        for kind in set(map(type, data)):      # perf: one type per list, not one test per element
            if kind in _PYTHON:
                found.add(_PYTHON[kind])
            else:
                for item in data:
                    if type(item) is kind:
                        _collect(item, found)
    else:
        d = getattr(data, "dtype", None)        # an ndarray or a Tensor
        if isinstance(d, np.dtype):
            found.add(from_numpy_dtype(d))
        elif isinstance(d, dtype):
            found.add(d)


class Size(tuple):
    """A tensor's shape: a tuple that prints as `torch.Size([2, 3])`."""

    __slots__ = ()

    def __repr__(self):
        return f"torch.Size({list(self)})"

    __str__ = __repr__

    def __getitem__(self, index):           # a slice of a Size is a Size, as in PyTorch
        item = tuple.__getitem__(self, index)
        return Size(item) if type(index) is slice else item

    def __add__(self, other):               # Size + tuple and tuple + Size are Sizes too
        return Size(tuple.__add__(self, other))

    def __radd__(self, other):
        return Size(tuple(other) + tuple(self))

    def numel(self):
        n = 1
        for s in self:
            n *= s
        return n
