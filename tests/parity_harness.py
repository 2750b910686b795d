"""Parity harness: run one example on real PyTorch and on minigrad, and compare all that a learner can see.

An *example* is a function ``example(lib)`` written against the public torch API, where ``lib`` is the
module ``torch`` or ``minigrad``. ``run_both(example)`` runs it once on each and asserts that both

- raised the same exception (type name, builtin base classes, full ``str(exc)``), or returned the same value:
  nested tuples/lists/dicts of tensors (values, dtype, shape, requires_grad, grad_fn name), ``Size``, numbers,
  strings (so reprs are compared exactly), bools and None;
- printed the same text to stdout;
- emitted the same warnings (category and message, in order of first appearance).

"Both raised the same exception" counts only when the library raised it: an exception whose traceback never
enters minigrad (a typo such as ``actions["missing_atribute"]()`` raises KeyError on both sides) is the
test's own error, and fails as such. Used by tests/parity (``run_both``) and tests/nn (``parity``).
"""
import contextlib
import io
import math
import os
import re
import warnings
from dataclasses import dataclass, field

import numpy as np

# Float tensors and floats are compared with this tolerance: minigrad computes in numpy, torch in ATen.
RTOL, ATOL = 1e-4, 1e-6

# torch appends the C++ source location to messages raised or warned from C++, e.g.
# " (Triggered internally at /__w/pytorch/pytorch/build/aten/src/ATen/core/TensorBody.h:493.)".
# It is cut off from torch's text before comparing: minigrad has no C++ source to point at.
_CPP_LOCATION = re.compile(r" \(Triggered internally at [^)]*\)\s*$")
# Memory addresses in reprs (`<MulBackward0 object at 0x7f...>`) differ from run to run.
_ADDRESS = re.compile(r"\b0x[0-9a-fA-F]+\b")
_DTYPES = ("float32", "float64", "int64", "bool")


def clean_text(text):
    """Return ``text`` without torch's C++ source location and with memory addresses blanked."""
    return _ADDRESS.sub("0xADDRESS", _CPP_LOCATION.sub("", text))


@dataclass
class Outcome:
    """What one library did with one example."""
    label: str
    lib: object
    value: object = None
    error: BaseException = None
    stdout: str = ""
    warnings: list = field(default_factory=list)
    raised_in: str = None     # for an error that never entered the library: where the test itself raised it


# Warnings both libraries give once per process (PyTorch's TORCH_WARN_ONCE): left out of the comparison
ONCE_PER_PROCESS = ("Using backward() with create_graph=True will create a reference cycle",)


def run_example(example, lib, label):
    """Run ``example(lib)`` capturing its value or exception, its stdout and its warnings."""
    out = io.StringIO()
    outcome = Outcome(label, lib)
    # enable_grad on the way out: an example that fails inside no_grad must not leak that mode to the next one
    restore_grad_mode = getattr(lib, "enable_grad", contextlib.nullcontext)
    with warnings.catch_warnings(record=True) as caught, contextlib.redirect_stdout(out), restore_grad_mode():
        warnings.simplefilter("always")
        try:
            outcome.value = example(lib)
        except Exception as exc:  # noqa: BLE001  any exception is part of the behaviour being compared
            outcome.error = exc
            outcome.raised_in = raised_outside(exc, lib)
    outcome.stdout = clean_text(out.getvalue())
    for w in caught:
        entry = (w.category.__name__, clean_text(str(w.message)))
        if str(w.message).startswith(ONCE_PER_PROCESS):
            continue        # whether it shows depends on what ran before: test_parity_warn_once.py checks it
        if entry not in outcome.warnings:
            outcome.warnings.append(entry)
    return outcome


def raised_outside(exc, lib):
    """Return 'file:line' where `exc` was raised if its traceback never entered `lib`'s package, else None.

    Only meaningful for a library written in Python (minigrad): torch raises many errors from C++, which leaves
    no Python frame of its own. AttributeError and TypeError are the library's even without a frame of it.
    """
    if isinstance(exc, (AttributeError, TypeError)):
        return None     # Python raises these for the library's objects (a missing method, a wrong signature)
    package = os.path.dirname(os.path.abspath(lib.__file__)) + os.sep
    tb, last = exc.__traceback__, None
    while tb is not None:
        filename = os.path.abspath(tb.tb_frame.f_code.co_filename)
        if filename.startswith(package):
            return None
        last = f"{os.path.basename(filename)}:{tb.tb_lineno}"
        tb = tb.tb_next
    return last


def describe(value, lib):
    """Turn a returned value into plain data: tensors become dicts, tuple subclasses become tuples."""
    if isinstance(value, lib.Tensor):
        grad_fn = value.grad_fn
        return {"tensor": np.array(value.detach().tolist()), "dtype": str(value.dtype),
                "shape": tuple(value.shape), "requires_grad": value.requires_grad,
                "grad_fn": None if grad_fn is None else grad_fn.name()}
    if isinstance(value, lib.Size):
        return ("Size", tuple(value))
    if any(value is getattr(lib, name, None) for name in _DTYPES):
        return ("dtype", str(value))
    if isinstance(value, (tuple, list)):  # torch.return_types.sort and namedtuples compare as tuples
        kind = list if isinstance(value, list) else tuple
        return kind(describe(v, lib) for v in value)
    if isinstance(value, dict):
        return {k: describe(v, lib) for k, v in value.items()}
    if isinstance(value, str):
        return clean_text(value)
    if isinstance(value, np.ndarray):
        return {"ndarray": value.tolist(), "dtype": str(value.dtype)}
    if value is None or isinstance(value, (bool, int, float)):
        return value
    raise TypeError(f"example returned a {type(value).__name__}: return names, reprs or values instead")


