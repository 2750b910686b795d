"""+ - * / ** and negation: the operators of `Tensor` first (`x + y` calls `Add.apply`), then the ops they call.

Python numbers arrive wrapped as 0-d tensors, as in PyTorch. Each op is a `Function` written as the book teaches
you to write one: `forward`, `setup_context`, `backward`; only `node_name` (PyTorch's name for its node) and
`saved_names` / `saved_attrs` (what `grad_fn._saved_*` shows) are extra; `jvp` is forward mode's formula
(core/forward_ad.py). One table of the arithmetic ops, past 400 lines because each has both its derivatives.
"""
import numpy as np

from ..core.forward_ad import linear
from ..core.function import Function
from ..core.tensor import TensorBase
from ._common import as_operand, float_dtype_of, grad_to, is_number, operands, quiet, wrap
from .integer import DivFloor, DivTrunc
from .unary import Log, Where

# what an operator takes on its other side: a tensor, a number (Python's or numpy's), or a numpy array
OPERANDS = (TensorBase, int, float, np.number, np.bool_, np.ndarray)
ROUNDED_DIVISION = {"trunc": DivTrunc, "floor": DivFloor}


class TensorArithmetic:
    """The operators of `minigrad.Tensor` (which inherits this class): `x + y` is `Add.apply(x, y)`, `x * 2` is
    `Mul.apply(x, tensor(2.))`. A Python number on either side is wrapped into a 0-d tensor, as PyTorch does.
    Anything else (None, a list, a string) gives NotImplemented, so that Python raises its TypeError
    ("unsupported operand type(s) for +: 'Tensor' and 'NoneType'"), as it does for torch."""

    def __add__(self, other):
        if not isinstance(other, OPERANDS):
            return NotImplemented
        return Add.apply(self, as_operand(other, self))

    __radd__ = __add__

    def __sub__(self, other):
        if not isinstance(other, OPERANDS):
            return NotImplemented
        return Sub.apply(self, subtraction_operand(other, self))

    def __rsub__(self, other):
        if not isinstance(other, OPERANDS):
            return NotImplemented
        if is_number(other):
            return Rsub.apply(self, other)
        return as_operand(other, self) - self

    def __mul__(self, other):
        if not isinstance(other, OPERANDS):
            return NotImplemented
        return Mul.apply(self, as_operand(other, self))

    __rmul__ = __mul__

    def __truediv__(self, other):
        if not isinstance(other, OPERANDS):
            return NotImplemented
        return Div.apply(self, as_operand(other, self))

    def __rtruediv__(self, other):
        if not isinstance(other, OPERANDS):
            return NotImplemented
        return Reciprocal.apply(self) * other

    def __pow__(self, exponent):
        if not isinstance(exponent, OPERANDS):
            return NotImplemented
        if isinstance(exponent, TensorBase):
            return PowTensor.apply(self, exponent)
        return Pow.apply(self, exponent)

    def __rpow__(self, base):
        if not isinstance(base, OPERANDS):
            return NotImplemented
        if is_number(base):
            return RPow.apply(self, base)
        return as_operand(base, self) ** self

    def __neg__(self):
        return Neg.apply(self)

    def __abs__(self):
        return self.abs()

    # in place: x += y is x.add_(y)  (_tensor/inplace.py)
    def __iadd__(self, other):
        return self.add_(other) if isinstance(other, OPERANDS) else NotImplemented

    def __isub__(self, other):
        return self.sub_(other) if isinstance(other, OPERANDS) else NotImplemented

    def __imul__(self, other):
        return self.mul_(other) if isinstance(other, OPERANDS) else NotImplemented

    def __itruediv__(self, other):
        return self.div_(other) if isinstance(other, OPERANDS) else NotImplemented

    def add(self, other, alpha=1):
        return Add.apply(self, as_operand(other_operand("add", other), self), alpha)

    def sub(self, other, alpha=1):
        return Sub.apply(self, subtraction_operand(other_operand("sub", other), self), alpha)

    def mul(self, other):
        return self * other_operand("mul", other)

    def div(self, other, *, rounding_mode=None):
        """self / other; with rounding_mode "trunc" or "floor", the quotient rounded toward 0 or toward -inf."""
        if rounding_mode is None:
            return self / other_operand("div", other)
        return rounded_division(rounding_mode).apply(self, as_operand(other_operand("div", other), self))

    def pow(self, exponent):
        return self ** exponent

    def neg(self):
        return -self


