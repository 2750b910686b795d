"""Step functions: sign, floor, ceil, round (also to `decimals` places), trunc, and frac (what trunc cuts off).

Their gradient is zero almost everywhere (frac's is 1), as PyTorch defines it. Integer tensors stay integers,
as in PyTorch; bool tensors are refused where PyTorch refuses them.
"""
import numpy as np

from ..core.forward_ad import zero
from ..core.function import Function
from ..core.dtype import scalar_name
from ._common import quiet, sign_array, wrap

_type_name = scalar_name      # PyTorch's scalar type names, as its "not implemented for 'Long'" errors print them


def _refuse(a, kernel, kinds):
    """PyTorch's error for a dtype its CPU kernel `kernel` has no loop for."""
    if a.dtype.kind in kinds:
        raise NotImplementedError(f'"{kernel}" not implemented for \'{_type_name(a)}\'')


def _zero_gradient(grad):
    """The gradient of a step function: zeros (a constant, as PyTorch's `zeros_like(grad)`)."""
    return wrap(np.zeros_like(grad._data))


class Sign(Function):
    """z = -1, 0 or 1 as x < 0, x == 0 (or nan) or x > 0;  dz/dx = 0"""
    node_name = "SignBackward0"

    @staticmethod
    def forward(x):
        return wrap(sign_array(x._data))

    @staticmethod
    def setup_context(ctx, inputs, output):
        pass

    @staticmethod
    def backward(ctx, grad):
        return _zero_gradient(grad)

    jvp = zero


class _RoundToInteger(Function):
    """floor, ceil, trunc and round: they differ only by numpy's function and by the name of PyTorch's kernel (in
    its error for bool tensors), so each is a row below. Integer tensors come back unchanged; dz/dx = 0."""
    round_to = kernel = None

    @classmethod
    def forward(cls, x):
        a = x._data
        _refuse(a, cls.kernel, "b")
        return wrap(cls.round_to(a) if a.dtype.kind == "f" else a.copy())

    @staticmethod
    def setup_context(ctx, inputs, output):
        pass

    @staticmethod
    def backward(ctx, grad):
        return _zero_gradient(grad)

    jvp = zero


class Floor(_RoundToInteger):
    """z = the largest integer <= x;  dz/dx = 0"""
    node_name, round_to, kernel = "FloorBackward0", np.floor, "floor_vml_cpu"


class Ceil(_RoundToInteger):
    """z = the smallest integer >= x;  dz/dx = 0"""
    node_name, round_to, kernel = "CeilBackward0", np.ceil, "ceil_vml_cpu"


class Trunc(_RoundToInteger):
    """z = x rounded towards zero;  dz/dx = 0"""
    node_name, round_to, kernel = "TruncBackward0", np.trunc, "trunc_vml_cpu"


class Round(_RoundToInteger):
    """z = x rounded to the nearest integer, halves to even (round(2.5) = 2, as in PyTorch);  dz/dx = 0"""
    node_name, round_to, kernel = "RoundBackward0", np.rint, "round_vml_cpu"


class RoundDecimals(Function):
    """z = x rounded to `decimals` places (halves to even; negative decimals round to tens, hundreds, ...);
    dz/dx = 0"""
    node_name = "RoundBackward1"

    @staticmethod
    @quiet
    def forward(x, decimals):
        a = x._data
        _refuse(a, "round_cpu", "biu")
        # PyTorch's arithmetic, in the tensor's own dtype: rint(x * 10**d) / 10**d, or rint(x / 10**-d) * 10**-d
        scale = a.dtype.type(10.0 ** abs(decimals))
        return wrap(np.rint(a * scale) / scale if decimals >= 0 else np.rint(a / scale) * scale)

    @staticmethod
    def setup_context(ctx, inputs, output):
        pass

    @staticmethod
    def backward(ctx, grad):
        return _zero_gradient(grad), None

    jvp = zero


class Frac(Function):
    """z = x - trunc(x), the fractional part, with x's sign;  dz/dx = 1"""
    node_name = "FracBackward0"

    @staticmethod
    @quiet
    def forward(x):
        a = x._data
        _refuse(a, "frac_cpu", "biu")
        return wrap(a - np.trunc(a))

    @staticmethod
    def setup_context(ctx, inputs, output):
        pass

    @staticmethod
    def backward(ctx, grad):
        return grad

    @staticmethod
    def jvp(ctx, tx):
        return tx.clone()
