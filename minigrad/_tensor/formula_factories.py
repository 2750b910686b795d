"""Factories whose values follow a formula: `torch.logspace`, the deprecated `torch.range` (end included), the
signal windows (`hann_window`, `hamming_window`, `blackman_window`, `bartlett_window`, `kaiser_window`), and
`torch.scalar_tensor`.

The windows are computed as ATen computes them, step by step in the requested dtype (a float32 window is float32
arithmetic), so their values are PyTorch's, including the rounding that leaves blackman_window(3)[0] at -2.98e-08
instead of 0. A periodic window (the default) is the symmetric one of length + 1 without its last value.
"""
import math
import warnings

import numpy as np

from ..core import dtype as _dtype
from .creation import tensor

__all__ = ["logspace", "range", "scalar_tensor", "hann_window", "hamming_window", "blackman_window",
           "bartlett_window", "kaiser_window"]


def _float_type(name, dtype):
    d = _dtype.default_float() if dtype is None else dtype
    if not d.is_floating_point:
        raise RuntimeError(f"{name} expects floating point dtypes, got: TensorOptions(dtype={_dtype.cpp_name(d)}, "
                           "device=cpu, layout=Strided (default), requires_grad=false (default), pinned_memory=false, "
                           "memory_format=(nullopt))")
    return d, d.np_type.type


def logspace(start, end, steps, base=10.0, *, dtype=None, requires_grad=False, device=None, layout=None,
             pin_memory=False, out=None):
    """`steps` values base**t for t evenly spaced from start to end, both included. Mirrors `torch.logspace`."""
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    d = _dtype.default_float() if dtype is None else dtype
    values = np.power(float(base), np.linspace(float(start), float(end), steps, dtype=np.float64))
    return tensor(values.astype(d.np_type) if d.is_floating_point else np.trunc(values).astype(d.np_type),
                  dtype=d, requires_grad=requires_grad)


def range(start=0, end=None, step=1, *, dtype=None, requires_grad=False, device=None, layout=None, out=None):
    """Values from start to end, end included, `step` apart, in a float dtype: deprecated in PyTorch (use arange).
    Mirrors `torch.range`."""
    warnings.warn("torch.range is deprecated and will be removed in a future release because its behavior is "
                  "inconsistent with Python's range builtin. Instead, use torch.arange, which produces values in "
                  "[start, end).", UserWarning, stacklevel=2)
    if end is None:
        start, end = 0, start
    d = _dtype.default_float() if dtype is None else dtype
    count = int(math.floor((end - start) / step)) + 1
    values = np.float64(start) + np.arange(count, dtype=np.float64) * step
    return tensor(values.astype(d.np_type), dtype=d, requires_grad=requires_grad)


def scalar_tensor(s, *, dtype=None, layout=None, device=None, pin_memory=None, requires_grad=False):
    """A 0-d tensor of the number s, in the default float dtype unless `dtype` says otherwise."""
    d = _dtype.default_float() if dtype is None else dtype
    return tensor(s, dtype=d, requires_grad=requires_grad)


def _window(name, window_length, periodic, dtype, requires_grad, fill):
    """The shared steps of ATen's windows: the length checks, the periodic length + 1, the final cut."""
    if window_length < 0:
        raise RuntimeError(f"{name} requires non-negative window_length, got window_length={window_length}")
    d, t = _float_type(name, dtype)
    if window_length == 0:
        return tensor(np.zeros(0, t), dtype=d, requires_grad=requires_grad)
    if window_length == 1:
        return tensor(np.ones(1, t), dtype=d, requires_grad=requires_grad)
    n = window_length + 1 if periodic else window_length
    values = fill(np.arange(n, dtype=t), n, t)
    return tensor((values[:-1] if periodic else values).astype(t), dtype=d, requires_grad=requires_grad)


def hamming_window(window_length, periodic=True, alpha=0.54, beta=0.46, *, dtype=None, layout=None, device=None,
                   pin_memory=False, requires_grad=False):
    """alpha - beta cos(2 pi n / (N - 1)). Mirrors `torch.hamming_window`."""
    return _window("hamming_window", window_length, periodic, dtype, requires_grad, _hamming(alpha, beta))


def _hamming(alpha, beta):
    def fill(k, n, t):
        return np.cos(k * t(math.pi * 2.0 / (n - 1))) * t(-beta) + t(alpha)
    return fill


def hann_window(window_length, periodic=True, *, dtype=None, layout=None, device=None, pin_memory=False,
                requires_grad=False):
    """0.5 - 0.5 cos(2 pi n / (N - 1)), the Hann window (a Hamming window with alpha = beta = 0.5). Mirrors
    `torch.hann_window`."""
    return _window("hann_window", window_length, periodic, dtype, requires_grad, _hamming(0.5, 0.5))


def blackman_window(window_length, periodic=True, *, dtype=None, layout=None, device=None, pin_memory=False,
                    requires_grad=False):
    """0.42 - 0.5 cos(2 pi n / (N - 1)) + 0.08 cos(4 pi n / (N - 1)). Mirrors `torch.blackman_window`."""
    def fill(k, n, t):
        w = k * t(math.pi / (n - 1))
        return (np.cos(w * t(4)) * t(0.08) - np.cos(w * t(2)) * t(0.5)) + t(0.42)
    return _window("blackman_window", window_length, periodic, dtype, requires_grad, fill)


def bartlett_window(window_length, periodic=True, *, dtype=None, layout=None, device=None, pin_memory=False,
                    requires_grad=False):
    """The triangle 1 - |2n / (N - 1) - 1|. Mirrors `torch.bartlett_window`."""
    def fill(k, n, t):
        w = k * t(2.0 / (n - 1))
        half = ((n - 1) >> 1) + 1
        w[half:] = w[half:] * t(-1) + t(2)
        return w
    return _window("bartlett_window", window_length, periodic, dtype, requires_grad, fill)


def kaiser_window(window_length, periodic=True, beta=12.0, *, dtype=None, layout=None, device=None,
                  pin_memory=False, requires_grad=False):
    """I0(beta sqrt(1 - ((n - alpha) / alpha)**2)) / I0(beta), alpha = (N - 1) / 2. Mirrors
    `torch.kaiser_window`."""
    def fill(k, n, t):
        alpha = t((n - 1) / 2.0)
        inner = np.sqrt(np.abs(1 - ((k - alpha) / alpha) ** t(2.0)))
        return (np.i0(t(beta) * inner) / np.i0(t(beta))).astype(t)
    return _window("kaiser_window", window_length, periodic, dtype, requires_grad, fill)
