"""The unpickler of `torch.load(weights_only=True)`: it rebuilds tensors, containers and numbers, and nothing else.

A pickle can call any function it names, so loading a file from elsewhere can run any code. This unpickler reads
the opcodes itself and calls only the functions of an allowlist: the tensor rebuilders, the storage classes,
dtypes, `torch.Size`, `torch.device`, OrderedDict, Counter, set, complex, bytes; plus what the user adds with
`torch.serialization.add_safe_globals`. A port of `torch._weights_only_unpickler` (same opcodes, same messages):
the allowlist is keyed by PyTorch's names (rebuild.py), so a file refused by one is refused by the other.
"""
import warnings
from _codecs import encode
from _compat_pickle import IMPORT_MAPPING, NAME_MAPPING
from collections import Counter, OrderedDict
from pickle import (APPEND, APPENDS, BINFLOAT, BINGET, BININT, BININT1, BININT2, BINPERSID, BINPUT, BINUNICODE, BUILD,
                    EMPTY_DICT, EMPTY_LIST, EMPTY_SET, EMPTY_TUPLE, GLOBAL, LONG1, LONG_BINGET, LONG_BINPUT, MARK,
                    NEWFALSE, NEWOBJ, NEWTRUE, NONE, PROTO, REDUCE, SETITEM, SETITEMS, SHORT_BINSTRING, STOP, TUPLE,
                    TUPLE1, TUPLE2, TUPLE3, UnpicklingError, decode_long)
from struct import unpack
from sys import maxsize

from .rebuild import TORCH_GLOBALS
from ..nn.parameter import Parameter

# never allowed, even if the user allowlists a function from them
_blocklisted_modules = ["sys", "os", "posix", "nt"]
_marked_safe_globals_set = set()

ALLOWED_GLOBALS = {
    "collections.OrderedDict": OrderedDict,
    "collections.Counter": Counter,
    "_codecs.encode": encode,       # bytes
    "builtins.bytearray": bytearray,
    "builtins.set": set,
    "builtins.complex": complex,
    **TORCH_GLOBALS,
}
_ALLOWED_IDS = {id(v) for v in ALLOWED_GLOBALS.values()}


# ---- the user's allowlist: torch.serialization.add_safe_globals, safe_globals, get_safe_globals ------------------
def _add_safe_globals(safe_globals):
    global _marked_safe_globals_set
    _marked_safe_globals_set = _marked_safe_globals_set.union(set(safe_globals))


def _get_safe_globals():
    return list(_marked_safe_globals_set)


def _clear_safe_globals():
    global _marked_safe_globals_set
    _marked_safe_globals_set = set()


def _remove_safe_globals(globals_to_remove):
    global _marked_safe_globals_set
    _marked_safe_globals_set = _marked_safe_globals_set - set(globals_to_remove)


class _safe_globals:
    def __init__(self, safe_globals):
        self.safe_globals = safe_globals

    def __enter__(self):
        _add_safe_globals(self.safe_globals)

    def __exit__(self, type, value, tb):  # noqa: A002 - the protocol's names
        _remove_safe_globals(self.safe_globals)


def _get_user_allowed_globals():
    """{"module.qualname": object} for the user's allowlist; a `(object, "full.path")` pair names it itself."""
    rc = {}
    for f in _marked_safe_globals_set:
        if isinstance(f, tuple):
            if len(f) != 2:
                raise ValueError(f"Expected tuple of length 2 (global, str of callable full path), but got tuple of "
                                 f"length: {len(f)}")
            if type(f[1]) is not str:
                raise TypeError(f"Expected second item in tuple to be str of callable full path, but got: {type(f[1])}")
            f, name = f
            rc[name] = f
        else:
            rc[f"{f.__module__}.{f.__qualname__}"] = f
    return rc


def _is_allowed(obj):
    return id(obj) in _ALLOWED_IDS or any(obj is v for v in _get_user_allowed_globals().values())


def _read_global_instruction(readline):
    module = readline()[:-1].decode("utf-8")
    name = readline()[:-1].decode("utf-8")
    # protocol 2 pickles carry Python 2's names (`__builtin__.set`)
    if (module, name) in NAME_MAPPING:
        module, name = NAME_MAPPING[(module, name)]
    elif module in IMPORT_MAPPING:
        module = IMPORT_MAPPING[module]
    return module, name