def other_operand(name, other, position=1):
    """`other` if a tensor method's operator takes it, else the TypeError of PyTorch's argument parser."""
    if not isinstance(other, OPERANDS):
        raise TypeError(f"{name}(): argument 'other' (position {position}) must be Tensor, not {type(other).__name__}")
    return other


def check_alpha(dtype, alpha):
    """ATen's checks of add's and sub's `alpha` against the result's (numpy) dtype."""
    if isinstance(alpha, (bool, np.bool_)) and dtype != np.bool_:
        raise RuntimeError("Boolean alpha only supported for Boolean results.")
    if isinstance(alpha, (float, np.floating)) and dtype.kind in "biu":
        raise RuntimeError("For integral input tensors, argument alpha must not be a floating point number.")


def rounded_division(mode):
    """The op of `torch.div(x, y, rounding_mode=mode)`, for mode "trunc" or "floor"."""
    if mode not in ROUNDED_DIVISION:
        raise RuntimeError(f"div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '{mode}'")
    return ROUNDED_DIVISION[mode]


class Add(Function):
    """z = x + alpha * y;  dz/dx = 1,  dz/dy = alpha"""
    node_name = "AddBackward0"
    saved_attrs = {"alpha": "alpha"}

    @staticmethod
    def forward(x, y, alpha=1):
        a, b = operands(x, y)
        if type(alpha) is not int:
            check_alpha(a.dtype, alpha)
        return wrap(a + b if alpha == 1 else a + alpha * b)

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, y, *alpha = inputs
        ctx.shapes, ctx.alpha = (x._data.shape, y._data.shape), (alpha[0] if alpha else 1)

    @staticmethod
    def backward(ctx, grad):
        needs_x, needs_y = ctx.needs_input_grad[:2]
        gx = grad_to(grad, ctx.shapes[0]) if needs_x else None
        gy = grad_to(grad if ctx.alpha == 1 else grad * ctx.alpha, ctx.shapes[1]) if needs_y else None
        return gx, gy, None

    jvp = linear          # forward mode: tx + alpha * ty (core/forward_ad.py)


class AddScalar(Function):
    """z = x + c for a number c, as ATen's add(Tensor, Scalar) (a Python `x + c` records AddBackward0);
    dz/dx = 1"""
    node_name = "AddBackward1"

    @staticmethod
    def forward(x, c):
        a = x._data
        if a.dtype.kind != "f" and isinstance(c, float):
            a = float_dtype_of(a)               # an integer tensor plus a float: the default dtype
        return wrap(a + a.dtype.type(c))

    @staticmethod
    def setup_context(ctx, inputs, output):
        pass                                    # nothing to save: the gradient passes through

    @staticmethod
    def backward(ctx, grad):
        return grad, None

    @staticmethod
    def jvp(ctx, tx, tc):
        return tx


class SubScalar(AddScalar):
    """z = x - c for a number c, as ATen's sub(Tensor, Scalar) in PyTorch's C++ composites; dz/dx = 1"""
    node_name = "SubBackward1"

    @staticmethod
    def forward(x, c):
        return AddScalar.forward(x, -c)


class MulScalar(Function):
    """z = c x for a number c, as ATen's mul(Tensor, Scalar) in PyTorch's C++ composites (a Python `x * c`
    records MulBackward0); dz/dx = c"""
    node_name = "MulBackward1"
    saved_attrs = {"other": "c"}

    @staticmethod
    def forward(x, c):
        a = x._data
        if a.dtype.kind != "f" and isinstance(c, float):
            a = float_dtype_of(a)
        return wrap(a * a.dtype.type(c))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.c = inputs[1]

    @staticmethod
    def backward(ctx, grad):
        return grad * ctx.c, None

    @staticmethod
    def jvp(ctx, tx, tc):
        return tx * ctx.c


