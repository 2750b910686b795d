"""The complex-number ops that PyTorch also defines on real tensors, where they are simple: the angle of a real
number is 0 or pi, and its conjugate is itself. Programs written for both kinds of tensors call them
(`x.conj()`, `x.mH`, `torch.angle(x)`); minigrad's tensors are all real (complex ones: compat/refused.py).
"""
import math

import numpy as np

from ..core.forward_ad import linear, zero
from ..core.function import Function
from ._common import float_dtype_of, wrap


class Angle(Function):
    """z = pi for x < 0, else 0 (nan stays nan);  dz/dx = 0, a gradient that records nothing, as in PyTorch"""
    node_name = "AngleBackward0"

    @staticmethod
    def forward(x):
        a = float_dtype_of(x._data)
        return wrap(np.where(np.isnan(a), a, np.where(a < 0, a.dtype.type(math.pi), a.dtype.type(0))))

    @staticmethod
    def setup_context(ctx, inputs, output):
        pass

    @staticmethod
    def backward(ctx, grad):
        return wrap(np.zeros_like(grad._data))

    jvp = zero


class ConjPhysical(Function):
    """z = conj(x), which is x for a real tensor;  dz/dx = 1. Only `x.conj_physical_()` records it (out of place,
    PyTorch returns x itself)."""
    node_name = "ConjPhysicalBackward1"

    @staticmethod
    def forward(x):
        return wrap(x._data.copy())

    @staticmethod
    def setup_context(ctx, inputs, output):
        pass

    @staticmethod
    def backward(ctx, grad):
        return grad

    jvp = linear
