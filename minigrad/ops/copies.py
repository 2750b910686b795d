"""Ops that copy the values into new memory: `clone` and dtype casts (`to`)."""
from ..core.forward_ad import linear
from ..core.function import Function
from ._common import wrap


class Clone(Function):
    """z = a copy of x;  dz/dx = 1"""
    node_name = "CloneBackward0"

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


class ToCopy(Function):
    """z = x cast to another dtype;  dz/dx = the gradient cast back"""
    node_name = "ToCopyBackward0"

    @staticmethod
    def forward(x, dtype):
        return wrap(x._data.astype(dtype.np_type))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.dtype = inputs[0].dtype

    @staticmethod
    def backward(ctx, grad):
        return grad.to(ctx.dtype), None

    jvp = linear
