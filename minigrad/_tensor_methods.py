"""Attach Tensor's methods to the class: the one place where `Tensor` (in `_tensor.py`) gets them.

Tensor sits at the bottom of minigrad and imports no op; its methods call the built-in ops of `minigrad/ops/`,
so they are written above the ops, one class per kind, and copied onto `Tensor` here. A name that `Tensor`
defines itself wins, and of two groups the first listed wins (the order a class's bases would give).
"""
from ._tensor import Tensor
from ._tensor_backward import TensorBackward
from ._tensor_convert import TensorConvert
from ._tensor_index import TensorIndexing
from ._tensor_inplace import TensorInPlace
from ._tensor_math import TensorMath
from ._tensor_ops import TensorOps
from ._tensor_shape import TensorShape

METHOD_GROUPS = (TensorBackward, TensorOps, TensorShape, TensorInPlace, TensorMath, TensorIndexing, TensorConvert)

_CLASS_ONLY = {"__module__", "__qualname__", "__doc__", "__dict__", "__weakref__", "__hash__"}


def attach(cls, groups):
    """Copy the methods and attributes of each group (and of its own bases) onto `cls`."""
    for group in groups:
        for part in group.__mro__[:-1]:         # [:-1]: not `object`
            for name, value in vars(part).items():
                if name not in _CLASS_ONLY and name not in vars(cls):
                    setattr(cls, name, value)


attach(Tensor, METHOD_GROUPS)
