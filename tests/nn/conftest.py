"""Fixtures for the nn/optim tests: real PyTorch (`torch`) and `parity`, which runs one example on both libraries.

Without torch the parity tests are skipped, except in CI (`CI=true`), where a missing torch is an error.
"""
import contextlib
import io
import math
import warnings

import numpy as np
import pytest

import minigrad

RTOL, ATOL = 1e-4, 1e-6


# the `torch` fixture (real PyTorch, the reference) comes from tests/conftest.py


def to_plain(value, lib):
    """Turn an example's result into plain data: tensors become ("tensor", ndarray, dtype, requires_grad)."""
    if isinstance(value, lib.Tensor):
        return ("tensor", np.array(value.detach().tolist()), str(value.dtype), value.requires_grad)
    if isinstance(value, lib.dtype):
        return str(value)
    if isinstance(value, list):
        return [to_plain(v, lib) for v in value]
    if isinstance(value, tuple):   # named tuples too
        return tuple(to_plain(v, lib) for v in value)
    if isinstance(value, dict):
        return {k: to_plain(v, lib) for k, v in value.items()}
    return value


def assert_same(t, m, path="result"):
    """Assert that plain data `m` (minigrad's) equals `t` (torch's); floats and arrays within tolerance."""
    if isinstance(t, np.ndarray):
        assert isinstance(m, np.ndarray) and t.shape == m.shape, f"{path}: torch gave {t!r}, minigrad gave {m!r}"
        assert np.allclose(t, m, rtol=RTOL, atol=ATOL), f"{path}: torch gave\n{t}\nminigrad gave\n{m}"
    elif isinstance(t, float):
        assert isinstance(m, (float, int)) and math.isclose(t, m, rel_tol=RTOL, abs_tol=ATOL), \
            f"{path}: torch gave {t!r}, minigrad gave {m!r}"
    elif isinstance(t, (list, tuple)):
        assert type(t) is type(m) and len(t) == len(m), f"{path}: torch gave {t!r}, minigrad gave {m!r}"
        for i, (a, b) in enumerate(zip(t, m)):
            assert_same(a, b, f"{path}[{i}]")
    elif isinstance(t, dict):
        assert isinstance(m, dict) and list(t) == list(m), f"{path}: torch keys {list(t)}, minigrad keys {list(m)}"
        for k in t:
            assert_same(t[k], m[k], f"{path}[{k!r}]")
    else:
        assert t == m, f"{path}: torch gave {t!r}, minigrad gave {m!r}"


def run(example, lib):
    """Run `example(lib)`; return (plain result or None, (exception type, message) or None, stdout, warnings)."""
    out = io.StringIO()
    result, error = None, None
    with warnings.catch_warnings(record=True) as caught, contextlib.redirect_stdout(out):
        warnings.simplefilter("always")
        try:
            result = to_plain(example(lib), lib)
        except Exception as exc:  # noqa: BLE001  the exception is part of the behaviour compared
            error = (type(exc).__name__, str(exc))
    return result, error, out.getvalue(), [str(w.message) for w in caught]


@pytest.fixture
def parity(torch):
    """`parity(example)` runs `example(lib)` on torch and on minigrad and asserts that both returned the same
    thing (or raised the same exception type and message), printed the same text and warned the same."""
    def check(example):
        t_result, t_error, t_out, t_warn = run(example, torch)
        m_result, m_error, m_out, m_warn = run(example, minigrad)
        assert m_error == t_error, f"torch raised {t_error}, minigrad raised {m_error}"
        assert_same(t_result, m_result)
        assert m_out == t_out, f"printed text differs\ntorch printed:\n{t_out}\nminigrad printed:\n{m_out}"
        assert m_warn == t_warn, f"warnings differ\ntorch: {t_warn}\nminigrad: {m_warn}"
        return t_result
    return check
