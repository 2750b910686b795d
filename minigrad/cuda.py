"""`torch.cuda` as a CPU-only PyTorch has it: no GPU, and the calls that need one raise its error.

Programs that check `torch.cuda.is_available()` and fall back to the CPU run unchanged.
"""
from .compat import refused as _refused
__getattr__ = _refused.module_getattr(__name__)  # what minigrad leaves out on purpose, and why
from .core.device import NO_CUDA


def is_available():
    """Return False: minigrad computes with numpy, on the CPU."""
    return False


def device_count():
    return 0


def is_initialized():
    return False


def manual_seed(seed):
    """Do nothing, as a CPU-only PyTorch does (it would seed the GPUs' generators)."""


manual_seed_all = seed = seed_all = manual_seed


def empty_cache():
    """Do nothing: there is no GPU memory to release."""


def memory_allocated(device=None):
    return 0


def _needs_cuda(*args, **kwargs):
    raise AssertionError(NO_CUDA)


current_device = get_device_name = get_device_properties = set_device = synchronize = _needs_cuda


def is_bf16_supported(including_emulation=True):
    return False
