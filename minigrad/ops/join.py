"""Joining tensors: cat along an existing dim, stack along a new one."""
import numpy as np

from ..core.forward_ad import linear
from ..core.function import Function
from ..core.dtype import promote
from ._common import dim_index, wrap
from .indexing import Select, Slice


class Cat(Function):
    """z = the tensors joined along `dim`;  each input's gradient is its slice of the gradient"""
    node_name = "CatBackward0"
    saved_attrs = {"dim": "saved_dim"}

    @staticmethod
    def forward(dim, *tensors):
        if not tensors:
            raise ValueError("torch.cat(): expected a non-empty list of Tensors")
        first = tensors[0]._data
        for i, t in enumerate(tensors):
            if t.dim() == 0:
                raise RuntimeError(f"zero-dimensional tensor (at position {i}) cannot be concatenated")
        dim = dim_index(dim, first.ndim)
        for i, t in enumerate(tensors):
            if t.dim() != first.ndim:
                raise RuntimeError(f"Tensors must have same number of dimensions: got {first.ndim} and {t.dim()}")
            for d, (n, m) in enumerate(zip(first.shape, t._data.shape)):
                if d != dim and n != m:
                    raise RuntimeError(f"Sizes of tensors must match except in dimension {dim}. Expected size {n} "
                                       f"but got size {m} for tensor number {i} in the list.")
        return wrap(np.concatenate(_promoted(tensors), axis=dim))

    @staticmethod
    def setup_context(ctx, inputs, output):
        dim, *tensors = inputs
        ctx.saved_dim = dim                 # as given; ctx.dim is counted from 0
        ctx.dim = dim = dim_index(dim, tensors[0].dim())
        ctx.ends = np.cumsum([t.shape[dim] for t in tensors]).tolist()

    @staticmethod
    def backward(ctx, grad):
        starts = [0] + ctx.ends[:-1]
        return (None,) + tuple(Slice.apply(grad, ctx.dim, slice(start, end)) if needs else None
                               for start, end, needs in zip(starts, ctx.ends, ctx.needs_input_grad[1:]))

    jvp = linear


class Stack(Function):
    """z = the tensors stacked along a new axis `dim`;  each input's gradient is its slice"""
    node_name = "StackBackward0"
    saved_attrs = {"dim": "saved_dim"}

    @staticmethod
    def forward(dim, *tensors):
        if not tensors:
            raise RuntimeError("stack expects a non-empty TensorList")
        for i, t in enumerate(tensors):
            if t.shape != tensors[0].shape:
                raise RuntimeError(f"stack expects each tensor to be equal size, but got {list(tensors[0].shape)} "
                                   f"at entry 0 and {list(t.shape)} at entry {i}")
        return wrap(np.stack(_promoted(tensors), axis=dim_index(dim, tensors[0].dim() + 1)))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.saved_dim = inputs[0]           # as given; ctx.dim is counted from 0
        ctx.dim = dim_index(inputs[0], inputs[1].dim() + 1)

    @staticmethod
    def backward(ctx, grad):
        return (None,) + tuple(Select.apply(grad, ctx.dim, i) if needs else None
                               for i, needs in enumerate(ctx.needs_input_grad[1:]))

    jvp = linear


def _promoted(tensors):
    """The tensors' arrays, cast to the dtype PyTorch's promotion gives them all (cat and stack promote)."""
    dtype = tensors[0].dtype
    for t in tensors[1:]:
        dtype = promote((dtype, 2), (t.dtype, 2))
    return [t._data.astype(dtype.np_type, copy=False) for t in tensors]
