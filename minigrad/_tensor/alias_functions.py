"""Module-level spellings of `Tensor` methods under PyTorch's names and aliases: `torch.eq(x, y)` is `x.eq(y)`,
`torch.greater` is `torch.gt`, `torch.subtract` is `torch.sub`, `torch.concat` is `torch.cat`, ...; and
`torch.broadcast_to`, `broadcast_tensors`, `broadcast_shapes`.

Each records the node of the method it names. A Python number may stand for `input` where PyTorch's argument
parser takes one (`torch.subtract(1, x)` is `1 - x`), not in the comparisons (`torch.eq(1, x)` is an error).
"""
from ..core.dtype import Size
from ..ops import arithmetic
from ..ops._common import broadcast_shapes as _broadcast_shapes, is_number
from .conversion import _label
from .functions import binary_operands, cat, div, mul, sub
from .pointwise import _tensor_arg
from .tensor import Tensor

__all__ = ["eq", "ne", "gt", "ge", "lt", "le", "greater", "greater_equal", "less", "less_equal", "not_equal",
           "detach", "subtract", "multiply", "divide", "true_divide", "rsub", "positive", "sgn",
           "swapaxes", "swapdims", "ravel", "concat", "concatenate", "broadcast_to", "broadcast_tensors",
           "broadcast_shapes", "is_complex", "is_nonzero", "is_same_size", "is_signed", "conj", "conj_physical",
           "conj_physical_", "resolve_conj", "resolve_neg", "is_conj", "is_neg", "real", "isreal", "angle", "adjoint"]


def invalid_combination(name, args, signatures):
    """PyTorch's TypeError for arguments that fit none of a function's signatures."""
    got = ", ".join(_label(a) for a in args)
    return TypeError(f"{name}() received an invalid combination of arguments - got ({got}), but expected one of:\n"
                     + "".join(f" * {s}\n" for s in signatures))


def method_function(name, method_name=None, doc=None):
    """`torch.<name>(input, ...)` as the Tensor method `input.<method_name>(...)`, with PyTorch's TypeError when
    `input` is not a tensor."""
    method = getattr(Tensor, method_name or name)

    def function(input, *args, **kwargs):
        return method(_tensor_arg(input, name, "input", 1), *args, **kwargs)
    function.__name__ = function.__qualname__ = name
    function.__doc__ = doc or f"`input.{method_name or name}(...)`. Mirrors `torch.{name}`."
    return function


_TENSOR_OR_NUMBER = ("(Tensor input, Tensor other, *, Tensor out = None)",
                     "(Tensor input, Number other, *, Tensor out = None)")


def tensor_and_operand(name, method, doc=None, signatures=_TENSOR_OR_NUMBER):
    """`torch.<name>(input, other)` as `method(input, other)` for a tensor and a tensor or a number; other
    arguments fit none of PyTorch's signatures (`torch.eq(1, x)` is an error, unlike `1 == x`)."""
    def function(input, other):
        if not isinstance(input, Tensor) or not (isinstance(other, Tensor) or is_number(other)):
            raise invalid_combination(name, (input, other), signatures)
        return method(input, other)
    function.__name__ = function.__qualname__ = name
    function.__doc__ = doc or f"`input.{name}(other)`, other a tensor or a number. Mirrors `torch.{name}`."
    return function


# ---- comparisons: a tensor, and a tensor or a number -------------------------------------------------------------
_SYMBOL = {"eq": "==", "ne": "!=", "gt": ">", "ge": ">=", "lt": "<", "le": "<="}
_COMPARISONS = {"eq": "eq", "ne": "ne", "gt": "gt", "ge": "ge", "lt": "lt", "le": "le", "greater": "gt",
                "greater_equal": "ge", "less": "lt", "less_equal": "le", "not_equal": "ne"}
(eq, ne, gt, ge, lt, le, greater, greater_equal, less, less_equal, not_equal) = (
    tensor_and_operand(name, getattr(Tensor, op), f"`input {_SYMBOL[op]} other` elementwise, a bool tensor. "
                       f"Mirrors `torch.{name}`.") for name, op in _COMPARISONS.items())


# ---- arithmetic: torch.sub, mul and div under their other names ----------------------------------------------------
subtract, multiply, divide = sub, mul, div


def true_divide(input, other):
    """input / other in a floating dtype, even for integers. Mirrors `torch.true_divide`."""
    input, other = binary_operands("true_divide", input, other)
    return input.div(other)


def rsub(input, other, alpha=1):
    """other - alpha * input: `sub` with its arguments swapped. Mirrors `torch.rsub`."""
    if not isinstance(input, Tensor) or not (isinstance(other, Tensor) or is_number(other)):
        raise invalid_combination("rsub", (input, other), ("(Tensor input, Tensor other, *, Number alpha = 1)",
                                                           "(Tensor input, Number other, Number alpha = 1)"))
    if isinstance(other, Tensor):
        return arithmetic.RsubTensor.apply(input, other, alpha)
    return arithmetic.Rsub.apply(input, other, alpha)


