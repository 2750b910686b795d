"""The modified Bessel functions of the first kind, I0 (`torch.i0`, `torch.special.i0`) and I1
(`torch.special.i1`): I0'(x) = I1(x) and I1'(x) = I0(x) - I1(x) / x, so each differentiates into the other and
the gradients go to any order.

I0 is numpy's `np.i0` (Cephes' Chebyshev expansions, as ATen's kernel); numpy has no I1, so it is summed here
from its power series, sum over k of (x/2)**(2k+1) / (k! (k+1)!), in float64: every term is positive, so the sum
is as precise as float64 up to the overflow of I1 itself (|x| > 713).
"""
import numpy as np

from ..core.forward_ad import from_backward
from ..core.function import Function
from ._common import Pointwise, float_dtype_of, quiet, wrap


@quiet
def _i1(a):
    x = np.abs(a.astype(np.float64))
    term = x / 2
    total = term.copy()
    quarter = x * x / 4
    for k in range(1, 2000):
        term = term * quarter / (k * (k + 1))
        total += term
        if not np.any(term > total * 1e-17):
            break
    return (np.sign(a) * total).astype(a.dtype)


class I0(Pointwise):
    """z = I0(x);  dz/dx = I1(x)"""
    node_name, saves = "I0Backward0", "self"
    numpy_fn = staticmethod(lambda a: np.i0(a).astype(a.dtype))
    gradient = staticmethod(lambda grad, x: grad * I1.apply(x))


class I1(Function):
    """z = I1(x);  dz/dx = I0(x) - z / x  (1/2 at x = 0)"""
    node_name = "SpecialI1Backward0"
    saved_names = ("self", "result")

    @staticmethod
    def forward(x):
        return wrap(_i1(float_dtype_of(x._data)))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0], output)

    @staticmethod
    @quiet
    def backward(ctx, grad):
        x, z = ctx.saved_tensors
        at_zero = x._data == 0
        safe = x.masked_fill(wrap(at_zero), 1)
        return grad * (I0.apply(x) - z / safe).masked_fill(wrap(at_zero), 0.5)

    jvp = from_backward
