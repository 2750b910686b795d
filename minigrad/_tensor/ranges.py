"""`arange` and `linspace` with PyTorch's values to the last bit, and its checks.

numpy's `arange` and `linspace` round differently from ATen's CPU kernels, which print the same to four digits but
differ in the last bit (`torch.arange(0, 1, 0.1)[3] == 0.3` is a comparison that then disagrees). ATen computes:

- arange, float32 and float64: in float64, `start + step * i` with the multiply-add fused. Blocks of 16 float32
  (8 float64) elements, two 256-bit vectors, take the first element of each vector that way and add
  `k * step` (fused, in float64) to it rounded to the dtype; the elements after the last whole block are computed
  one by one. (For more than 32768 elements PyTorch splits the work between threads, and where a thread's part
  starts moves the blocks: this reproduces the single-thread layout.)
- linspace: one at a time in the dtype, `start + step * i` for the first half and `end - step * (steps - 1 - i)`
  for the second, fused, with step = (end - start) / (steps - 1).
"""
import math

import numpy as np

from ..core import dtype as _dtype
from ..compat.fma import fma32, fma64
from ..core.tensor import TensorBase

_VECTOR_BYTES = 32        # ATen's arange kernel runs with AVX2 vectors: 8 float32 or 4 float64 lanes


def _number(value):
    return value.item() if isinstance(value, TensorBase) else value


def arange_values(start, end, step, dtype):
    """The values of `torch.arange(start, end, step, dtype=dtype)` as a numpy array (dtype None: inferred)."""
    start, end, step = (_number(v) for v in (start, end, step))
    if dtype is None:
        floats = any(isinstance(v, float) for v in (start, end, step))
        dtype = _dtype.default_float() if floats else _dtype.int64
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if not all(math.isfinite(v) for v in (start, end)):
        raise RuntimeError(f"unsupported range: {_cpp(start)} -> {_cpp(end)}")
    if (end - start) * step < 0:
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    np_type = dtype.np_type
    if not dtype.is_floating_point:
        if int(step) == 0:
            raise ValueError("step must be nonzero")
        if dtype is _dtype.int64:                    # ATen's integer formula, on the truncated bounds
            start, end, step = int(start), int(end), int(step)
            sign = (step > 0) - (step < 0)
            n = (end - start + step - sign) // step
        else:
            n = math.ceil((end - start) / step)
            start, step = int(start), int(step)
        return (start + step * np.arange(max(n, 0), dtype=np.int64)).astype(np_type)
    n = max(math.ceil((end - start) / step), 0)
    start, step = float(start), float(step)
    lanes = _VECTOR_BYTES // np_type.itemsize
    whole = n - n % (2 * lanes)
    values = np.empty(n, np_type)
    firsts = fma64(step, np.arange(0, whole, lanes, dtype=np.float64), start).astype(np_type).astype(np.float64)
    lane = np.arange(lanes, dtype=np.float64)
    values[:whole] = fma64(lane[None, :], step, firsts[:, None]).astype(np_type).ravel()
    values[whole:] = fma64(step, np.arange(whole, n, dtype=np.float64), start).astype(np_type)
    return values


def linspace_values(start, end, steps, dtype):
    """The values of `torch.linspace(start, end, steps, dtype=dtype)` as a numpy array (dtype None: float32)."""
    start, end = _number(start), _number(end)
    if not isinstance(steps, (int, np.integer)) or isinstance(steps, bool):
        kinds = ", ".join("Tensor" if type(v).__name__ == "Tensor" else type(v).__name__ for v in (start, end, steps))
        raise TypeError(_LINSPACE_USAGE.format(kinds))
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    dtype = dtype or _dtype.default_float()
    np_type = dtype.np_type
    if steps <= 1:                                  # one step is the start alone
        return np.full(steps, start).astype(np_type)
    if not dtype.is_floating_point:                 # integers: the step is a float64, the values truncated
        start, end = int(start), int(end)
        step = (float(end) - float(start)) / (steps - 1) if steps > 1 else 0.0
        i = np.arange(steps, dtype=np.float64)
        low, high = fma64(step, i, float(start)), fma64(-step, steps - 1 - i, float(end))
        return np.where(i < steps // 2, low, high).astype(np_type)
    fma = fma32 if np_type == np.float32 else fma64
    real = np.float32 if np_type == np.float16 else np_type.type     # float16 computed in float32 here
    start, end = real(start), real(end)
    step = (end - start) / real(steps - 1) if steps > 1 else real(0)
    i = np.arange(steps, dtype=real)
    low, high = fma(step, i, start), fma(-step, real(steps - 1) - i, end)
    return np.where(np.arange(steps) < steps // 2, low, high).astype(np_type)


def _cpp(x):
    return str(x) if isinstance(x, int) else f"{x:g}"


_LINSPACE_USAGE = (
    "linspace() received an invalid combination of arguments - got ({}), but expected one of:\n"
    " * (Tensor start, Tensor end, int steps, *, Tensor out = None, torch.dtype dtype = None, torch.layout layout = "
    "None, torch.device device = None, bool pin_memory = False, bool requires_grad = False)\n"
    " * (Number start, Tensor end, int steps, *, Tensor out = None, torch.dtype dtype = None, torch.layout layout = "
    "None, torch.device device = None, bool pin_memory = False, bool requires_grad = False)\n"
    " * (Tensor start, Number end, int steps, *, Tensor out = None, torch.dtype dtype = None, torch.layout layout = "
    "None, torch.device device = None, bool pin_memory = False, bool requires_grad = False)\n"
    " * (Number start, Number end, int steps, *, Tensor out = None, torch.dtype dtype = None, torch.layout layout = "
    "None, torch.device device = None, bool pin_memory = False, bool requires_grad = False)\n")
