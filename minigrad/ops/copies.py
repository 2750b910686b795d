"""Ops that copy the values into new memory: `clone` and dtype casts (`to`)."""
from ..core.forward_ad import linear
from ..core.function import Function
from ._common import wrap
from .memory_format import contiguous_format, copy_in, preserve_format


class Clone(Function):
    """z = a copy of x;  dz/dx = 1"""
    node_name = "CloneBackward0"

    @staticmethod
    def forward(x, memory_format=preserve_format):
        # PyTorch's preserve_format: a permuted or strided tensor's copy keeps its order in memory (x.t().clone()
        # is not contiguous); an expanded one (stride 0) becomes dense, in C order, as does `x.contiguous()`
        return wrap(copy_in(x._data, memory_format))

    @staticmethod
    def setup_context(ctx, inputs, output):
        pass

    @staticmethod
    def backward(ctx, grad):
        return grad, None

    jvp = linear


CONTIGUOUS = contiguous_format      # Clone.apply(x, CONTIGUOUS): the row-major copy that `x.contiguous()` makes


class ToCopy(Function):
    """z = x cast to another dtype;  dz/dx = the gradient cast back"""
    node_name = "ToCopyBackward0"

    @staticmethod
    def forward(x, dtype, memory_format=None):
        a = x._data if memory_format is None else copy_in(x._data, memory_format)
        return wrap(a.astype(dtype.np_type))      # astype keeps the order in memory (numpy's order 'K')

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.dtype = inputs[0].dtype

    @staticmethod
    def backward(ctx, grad):
        return grad.to(ctx.dtype), None, None

    jvp = linear
