"""The dtype and device conversions of `Tensor` (`.to`, `.float`, `.int`, `.type`, `.cpu`, `.cuda`) and the
whole-tensor comparisons (`equal`, `allclose`, `isclose`).

A cast is the built-in `ToCopy` Function (PyTorch's `ToCopyBackward0`): its backward casts the gradient back.
Integer arithmetic and bitwise operators (`//`, `%`, `&`, ...) come from the mixin in `integer.py`.
"""
import warnings

import numpy as np

from ..compat.batched import CONTROL_FLOW, ITEM, NO_RULE, NO_STORAGE, like, refuse, refuse_read
from ..core import device as _device, dtype as _dtype
from . import creation as _creation, legacy_types as _tensor_types
from ..core.tensor import TensorBase
from .integer import TensorInteger
from ..ops import copies, memory_format as _formats
from ..ops._common import broadcast_shapes

_TO_SIGNATURES = (
    " * (torch.device device = None, torch.dtype dtype = None, bool non_blocking = False, bool copy = False, *, "
    "torch.memory_format memory_format = None)\n"
    " * (torch.dtype dtype, bool non_blocking = False, bool copy = False, *, torch.memory_format memory_format = None)\n"
    " * (Tensor tensor, bool non_blocking = False, bool copy = False, *, torch.memory_format memory_format = None)\n")
_NO_ATEN_CUDA = (
    "Cannot initialize CUDA without ATen_cuda library. PyTorch splits its backend into two shared libraries: a CPU "
    "library and a CUDA library; this error has occurred because you are trying to use some CUDA functionality, but "
    "the CUDA library has not been loaded by the dynamic linker for some reason.  The CUDA library MUST be loaded, "
    "EVEN IF you don't directly use any symbols from the CUDA library! One common culprit is a lack of "
    "-Wl,--no-as-needed in your link arguments; many dynamic linkers will delete dynamic library dependencies if you "
    "don't depend on any of their symbols.  You can check if this has occurred by using ldd on your binary to see if "
    "there is a dependency on *_cuda.so library.")
_NO_ALLCLOSE = ("vmap over torch.allclose isn't supported yet. Please file an issue at "
                "https://github.com/pytorch/pytorch/issues if you need this feature.")


