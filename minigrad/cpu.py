"""`torch.cpu`: the device module of the CPU, minigrad's only device. Mirrors the calls that device-generic code
makes (`torch.get_device_module("cpu").device_count()`, `synchronize()`); streams and events are not available."""
from .compat import refused as _refused
__getattr__ = _refused.module_getattr(__name__)  # what minigrad leaves out on purpose, and why


def is_available():
    return True


def is_initialized():
    return True


def device_count():
    return 1


def current_device():
    return "cpu"


def set_device(device):
    """Do nothing: the CPU is the current device already."""


def synchronize(device=None):
    """Return at once: minigrad's ops finish before they return."""
