"""Parity harness: run one example on real PyTorch and on minigrad, and compare all that a learner can see.

An *example* is a function ``example(lib)`` written against the public torch API, where ``lib`` is the
module ``torch`` or ``minigrad``. ``run_both(example, torch, minigrad)`` runs it once on each and asserts that both

- raised the same exception (type name, builtin base classes, full ``str(exc)``), or returned the same value:
  nested tuples/lists/dicts of tensors (values, dtype, shape, requires_grad, grad_fn name), ``Size``, numbers,
  strings (so reprs are compared exactly), bools and None;
- printed the same text to stdout (parity_printed.py: the same lines; floats to a tolerance only if asked);
- emitted the same warnings (category and message, in order of first appearance).

"Both raised the same exception" counts only when the library raised it: an exception whose traceback never
enters minigrad (a typo such as ``actions["missing_atribute"]()`` raises KeyError on both sides) is the
test's own error, and fails as such.

A whole program can be compared too, each library in a fresh interpreter (tests/tutorials): the interpreter
reports its exception with ``report_error``, ``program_outcome`` reads the run back as an Outcome, and the same
``compare_outcomes`` decides. Used by tests/parity (``run_both`` fixture), tests/nn and tests/core (``parity``
fixture, tests/conftest.py), tests/tutorials (programs) and tests/book (printed text).
"""
import contextlib
import io
import json
import math
import os
import warnings
from dataclasses import asdict, dataclass, field

import numpy as np
from parity_printed import clean_text, compare_printed, first_difference

# Float tensors and floats are compared with this tolerance: minigrad computes in numpy, torch in ATen.
# A caller may ask for another (rtol=0, atol=0: exactly equal; float64 derivatives: 1e-10).
RTOL, ATOL = 1e-4, 1e-6
_DTYPES = ("float32", "float64", "int64", "bool")


@dataclass(frozen=True)
class Raised:
    """An exception as the harness compares it: its type's name, builtin bases and cleaned message; and, when its
    traceback never entered the library, where the test itself raised it ('file:line')."""
    type: str
    bases: tuple
    message: str
    raised_in: str = None

    @classmethod
    def of(cls, exc, lib):
        bases = tuple(c.__name__ for c in type(exc).__mro__ if c.__module__ == "builtins")
        return cls(type(exc).__name__, bases, clean_text(str(exc)), raised_outside(exc, lib))


@dataclass
class Outcome:
    """What one library did with one example (or, with ``exit_status``, with one program)."""
    label: str
    lib: object = None
    value: object = None
    error: BaseException = None   # the exception itself (runs in this interpreter)
    raised: Raised = None         # what the harness compares of it
    stdout: str = ""
    warnings: list = field(default_factory=list)
    stderr: str = ""              # program runs: shown in a failure message
    exit_status: int = None       # program runs: the interpreter's exit status


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
            outcome.error, outcome.raised = exc, Raised.of(exc, lib)
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
    if isinstance(exc, (AttributeError, TypeError)) or getattr(lib, "__file__", None) is None:
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
    if value is None or isinstance(value, (bool, int, float)):
        return value
    if isinstance(value, str):
        return clean_text(value)
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
    if isinstance(value, np.ndarray):
        return {"ndarray": value.tolist(), "dtype": str(value.dtype)}
    raise TypeError(f"example returned a {type(value).__name__}: return names, reprs or values instead")


def show(plain):
    """Render described data briefly for a failure message."""
    if isinstance(plain, dict) and "tensor" in plain:
        extras = "".join(f", {k}={plain[k]!r}" for k in ("requires_grad", "grad_fn") if plain[k])
        return f"tensor({plain['tensor'].tolist()}, dtype={plain['dtype']}, shape={plain['shape']}{extras})"
    return repr(plain)


def _mismatch(path, torch_plain, other_plain, other_label):
    return AssertionError(f"{path or 'result'}: torch gave {show(torch_plain)}, {other_label} gave {show(other_plain)}"
                          + first_difference(torch_plain, other_plain))