class TensorConvert(TensorInteger):
    """Methods of `Tensor`: as Python values and numpy arrays, dtype and device conversions, whole-tensor comparisons."""

    # ---- new tensors of this one's dtype: `x.new_zeros(2, 3)` ----------------------------------------------
    def new_tensor(self, data, dtype=None, device=None, requires_grad=False, layout=None, pin_memory=False):
        """A copy of `data` as a new leaf tensor, of this tensor's dtype unless `dtype` is given."""
        if isinstance(data, TensorBase):
            warnings.warn("To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() "
                          "or sourceTensor.detach().clone().requires_grad_(True), rather than "
                          "tensor.new_tensor(sourceTensor).", UserWarning, stacklevel=2)
            data = data.detach()._data
        return _creation.tensor(np.array(data, dtype=(dtype or self.dtype).np_type), device=device,
                                requires_grad=requires_grad)

    def new(self, *args):
        """PyTorch's legacy constructor on this tensor's dtype: `x.new(2, 3)` (uninitialised sizes, zeros here),
        `x.new([1, 2])` (data), `x.new()` (empty)."""
        return getattr(_tensor_types, self.dtype._tensor_type[len("torch."):])(*args)

    def new_full(self, size, fill_value, *, dtype=None, device=None, requires_grad=False, layout=None,
                 pin_memory=False):
        return _creation.full(size, fill_value, dtype=dtype or self.dtype, device=device, requires_grad=requires_grad)

    def new_zeros(self, *size, dtype=None, device=None, requires_grad=False, layout=None, pin_memory=False):
        return _creation.zeros(*size, dtype=dtype or self.dtype, device=device, requires_grad=requires_grad)

    def new_ones(self, *size, dtype=None, device=None, requires_grad=False, layout=None, pin_memory=False):
        return _creation.ones(*size, dtype=dtype or self.dtype, device=device, requires_grad=requires_grad)

    def new_empty(self, *size, dtype=None, device=None, requires_grad=False, layout=None, pin_memory=False):
        return _creation.empty(*size, dtype=dtype or self.dtype, device=device, requires_grad=requires_grad)


    # ---- as a Python value, a numpy array, a sequence ------------------------------------------------------
    # (under torch.func.vmap, reading a sample's value is refused as in PyTorch: compat/batched.py)
    def item(self):
        refuse_read(self, ITEM)
        if self._data.size != 1:
            raise RuntimeError(f"a Tensor with {self._data.size} elements cannot be converted to Scalar")
        return self._data.item()

    def tolist(self):
        refuse_read(self, NO_STORAGE)
        return self._data.tolist()

    def numpy(self):
        """Return the underlying numpy array (shared memory, as in PyTorch)."""
        refuse_read(self, NO_STORAGE)
        if self._requires_grad:
            raise RuntimeError("Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() "
                               "instead.")
        return self._data

    def __array__(self, dtype=None, copy=None):
        refuse_read(self, NO_STORAGE)
        return self.numpy() if dtype is None else self.numpy().astype(dtype)

    def __len__(self):
        if self._data.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return len(self._data)

    def __iter__(self):
        if self._data.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        return (self[i] for i in range(len(self._data)))

    def __bool__(self):
        refuse_read(self, CONTROL_FLOW)
        if self._data.size != 1:
            raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
        return bool(self._data)

    def __float__(self):
        refuse_read(self, ITEM)
        return float(self.item())

    def __int__(self):
        refuse_read(self, ITEM)
        return int(self.item())

    def __index__(self):
        refuse_read(self, ITEM)
        if self.dtype.is_floating_point or self._data.size != 1:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self._data)

    def __format__(self, spec):
        if self._data.ndim == 0:
            refuse_read(self, ITEM)
            return format(self.item(), spec)
        return format(repr(self), spec)

    def contiguous(self, memory_format=_formats.contiguous_format):
        """Return self if its memory is in row-major order (or in `memory_format`: `torch.channels_last`), else
        such a copy (recorded as a clone)."""
        if memory_format is _formats.preserve_format or self.is_contiguous(memory_format):
            return self
        return copies.Clone.apply(self, memory_format)

    def is_contiguous(self, memory_format=_formats.contiguous_format):
        return _formats.is_in(self._data, memory_format)

    @property
    def layout(self):
        return _formats.strided

    # ---- dtype and device ----------------------------------------------------------------------------------------
    def to(self, *args, **kwargs):
        """Return this tensor with another dtype (and/or on another device): `x.to(torch.float64)`, `x.to("cpu")`,
        `x.to(other)` (other's dtype), `x.to("cpu", torch.int32)`, `x.to(dtype=..., copy=True)`.

        Returns self when nothing changes, unless `copy=True`. minigrad has only the CPU: another device raises
        the error a CPU-only PyTorch raises. Mirrors `torch.Tensor.to`.
        """
        if len(args) == 1 and not kwargs and args[0].__class__ is _dtype.dtype:
            return self._cast(args[0])          # perf: x.to(torch.float64), the common call, skips the parsing
        device, dtype, copy = _to_arguments(args, kwargs)
        if device is not None:
            _device.check(device)
            # "cpu:0" is not the "cpu" a tensor is on (no index), so PyTorch copies, as to another device
            copy = copy or _device.device(device).index is not None
        fmt = kwargs.get("memory_format") or _formats.preserve_format
        if fmt is not _formats.preserve_format and not self.is_contiguous(fmt):
            return copies.ToCopy.apply(self, dtype or self.dtype, fmt)     # x.to(memory_format=torch.channels_last)
        if dtype is None or dtype is self.dtype:
            return copies.ToCopy.apply(self, self.dtype) if copy else self
        return self._cast(dtype)

    def _cast(self, dtype):
        if dtype is self.dtype:
            return self
        source = self._data.dtype
        if source.kind == "f" and (not dtype.is_floating_point or dtype.itemsize < source.itemsize):
            with np.errstate(invalid="ignore", over="ignore"):    # nan, inf and overflow cast silently, as in PyTorch
                return copies.ToCopy.apply(self, dtype)
        return copies.ToCopy.apply(self, dtype)

    def float(self, memory_format=None):
        return self._cast(_dtype.float32)

    def double(self, memory_format=None):
        return self._cast(_dtype.float64)

    def half(self, memory_format=None):
        return self._cast(_dtype.float16)

    def long(self, memory_format=None):
        return self._cast(_dtype.int64)

    def int(self, memory_format=None):
        return self._cast(_dtype.int32)

    def short(self, memory_format=None):
        return self._cast(_dtype.int16)

    def char(self, memory_format=None):
        return self._cast(_dtype.int8)

    def byte(self, memory_format=None):
        return self._cast(_dtype.uint8)

    def bool(self, memory_format=None):
        return self._cast(_dtype.bool)

    def type(self, dtype=None, non_blocking=False, **kwargs):
        """Without an argument return PyTorch's legacy type name (`'torch.FloatTensor'`), else cast like `to`:
        `x.type(torch.int32)`, `x.type('torch.IntTensor')`, `x.type(torch.IntTensor)`."""
        if dtype is None:
            return self.dtype._tensor_type
        if isinstance(dtype, str):
            if dtype.startswith("torch.cuda."):
                raise RuntimeError(_NO_ATEN_CUDA)
            found = _BY_TYPE_NAME.get(dtype)
            if found is None:
                raise ValueError(f"invalid type: '{dtype}'")
            dtype = found
        if isinstance(dtype, _tensor_types.LegacyTensorType):
            dtype = dtype.dtype                             # torch.IntTensor stands for torch.int32
        if not isinstance(dtype, _dtype.dtype):
            raise ValueError(f"invalid type: '{getattr(dtype, '__name__', dtype)}'")
        return self.to(dtype)

    def type_as(self, other):
        return self.to(other.dtype)

    @property
    def device(self):
        return _device.CPU

    @property
    def is_cuda(self):
        return False

    @property
    def is_cpu(self):
        return True

    # PyTorch's other devices and layouts: a minigrad tensor is never on them
    is_mps = is_meta = is_xpu = is_xla = is_ipu = is_maia = is_mtia = is_vulkan = is_cuda
    is_sparse = is_sparse_csr = is_quantized = is_mkldnn = is_nested = is_cuda

    def is_pinned(self, device=None):
        return False

    def is_shared(self):
        return False

    def is_distributed(self):
        return False

    def is_coalesced(self):
        raise RuntimeError("is_coalesced expected sparse coordinate tensor layout but got Strided")

    def is_set_to(self, tensor):
        """Whether both are the same memory with the same shape and strides (`x.is_set_to(x)`)."""
        return (self.data_ptr() == tensor.data_ptr() and self.shape == tensor.shape
                and self.stride() == tensor.stride() and self.dtype is tensor.dtype)

    def dim_order(self, *, ambiguity_check=False):
        """The dims from the outermost in memory to the innermost: (0, 1, ...) for a contiguous tensor,
        (0, 2, 3, 1) in channels_last. `ambiguity_check=True` raises when dims of size 1 or equal strides allow
        another order; a list of memory formats allows it when the tensor is in exactly one of them."""
        formats = ambiguity_check if isinstance(ambiguity_check, list) else []
        if not isinstance(ambiguity_check, bool) and not (
                isinstance(ambiguity_check, list) and all(isinstance(f, _formats.memory_format) for f in formats)):
            raise TypeError("The ambiguity_check argument must be a bool or a list of memory formats.")
        if ambiguity_check is not False:
            strides = self.stride()
            several = 1 in self.shape or any(a == b for a, b in zip(strides, strides[1:]))
            matching = sum(self.is_contiguous(f) for f in formats)
            if several and (ambiguity_check is True or matching != 1):
                raise RuntimeError("The tensor does not have unique dim order, or cannot map to exact one of the "
                                   "given memory formats.")
        return _formats.dim_order(self._data)

    def const_data_ptr(self):
        return self.data_ptr()

    @property
    def grad_dtype(self):
        """The dtype that `.grad` must have: the tensor's own."""
        return self.dtype

    def get_device(self):
        return -1           # PyTorch's answer for a CPU tensor

    def cpu(self, memory_format=None):
        return self

    def cuda(self, device=None, non_blocking=False, memory_format=None):
        """Raise PyTorch's error for a CPU-only build: minigrad has no GPU."""
        if device is not None and _device.device(device).type != "cuda":
            raise RuntimeError("Invalid device, must be cuda device")
        raise AssertionError(_device.NO_CUDA)

    # ---- whole-tensor comparisons ---------------------------------------------------------------------------------
    def equal(self, other):
        """True if both have the same shape and the same values (nan never equals nan). Mirrors `torch.equal`."""
        _expect_tensor("equal", "other", 2, other)
        for t in (self, other):
            refuse(t, NO_RULE.format("aten::equal"))
        return self.shape == other.shape and bool(np.array_equal(self._data, other._data))

    def isclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
        """Elementwise |self - other| <= atol + rtol * |other| (equal infinities are close), as a bool tensor.

        Both tensors must have the same dtype. Mirrors `torch.isclose`.
        """
        _expect_tensor("isclose", "other", 2, other)
        if self.dtype is not other.dtype:
            raise RuntimeError(f"{self.dtype._scalar_name} did not match {other.dtype._scalar_name}")
        if rtol < 0:
            raise RuntimeError(f"rtol must be greater than or equal to zero, but got {rtol}")
        if atol < 0:
            raise RuntimeError(f"atol must be greater than or equal to zero, but got {atol}")
        a, b = self._data, other._data
        broadcast_shapes(a.shape, b.shape)          # PyTorch's error for shapes that do not broadcast
        if a.dtype.kind != "f":
            a, b = a.astype(np.float64), b.astype(np.float64)   # integers compare exactly, as numbers
        close = np.isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)
        return like(TensorBase._make(np.asarray(close)), self, other)

    def allclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
        """True if every element `isclose` to the matching one of `other`. Mirrors `torch.allclose`."""
        _expect_tensor("allclose", "other", 2, other)
        for t in (self, other):
            refuse(t, _NO_ALLCLOSE)
        return bool(self.isclose(other, rtol, atol, equal_nan)._data.all())


