"""Fixtures for tests/core: real PyTorch, the reference that the parity checks compare minigrad against."""
import os

import pytest


@pytest.fixture(scope="session")
def torch():
    """Return the real `torch` module. Without it parity tests skip, except in CI (`CI=true`), where they fail."""
    try:
        import torch
    except ImportError as exc:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true but real PyTorch is not importable ({exc}); CI must install torch==2.13.0",
                        pytrace=False)
        pytest.skip("real PyTorch is not installed (`make torch`)")
    return torch
