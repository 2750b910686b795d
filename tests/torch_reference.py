"""Real PyTorch, the reference every parity test compares minigrad with: one way to get it, one skip reason."""
import os

import pytest

# The one reason every parity test gives when it skips: without `make torch` about half the suite skips.
TORCH_MISSING = "real PyTorch is not installed: run `make torch` (parity tests compare minigrad with it)"


def import_torch():
    """Return the real `torch` module; without it, skip (at module level too), except in CI (`CI=true`), where
    a missing torch is an error: CI installs torch==2.13.0."""
    try:
        import torch
    except ImportError:
        if os.environ.get("CI") == "true":
            raise
        pytest.skip(TORCH_MISSING, allow_module_level=True)
    return torch