def no_bool_subtraction(a, b):
    """PyTorch refuses `-` as soon as one side (dtype `a` or `b`) is a bool tensor (a Python bool counts as one)."""
    if a == np.bool_ and b == np.bool_:
        raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or "
                           "`logical_xor()` operator instead.")
    if a == np.bool_ or b == np.bool_:
        raise RuntimeError("Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying "
                           "to invert a mask, use the `~` or `logical_not()` operator instead.")


def subtraction_operand(value, x):
    """`value` as a tensor to subtract from tensor `x` or `x` from: a Python bool is a bool tensor to PyTorch's `-`
    (refused), though as_operand promotes it like an int."""
    if type(value) is bool:
        no_bool_subtraction(x._data.dtype, np.bool_)
    return as_operand(value, x)


class Sub(Function):
    """z = x - alpha * y;  dz/dx = 1,  dz/dy = -alpha"""
    node_name = "SubBackward0"
    saved_attrs = {"alpha": "alpha"}

    @staticmethod
    def forward(x, y, alpha=1):
        no_bool_subtraction(x._data.dtype, y._data.dtype)
        a, b = operands(x, y)
        if type(alpha) is not int:
            check_alpha(a.dtype, alpha)
        return wrap(a - b if alpha == 1 else a - alpha * b)

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, y, *alpha = inputs
        ctx.shapes, ctx.alpha = (x._data.shape, y._data.shape), (alpha[0] if alpha else 1)

    @staticmethod
    def backward(ctx, grad):
        needs_x, needs_y = ctx.needs_input_grad[:2]
        gx = grad_to(grad, ctx.shapes[0]) if needs_x else None
        gy = grad_to(Neg.apply(grad) if ctx.alpha == 1 else grad * -ctx.alpha, ctx.shapes[1]) if needs_y else None
        return gx, gy, None

    jvp = linear


class Rsub(Function):
    """z = c - alpha * x  (c a Python number, so the node has one edge, to x; `c - x` has alpha 1);  dz/dx = -alpha"""
    node_name = "RsubBackward1"
    saved_attrs = {"alpha": "alpha"}

    @staticmethod
    def forward(x, c, alpha=1):
        c = subtraction_operand(c, x)
        no_bool_subtraction(c._data.dtype, x._data.dtype)
        a, b = operands(x, c)
        if type(alpha) is not int:
            check_alpha(a.dtype, alpha)
        return wrap(b - a if alpha == 1 else b - alpha * a)

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.alpha = inputs[2] if len(inputs) > 2 else 1

    @staticmethod
    def backward(ctx, grad):
        return (Neg.apply(grad) if ctx.alpha == 1 else grad * -ctx.alpha), None, None

    @staticmethod
    def jvp(ctx, tx, tc, talpha=None):
        return -tx if ctx.alpha == 1 else tx * -ctx.alpha


class RsubTensor(Function):
    """z = y - alpha * x  (`torch.rsub(x, y)`: Sub with its inputs swapped);  dz/dx = -alpha,  dz/dy = 1"""
    node_name = "RsubBackward0"
    saved_attrs = {"alpha": "alpha"}

    @staticmethod
    def forward(x, y, alpha=1):
        return Sub.forward(y, x, alpha)

    setup_context = staticmethod(Sub.setup_context)

    @staticmethod
    def backward(ctx, grad):
        needs_x, needs_y = ctx.needs_input_grad[:2]
        gx = grad_to(Neg.apply(grad) if ctx.alpha == 1 else grad * -ctx.alpha, ctx.shapes[0]) if needs_x else None
        gy = grad_to(grad, ctx.shapes[1]) if needs_y else None
        return gx, gy, None

    jvp = linear


