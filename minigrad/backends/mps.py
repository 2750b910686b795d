"""`torch.backends.mps`: Apple's GPU backend, which minigrad (numpy on the CPU) does not have."""


def is_available():
    return False


def is_built():
    return False