def show(plain):
    """Render described data briefly for a failure message."""
    if isinstance(plain, dict) and "tensor" in plain:
        extras = "".join(f", {k}={plain[k]!r}" for k in ("requires_grad", "grad_fn") if plain[k])
        return f"tensor({plain['tensor'].tolist()}, dtype={plain['dtype']}, shape={plain['shape']}{extras})"
    return repr(plain)


def first_difference(a, b):
    """Point at the first character where two long texts differ ('' for short or equal texts)."""
    a, b = str(a), str(b)
    if a == b or max(len(a), len(b)) < 60:
        return ""
    i = next((k for k, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    around = slice(max(0, i - 20), i + 20)
    return f"\n(first difference at character {i}: torch ...{a[around]!r}, other ...{b[around]!r})"


def _mismatch(path, torch_plain, other_plain, other_label):
    return AssertionError(f"{path or 'result'}: torch gave {show(torch_plain)}, {other_label} gave {show(other_plain)}"
                          + first_difference(torch_plain, other_plain))


def compare_plain(t, m, other_label="minigrad", path=""):
    """Assert that two described values are equal; the message says where and what each library gave."""
    if isinstance(t, dict) and "tensor" in t:
        if not (isinstance(m, dict) and "tensor" in m):
            raise _mismatch(path, t, m, other_label)
        for key in ("dtype", "shape", "requires_grad", "grad_fn"):
            if t[key] != m[key]:
                raise _mismatch(f"{path}.{key}", t, m, other_label)
        tv, mv = t["tensor"], m["tensor"]
        same = (np.allclose(tv, mv, rtol=RTOL, atol=ATOL, equal_nan=True) if t["dtype"].startswith("torch.float")
                else np.array_equal(tv, mv))
        if not same:
            raise _mismatch(f"{path} values", t, m, other_label)
        return
    if type(t) is not type(m):
        raise _mismatch(f"{path} (type {type(t).__name__} vs {type(m).__name__})", t, m, other_label)
    if isinstance(t, (tuple, list)):
        if len(t) != len(m):
            raise _mismatch(f"{path} (length {len(t)} vs {len(m)})", t, m, other_label)
        for i, (a, b) in enumerate(zip(t, m)):
            compare_plain(a, b, other_label, f"{path}[{i}]")
    elif isinstance(t, dict):
        if set(t) != set(m):
            raise _mismatch(f"{path} keys", sorted(t, key=str), sorted(m, key=str), other_label)
        for k in t:
            compare_plain(t[k], m[k], other_label, f"{path}[{k!r}]")
    elif isinstance(t, float):
        if not (math.isclose(t, m, rel_tol=RTOL, abs_tol=ATOL) or (math.isnan(t) and math.isnan(m))):
            raise _mismatch(path, t, m, other_label)
    elif t != m:
        raise _mismatch(path, t, m, other_label)


def _error_summary(exc, msg_prefix):
    if exc is None:
        return None
    message = clean_text(str(exc))
    bases = [c.__name__ for c in type(exc).__mro__ if c.__module__ == "builtins"]
    return type(exc).__name__, bases, message[:len(msg_prefix)] if msg_prefix else message


def compare_outcomes(t, m, msg_prefix=None):
    """Assert that outcome ``m`` matches the reference outcome ``t`` from torch.

    ``msg_prefix``: compare exception messages only up to this stated prefix, which torch's message must start with.
    """
    if msg_prefix is not None and t.error is not None:
        assert clean_text(str(t.error)).startswith(msg_prefix), (
            f"the test is wrong: torch's message {str(t.error)!r} does not start with {msg_prefix!r}")
    if m.error is not None and m.raised_in is not None and m.label == "minigrad":
        raise AssertionError(f"the test itself raised {type(m.error).__name__}: {m.error} (at {m.raised_in}, "
                             "never inside minigrad): that is a bug in the test, not parity"
                             + ("; torch raised it too" if type(t.error) is type(m.error) else ""))
    if t.error is not None or m.error is not None:
        te, me = _error_summary(t.error, msg_prefix), _error_summary(m.error, msg_prefix)
        if te != me:
            gave_t = f"raised {te[0]}: {te[2]!r} (bases {te[1]})" if te else f"returned {t.value!r}"
            gave_m = f"raised {me[0]}: {me[2]!r} (bases {me[1]})" if me else f"returned {m.value!r}"
            raise AssertionError(f"torch {gave_t}\n{m.label} {gave_m}" + first_difference(te and te[2], me and me[2]))
    else:
        expected = describe(t.value, t.lib)
        try:
            got = describe(m.value, m.lib)
        except Exception as exc:  # noqa: BLE001  e.g. a tensor without .grad_fn.name() or .tolist()
            raise AssertionError(f"torch returned {t.value!r}\n{m.label} returned {m.value!r}, "
                                 f"which the harness cannot read: {exc!r}") from exc
        compare_plain(expected, got, m.label)
    if t.stdout != m.stdout:
        raise AssertionError(f"printed text differs\ntorch printed:\n{t.stdout}\n{m.label} printed:\n{m.stdout}"
                             + first_difference(t.stdout, m.stdout))
    if t.warnings != m.warnings:
        raise AssertionError(f"warnings differ\ntorch warned: {t.warnings}\n{m.label} warned: {m.warnings}"
                             + first_difference(t.warnings, m.warnings))


