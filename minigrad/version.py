"""`torch.version`: what this build is. minigrad's own version; no CUDA, ROCm or XPU."""
from .torch_version import TorchVersion

__version__ = TorchVersion("0.1.0")
cuda = hip = rocm = xpu = None
debug = False
git_version = "unknown"         # minigrad is read from its source, not built from a commit
