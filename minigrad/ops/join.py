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


class BlockDiag(Function):
    """z = the matrices on the diagonal of a zero matrix, in order (a 0-d tensor is 1 x 1, a vector 1 x n);
    each input's gradient is its block of the gradient"""
    node_name = "BlockDiagBackward0"

    @staticmethod
    def forward(*tensors):
        blocks = []
        for i, t in enumerate(tensors):
            if t.dim() > 2:
                raise RuntimeError(f"torch.block_diag: Input tensors must have 2 or fewer dimensions. Input {i} has "
                                   f"{t.dim()} dimensions")
            blocks.append(t._data.reshape(1, -1) if t.dim() < 2 else t._data)
        arrays = _promoted(tensors) if tensors else []
        rows, cols = sum(b.shape[0] for b in blocks), sum(b.shape[1] for b in blocks)
        out = np.zeros((rows, cols), arrays[0].dtype if arrays else np.float32)
        r = c = 0
        for block, a in zip(blocks, arrays):
            out[r:r + block.shape[0], c:c + block.shape[1]] = a.reshape(block.shape)
            r, c = r + block.shape[0], c + block.shape[1]
        return wrap(out)

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.shapes = [t._data.shape for t in inputs]

    @staticmethod
    def backward(ctx, grad):
        grads, r, c = [], 0, 0
        for shape, needs in zip(ctx.shapes, ctx.needs_input_grad):
            h, w = (shape[0], shape[1]) if len(shape) == 2 else (1, int(np.prod(shape)))
            grads.append(grad[r:r + h, c:c + w].reshape(shape) if needs else None)
            r, c = r + h, c + w
        return tuple(grads)

    jvp = linear
