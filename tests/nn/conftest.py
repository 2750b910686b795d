"""Fixtures for the nn/optim tests: real PyTorch (`torch`) and `parity`, which runs one example on both libraries.

`parity` is tests/parity's `run_both` under another name: the one harness of the suite, tests/parity_harness.py.
Without torch the parity tests are skipped, except in CI (`CI=true`), where a missing torch is an error.
"""
import pytest
from parity_harness import compare_outcomes, run_example

import minigrad

# the `torch` fixture (real PyTorch, the reference) comes from tests/conftest.py


@pytest.fixture
def parity(torch):
    """`parity(example)` runs `example(lib)` on torch and on minigrad and asserts that both returned the same
    thing (or that minigrad raised the same exception type and message), printed the same text and warned the
    same; it returns torch's result."""
    def check(example):
        t = run_example(example, torch, "torch")
        compare_outcomes(t, run_example(example, minigrad, "minigrad"))
        return t.value
    return check
