"""`torch.save` and `torch.load` in PyTorch's own file format: train here, go on in PyTorch, and back.

A file is a zip archive of records, written as torch 2.13 writes it (`archive` is the file's name without its
extension, or "archive" for a file object):

    archive/data.pkl                 the object, pickled (protocol 2) with PyTorch's names (rebuild.py)
    archive/.format_version          "1"
    archive/.storage_alignment       "64": each record's bytes start at a multiple of 64 in the file
    archive/byteorder                "little"
    archive/data/0, data/1, ...      the bytes of each storage, the memory that tensors look into
    archive/version                  "3"
    archive/.data/serialization_id   40 digits

In data.pkl a tensor is a call `torch._utils._rebuild_tensor_v2(storage, offset, size, stride, requires_grad,
OrderedDict())` and its storage a persistent id `('storage', torch.FloatStorage, '0', 'cpu', numel)` naming the
record `data/0`. Tensors that share memory (a tensor and its slice) name one storage, with their own offsets and
strides, and share memory again after loading. (Past 400 lines because saving and loading are one format, read
and written by the same table of records.)

Example:
    >>> torch.save(model.state_dict(), "model.pt")
    >>> model.load_state_dict(torch.load("model.pt"))
"""
import io
import os
import pickle
import struct
import sys
import warnings
import zipfile
import zlib
from collections import OrderedDict

import numpy as np

from . import rebuild as _rebuild
from . import weights_only as _weights_only_unpickler
from .rebuild import STORAGE_OF_DTYPE, STORAGE_TYPES, TORCH_GLOBALS, TORCH_NAME, StorageType
from .._tensor.tensor import Tensor
from ..core import dtype as _dtype
from ..core.device import device
from ..core.dtype import Size
from ..nn.parameter import Parameter

__all__ = ["save", "load", "add_safe_globals", "get_safe_globals", "clear_safe_globals", "safe_globals",
           "StorageType", "DEFAULT_PROTOCOL"]

DEFAULT_PROTOCOL = 2
STORAGE_ALIGNMENT = 64
FILE_FORMAT_VERSION = 3

UNSAFE_MESSAGE = (
    "In PyTorch 2.6, we changed the default value of the `weights_only` argument in `torch.load` "
    "from `False` to `True`. Re-running `torch.load` with `weights_only` set to `False` will likely succeed, "
    "but it can result in arbitrary code execution. Do it only if you got the file from a trusted source.")
DOCS_MESSAGE = ("\n\nCheck the documentation of torch.load to learn more about types accepted by default with "
                "weights_only https://pytorch.org/docs/stable/generated/torch.load.html.")
LEGACY_FORMAT = ("this file is in PyTorch's legacy format (torch.save before PyTorch 1.6, or "
                 "`_use_new_zipfile_serialization=False`), which minigrad does not read: load it in PyTorch and "
                 "torch.save it again, in the zip format that PyTorch writes by default")
TORCHSCRIPT = ("this file is a TorchScript archive (torch.jit.save), which minigrad cannot run: save the model's "
               "state_dict() in PyTorch and load that instead")
REAL_TORCH_OBJECT = ("this file holds {}, an object of real PyTorch, which minigrad cannot rebuild: minigrad loads "
                     "tensors, state_dicts, containers and its own objects. In PyTorch, save `model.state_dict()` "
                     "instead, and load it here with `model.load_state_dict(torch.load(f))`")