def _label(value):
    """How PyTorch's argument parser names a value's type in its errors."""
    if isinstance(value, _dtype.dtype):
        return "torch.dtype"
    if isinstance(value, _device.device):
        return "torch.device"
    return "Tensor" if isinstance(value, TensorBase) else type(value).__name__


def _to_arguments(args, kwargs):
    """Read `to`'s three signatures: (device, dtype, non_blocking, copy), (dtype, non_blocking, copy), (tensor,
    non_blocking, copy), each with keywords; return (device, dtype, copy) or raise PyTorch's TypeError."""
    first = args[0] if args else None
    if isinstance(first, _dtype.dtype):
        names, fixed = ("dtype", "non_blocking", "copy"), {}
    elif isinstance(first, TensorBase):
        names, fixed = ("tensor", "non_blocking", "copy"), {"dtype": first.dtype}
    else:
        names, fixed = ("device", "dtype", "non_blocking", "copy"), {}
    given = dict(zip(names, args))
    ok = len(args) <= len(names) and all(k in names + ("memory_format",) and k not in given for k in kwargs)
    given.update(kwargs)
    given.update(fixed)
    ok = (ok and all(isinstance(given.get(k, False), bool) for k in ("non_blocking", "copy"))
          and isinstance(given.get("dtype"), (_dtype.dtype, type(None)))
          and isinstance(given.get("device"), (str, int, _device.device, type(None))))
    if not ok:
        shown = ", ".join(_label(a) for a in args)
        for k in sorted(kwargs):
            shown += f", {k}={_label(kwargs[k])}" if args else f"{k}={_label(kwargs[k])}, "
        raise TypeError(f"to() received an invalid combination of arguments - got ({shown}), but expected one of:\n"
                        + _TO_SIGNATURES)
    return given.get("device"), given.get("dtype"), given.get("copy", False)


def _expect_tensor(fn, name, position, value):
    if not isinstance(value, TensorBase):
        raise TypeError(f"{fn}(): argument '{name}' (position {position}) must be Tensor, not {type(value).__name__}")


_BY_TYPE_NAME = {d._tensor_type: d for d in _dtype.ALL}
