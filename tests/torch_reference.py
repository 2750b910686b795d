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
    _warm_up(torch)
    return torch


def _warm_up(torch):
    """torch's forward mode and torch.func warn once per process from inside torch ("`torch.jit.script` is
    deprecated"): trigger that here, out of any compared case."""
    if getattr(_warm_up, "done", False):
        return
    _warm_up.done = True
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import torch.autograd.forward_ad as fw
        import torch.func
        with fw.dual_level():
            fw.make_dual(torch.ones(1), torch.ones(1)).sin()
        torch.func.jacfwd(torch.sin)(torch.ones(2))