class Mul(Function):
    """z = x * y;  dz/dx = y,  dz/dy = x"""
    node_name = "MulBackward0"
    saved_names = ("other", "self")

    @staticmethod
    def forward(x, y):
        a, b = operands(x, y)
        return wrap(a * b)

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, y = inputs
        # like PyTorch, save only what a needed gradient uses: dz/dx needs y, dz/dy needs x. (y comes first,
        # as PyTorch unpacks it first: if both were changed in place, the error names y.)
        needs_x, needs_y = ctx.needs_input_grad
        ctx.save_for_backward(y if needs_x else None, x if needs_y else None)
        ctx.shapes = (x._data.shape, y._data.shape)

    @staticmethod
    def backward(ctx, grad):
        y, x = ctx.saved_tensors
        gx = grad_to(grad * y, ctx.shapes[0]) if y is not None else None
        gy = grad_to(grad * x, ctx.shapes[1]) if x is not None else None
        return gx, gy

    @staticmethod
    def jvp(ctx, tx, ty):
        x, y = ctx.primals
        return tx * y + x * ty


class Div(Function):
    """z = x / y;  dz/dx = 1 / y,  dz/dy = -x / y**2"""
    node_name = "DivBackward0"
    saved_names = ("other", "self")

    @staticmethod
    @quiet              # x / 0 is inf or nan, as in PyTorch, without a warning (no scan of y for zeros first)
    def forward(x, y):
        a, b = operands(x, y)
        a, b = float_dtype_of(a), float_dtype_of(b)               # integers divide into float32
        return wrap(a / b)

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, y = inputs
        needs_x, needs_y = ctx.needs_input_grad
        ctx.save_for_backward(y, x if needs_y else None)      # y first, as PyTorch unpacks them
        ctx.shapes = (x._data.shape, y._data.shape)

    @staticmethod
    def backward(ctx, grad):
        y, x = ctx.saved_tensors
        gx = grad_to(grad / y, ctx.shapes[0]) if ctx.needs_input_grad[0] else None
        # x / y / y, as PyTorch computes it, overflows later than x / (y * y)
        gy = grad_to(-grad * (x / y / y), ctx.shapes[1]) if x is not None else None
        return gx, gy

    @staticmethod
    def jvp(ctx, tx, ty):
        return (tx - ty * ctx.result) / ctx.primals[1]


class Reciprocal(Function):
    """z = 1 / x;  dz/dx = -z**2"""
    node_name = "ReciprocalBackward0"
    saved_names = ("result",)

    @staticmethod
    @quiet
    def forward(x):
        return wrap(1.0 / float_dtype_of(x._data))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(output)

    @staticmethod
    def backward(ctx, grad):
        (z,) = ctx.saved_tensors
        return -grad * (z * z)

    @staticmethod
    def jvp(ctx, tx):
        z = ctx.result
        return -tx * (z * z)


class Neg(Function):
    """z = -x;  dz/dx = -1"""
    node_name = "NegBackward0"

    @staticmethod
    def forward(x):
        if x._data.dtype == np.bool_:
            raise RuntimeError("Negation, the `-` operator, on a bool tensor is not supported. If you are trying to "
                               "invert a mask, use the `~` or `logical_not()` operator instead.")
        return wrap(-x._data)

    @staticmethod
    def setup_context(ctx, inputs, output):
        pass

    @staticmethod
    def backward(ctx, grad):
        return Neg.apply(grad)

    jvp = linear