class Unpickler:
    """Read a pickle opcode by opcode, allowing only the globals above. Mirrors `torch._weights_only_unpickler`."""

    def __init__(self, file, *, encoding="bytes"):
        self.encoding = encoding
        self.readline = file.readline
        self.read = file.read
        self.memo = {}
        self.proto = -1

    def load(self):
        """Return the object the pickle holds; raise UnpicklingError at the first thing it may not build."""
        self.metastack = []
        self.stack = []
        self.append = self.stack.append
        read = self.read
        while True:
            key = read(1)
            if not key:
                raise EOFError
            op = key[0]
            # the risky opcodes: they look up or call something
            if op == GLOBAL[0]:
                self.append(self._find_global())
            elif op == NEWOBJ[0]:
                args = self.stack.pop()
                cls = self.stack.pop()
                if cls is Parameter:
                    self.append(Parameter(*args))
                elif _is_allowed(cls):
                    self.append(cls.__new__(cls, *args))
                else:
                    raise UnpicklingError("Can only create new object for nn.Parameter or classes allowlisted "
                                          f"via `add_safe_globals` but got {cls}")
            elif op == REDUCE[0]:
                args = self.stack.pop()
                func = self.stack[-1]
                if not _is_allowed(func):
                    message = f"Trying to call reduce for unrecognized function {func}"
                    if hasattr(func, "__self__"):
                        message += f" which belongs to {func.__self__}"
                    raise UnpicklingError(message)
                self.stack[-1] = func(*args)
            elif op == BUILD[0]:
                self._build(self.stack.pop(), self.stack[-1])
            # the containers
            elif op == APPEND[0]:
                item = self.stack.pop()
                self._list_target("append to lists").append(item)
            elif op == APPENDS[0]:
                items = self.pop_mark()
                self._list_target("extend lists").extend(items)
            elif op == SETITEM[0]:
                (v, k) = (self.stack.pop(), self.stack.pop())
                self._check_set_item_target("SETITEM")
                self.stack[-1][k] = v
            elif op == SETITEMS[0]:
                items = self.pop_mark()
                self._check_set_item_target("SETITEMS")
                for i in range(0, len(items), 2):
                    self.stack[-1][items[i]] = items[i + 1]
            elif op == MARK[0]:
                self.metastack.append(self.stack)
                self.stack = []
                self.append = self.stack.append
            elif op == TUPLE[0]:
                items = self.pop_mark()     # first: it changes self.append
                self.append(tuple(items))
            elif op == TUPLE1[0]:
                self.stack[-1] = (self.stack[-1],)
            elif op == TUPLE2[0]:
                self.stack[-2:] = [(self.stack[-2], self.stack[-1])]
            elif op == TUPLE3[0]:
                self.stack[-3:] = [(self.stack[-3], self.stack[-2], self.stack[-1])]
            # the constants
            elif op in _CONSTANTS:
                self.append(_CONSTANTS[op]())
            elif op == BININT[0]:
                self.append(unpack("<i", read(4))[0])
            elif op == BININT1[0]:
                self.append(read(1)[0])
            elif op == BININT2[0]:
                self.append(unpack("<H", read(2))[0])
            elif op == BINFLOAT[0]:
                self.append(unpack(">d", read(8))[0])
            elif op == BINUNICODE[0]:
                strlen = unpack("<I", read(4))[0]
                if strlen > maxsize:
                    raise UnpicklingError("String is too long")
                self.append(str(read(strlen), "utf-8", "surrogatepass"))
            elif op == SHORT_BINSTRING[0]:
                data = read(read(1)[0])
                self.append(data.decode(self.encoding, "strict") if self.encoding != "bytes" else data)
            elif op == LONG1[0]:
                self.append(decode_long(read(read(1)[0])))
            # the storages
            elif op == BINPERSID[0]:
                pid = self.stack.pop()
                if type(pid) is not tuple and type(pid) is not int:
                    raise UnpicklingError(f"persistent_load id must be tuple or int, but got {type(pid)}")
                if type(pid) is tuple and len(pid) > 0 and _ascii(pid[0]) != "storage":
                    raise UnpicklingError(f"Only persistent_load of storage is allowed, but got {type(pid[0])}")
                self.append(self.persistent_load(pid))
            # the memo
            elif op in (BINGET[0], LONG_BINGET[0]):
                idx = (read(1) if op == BINGET[0] else unpack("<I", read(4)))[0]
                self.append(self.memo[idx])
            elif op in (BINPUT[0], LONG_BINPUT[0]):
                i = (read(1) if op == BINPUT[0] else unpack("<I", read(4)))[0]
                self.memo[i] = self.stack[-1]
            # the first and the last opcode
            elif op == PROTO[0]:
                self.proto = read(1)[0]
                if self.proto != 2:
                    warnings.warn(f"Detected pickle protocol {self.proto} in the checkpoint, which was not the default "
                                  "pickle protocol used by `torch.load` (2). The weights_only Unpickler might not "
                                  "support all instructions implemented by this protocol, please file an issue for "
                                  "adding support if you encounter this.", stacklevel=2)
            elif op == STOP[0]:
                return self.stack.pop()
            else:
                raise UnpicklingError(f"Unsupported operand {op}")

    def _find_global(self):
        module, name = _read_global_instruction(self.readline)
        full_path = f"{module}.{name}"
        if module in _blocklisted_modules:
            raise UnpicklingError(f"Trying to load unsupported GLOBAL {full_path} whose module {module} is blocked.")
        if full_path in ALLOWED_GLOBALS:
            return ALLOWED_GLOBALS[full_path]
        user = _get_user_allowed_globals()
        if full_path in user:
            return user[full_path]
        if full_path.startswith("builtins"):     # named as Python code names it: `set`, not `builtins.set`
            rest = full_path[len("builtins"):]
            full_path = rest[1:] if rest.startswith(".") else "builtins" + rest
        raise UnpicklingError(f"Unsupported global: GLOBAL {full_path} was not an allowed global by default. "
                              f"Please use `torch.serialization.add_safe_globals([{full_path}])` or the "
                              f"`torch.serialization.safe_globals([{full_path}])` context manager to allowlist this "
                              "global if you trust this class/function.")

    def _build(self, state, inst):
        if type(inst) is Parameter:
            inst.__dict__.update(state)
        elif type(inst) is OrderedDict:
            inst.__dict__.update(state)
        elif _is_allowed(type(inst)):
            if hasattr(inst, "__setstate__"):
                inst.__setstate__(state)
            else:   # as pickle's load_build
                slotstate = None
                if isinstance(state, tuple) and len(state) == 2:
                    state, slotstate = state
                if state:
                    inst.__dict__.update(state)
                for k, v in (slotstate or {}).items():
                    setattr(inst, k, v)
        else:
            raise UnpicklingError("Can only build Tensor, Parameter, OrderedDict or types allowlisted "
                                  f"via `add_safe_globals`, but got {type(inst)}")

    def _list_target(self, what):
        list_obj = self.stack[-1]
        if type(list_obj) is not list:
            raise UnpicklingError(f"Can only {what}, but got {type(list_obj)}")
        return list_obj

    def pop_mark(self):
        """Return the items pushed since the last MARK."""
        items = self.stack
        self.stack = self.metastack.pop()
        self.append = self.stack.append
        return items

    def _check_set_item_target(self, opcode):
        if type(self.stack[-1]) not in [dict, OrderedDict, Counter]:
            raise UnpicklingError(f"Can only {opcode} for dict, collections.OrderedDict, "
                                  f"collections.Counter, but got {type(self.stack[-1])}")

    def persistent_load(self, pid):
        raise UnpicklingError("unsupported persistent id encountered")


_CONSTANTS = {NONE[0]: lambda: None, NEWFALSE[0]: lambda: False, NEWTRUE[0]: lambda: True,
              EMPTY_TUPLE[0]: tuple, EMPTY_LIST[0]: list, EMPTY_DICT[0]: dict, EMPTY_SET[0]: set}


def _ascii(value):
    return value.decode("ascii") if isinstance(value, bytes) else value
