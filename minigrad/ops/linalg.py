"""Matrix products: mm, mv, dot, and batched matmul."""
import numpy as np

from ..autograd.function import Function
from ._common import grad_to, wrap


def _check_same_dtype(a, b):
    if a.dtype != b.dtype:
        from .._dtype import from_numpy_dtype
        raise RuntimeError(f"expected m1 and m2 to have the same dtype, but got: {from_numpy_dtype(a.dtype).name} "
                           f"!= {from_numpy_dtype(b.dtype).name}")


class Mm(Function):
    """Z = X @ W for matrices;  dZ/dX = G @ W.T,  dZ/dW = X.T @ G"""
    node_name = "MmBackward0"

    @staticmethod
    def forward(x, w):
        a, b = x._data, w._data
        if a.ndim != 2 or b.ndim != 2:
            raise RuntimeError("self must be a matrix" if a.ndim != 2 else "mat2 must be a matrix")
        if a.shape[1] != b.shape[0]:
            raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({a.shape[0]}x{a.shape[1]} and "
                               f"{b.shape[0]}x{b.shape[1]})")
        _check_same_dtype(a, b)
        return wrap(a @ b)

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, w = inputs
        needs_x, needs_w = ctx.needs_input_grad
        ctx.save_for_backward(x if needs_w else None, w if needs_x else None)

    @staticmethod
    def backward(ctx, grad):
        x, w = ctx.saved_tensors
        g = grad._data
        return (wrap(g @ w._data.T) if w is not None else None,
                wrap(x._data.T @ g) if x is not None else None)


class Mv(Function):
    """z = X @ v (matrix times vector);  dz/dX = outer(g, v),  dz/dv = X.T @ g"""
    node_name = "MvBackward0"

    @staticmethod
    def forward(x, v):
        a, b = x._data, v._data
        if a.shape[1] != b.shape[0]:
            raise RuntimeError(f"size mismatch, got input ({a.shape[0]}), mat ({a.shape[0]}x{a.shape[1]}), "
                               f"vec ({b.shape[0]})")
        return wrap(a @ b)

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(*inputs)

    @staticmethod
    def backward(ctx, grad):
        x, v = ctx.saved_tensors
        g = grad._data
        return wrap(np.outer(g, v._data)), wrap(x._data.T @ g)


class Dot(Function):
    """z = sum(x * y) for vectors;  dz/dx = g y,  dz/dy = g x"""
    node_name = "DotBackward0"

    @staticmethod
    def forward(x, y):
        a, b = x._data, y._data
        if a.shape != b.shape:
            raise RuntimeError("inconsistent tensor size, expected tensor [{}] and src [{}] to have the same "
                               "number of elements, but got {} and {} elements respectively"
                               .format(a.shape[0], b.shape[0], a.shape[0], b.shape[0]))
        return wrap(np.dot(a, b))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(*inputs)

    @staticmethod
    def backward(ctx, grad):
        x, y = ctx.saved_tensors
        g = grad._data
        return wrap(g * y._data), wrap(g * x._data)


class BatchMatmul(Function):
    """Z = X @ W over leading batch dims (broadcast);  dZ/dX = G @ W^T,  dZ/dW = X^T @ G, summed over broadcasts"""
    node_name = "BmmBackward0"

    @staticmethod
    def forward(x, w):
        return wrap(np.matmul(x._data, w._data))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(*inputs)

    @staticmethod
    def backward(ctx, grad):
        x, w = ctx.saved_tensors
        a, b, g = x._data, w._data, grad._data
        return (grad_to(g @ np.swapaxes(b, -1, -2), a.shape),
                grad_to(np.swapaxes(a, -1, -2) @ g, b.shape))
