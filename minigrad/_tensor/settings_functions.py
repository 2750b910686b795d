"""torch's constants (`torch.pi`, `e`, `inf`, `nan`, `newaxis`) and its global settings: the default dtype, the
print options, the thread counts, deterministic algorithms, `set_warn_always`; and `torch.typename`.

The settings live where they are read: the default dtype in core/dtype.py (every op that makes a float reads it),
the print options in printing.py (every repr reads them); the others are only recorded here, because minigrad's
numpy ops have nothing to switch (see each function).
"""
import builtins
import math
import os
import warnings

from ..core import dtype as _dtype
from ..core.tensor import TensorBase
from ..ops._common import forget_wrapped_numbers
from .printing import PRINT_OPTS, PrintOptions

__all__ = ["pi", "e", "inf", "nan", "newaxis", "set_default_dtype", "set_printoptions", "get_num_threads",
           "set_num_threads", "get_num_interop_threads", "set_num_interop_threads", "use_deterministic_algorithms",
           "are_deterministic_algorithms_enabled", "is_deterministic_algorithms_warn_only_enabled",
           "set_deterministic_debug_mode", "get_deterministic_debug_mode", "set_warn_always",
           "is_warn_always_enabled", "typename", "init_num_threads", "get_float32_matmul_precision",
           "set_float32_matmul_precision", "set_flush_denormal", "has_lapack", "has_mkl", "has_openmp", "has_spectral",
           "compiled_with_cxx11_abi", "is_autocast_enabled", "is_autocast_cpu_enabled", "is_autocast_cache_enabled",
           "is_autocast_ipu_enabled", "is_autocast_xla_enabled", "is_vulkan_available"]

pi, e, inf, nan = math.pi, math.e, math.inf, math.nan
newaxis = None      # x[:, torch.newaxis] is x[:, None], as numpy's


def set_default_dtype(d):
    """Make `d` (torch.float32, float64 or float16) the dtype of Python floats in tensors, of factories without a
    dtype (`zeros`, `randn`, `arange(1.)`, layers' parameters) and of float math on integer tensors.

    Example:
        >>> torch.set_default_dtype(torch.float64)
        >>> torch.tensor([1.2, 3]).dtype
        torch.float64
    """
    if not isinstance(d, _dtype.dtype):
        raise TypeError("invalid dtype object: only floating-point types are supported as the default type")
    if not d.is_floating_point:
        raise TypeError("only floating-point types are supported as the default type")
    _dtype.set_default_float(d)
    forget_wrapped_numbers()


_PROFILES = {"default": PrintOptions(), "short": PrintOptions(precision=2, edgeitems=2),
             "full": PrintOptions(threshold=math.inf)}


def set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None, profile=None, sci_mode=None):
    """Set how tensors print: `precision` decimals (4), summarise beyond `threshold` elements (1000) keeping
    `edgeitems` at each end (3), break lines at `linewidth` (80); `profile` "default", "short" or "full" resets
    those four first; `sci_mode` True or False forces scientific notation on or off, None lets the values decide
    (and, as in PyTorch, every call sets it). Mirrors `torch.set_printoptions`.

    Example:
        >>> torch.set_printoptions(precision=2)
        >>> torch.tensor([1.12345])
        tensor([1.12])
    """
    if profile in _PROFILES:
        chosen = _PROFILES[profile]
        PRINT_OPTS.precision, PRINT_OPTS.threshold = chosen.precision, chosen.threshold
        PRINT_OPTS.edgeitems, PRINT_OPTS.linewidth = chosen.edgeitems, chosen.linewidth
    for name, value in (("precision", precision), ("threshold", threshold), ("edgeitems", edgeitems),
                        ("linewidth", linewidth)):
        if value is not None:
            setattr(PRINT_OPTS, name, value)
    PRINT_OPTS.sci_mode = sci_mode


# ---- threads: recorded, and what PyTorch would report ----------------------------------------------------------------
def _cores():
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


_THREADS = {"intra": _cores(), "interop": _cores(), "interop_set": False}


def get_num_threads():
    """The number of threads PyTorch would use within an op (one per core, unless set_num_threads changed it)."""
    return _THREADS["intra"]


