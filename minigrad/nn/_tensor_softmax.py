"""`torch.softmax`, `torch.log_softmax` and the Tensor methods `x.softmax(dim)`, `x.log_softmax(dim)`.

Unlike `F.softmax`, these require `dim` (PyTorch's error words it so). The ops live in nn (_functions.py), so
the two methods are bound onto Tensor here, when minigrad.nn is imported (minigrad's __init__ always does).
"""
from .._tensor import Tensor
from . import functional as F

__all__ = ["softmax", "log_softmax"]

_MISSING = object()


def _checked_dim(name, dim):
    if dim is _MISSING:
        raise TypeError(f'{name}() missing 1 required positional arguments: "dim"')
    if type(dim) is not int:
        raise TypeError(f"{name}(): argument 'dim' must be int, not {type(dim).__name__}")
    return dim


def softmax(input, dim=_MISSING, dtype=None):
    """exp(x) / sum(exp(x)) along `dim`. Mirrors `torch.softmax` and `Tensor.softmax`.

    Example:
        >>> torch.tensor([1.0, 1.0]).softmax(0)
        tensor([0.5000, 0.5000])
    """
    return F.softmax(input, _checked_dim("softmax", dim), dtype=dtype)


def log_softmax(input, dim=_MISSING, dtype=None):
    """log(softmax(x)) along `dim`, computed stably. Mirrors `torch.log_softmax` and `Tensor.log_softmax`."""
    return F.log_softmax(input, _checked_dim("log_softmax", dim), dtype=dtype)


Tensor.softmax = softmax
Tensor.log_softmax = log_softmax