detach = method_function("detach", doc="A tensor sharing `input`'s memory, cut off from the graph. Mirrors "
                                       "`torch.detach`.")
positive = method_function("positive", doc="`input` itself (`+input`). Mirrors `torch.positive`.")
sgn = method_function("sgn", doc="The sign of each element, -1, 0 or 1. Mirrors `torch.sgn`.")


# ---- shape ---------------------------------------------------------------------------------------------------------
swapaxes = method_function("swapaxes", doc="`input.transpose(axis0, axis1)`. Mirrors `torch.swapaxes`.")
swapdims = method_function("swapdims", doc="`input.transpose(dim0, dim1)`. Mirrors `torch.swapdims`.")
ravel = method_function("ravel", doc="All elements in one dimension (a view where the memory allows). Mirrors "
                                     "`torch.ravel`.")


def concat(tensors, dim=0, *, axis=None):
    """`torch.cat` under numpy's name (`axis` is numpy's name for `dim`). Mirrors `torch.concat`."""
    return cat(_tensor_list("concat", tensors), dim if axis is None else axis)


def concatenate(tensors, axis=0, *, dim=None):
    """`torch.cat` with numpy's keyword `axis` (or `dim`). Mirrors `torch.concatenate`."""
    return cat(_tensor_list("concatenate", tensors), axis if dim is None else dim)


def _tensor_list(name, tensors):
    if not isinstance(tensors, (tuple, list)):
        raise TypeError(f"{name}(): argument 'tensors' (position 1) must be tuple of Tensors, not "
                        f"{_label(tensors)}")
    for i, t in enumerate(tensors):
        if not isinstance(t, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got {type(t).__name__}")
    return tensors


# ---- broadcasting --------------------------------------------------------------------------------------------------
broadcast_to = method_function("broadcast_to", doc="`input.expand(size)`: a view with the broadcast shape. Mirrors "
                                                 "`torch.broadcast_to`.")


def broadcast_tensors(*tensors):
    """Expand every tensor to the shape they broadcast to together (views). Mirrors `torch.broadcast_tensors`."""
    _tensor_list("broadcast_tensors", tensors)
    shape = _broadcast_shapes(*(t._data.shape for t in tensors))
    return tuple(t.expand(shape) for t in tensors)


def broadcast_shapes(*shapes):
    """The shape that tensors of these shapes (ints count as 1-d shapes) broadcast to, without making any.

    Example:
        >>> torch.broadcast_shapes((2,), (3, 1), (1, 1, 1))
        torch.Size([1, 3, 2])
    """
    shapes = [(s,) if isinstance(s, int) else s for s in shapes if s is not None]
    for shape in shapes:
        if not isinstance(shape, (tuple, list)):
            raise RuntimeError("Input shapes should be of type ints, a tuple of ints, or a list of ints, got "
                               f"{shape}")
    common = [1] * max((len(s) for s in shapes), default=0)
    # PyTorch's loop (torch._refs._broadcast_shapes), for its errors: each shape in turn, from the right
    for k, shape in enumerate(shapes):
        for i in range(-1, -1 - len(shape), -1):
            if shape[i] == common[i]:
                continue
            if common[i] == 1:
                if shape[i] < 0:
                    raise ValueError("Attempting to broadcast a dimension with negative length!")
                common[i] = shape[i]
            if shape[i] != 1 and common[i] != shape[i]:
                raise RuntimeError(f"Attempting to broadcast a dimension of length {shape[i]} at {i}! Mismatching "
                                   f"argument at index {k} had {shape}; but expected shape should be broadcastable "
                                   f"to {common}")
    return Size(common)


# ---- questions -----------------------------------------------------------------------------------------------------
is_complex, is_signed, is_nonzero = (method_function(n) for n in ("is_complex", "is_signed", "is_nonzero"))


def is_same_size(input, other):
    _tensor_arg(input, "is_same_size", "input", 1)
    return input.is_same_size(_tensor_arg(other, "is_same_size", "other", 2))


# ---- the complex-number API on real tensors (complex_api.py) ------------------------------------------------------
(conj, conj_physical, conj_physical_, resolve_conj, resolve_neg, is_conj, is_neg, isreal, angle, adjoint) = (
    method_function(name) for name in ("conj", "conj_physical", "conj_physical_", "resolve_conj", "resolve_neg",
                                       "is_conj", "is_neg", "isreal", "angle", "adjoint"))


def real(input):
    """The real part: the tensor itself, for minigrad's real tensors. Mirrors `torch.real`."""
    return _tensor_arg(input, "real", "input", 1).real
