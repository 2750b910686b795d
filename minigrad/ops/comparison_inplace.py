"""The in-place comparisons, `x.gt_(y)`: self becomes 1 where the comparison holds and 0 elsewhere, in its own
dtype. Unlike `x > y` (a new bool tensor that is never recorded), they overwrite a tensor that may require grad,
so PyTorch records them, with a zero gradient: GtBackward0 against a number, GtBackward1 against a tensor.
"""
import numpy as np

from ..core.forward_ad import zero
from ..core.function import Function
from ._common import broadcast_shapes, wrap


class _CompareInPlace(Function):
    """z = (x op y) as x's dtype;  dz/dx = dz/dy = 0"""

    @classmethod
    def forward(cls, x, other):
        b = other._data if hasattr(other, "_data") else other
        broadcast_shapes(x._data.shape, np.shape(b))        # PyTorch's error for shapes that do not broadcast
        return wrap(cls.numpy_fn(x._data, b).astype(x._data.dtype))

    @staticmethod
    def setup_context(ctx, inputs, output):
        other = inputs[1]
        ctx.other_shape = tuple(other.shape) if hasattr(other, "_data") else None

    @staticmethod
    def backward(ctx, grad):
        zeros = wrap(np.zeros_like(grad._data))
        other = None if ctx.other_shape is None else wrap(np.zeros(ctx.other_shape, grad._data.dtype))
        return zeros, other

    jvp = zero


class EqScalar(_CompareInPlace):
    node_name, numpy_fn = "EqBackward0", np.equal


class EqTensor(_CompareInPlace):
    node_name, numpy_fn = "EqBackward1", np.equal


class NeScalar(_CompareInPlace):
    node_name, numpy_fn = "NeBackward0", np.not_equal


class NeTensor(_CompareInPlace):
    node_name, numpy_fn = "NeBackward1", np.not_equal


class GtScalar(_CompareInPlace):
    node_name, numpy_fn = "GtBackward0", np.greater


class GtTensor(_CompareInPlace):
    node_name, numpy_fn = "GtBackward1", np.greater


class GeScalar(_CompareInPlace):
    node_name, numpy_fn = "GeBackward0", np.greater_equal


class GeTensor(_CompareInPlace):
    node_name, numpy_fn = "GeBackward1", np.greater_equal


class LtScalar(_CompareInPlace):
    node_name, numpy_fn = "LtBackward0", np.less


class LtTensor(_CompareInPlace):
    node_name, numpy_fn = "LtBackward1", np.less


class LeScalar(_CompareInPlace):
    node_name, numpy_fn = "LeBackward0", np.less_equal


class LeTensor(_CompareInPlace):
    node_name, numpy_fn = "LeBackward1", np.less_equal


BY_NAME = {"eq": (EqScalar, EqTensor), "ne": (NeScalar, NeTensor), "gt": (GtScalar, GtTensor),
           "ge": (GeScalar, GeTensor), "lt": (LtScalar, LtTensor), "le": (LeScalar, LeTensor)}
"""{comparison: (its node against a number, against a tensor)}"""