def save(obj, f, pickle_module=pickle, pickle_protocol=DEFAULT_PROTOCOL, _use_new_zipfile_serialization=True,
         _disable_byteorder_record=False):
    """Save `obj` (tensors, state_dicts, containers, numbers, whole Modules) to `f` in PyTorch's zip format.

    Mirrors `torch.save`: real PyTorch loads the file (`torch.load(f)`), and minigrad loads PyTorch's files.

    Args:
        obj: what to save.
        f: a file name (str or os.PathLike) or a file object with `write` (io.BytesIO).
        pickle_module: must be `pickle` (minigrad writes PyTorch's names with its own pickler).
        pickle_protocol: the pickle protocol of data.pkl. Default: 2, as PyTorch.

    Example:
        >>> torch.save({"epoch": 3, "model_state_dict": model.state_dict()}, "checkpoint.tar")
    """
    if not isinstance(f, (str, os.PathLike)) and not hasattr(f, "write"):
        raise AttributeError("expected 'f' to be string, path, or a file-like object with a 'write' attribute")
    if not _use_new_zipfile_serialization:
        raise RuntimeError("minigrad writes only the zip format: _use_new_zipfile_serialization=False (PyTorch's "
                           "legacy format) is not supported")
    if pickle_module is not pickle:
        raise ValueError(f"minigrad pickles with the standard `pickle` module, not {pickle_module.__name__}")
    records = _pickle_records(obj, pickle_protocol, _disable_byteorder_record)
    if isinstance(f, (str, os.PathLike)):
        path = os.fspath(f)
        parent = os.path.dirname(path)
        if parent and not os.path.isdir(parent):
            raise RuntimeError(f"Parent directory {parent} does not exist.")
        with open(path, "wb") as out:
            _write_zip(out, _archive_name(path), records)
    else:
        _write_zip(f, "archive", records)
        f.flush()


def load(f, map_location=None, pickle_module=None, *, weights_only=None, mmap=None, **pickle_load_args):
    """Load an object saved with `torch.save` (by minigrad or by PyTorch). Mirrors `torch.load`.

    Args:
        f: a file name (str or os.PathLike) or a seekable file object (io.BytesIO).
        map_location: where the tensors go: 'cpu', a `torch.device`, a dict {saved location: location}, or a
            callable `(storage, location) -> storage or None`. minigrad has only the CPU.
        pickle_module: for `weights_only=False`, the module whose Unpickler reads data.pkl (default pickle).
        weights_only: True (the default, as in PyTorch 2.6 and later) rebuilds only tensors, containers, numbers
            and `add_safe_globals`' objects; False unpickles anything, so only for files you trust.
        mmap: map the file's storages into memory instead of reading them (a file name only).
        pickle_load_args: for `weights_only=False`, passed to the Unpickler (`encoding=...`).

    Example:
        >>> state = torch.load("model.pt", map_location="cpu")
    """
    if weights_only is None:
        weights_only = pickle_module is None
    if weights_only:
        if pickle_module is not None:
            raise RuntimeError("Can not safely load weights when explicit pickle_module is specified")
    elif pickle_module is None:
        pickle_module = pickle
    if pickle_load_args and weights_only:
        warnings.warn("pickle_load_args only works if `weights_only=False`.", stacklevel=2)
    pickle_load_args.setdefault("encoding", "utf-8")
    is_path = isinstance(f, (str, os.PathLike))
    if mmap and not is_path:
        raise ValueError("f must be a file path in order to use the mmap argument")
    opened = open(f, "rb") if is_path else f
    try:
        if not is_path:
            _check_seekable(opened)
        archive = _open_archive(opened)
        unpickler = _weights_only_unpickler.Unpickler if weights_only else _full_unpickler(pickle_module)
        storages = _StorageLoader(archive, map_location, os.fspath(f) if mmap else None)
        try:
            return _unpickle(archive, storages, unpickler, pickle_load_args if not weights_only else
                             {"encoding": pickle_load_args["encoding"]})
        except pickle.UnpicklingError as e:
            if weights_only:
                raise pickle.UnpicklingError(_get_wo_message(str(e))) from None
            raise
    finally:
        if is_path:
            opened.close()


# ---- the user's allowlist for weights_only (_weights_only_unpickler.py keeps it) ----------------------------------
def add_safe_globals(safe_globals):
    """Allow these functions and classes in `weights_only` loads: a list of objects, or of (object, "full.name")
    pairs. Mirrors `torch.serialization.add_safe_globals`."""
    _weights_only_unpickler._add_safe_globals(safe_globals)


def get_safe_globals():
    """Return the list of user-added globals that are safe for `weights_only` load."""
    return _weights_only_unpickler._get_safe_globals()


def clear_safe_globals():
    """Clear the list of globals that are safe for `weights_only` load."""
    _weights_only_unpickler._clear_safe_globals()


class safe_globals(_weights_only_unpickler._safe_globals):
    """Context manager that allows these globals in `weights_only` loads inside its block. Mirrors
    `torch.serialization.safe_globals`.

    Example:
        >>> with torch.serialization.safe_globals([MyClass]):
        ...     torch.load("file.pt")
    """