def compare_plain(t, m, other_label="minigrad", path="", rtol=RTOL, atol=ATOL):
    """Assert that two described values are equal; the message says where and what each library gave."""
    if isinstance(t, dict) and "tensor" in t:
        if not (isinstance(m, dict) and "tensor" in m):
            raise _mismatch(path, t, m, other_label)
        for key in ("dtype", "shape", "requires_grad", "grad_fn"):
            if t[key] != m[key]:
                raise _mismatch(f"{path}.{key}", t, m, other_label)
        tv, mv = t["tensor"], m["tensor"]
        same = (np.allclose(tv, mv, rtol=rtol, atol=atol, equal_nan=True) if t["dtype"].startswith("torch.float")
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
            compare_plain(a, b, other_label, f"{path}[{i}]", rtol, atol)
    elif isinstance(t, dict):
        if set(t) != set(m):
            raise _mismatch(f"{path} keys", sorted(t, key=str), sorted(m, key=str), other_label)
        for k in t:
            compare_plain(t[k], m[k], other_label, f"{path}[{k!r}]", rtol, atol)
    elif isinstance(t, float):
        if not (math.isclose(t, m, rel_tol=rtol, abs_tol=atol) or (math.isnan(t) and math.isnan(m))):
            raise _mismatch(path, t, m, other_label)
    elif t != m:
        raise _mismatch(path, t, m, other_label)


def _compared(raised, msg_prefix, first_line):
    if raised is None:
        return None
    message = raised.message
    if first_line:
        message = message.splitlines()[0] if message else message
    return raised.type, list(raised.bases), message[:len(msg_prefix)] if msg_prefix else message


def _gave(outcome, summary, located=False):
    if summary is None:
        return "ran to the end" if outcome.exit_status is not None else f"returned {outcome.value!r}"
    name, bases, message = summary
    where = f", at {outcome.raised.raised_in}, never inside minigrad" if located and outcome.raised.raised_in else ""
    return f"raised {name}: {message!r} (bases {bases}{where})" if bases else f"ended with {name}: {message!r}"


def compare_errors(t, m, msg_prefix=None, first_line=False):
    """Assert that outcome ``m`` raised what torch's ``t`` raised, or that neither raised (see compare_outcomes)."""
    if msg_prefix is not None and t.raised is not None:
        assert t.raised.message.startswith(msg_prefix), (
            f"the test is wrong: torch's message {t.raised.message!r} does not start with {msg_prefix!r}")
    if (m.raised is not None and m.raised.raised_in is not None and m.label == "minigrad"
            and t.raised is not None and t.raised.type == m.raised.type):
        raise AssertionError(f"the test itself raised {m.raised.type}: {m.raised.message} (at {m.raised.raised_in}, "
                             "never inside minigrad): that is a bug in the test, not parity; torch raised it too")
    te, me = _compared(t.raised, msg_prefix, first_line), _compared(m.raised, msg_prefix, first_line)
    if te != me:
        raise AssertionError(f"torch {_gave(t, te)}\n{m.label} {_gave(m, me, located=m.label == 'minigrad')}"
                             + first_difference(te and te[2], me and me[2]))


def compare_outcomes(t, m, msg_prefix=None, first_line=False, rtol=RTOL, atol=ATOL, printed=None):
    """Assert that outcome ``m`` matches the reference outcome ``t`` from torch.

    ``msg_prefix``: compare exception messages only up to this stated prefix, which torch's message must start with.
    ``first_line``: compare only the first line of exception messages (gradcheck's next lines print numbers).
    ``rtol``, ``atol``: for returned floats and float tensors (0 and 0: exactly equal).
    ``printed``: (rtol, atol) for the floats in printed lines; without it, the printed text must be identical.
    """
    compare_errors(t, m, msg_prefix, first_line)
    if t.raised is None:
        expected = describe(t.value, t.lib)
        try:
            got = describe(m.value, m.lib)
        except Exception as exc:  # noqa: BLE001  e.g. a tensor without .grad_fn.name() or .tolist()
            raise AssertionError(f"torch returned {t.value!r}\n{m.label} returned {m.value!r}, "
                                 f"which the harness cannot read: {exc!r}") from exc
        compare_plain(expected, got, m.label, rtol=rtol, atol=atol)
    compare_printed(t.stdout, m.stdout, m.label, printed)
    if t.warnings != m.warnings:
        raise AssertionError(f"warnings differ\ntorch warned: {t.warnings}\n{m.label} warned: {m.warnings}"
                             + first_difference(t.warnings, m.warnings))


def run_both(example, reference, other, label="minigrad", **options):
    """Run ``example`` on ``reference`` (torch) and on ``other``, assert that they behave the same (``options``: those
    of compare_outcomes), and return torch's Outcome."""
    t = run_example(example, reference, "torch")
    compare_outcomes(t, run_example(example, other, label), **options)
    return t


# ---- programs, each run in a fresh interpreter (tests/tutorials) ---------------------------------------------
def report_error(exc, lib, path):
    """Write what the harness compares of ``exc`` (raised by a program on ``lib``) to ``path``, as JSON."""
    with open(path, "w", encoding="utf-8") as f:
        json.dump(asdict(Raised.of(exc, lib)), f)


def program_outcome(label, stdout, stderr, exit_status, report_path):
    """Read a program's run in its own interpreter back as an Outcome: what it printed, and the exception it reported
    to ``report_path`` (see report_error) or, if it ended with another non-zero status, that status."""
    raised = None
    if exit_status == 1 and os.path.exists(report_path):     # 1: Python's status after an uncaught exception
        with open(report_path, encoding="utf-8") as f:
            data = json.load(f)
        raised = Raised(data["type"], tuple(data["bases"]), data["message"], data["raised_in"])
    elif exit_status != 0:
        last = stderr.strip().splitlines()[-1:] or [""]
        raised = Raised(f"exit status {exit_status}", (), last[0])
    return Outcome(label, raised=raised, stdout=clean_text(stdout), stderr=stderr, exit_status=exit_status)
