"""`torch.autograd.forward_ad`: dual tensors, a primal with a tangent. The mechanism is `core/forward_ad.py`.

Example:
    >>> import minigrad.autograd.forward_ad as fwAD
    >>> with fwAD.dual_level():
    ...     x = fwAD.make_dual(torch.tensor([0., 1.]), torch.tensor([1., 0.]))
    ...     fwAD.unpack_dual(x.sin()).tangent          # cos(x) * [1, 0]: a Jacobian-vector product
    tensor([1., 0.])
"""
from collections import namedtuple

import numpy as np

from ..core import forward_ad as _forward_ad
from ..core.grad_mode import _State
from ..core.tensor import TensorBase
from ..compat.decorators import _DecoratorContextManager

__all__ = ["UnpackedDualTensor", "dual_level", "enter_dual_level", "exit_dual_level", "make_dual", "unpack_dual"]


def enter_dual_level():
    """Enter a new forward-grad level and return its index (always 0: these levels do not nest)."""
    return _forward_ad.enter_level()


def exit_dual_level(*, level=None):
    """Exit the forward-grad level: every tangent made in it is dropped."""
    _forward_ad.exit_level()


class dual_level(_DecoratorContextManager):
    """Context manager for forward AD: inside it, dual tensors carry tangents through every op; on exit their
    tangents are dropped. Mirrors `torch.autograd.forward_ad.dual_level`."""

    def __enter__(self):
        return enter_dual_level()

    def __exit__(self, exc_type, exc_value, traceback):
        exit_dual_level()


def make_dual(tensor, tangent, *, level=None):
    """Return a view of `tensor` carrying `tangent` (same shape) as its forward gradient.

    The tangent is kept as it is when its memory layout is `tensor`'s, else copied into that layout."""
    if not _State.forward_ad:
        raise RuntimeError("Trying to create a dual Tensor for forward AD but no level exists, make sure to "
                           "enter_dual_level() first.")
    if not tensor.dtype.is_floating_point:
        raise ValueError(f"Expected primal to be floating point or complex, but got: {tensor.dtype}")
    if not tangent.dtype.is_floating_point:
        raise ValueError(f"Expected tangent to be floating point or complex, but got: {tangent.dtype}")
    if _forward_ad.tangent_of(tensor, level) is not None:
        raise RuntimeError("Making a dual Tensor based on a Tensor that already has a forward gradient at the same "
                           f"level {_State.forward_ad - 1 if level is None else level} is not supported.")
    with _forward_ad.paused(level):
        dual = tensor.view_as(tensor)
    if tangent._data.shape == tensor._data.shape and tangent._data.strides != tensor._data.strides:
        copy = np.empty_like(tensor._data, dtype=tangent._data.dtype)
        copy[...] = tangent._data
        tangent = TensorBase._make(copy)
    _forward_ad.set_tangent(dual, tangent, level)
    return dual


UnpackedDualTensor = namedtuple("UnpackedDualTensor", ["primal", "tangent"])
UnpackedDualTensor.__doc__ = "Namedtuple returned by `unpack_dual`: the primal (a view) and the tangent (or None)."


def unpack_dual(tensor, *, level=None):
    """Return `UnpackedDualTensor(primal, tangent)`: a view of `tensor` without its tangent, and the tangent
    (None if it has none at this level)."""
    if level is not None and level < 0:
        raise RuntimeError("Dual level must be a positive number.")
    tangent = _forward_ad.tangent_of(tensor, level)
    if tangent is None:
        return UnpackedDualTensor(tensor, None)
    with _forward_ad.paused(level):
        primal = tensor.view_as(tensor)
    return UnpackedDualTensor(primal, tangent)
