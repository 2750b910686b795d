"""Elementwise functions of one tensor: exp, log, abs, sqrt, clamp, relu, sigmoid, tanh."""
import numpy as np

from ..core.forward_ad import linear, zero
from ..core.function import Function
from ..core.dtype import from_numpy_dtype, promote, scalar_dtype
from ._common import (Pointwise, as_operand, broadcast_shapes, float_dtype_of, grad_to, operands, quiet, sign_array,
                      wrap)
from .activation_backward import SigmoidBackward, TanhBackward, ThresholdBackward


class Exp(Pointwise):
    """z = exp(x);  dz/dx = z"""
    node_name, numpy_fn, saves = "ExpBackward0", np.exp, "result"
    quiet_forward = True
    gradient = staticmethod(quiet(lambda grad, z: grad * z))


class Log(Function):
    """z = log(x);  dz/dx = 1 / x"""
    node_name = "LogBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(x):
        with np.errstate(divide="ignore", invalid="ignore"):
            return wrap(np.log(float_dtype_of(x._data)))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad / x

    @staticmethod
    def jvp(ctx, tx):
        return tx / ctx.primals[0]


class Abs(Function):
    """z = |x|;  dz/dx = sign(x)  (0 at x = 0)"""
    node_name = "AbsBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(x):
        if x._data.dtype == np.bool_:
            raise NotImplementedError('"abs_cpu" not implemented for \'Bool\'')
        return wrap(np.abs(x._data))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * Sgn.apply(x)

    @staticmethod
    def jvp(ctx, tx):
        return tx * Sgn.apply(ctx.primals[0])


class Sgn(Function):
    """z = sign(x)  (-1, 0 or 1);  dz/dx = 0. Mirrors `torch.sgn`: abs's backward uses it, as PyTorch's does."""
    node_name = "SgnBackward0"

    @staticmethod
    def forward(x):
        return wrap(sign_array(x._data))

    @staticmethod
    def setup_context(ctx, inputs, output):
        pass

    @staticmethod
    def backward(ctx, grad):
        return wrap(np.zeros_like(grad._data))

    jvp = zero


class Sqrt(Function):
    """z = sqrt(x);  dz/dx = 1 / (2 z)"""
    node_name = "SqrtBackward0"
    saved_names = ("result",)

    @staticmethod
    def forward(x):
        with np.errstate(invalid="ignore"):
            return wrap(np.sqrt(float_dtype_of(x._data)))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(output)

    @staticmethod
    def backward(ctx, grad):
        (z,) = ctx.saved_tensors
        return grad / (2 * z)

    @staticmethod
    def jvp(ctx, tx):
        return tx / (2 * ctx.result)


class Clamp(Function):
    """z = min(max(x, lo), hi);  dz/dx = 1 where lo <= x <= hi, else 0"""
    node_name = "ClampBackward1"
    saved_names = ("self",)
    saved_attrs = {"min": "lo", "max": "hi"}

    @staticmethod
    def forward(x, lo, hi):
        if lo is None and hi is None:
            raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
        dtype = x.dtype           # the bounds are Python numbers: they join in the type promotion
        for bound in (lo, hi):
            if bound is not None:
                dtype = promote((dtype, 2), (scalar_dtype(bound), 0))
        a = x._data.astype(dtype.np_type, copy=False)
        if lo is not None:
            a = np.maximum(a, np.asarray(lo, a.dtype))
        if hi is not None:
            a = np.minimum(a, np.asarray(hi, a.dtype))
        return wrap(a)

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, ctx.lo, ctx.hi = inputs
        ctx.save_for_backward(x)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return Where.apply(Clamp.inside(x._data, ctx.lo, ctx.hi), grad, as_operand(0, grad)), None, None

    @staticmethod
    def jvp(ctx, tx, tlo, thi):
        return Where.apply(Clamp.inside(ctx.primals[0]._data, ctx.lo, ctx.hi), tx, as_operand(0, tx))

    @staticmethod
    def inside(a, lo, hi):
        inside = np.ones(a.shape, bool)
        if lo is not None:
            inside &= a >= lo
        if hi is not None:
            inside &= a <= hi
        return inside


class ClampMin(Function):
    """z = max(x, lo) (`clamp_min`, one bound, its own node);  dz/dx = 1 where x >= lo, else 0"""
    node_name = "ClampMinBackward0"
    saved_names = ("self",)
    saved_attrs = {"min": "lo"}
    bound = "lo"

    @classmethod
    def forward(cls, x, bound):
        return Clamp.forward(x, *((bound, None) if cls.bound == "lo" else (None, bound)))

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, bound = inputs
        ctx.lo, ctx.hi = (bound, None) if ctx._forward_cls.bound == "lo" else (None, bound)
        ctx.save_for_backward(x)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return Where.apply(Clamp.inside(x._data, ctx.lo, ctx.hi), grad, as_operand(0, grad)), None

    @staticmethod
    def jvp(ctx, tx, tbound):
        return Where.apply(Clamp.inside(ctx.primals[0]._data, ctx.lo, ctx.hi), tx, as_operand(0, tx))


class ClampMax(ClampMin):
    """z = min(x, hi) (`clamp_max`);  dz/dx = 1 where x <= hi, else 0"""
    node_name = "ClampMaxBackward0"
    saved_attrs = {"max": "hi"}
    bound = "hi"


