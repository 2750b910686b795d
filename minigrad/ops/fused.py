"""Pointwise ops of three tensors that fuse two steps: addcmul (x + v * a * b), addcdiv (x + v * a / b) and lerp
(start + w * (end - start)). One node each, with one edge per tensor input, as PyTorch records them.

The three inputs broadcast together and promote by PyTorch's rule; each gradient is summed back to its input's
shape. The forward keeps ATen's order of operations ((v * a) * b, (v * a) / b, lerp's two-sided formula), so the
results are PyTorch's to the last bit.
"""
import numpy as np

from ..core.dtype import cpp_name, result_type, scalar_name
from ..core.forward_ad import from_backward
from ..core.function import Function
from ._common import _rank, broadcast_shapes, grad_to, wrap


def _arrays(*tensors):
    """The numpy arrays of `tensors`, in their promoted dtype, after PyTorch's broadcast check."""
    broadcast_shapes(*(t._data.shape for t in tensors))
    dtype = result_type(*((t.dtype, _rank(t)) for t in tensors)).np_type
    return [t._data.astype(dtype, copy=False) for t in tensors]


class Addcmul(Function):
    """z = x + value * a * b;  dz/dx = 1,  dz/da = value * b,  dz/db = value * a"""
    node_name = "AddcmulBackward0"
    saved_names = ("tensor1", "tensor2")
    saved_attrs = {"value": "value"}

    @staticmethod
    def forward(x, a, b, value=1):
        x_, a_, b_ = _arrays(x, a, b)
        return wrap(x_ + a_.dtype.type(value) * a_ * b_)

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, a, b, *value = inputs
        ctx.value = value[0] if value else 1
        ctx.shapes = (x._data.shape, a._data.shape, b._data.shape)
        ctx.save_for_backward(a, b)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        needs_x, needs_a, needs_b = ctx.needs_input_grad[:3]
        return (grad_to(grad, ctx.shapes[0]) if needs_x else None,
                grad_to(grad * (b * ctx.value), ctx.shapes[1]) if needs_a else None,
                grad_to(grad * (a * ctx.value), ctx.shapes[2]) if needs_b else None, None)

    jvp = from_backward


class Addcdiv(Function):
    """z = x + value * a / b;  dz/dx = 1,  dz/da = value / b,  dz/db = -value * a / b**2"""
    node_name = "AddcdivBackward0"
    saved_names = ("tensor1", "tensor2")
    saved_attrs = {"value": "value"}

    @staticmethod
    def forward(x, a, b, value=1):
        if a._data.dtype.kind in "iub" and b._data.dtype.kind in "iub":
            raise RuntimeError(_INTEGER_ADDCDIV)
        x_, a_, b_ = _arrays(x, a, b)
        with np.errstate(divide="ignore", invalid="ignore"):
            return wrap(x_ + a_.dtype.type(value) * a_ / b_)

    setup_context = Addcmul.setup_context

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        needs_x, needs_a, needs_b = ctx.needs_input_grad[:3]
        return (grad_to(grad, ctx.shapes[0]) if needs_x else None,
                grad_to(grad * (ctx.value / b), ctx.shapes[1]) if needs_a else None,
                grad_to(-grad * (ctx.value * a / (b * b)), ctx.shapes[2]) if needs_b else None, None)

    jvp = from_backward


_INTEGER_ADDCDIV = (
    "Integer division with addcdiv is no longer supported, and in a future  release addcdiv will perform a true "
    "division of tensor1 and tensor2. The historic addcdiv behavior can be implemented as (input + value * "
    "torch.trunc(tensor1 / tensor2)).to(input.dtype) for integer inputs and as (input + value * tensor1 / tensor2) "
    "for float inputs. The future addcdiv behavior is just the latter implementation: (input + value * tensor1 / "
    "tensor2), for all dtypes.")


def _lerp(start, end, weight):
    """ATen's formula: from the nearer end, so that lerp(a, b, 1) is exactly b."""
    return np.where(np.abs(weight) < 0.5, start + weight * (end - start), end - (end - start) * (1 - weight))


def _check_lerp(start, end, weight=None):
    a = start._data
    if a.dtype.kind != "f":
        raise NotImplementedError(f'"lerp_kernel_{"scalar" if weight is None else "tensor"}" not implemented for '
                                  f"'{scalar_name(a)}'")
    for name, t in (("end", end), ("weight", weight)):
        if t is not None and t._data.dtype != a.dtype:
            raise RuntimeError(f"expected dtype {cpp_name(a.dtype)} for `{name}` but got dtype "
                               f"{cpp_name(t._data.dtype)}")



class Lerp(Function):
    """z = start + weight * (end - start), a number weight;  dz/dstart = 1 - weight,  dz/dend = weight"""
    node_name = "LerpBackward0"
    saved_attrs = {"weight": "weight"}

    @staticmethod
    def forward(start, end, weight):
        _check_lerp(start, end)
        a, b = _arrays(start, end)
        return wrap(_lerp(a, b, a.dtype.type(weight)))

    @staticmethod
    def setup_context(ctx, inputs, output):
        start, end, ctx.weight = inputs
        ctx.shapes = (start._data.shape, end._data.shape)

    @staticmethod
    def backward(ctx, grad):
        needs_start, needs_end = ctx.needs_input_grad[:2]
        return (grad_to(grad * (1 - ctx.weight), ctx.shapes[0]) if needs_start else None,
                grad_to(grad * ctx.weight, ctx.shapes[1]) if needs_end else None, None)

    jvp = from_backward


class LerpTensor(Function):
    """z = start + weight * (end - start), a tensor weight;  dz/dstart = 1 - weight,  dz/dend = weight,
    dz/dweight = end - start"""
    node_name = "LerpBackward1"
    saved_names = ("end", "self", "weight")

    @staticmethod
    def forward(start, end, weight):
        _check_lerp(start, end, weight)
        a, b, w = _arrays(start, end, weight)
        return wrap(_lerp(a, b, w))

    @staticmethod
    def setup_context(ctx, inputs, output):
        start, end, weight = inputs
        ctx.shapes = tuple(t._data.shape for t in inputs)
        ctx.save_for_backward(end, start, weight)

    @staticmethod
    def backward(ctx, grad):
        end, start, weight = ctx.saved_tensors
        needs_start, needs_end, needs_weight = ctx.needs_input_grad
        return (grad_to(grad * (1 - weight), ctx.shapes[0]) if needs_start else None,
                grad_to(grad * weight, ctx.shapes[1]) if needs_end else None,
                grad_to(grad * (end - start), ctx.shapes[2]) if needs_weight else None)

    jvp = from_backward