def set_num_threads(n):
    """Record the number of threads for work within an op; `get_num_threads` returns it. Mirrors
    `torch.set_num_threads`, but changes nothing: minigrad computes with numpy, whose BLAS sets its thread count
    when it loads (from OMP_NUM_THREADS or OPENBLAS_NUM_THREADS), and changing it later needs a library that
    minigrad does not depend on (threadpoolctl)."""
    _THREADS["intra"] = _positive("set_num_threads", n)


def get_num_interop_threads():
    """The number of threads PyTorch would use to run independent ops in parallel."""
    return _THREADS["interop"]


def set_num_interop_threads(n):
    """Record the number of inter-op threads, once per process as PyTorch allows; minigrad runs ops one after the
    other, so nothing else changes."""
    n = _positive("set_num_interop_threads", n)
    if _THREADS["interop_set"]:
        raise RuntimeError("Error: cannot set number of interop threads after parallel work has started or "
                           "set_num_interop_threads called")
    _THREADS["interop"], _THREADS["interop_set"] = n, True


def init_num_threads():
    """Do nothing: PyTorch sets up its thread pools here, and minigrad has none."""


def _positive(name, n):
    if not isinstance(n, builtins.int) or isinstance(n, builtins.bool):
        raise RuntimeError(f"{name} expects an int, but got {type(n).__name__}")
    if n <= 0:
        raise RuntimeError(f"{name} expects a positive integer")
    return n


# ---- deterministic algorithms: minigrad's are all deterministic ----------------------------------------------------
_DETERMINISTIC = {"mode": False, "warn_only": False}


def use_deterministic_algorithms(mode, *, warn_only=False):
    """Ask for deterministic algorithms (PyTorch then refuses, or with warn_only warns about, the ops that have
    none). Every minigrad op is deterministic (numpy, one thread, fixed order), so the setting is only recorded.
    Mirrors `torch.use_deterministic_algorithms`."""
    for name, value, position in (("mode", mode, 1), ("warn_only", warn_only, 2)):
        if not isinstance(value, builtins.bool):
            raise TypeError(f"_set_deterministic_algorithms(): argument '{name}' (position {position}) must be bool, "
                            f"not {type(value).__name__}")
    _DETERMINISTIC["mode"], _DETERMINISTIC["warn_only"] = mode, warn_only


def are_deterministic_algorithms_enabled():
    return _DETERMINISTIC["mode"]


def is_deterministic_algorithms_warn_only_enabled():
    return _DETERMINISTIC["warn_only"]


def set_deterministic_debug_mode(debug_mode):
    """0 or "default": off; 1 or "warn": warn only; 2 or "error": on. Mirrors `torch.set_deterministic_debug_mode`."""
    if not isinstance(debug_mode, (builtins.int, str)):
        raise TypeError(f"debug_mode must be str or int, but got {type(debug_mode)}")
    if isinstance(debug_mode, str):
        modes = {"default": 0, "warn": 1, "error": 2}
        if debug_mode not in modes:
            raise RuntimeError("invalid value of debug_mode, expected one of `default`, `warn`, `error`, but got "
                               f"{debug_mode}")
        debug_mode = modes[debug_mode]
    if debug_mode not in (0, 1, 2):
        raise RuntimeError(f"invalid value of debug_mode, expected 0, 1, or 2, but got {debug_mode}")
    _DETERMINISTIC["mode"], _DETERMINISTIC["warn_only"] = debug_mode > 0, debug_mode == 1


def get_deterministic_debug_mode():
    if not _DETERMINISTIC["mode"]:
        return 0
    return 1 if _DETERMINISTIC["warn_only"] else 2


# ---- float32 matmul precision and denormals: numpy has one way to compute each ---------------------------------
_MATMUL_PRECISION = ["highest"]


def set_float32_matmul_precision(precision):
    """Record "highest", "high" or "medium" (PyTorch may then use TF32 or bfloat16 inside float32 matmuls on a
    GPU); numpy's float32 matmul is always "highest", so only `get_float32_matmul_precision` changes."""
    if precision not in ("highest", "high", "medium"):
        warnings.warn(f"{precision} is not one of 'highest', 'high', or 'medium'; the currentsetFloat32MatmulPrecision "
                      "call has no effect. (Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/Context.cpp:458.)",
                      UserWarning, stacklevel=2)
        return
    _MATMUL_PRECISION[0] = precision