class Pow(Function):
    """z = x ** p  (p a Python number);  dz/dx = p * x ** (p - 1)"""
    node_name = "PowBackward0"
    saved_names = ("self",)
    saved_attrs = {"exponent": "p"}

    @staticmethod
    @quiet
    def forward(x, p):
        a = x._data
        if a.dtype.kind != "f" and isinstance(p, float):
            a = float_dtype_of(a)
        elif a.dtype == np.bool_:
            a = a.astype(np.int64)          # bool ** 2 is int64 in PyTorch (numpy would say int8)
        elif a.dtype.kind == "i" and p < 0:
            raise RuntimeError("Integers to negative integer powers are not allowed.")
        # as ATen, these exponents are products, not pow(), so float32 results agree with torch to the bit
        if p == 3:
            return wrap(a * a * a)
        if p == -2 and a.dtype.kind == "f":
            return wrap(1 / (a * a))
        if p == -0.5 and a.dtype.kind == "f":
            return wrap(1 / np.sqrt(a))
        return wrap(a ** p)

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, ctx.p = inputs
        ctx.save_for_backward(x)

    @staticmethod
    @quiet
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        p = ctx.p
        if p == 0:
            return wrap(np.zeros_like(x._data)), None      # a constant, as PyTorch's zeros_like
        return grad * (p * x ** (p - 1)), None

    @staticmethod
    @quiet
    def jvp(ctx, tx, tp):
        x, p = ctx.primals
        return tx * 0 if p == 0 else tx * (p * x ** (p - 1))


class PowTensor(Function):
    """z = x ** y;  dz/dx = y * x ** (y - 1),  dz/dy = z * log(x)"""
    node_name = "PowBackward1"
    saved_names = ("exponent", "self", "result")

    @staticmethod
    @quiet
    def forward(x, y):
        a, b = operands(x, y)
        return wrap(a ** b)

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, y = inputs
        needs_y = ctx.needs_input_grad[1]
        ctx.save_for_backward(y, x, output if needs_y else None)      # in PyTorch's order; z only for dz/dy
        ctx.shapes = (x._data.shape, y._data.shape)

    @staticmethod
    @quiet
    def backward(ctx, grad):
        y, x, z = ctx.saved_tensors
        gx = grad_to(_pow_dx(grad, x, y), ctx.shapes[0]) if ctx.needs_input_grad[0] else None
        gy = grad_to(_pow_dy(grad, x, y, z), ctx.shapes[1]) if ctx.needs_input_grad[1] else None
        return gx, gy

    @staticmethod
    @quiet
    def jvp(ctx, tx, ty):
        (x, y), z = ctx.primals, ctx.result
        return _pow_dx(tx, x, y) + _pow_dy(ty, x, y, z)


# the masks are PyTorch's: y = 0 gives dz/dx = 0 even at x = 0 (not 0 * inf), and x = 0 with y >= 0 gives
# dz/dy = 0 (not 0 * -inf); a negative x gives log(x) = nan, as in PyTorch
def _pow_dx(grad, x, y):
    return Where.apply(y._data == 0, as_operand(0, grad), grad * (y * x ** (y - 1)))


def _pow_dy(grad, x, y, z):
    at_zero = np.logical_and(x._data == 0, y._data >= 0)
    return grad * Where.apply(at_zero, as_operand(0, grad), z * Log.apply(x))


class RPow(Function):
    """z = c ** x  (c a Python number, so the node has one edge, to x);  dz/dx = z * log(c)"""
    node_name = "PowBackward2"
    saved_names = ("result",)
    saved_attrs = {"self": "c"}

    @staticmethod
    @quiet
    def forward(x, c):
        a, b = operands(x, as_operand(c, x))
        return wrap(b ** a)

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.c = inputs[1]
        ctx.save_for_backward(output)

    @staticmethod
    @quiet
    def backward(ctx, grad):
        (z,) = ctx.saved_tensors
        return grad * RPow.derivative(z, ctx.c), None

    @staticmethod
    @quiet
    def jvp(ctx, tx, tc):
        return tx * RPow.derivative(ctx.result, ctx.primals[1])

    @staticmethod
    def derivative(z, c):
        dz = z * float(np.log(c))
        if c == 0:
            # PyTorch's mask: 0 ** x has dz/dx = 0 where x >= 0, which is where z (0 or 1) is at most 1
            dz = Where.apply(z._data <= 1, as_operand(0, z), dz)
        return dz
