"""`torch.testing.assert_close`: assert that two tensors (or numbers, or nested lists, tuples and dicts of them)
are close, with PyTorch's default tolerances per dtype and its failure report (how many elements mismatch, the
greatest differences and where).

    |actual - expected| <= atol + rtol * |expected|, elementwise; the defaults (rtol, atol): float16 (1e-3, 1e-5),
    float32 (1.3e-6, 1e-5), float64 and Python floats (1e-7, 1e-7), integers and bools (0, 0): equal.

Written from torch/testing/_comparison.py's behaviour; tensors compare their shape and, unless told otherwise,
their dtype first.
"""
import math
from collections.abc import Mapping, Sequence

import numpy as np

from .core.tensor import TensorBase

__all__ = ["assert_close", "assert_allclose"]

_TOLERANCES = {np.dtype(np.float16): (1e-3, 1e-5), np.dtype(np.float32): (1.3e-6, 1e-5),
               np.dtype(np.float64): (1e-7, 1e-7)}


def _tolerances(*dtypes):
    pairs = [_TOLERANCES.get(np.dtype(d), (0.0, 0.0)) for d in dtypes]
    return max(p[0] for p in pairs), max(p[1] for p in pairs)


def assert_close(actual, expected, *, allow_subclasses=True, rtol=None, atol=None, equal_nan=False, check_device=True,
                 check_dtype=True, check_layout=True, check_stride=False, msg=None):
    """Raise an AssertionError with PyTorch's report unless `actual` and `expected` are close. Mirrors
    `torch.testing.assert_close`.

    Example:
        >>> torch.testing.assert_close(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.0 + 1e-7]))
    """
    if (rtol is None) != (atol is None):
        raise ValueError(f"Both 'rtol' and 'atol' must be either specified or omitted, but got no "
                         f"{'atol' if atol is None else 'rtol'}.")
    _compare(actual, expected, [], dict(rtol=rtol, atol=atol, equal_nan=equal_nan, check_dtype=check_dtype,
                                        check_stride=check_stride, msg=msg))


def assert_allclose(actual, expected, rtol=None, atol=None, equal_nan=True, msg=""):
    """PyTorch's deprecated form of `assert_close` (nan equal to nan by default)."""
    assert_close(actual, expected, rtol=rtol, atol=atol, equal_nan=equal_nan, check_dtype=False, msg=msg or None)


def _compare(actual, expected, path, options):
    number = (int, float, bool)
    if isinstance(actual, TensorBase) and isinstance(expected, TensorBase):
        return _compare_tensors(actual, expected, path, options)
    if isinstance(actual, number) and isinstance(expected, number):
        return _compare_scalars(actual, expected, path, options)
    if isinstance(actual, Mapping) and isinstance(expected, Mapping):
        if set(actual) != set(expected):
            _fail(f"The keys of the mappings do not match:\nActual keys: {sorted(actual)}\nExpected keys: "
                  f"{sorted(expected)}", path, options)
        for key in expected:
            _compare(actual[key], expected[key], path + [repr(key)], options)
        return None
    sequence = (Sequence,)
    if (isinstance(actual, sequence) and isinstance(expected, sequence) and not isinstance(actual, str)
            and not isinstance(expected, str)):
        if len(actual) != len(expected):
            _fail(f"The length of the sequences mismatch: {len(actual)} != {len(expected)}", path, options)
        for k, (a, e) in enumerate(zip(actual, expected)):
            _compare(a, e, path + [str(k)], options)
        return None
    raise TypeError(f"No comparison pair was able to handle inputs of type {_type_name(actual)} and "
                    f"{_type_name(expected)}.")


def _type_name(value):
    if isinstance(value, TensorBase):
        return "<class 'torch.Tensor'>"
    return str(type(value))


