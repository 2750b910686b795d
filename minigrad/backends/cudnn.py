"""`torch.backends.cudnn`: NVIDIA's library, absent here; the flags that tutorials set are plain attributes."""
deterministic = False
benchmark = False
enabled = True
allow_tf32 = True


def is_available():
    return False


def version():
    return None