def get_float32_matmul_precision():
    return _MATMUL_PRECISION[0]


def set_flush_denormal(mode):
    """Return False, PyTorch's answer where flushing denormal floats to zero is not supported: numpy cannot switch
    the CPU's flush-to-zero flag, so minigrad keeps denormals (`torch.tensor([1e-323], dtype=torch.float64)` stays
    1e-323) either way."""
    if not isinstance(mode, builtins.bool):
        raise TypeError(f"_set_flush_denormal(): argument 'mode' (position 1) must be bool, not {type(mode).__name__}")
    return False


# ---- what PyTorch was built with, as minigrad's numpy answers ----------------------------------------------------
has_lapack = True           # numpy.linalg
has_mkl = has_openmp = has_spectral = False     # no MKL, no OpenMP thread pool, no FFT (complex numbers)


def compiled_with_cxx11_abi():
    return True             # PyTorch's wheels since 2.6; minigrad has no C++ to link against


def is_autocast_enabled(device_type=None):
    """False: minigrad has no mixed precision (autocast itself is refused: compat/refused.py)."""
    return False


def _false():
    return False


def is_autocast_cache_enabled():
    """True, PyTorch's default (autocast would cache its casts of weights), though minigrad never autocasts."""
    return True


def _deprecated_autocast_flag(device, line):
    def flag():
        warnings.warn(f"torch.is_autocast_{device}_enabled() is deprecated. Please use torch.is_autocast_enabled("
                      f"'{device}') instead. (Triggered internally at /__w/pytorch/pytorch/torch/csrc/autograd/"
                      f"init.cpp:{line}.)", DeprecationWarning, stacklevel=2)
        return False
    flag.__name__ = flag.__qualname__ = f"is_autocast_{device}_enabled"
    return flag


is_autocast_cpu_enabled = _deprecated_autocast_flag("cpu", 883)
is_autocast_ipu_enabled = _deprecated_autocast_flag("ipu", 909)
is_autocast_xla_enabled = _deprecated_autocast_flag("xla", 935)
is_vulkan_available = _false


# ---- warnings -------------------------------------------------------------------------------------------------
_WARN_ALWAYS = [False]


def set_warn_always(b):
    """Ask for PyTorch's once-per-process warnings every time: meshgrid's missing `indexing`, tensors made from a
    non-writable numpy array or a list of arrays, `float()` of a tensor that requires grad. (The other layers'
    once-per-process warnings, torch.cross without dim, ..., still warn once.) Mirrors `torch.set_warn_always`."""
    if not isinstance(b, builtins.bool):
        raise RuntimeError(f"setWarnOnlyOnce expects a bool, but got {type(b).__name__}")
    _WARN_ALWAYS[0] = b


def is_warn_always_enabled():
    return _WARN_ALWAYS[0]


# where PyTorch defines what minigrad defines elsewhere, for typename (the rest mirror torch's modules' names)
_TORCH_MODULES = {"minigrad.core.dtype": "torch", "minigrad._tensor.tensor": "torch",
                  "minigrad.nn.module": "torch.nn.modules.module", "minigrad.core.function": "torch.autograd.function",
                  "minigrad.core.grad_mode": "torch.autograd.grad_mode"}


def typename(obj, /):
    """The type of `obj` as a dotted name: a tensor's legacy type (`'torch.FloatTensor'`), else its class's module
    and name, with PyTorch's module names (`'torch.nn.modules.linear.Linear'`). Mirrors `torch.typename`."""
    if isinstance(obj, TensorBase):
        return obj.type()
    module = getattr(obj, "__module__", "") or ""
    if hasattr(obj, "__qualname__"):
        qualname = obj.__qualname__
    elif hasattr(obj, "__name__"):
        qualname = obj.__name__
    else:
        module, qualname = obj.__class__.__module__ or "", obj.__class__.__qualname__
    if module in ("", "builtins"):
        return qualname
    if module.startswith("minigrad"):
        module = _TORCH_MODULES.get(module, "torch" + module[len("minigrad"):])
    return f"{module}.{qualname}"