def _fail(message, path, options):
    if options["msg"] is not None:
        message = options["msg"](message) if callable(options["msg"]) else options["msg"]
    elif path:
        message += f"\n\nThe failure occurred for item {''.join(f'[{p}]' for p in path)}"
    raise AssertionError(message)


def _compare_tensors(actual, expected, path, options):
    if actual.shape != expected.shape:
        _fail(f"The values for attribute 'shape' do not match: {actual.shape} != {expected.shape}.", path, options)
    if options["check_dtype"] and actual.dtype is not expected.dtype:
        _fail(f"The values for attribute 'dtype' do not match: {actual.dtype} != {expected.dtype}.", path, options)
    if options["check_stride"] and actual.stride() != expected.stride():
        _fail(f"The values for attribute 'stride()' do not match: {actual.stride()} != {expected.stride()}.", path,
              options)
    a, e = actual.detach()._data, expected.detach()._data
    rtol, atol = options["rtol"], options["atol"]
    if rtol is None:
        rtol, atol = _tolerances(a.dtype, e.dtype)
    common = np.result_type(a, e)
    a, e = a.astype(common), e.astype(common)
    if common.kind == "b":
        a, e = a.astype(np.int64), e.astype(np.int64)
    close = _isclose(a, e, rtol, atol, options["equal_nan"])
    if close.all():
        return
    diff = np.abs(a - e) if a.dtype.kind == "f" else np.abs(a.astype(np.int64) - e.astype(np.int64))
    floating = diff.astype(np.float32 if a.dtype.itemsize <= 4 or a.dtype.kind != "f" else a.dtype)
    with np.errstate(divide="ignore", invalid="ignore"):
        relative = floating / np.abs(e.astype(floating.dtype))
    equal = rtol == 0 and atol == 0
    lines = [f"Tensor-likes are not {'equal' if equal else 'close'}!", "",
             f"Mismatched elements: {int((~close).sum())} / {close.size} ({(~close).sum() / close.size:.1%})"]
    for label, values, allowed in (("absolute", diff, atol), ("relative", relative, rtol)):
        flat = np.where(close, 0, values).reshape(-1)         # the greatest among the mismatches only
        at = int(np.argmax(np.where(np.isnan(flat), np.inf, flat))) if flat.size else 0
        index = tuple(int(i) for i in np.unravel_index(at, values.shape)) if values.ndim else ()
        value = flat[at].item() if flat.size else 0
        line = f"Greatest {label} difference: {value} at index {index}"
        lines.append(line if equal else line + f" (up to {allowed} allowed)")
    _fail("\n".join(lines), path, options)


def _isclose(a, e, rtol, atol, equal_nan):
    if a.dtype.kind != "f":
        return np.abs(a.astype(np.float64) - e.astype(np.float64)) <= atol + rtol * np.abs(e.astype(np.float64))
    with np.errstate(invalid="ignore", over="ignore"):
        close = (a == e) | (np.abs(a - e) <= atol + rtol * np.abs(e))
    return close | (np.isnan(a) & np.isnan(e)) if equal_nan else close


def _compare_scalars(actual, expected, path, options):
    rtol, atol = options["rtol"], options["atol"]
    if rtol is None:
        rtol, atol = (1e-7, 1e-7) if isinstance(actual, float) or isinstance(expected, float) else (0, 0)
    if actual == expected or (options["equal_nan"] and actual != actual and expected != expected):
        return
    difference = abs(actual - expected)
    if difference <= atol + rtol * abs(expected):
        return
    equal = rtol == 0 and atol == 0
    relative = difference / abs(expected) if expected != 0 else math.inf
    lines = [f"Scalars are not {'equal' if equal else 'close'}!", "", f"Expected {expected} but got {actual}."]
    lines.append(f"Absolute difference: {difference}" + ("" if equal else f" (up to {atol} allowed)"))
    lines.append(f"Relative difference: {relative}" + ("" if equal else f" (up to {rtol} allowed)"))
    _fail("\n".join(lines), path, options)
