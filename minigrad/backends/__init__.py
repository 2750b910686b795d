"""`torch.backends` as a CPU-only PyTorch has it: no MPS, no cuDNN (its flags can still be set)."""
from . import cudnn, mps  # noqa: F401
