"""Parity fixtures for tests/parity: `run_both(example)` runs one example on torch and on minigrad and compares
them with the one harness of the test suite, tests/parity_harness.py (read its docstring).

Torch is the reference. Without torch every parity test is skipped, except in CI (``CI=true``), where a missing
torch is an error. ``MINIGRAD_PARITY_SELF=1`` compares torch with itself, to check the tests themselves;
``PARITY_RECORD=file.jsonl`` appends what torch raised, warned and named (see make_torch_texts.py).
"""
import json
import os
import re

import pytest
from parity_harness import clean_text, compare_outcomes, describe, run_example
from torch_reference import TORCH_MISSING

try:
    import torch
except ModuleNotFoundError:
    if os.environ.get("CI") == "true":
        raise  # CI installs torch==2.13.0: there, a missing torch is an error, never a skip
    torch = None  # every test in this folder skips (_needs_torch); skipping here would abort `pytest tests/parity`

SELF_CHECK = os.environ.get("MINIGRAD_PARITY_SELF") == "1"
RECORD = os.environ.get("PARITY_RECORD")


def _import_other():
    if SELF_CHECK:
        return torch, "torch (self-check)"
    try:
        import minigrad
    except Exception as exc:  # noqa: BLE001
        pytest.fail(f"minigrad is not importable: {exc!r}", pytrace=False)
    return minigrad, "minigrad"


def _record(nodeid, outcome):
    """Append torch's texts (errors, warnings, grad_fn names) for TORCH_TEXTS.md."""
    names = set()

    def walk(v):
        if isinstance(v, torch.Tensor) and v.grad_fn is not None:
            names.add(v.grad_fn.name())
        elif isinstance(v, (tuple, list)):
            for x in v:
                walk(x)
        elif isinstance(v, dict):
            for x in v.values():
                walk(x)
        elif isinstance(v, str) and re.fullmatch(r"(\w+Backward\d*|torch::autograd::\w+)", v):
            names.add(v)
    walk(outcome.value)
    error = None if outcome.error is None else [type(outcome.error).__name__, clean_text(str(outcome.error))]
    with open(RECORD, "a", encoding="utf-8") as f:
        f.write(json.dumps({"test": nodeid, "error": error, "warnings": outcome.warnings,
                            "grad_fns": sorted(names), "value": repr(outcome.value)[:400],
                            "stdout": outcome.stdout}) + "\n")


@pytest.fixture(autouse=True)
def _needs_torch():
    if torch is None:
        pytest.skip(TORCH_MISSING)


@pytest.fixture
def run_both(request):
    """Run ``example(lib)`` on torch and on minigrad and assert they behave the same (see module docstring)."""
    def run(example, msg_prefix=None):
        other, label = _import_other()
        t = run_example(example, torch, "torch")
        if RECORD:
            _record(request.node.nodeid, t)
        m = run_example(example, other, label)
        compare_outcomes(t, m, msg_prefix)
        return t
    return run


@pytest.fixture
def harness():
    """The harness's parts, for its own self-tests (tests/parity/test_parity_harness.py)."""
    from types import SimpleNamespace
    return SimpleNamespace(torch=torch, run_example=run_example, compare_outcomes=compare_outcomes,
                           describe=describe, clean_text=clean_text)
