"""Ops that copy the values into new memory: `clone` and dtype casts (`to`)."""
from ..core.forward_ad import linear
from ..core.function import Function
from ._common import wrap


class Clone(Function):
    """z = a copy of x;  dz/dx = 1"""
    node_name = "CloneBackward0"

    @staticmethod
    def forward(x, contiguous=False):
        a = x._data
        # PyTorch's preserve_format: a permuted or strided tensor's copy keeps its order in memory (x.t().clone()
        # is not contiguous); an expanded one (stride 0) becomes dense, in C order, as does `x.contiguous()`
        return wrap(a.copy(order="C" if contiguous or 0 in a.strides else "K"))

    @staticmethod
    def setup_context(ctx, inputs, output):
        pass

    @staticmethod
    def backward(ctx, grad):
        return grad, None

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
