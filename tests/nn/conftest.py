"""Fixtures for the nn/optim tests: `torch` (real PyTorch, the reference) and `parity` (run one example on both
libraries and compare them with the one harness of the suite, tests/parity_harness.py) come from tests/conftest.py.
Without torch the parity tests are skipped, except in CI (`CI=true`), where a missing torch is an error.
"""