# ---- writing: the pickle ----------------------------------------------------------------------------------------
class _SavedStorage:
    """The memory one or more saved tensors look into, as a typed storage: a key, a dtype, a number of elements.

    A uint16, uint32 or uint64 tensor's storage is untyped (bytes), as in PyTorch, which has no storage class for them.
    """

    def __init__(self, key, memory, dtype):
        self.untyped = dtype in _NO_STORAGE_CLASS
        self.key, self.memory, self.dtype = key, memory, _dtype.uint8 if self.untyped else dtype
        self.numel = memory.nbytes // self.dtype.itemsize

    def persistent_id(self):
        storage_type = STORAGE_TYPES["UntypedStorage" if self.untyped else STORAGE_OF_DTYPE[self.dtype].name]
        return ("storage", storage_type, self.key, "cpu", self.numel)


_NO_STORAGE_CLASS = (_dtype.uint16, _dtype.uint32, _dtype.uint64)


class _TorchPickler(pickle._Pickler):
    """A pickler that writes minigrad's tensors, dtypes, Size and device under PyTorch's names.

    The pure-Python pickler, because it lets `save_global` write `torch._utils _rebuild_tensor_v2` for minigrad's
    function (the C pickler would look that name up in `torch`).
    """

    def __init__(self, file, protocol):
        super().__init__(file, protocol)
        self.storages = {}      # id of a memory block -> _SavedStorage, in the order met
        self.kept = []          # the arrays those ids belong to, alive until the end

    def persistent_id(self, obj):
        return obj.persistent_id() if isinstance(obj, _SavedStorage) else None

    def reducer_override(self, obj):
        torch_name = TORCH_NAME.get(id(obj))
        if torch_name is not None:      # a function, class, dtype or storage class PyTorch has: a global
            return torch_name.rsplit(".", 1)[1]
        if isinstance(obj, Tensor):
            if type(obj) is Parameter:
                return (_rebuild._rebuild_parameter, (Tensor._make(obj._data), obj.requires_grad, OrderedDict()))
            storage, offset, stride = self._storage_of(obj)
            args = (storage, offset, tuple(obj.shape), stride, obj.requires_grad, OrderedDict())
            if obj.dtype in _NO_STORAGE_CLASS:
                return (_rebuild._rebuild_tensor_v3, args + (obj.dtype,))
            return (_rebuild._rebuild_tensor_v2, args)
        if type(obj) is Size:
            return (Size, (tuple(obj),))
        if type(obj) is device:
            # a new string each time, not the memo's 'cpu', as PyTorch's C++ device gives
            kind = obj.type.encode().decode()
            return (device, (kind,) if obj.index is None else (kind, obj.index))
        return NotImplemented

    def save_global(self, obj, name=None):
        torch_name = TORCH_NAME.get(id(obj))
        if torch_name is None:
            return super().save_global(obj, name)
        module, name = torch_name.rsplit(".", 1)
        if self.proto >= 4:
            self.save(module)
            self.save(name)
            self.write(pickle.STACK_GLOBAL)
        else:
            self.write(pickle.GLOBAL + f"{module}\n{name}\n".encode("utf-8"))
        self.memoize(obj)

    def _storage_of(self, t):
        """Return (storage, offset, stride) of tensor `t`, in elements: the memory block its array looks into."""
        array = t._data
        memory = _memory_block(array)
        found = None if memory is None else _place_in(array, memory)
        if found is None:            # a layout PyTorch cannot have (negative strides): save a copy of its own
            array = np.ascontiguousarray(array)
            memory, found = array, (0, tuple(s // array.itemsize for s in array.strides))
        storage = self.storages.get(id(memory))
        if storage is None:
            storage = self.storages[id(memory)] = _SavedStorage(str(len(self.storages)), memory, t.dtype)
            self.kept.append(memory)
        elif storage.dtype is not (_dtype.uint8 if t.dtype in _NO_STORAGE_CLASS else t.dtype):
            raise RuntimeError("Cannot save multiple tensors or storages that view the same data as different types")
        return (storage,) + found


def _memory_block(array):
    """The array that owns the memory `array` looks into (following views, and as_strided's wrapper), if it is
    one contiguous block."""
    root = array
    while True:
        base = root.base
        if isinstance(base, np.ndarray):
            root = base
        elif base is not None and isinstance(getattr(base, "base", None), np.ndarray):   # as_strided's DummyArray
            root = base.base
        else:
            break
    return root if root.flags.c_contiguous or root.flags.f_contiguous else None


def _place_in(array, memory):
    """(offset, strides) of `array` inside `memory`, in elements of array's dtype; None if it does not fit."""
    itemsize = array.itemsize
    start = array.__array_interface__["data"][0] - memory.__array_interface__["data"][0]
    if start % itemsize or memory.nbytes % itemsize or any(s < 0 or s % itemsize for s in array.strides):
        return None
    if not array.size:           # no element: PyTorch gives an empty tensor contiguous strides
        return (start // itemsize, _contiguous_strides(array.shape)) if 0 <= start <= memory.nbytes else None
    last = start + sum((n - 1) * s for n, s in zip(array.shape, array.strides)) + itemsize
    if start < 0 or last > memory.nbytes:
        return None
    return start // itemsize, tuple(s // itemsize for s in array.strides)


def _contiguous_strides(shape):
    strides, step = [], 1
    for n in reversed(shape):
        strides.append(step)
        step *= max(n, 1)
    return tuple(reversed(strides))


def _pickle_records(obj, protocol, disable_byteorder):
    """Return the archive's records [(name, bytes)], in the order PyTorch writes them."""
    buffer = io.BytesIO()
    pickler = _TorchPickler(buffer, protocol)
    pickler.dump(obj)
    records = [("data.pkl", buffer.getvalue()), (".format_version", b"1"),
               (".storage_alignment", str(STORAGE_ALIGNMENT).encode())]
    if not disable_byteorder:
        records.append(("byteorder", sys.byteorder.encode()))
    for storage in pickler.storages.values():
        memory = storage.memory
        records.append((f"data/{storage.key}", memory.reshape(-1, order="A").view(np.uint8).data))
    records.append(("version", f"{FILE_FORMAT_VERSION}\n".encode()))
    return records


# ---- writing: the zip archive, byte for byte as PyTorch's writer (miniz) lays it out ------------------------------
def _write_zip(out, archive, records):
    """Write `records` as PyTorch does: stored (no compression), each record's bytes at a multiple of 64 (the
    padding is an extra field "FB"), a data descriptor after each non-empty one, zip64 end records."""
    position, entries, combined_crc = 0, [], 0
    records = records + [(".data/serialization_id", None)]
    for name, data in records:
        if data is None:     # the id sums up the records before it
            data = _serialization_id([n for n, _ in records[:-1]], combined_crc)
        full_name = f"{archive}/{name}".encode("utf-8")
        size = memoryview(data).nbytes
        if size >= 0xFFFFFFFF or position >= 0xFFFFFFFF:
            raise RuntimeError("minigrad does not write zip64 records: a file holds at most 4 GiB")
        padding = -(position + 30 + len(full_name) + 4) % STORAGE_ALIGNMENT
        extra = b"FB" + struct.pack("<H", padding) + b"Z" * padding
        crc = zlib.crc32(data)
        flags = 0x0808 if size else 0x0800     # an empty record has no data descriptor (bit 3)
        out.write(struct.pack("<IHHHHHIIIHH", 0x04034B50, 0, flags, 0, 0, 0, 0, 0, 0, len(full_name), len(extra)))
        out.write(full_name + extra)
        out.write(data)
        if size:
            out.write(struct.pack("<IIII", 0x08074B50, crc, size, size))
            combined_crc = _hash_combine(combined_crc, crc)     # PyTorch reads the crc32s off the descriptors
        entries.append((full_name, flags, crc, size, position))
        position += 30 + len(full_name) + len(extra) + size + (16 if size else 0)
    directory = b"".join(struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 0, 0, flags, 0, 0, 0, crc, size, size,
                                     len(full_name), 0, 0, 0, 0, 0, offset) + full_name
                         for full_name, flags, crc, size, offset in entries)
    out.write(directory)
    n = len(entries)
    out.write(struct.pack("<IQHHIIQQQQ", 0x06064B50, 44, 0x031E, 0x002D, 0, 0, n, n, len(directory), position))
    out.write(struct.pack("<IIQI", 0x07064B50, 0, position + len(directory), 1))
    out.write(struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, n, n, len(directory), position, 0))


def _hash_combine(seed, value):
    """c10::hash_combine on 64-bit numbers."""
    return (seed ^ (value + 0x9E3779B9 + (seed << 6) + (seed >> 2))) & 0xFFFFFFFFFFFFFFFF


def _serialization_id(names, combined_crc):
    """20 digits from the record names, then 20 from the records' crc32s combined as PyTorch combines them.

    PyTorch hashes the names with libstdc++'s std::hash in an unordered_set's order; minigrad combines their crc32s
    in write order instead, so the first 20 digits differ from PyTorch's (PyTorch only logs the id).
    """
    names_hash = 0
    for name in names:
        names_hash = _hash_combine(names_hash, zlib.crc32(name.encode()))
    return f"{names_hash:020d}{combined_crc:020d}".encode()


def _archive_name(path):
    """The archive folder PyTorch names after the file: its base name up to the last dot ("archive" if not ascii)."""
    if not path.isascii():
        return "archive"
    base = path.replace("\\", "/").rsplit("/", 1)[-1]
    name = base.rsplit(".", 1)[0] if "." in base else base
    if not name:
        raise RuntimeError(f"invalid file name: {path}")
    return name


# ---- reading ----------------------------------------------------------------------------------------------------
class _Archive:
    """The records of a PyTorch zip archive, by name without the archive folder."""

    def __init__(self, zf):
        self.zip = zf
        first = zf.infolist()[0].filename
        if "/" not in first:
            raise RuntimeError(f"file in archive is not in a subdirectory: {first}")
        self.prefix = first.split("/", 1)[0] + "/"

    def has_record(self, name):
        try:
            self.zip.getinfo(self.prefix + name)
        except KeyError:
            return False
        return True

    def get_record(self, name):
        return self.zip.read(self.prefix + name)

    def record_offset(self, name):
        """Where the record's bytes start in the file (for mmap)."""
        info = self.zip.getinfo(self.prefix + name)
        self.zip.fp.seek(info.header_offset + 26)
        name_length, extra_length = struct.unpack("<HH", self.zip.fp.read(4))
        return info.header_offset + 30 + name_length + extra_length


def _open_archive(opened):
    start = opened.tell()
    magic = opened.read(4)
    opened.seek(start)
    if magic != b"PK\x03\x04":
        if not magic:
            raise EOFError
        if magic[:1] == b"\x80":     # a pickle: PyTorch's legacy format starts with its pickled magic number
            raise RuntimeError(LEGACY_FORMAT)
        raise pickle.UnpicklingError(f"invalid load key, {magic[:1].decode('latin-1')!r}.")
    archive = _Archive(zipfile.ZipFile(opened))
    if archive.has_record("constants.pkl"):
        raise RuntimeError(TORCHSCRIPT)
    return archive


class _LoadedStorage:
    """A storage read from the file: `array` holds its elements. Stands for the `torch.UntypedStorage` that a
    `map_location` callable receives."""

    device = device("cpu")

    def __init__(self, array):
        self.array = array

    def nbytes(self):
        return self.array.nbytes

    def cpu(self):
        return self


class _StorageLoader:
    """Rebuild each storage the pickle names, once per key, at the place `map_location` says."""

    def __init__(self, archive, map_location, mmap_path):
        self.archive, self.map_location, self.mmap_path = archive, map_location, mmap_path
        self.loaded = {}
        order = archive.get_record("byteorder") if archive.has_record("byteorder") else b"little"
        if order not in (b"little", b"big"):
            raise ValueError("Unknown endianness type: " + order.decode())
        self.swap = order.decode() != sys.byteorder

    def __call__(self, saved_id):
        if not isinstance(saved_id, tuple) or _ascii(saved_id[0]) != "storage":
            raise RuntimeError(f"Unknown typename for persistent_load, expected 'storage' but got '{saved_id}'")
        storage_type, key, location, numel = saved_id[1:]
        dtype = storage_type if isinstance(storage_type, _dtype.dtype) else storage_type.dtype
        if dtype is None:
            raise RuntimeError(f"this file holds a tensor of dtype {storage_type.torch_dtype}, which minigrad does not "
                               "have (it has bool, uint8, int8, int16, int32, int64, uint16, uint32, uint64, float16, "
                               "float32 and float64)")
        if key not in self.loaded:
            self.loaded[key] = self._restore(self._read(f"data/{key}", dtype, numel), _ascii(location))
        return self.loaded[key]

    def _read(self, name, dtype, numel):
        if self.mmap_path is not None:    # copy-on-write, as PyTorch's default MAP_PRIVATE
            array = np.memmap(self.mmap_path, dtype.np_type, "c", self.archive.record_offset(name), (numel,))
        else:
            array = np.frombuffer(bytearray(self.archive.get_record(name)), dtype.np_type)
        return _LoadedStorage(array.byteswap() if self.swap else array)

    def _restore(self, storage, location):
        where = self.map_location
        if callable(where) and not isinstance(where, (dict, str, bytes, device)):
            result = where(storage, location)
            return self._place(storage, location) if result is None else result
        if isinstance(where, dict):
            location = where.get(location, location)
        elif isinstance(where, (str, bytes, device)):
            location = where.decode() if isinstance(where, bytes) else str(where)
        elif where is not None:
            raise TypeError(f"'{type(where).__name__}' object is not callable")
        return self._place(storage, location)

    @staticmethod
    def _place(storage, location):
        if location == "cpu" or location.startswith("cpu:"):
            return storage
        if location.startswith("cuda"):     # minigrad has no GPU, as a CPU-only PyTorch
            raise RuntimeError("Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is "
                               "False. If you are running on a CPU-only machine, please use torch.load with "
                               "map_location=torch.device('cpu') to map your storages to the CPU.")
        raise RuntimeError("don't know how to restore data location of torch.storage.UntypedStorage (tagged with "
                           f"{location})")


def _check_seekable(f):
    try:
        f.seek(f.tell())
    except (io.UnsupportedOperation, AttributeError) as e:
        if "seek" in str(e) or "tell" in str(e):
            raise type(e)(str(e) + ". You can only torch.load from a file that is seekable. Please pre-load the data "
                          "into a buffer like io.BytesIO and try to load from it instead.") from None
        raise


def _full_unpickler(pickle_module):
    """The Unpickler of `weights_only=False`: any global, PyTorch's names read as minigrad's."""

    class UnpicklerWrapper(pickle_module.Unpickler):
        def find_class(self, module, name):
            full_path = f"{module}.{name}"
            if full_path in TORCH_GLOBALS:
                return TORCH_GLOBALS[full_path]
            if module == "torch" or module.startswith("torch."):
                raise pickle.UnpicklingError(REAL_TORCH_OBJECT.format(full_path))
            return super().find_class(module, name)

    return UnpicklerWrapper


def _unpickle(archive, storages, unpickler, pickle_load_args):
    reader = unpickler(io.BytesIO(archive.get_record("data.pkl")), **pickle_load_args)
    reader.persistent_load = storages
    return reader.load()


def _get_wo_message(message):
    """PyTorch's wording around a refusal of the weights-only unpickler (torch.serialization.load)."""
    if "was not an allowed global by default." in message:
        return ("Weights only load failed. This file can still be loaded, to do so you have two options, "
                "\033[1mdo those steps only if you trust the source of the checkpoint\033[0m. "
                f"\n\t(1) {UNSAFE_MESSAGE}\n\t(2) Alternatively, to load with `weights_only=True` please check "
                "the recommended steps in the following error message.\n\tWeightsUnpickler error: "
                + message + DOCS_MESSAGE)
    if " must be " in message and " to load" in message:
        return f"Weights only load failed. {message}\n {UNSAFE_MESSAGE}\n"
    updated = f"Weights only load failed. {UNSAFE_MESSAGE}\n"
    if "is blocked" not in message:
        updated += ("Please file an issue with the following so that we can make `weights_only=True` compatible "
                    "with your use case: WeightsUnpickler error: ")
    return updated + "\n\n" + message + DOCS_MESSAGE


def _ascii(value):
    return value.decode("ascii") if isinstance(value, bytes) else value