class Relu(Function):
    """z = max(x, 0);  dz/dx = 1 where z > 0, else 0"""
    node_name = "ReluBackward0"
    saved_names = ("result",)

    @staticmethod
    def forward(x):
        a = x._data
        if a.dtype == np.bool_:
            raise RuntimeError("Boolean inputs not supported for relu")
        return wrap(np.maximum(a, a.dtype.type(0)))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(output)

    @staticmethod
    def backward(ctx, grad):
        (z,) = ctx.saved_tensors
        return ThresholdBackward.apply(grad, z, 0)

    @staticmethod
    def jvp(ctx, tx):
        return ThresholdBackward.apply(tx, ctx.result, 0)


class Sigmoid(Function):
    """z = 1 / (1 + exp(-x));  dz/dx = z (1 - z)"""
    node_name = "SigmoidBackward0"
    saved_names = ("result",)

    @staticmethod
    def forward(x):
        a = float_dtype_of(x._data)
        # the two branches avoid overflow in exp for large |x|
        e = np.exp(-np.abs(a))
        return wrap(np.where(a >= 0, 1 / (1 + e), e / (1 + e)).astype(a.dtype, copy=False))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(output)

    @staticmethod
    def backward(ctx, grad):
        (z,) = ctx.saved_tensors
        return SigmoidBackward.apply(grad, z)

    @staticmethod
    def jvp(ctx, tx):
        return SigmoidBackward.apply(tx, ctx.result)


class Tanh(Pointwise):
    """z = tanh(x);  dz/dx = 1 - z**2"""
    node_name, numpy_fn, saves = "TanhBackward0", np.tanh, "result"
    gradient = staticmethod(lambda grad, z: TanhBackward.apply(grad, z))


class Where(Function):
    """z = x where cond else y;  dz/dx = cond,  dz/dy = not cond  (cond, a bool array, gets no edge)"""
    node_name = "WhereBackward0"
    saved_names = ("condition",)

    @staticmethod
    def forward(cond, x, y):
        if cond.dtype != np.bool_:
            raise RuntimeError("where expected condition to be a boolean tensor, but got a tensor with dtype "
                               f"{from_numpy_dtype(cond.dtype)._tensor_type[len('torch.'):-len('Tensor')]}")
        broadcast_shapes(cond.shape, x._data.shape, y._data.shape)    # PyTorch's error, if they do not
        a, b = operands(x, y)
        return wrap(np.where(cond, a, b))

    @staticmethod
    def setup_context(ctx, inputs, output):
        cond, x, y = inputs
        ctx.save_for_backward(wrap(cond))          # as a tensor, as PyTorch saves it
        ctx.shapes = (x._data.shape, y._data.shape)

    @staticmethod
    def backward(ctx, grad):
        cond = ctx.saved_tensors[0]._data
        zero = as_operand(0, grad)
        needs_x, needs_y = ctx.needs_input_grad[1:]
        gx = grad_to(Where.apply(cond, grad, zero), ctx.shapes[0]) if needs_x else None
        gy = grad_to(Where.apply(cond, zero, grad), ctx.shapes[1]) if needs_y else None
        return None, gx, gy

    jvp = linear


class Fill(Function):
    """z = a tensor shaped like x, every element `value`;  dz/dx = 0"""
    node_name = "FillBackward2"

    @staticmethod
    def forward(x, value):
        return wrap(np.full_like(x._data, value))

    @staticmethod
    def setup_context(ctx, inputs, output):
        pass

    @staticmethod
    def backward(ctx, grad):
        return wrap(np.zeros_like(grad._data)), None

    jvp = zero


class FillNumber(Fill):
    """`torch.fill(x, number)`, out of place (PyTorch's node: FillBackward0; `x.fill_(number)` is FillBackward2)"""
    node_name = "FillBackward0"


class FillTensor(Function):
    """z = a tensor shaped like x, every element the 0-d tensor v;  dz/dx = 0,  dz/dv = the sum of the gradient"""
    node_name = "FillBackward1"

    @staticmethod
    def forward(x, value):
        return wrap(np.full_like(x._data, value._data))

    @staticmethod
    def setup_context(ctx, inputs, output):
        pass

    @staticmethod
    def backward(ctx, grad):
        return wrap(np.zeros_like(grad._data)), grad.sum()

    jvp = linear


class Zero(Function):
    """z = a tensor shaped like x, all zeros;  dz/dx = 0"""
    node_name = "ZeroBackward0"

    @staticmethod
    def forward(x):
        return wrap(np.zeros_like(x._data))

    @staticmethod
    def setup_context(ctx, inputs, output):
        pass

    @staticmethod
    def backward(ctx, grad):
        return wrap(np.zeros_like(grad._data))

    jvp = zero


class Copy(Function):
    """z = src's values, in x's shape and dtype;  dz/dx = 0,  dz/dsrc = the gradient summed to src's shape"""
    node_name = "CopyBackwards"

    @staticmethod
    def forward(x, src):
        shape = broadcast_shapes(x._data.shape, src._data.shape)
        if shape != x._data.shape:
            raise RuntimeError(f"output with shape {list(x._data.shape)} doesn't match the broadcast shape "
                               f"{list(shape)}")
        return wrap(np.broadcast_to(src._data, x._data.shape).astype(x._data.dtype))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.src_shape, ctx.src_dtype = inputs[1]._data.shape, inputs[1].dtype

    @staticmethod
    def backward(ctx, grad):
        needs_x, needs_src = ctx.needs_input_grad
        gx = wrap(np.zeros_like(grad._data)) if needs_x else None
        return gx, grad_to(grad, ctx.src_shape).to(ctx.src_dtype) if needs_src else None

    jvp = linear          # dz = tsrc, in x's shape and dtype


Copy._backward_cls.name = lambda self: "torch::autograd::CopyBackwards"
