"""Module-level spellings of tensor methods: `torch.relu(x)` is `x.relu()`, and so on."""
from ..compat.batched import like
from .creation import tensor
from .reductions import _MISSING
from .tensor import Tensor
from ..ops import join as _join
from ..ops._common import as_operand, is_number
from ..ops.arithmetic import other_operand as operand_or_error
from ..ops.unary import Where as _Where

relu, sigmoid, tanh, exp, log, abs, sqrt = (Tensor.relu, Tensor.sigmoid, Tensor.tanh, Tensor.exp, Tensor.log,
                                            Tensor.abs, Tensor.sqrt)
clamp, clip, sum, mean, max, min, sort, argmax, argmin = (Tensor.clamp, Tensor.clamp, Tensor.sum, Tensor.mean,
                                                          Tensor.max, Tensor.min, Tensor.sort, Tensor.argmax,
                                                          Tensor.argmin)
mm, mv, dot, matmul, t, transpose, reshape = (Tensor.mm, Tensor.mv, Tensor.dot, Tensor.matmul, Tensor.t,
                                              Tensor.transpose, Tensor.reshape)
unsqueeze, squeeze, flatten, clone, pow, neg = (Tensor.unsqueeze, Tensor.squeeze, Tensor.flatten, Tensor.clone,
                                                Tensor.pow, Tensor.neg)


def binary_operands(name, input, other):
    """(input, other) of `torch.add(input, other)` and its kin, as PyTorch's argument parser reads them: a Python
    number for `input` is wrapped next to a tensor `other` (`torch.sub(1, x)` is `1 - x`), or made a tensor."""
    other = operand_or_error(name, other, position=2)
    if isinstance(input, Tensor):
        return input, other
    if not is_number(input):
        raise TypeError(f"{name}(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    return (as_operand(input, other) if isinstance(other, Tensor) else tensor(input)), other


def add(input, other, alpha=1):
    """input + alpha * other, elementwise, with broadcasting. Mirrors `torch.add`."""
    input, other = binary_operands("add", input, other)
    return input.add(other, alpha)


def sub(input, other, alpha=1):
    """input - alpha * other. Mirrors `torch.sub`."""
    input, other = binary_operands("sub", input, other)
    return input.sub(other, alpha)


def mul(input, other):
    """input * other, elementwise. Mirrors `torch.mul`."""
    input, other = binary_operands("mul", input, other)
    return input.mul(other)


def div(input, other, *, rounding_mode=None):
    """input / other; rounding_mode "trunc" or "floor" rounds the quotient. Mirrors `torch.div`."""
    input, other = binary_operands("div", input, other)
    return input.div(other, rounding_mode=rounding_mode)


def norm(input, p="fro", dim=None, keepdim=False):
    """The p-norm of `input`, over all elements or along `dim`. Mirrors `torch.norm`."""
    return input.norm(p, dim, keepdim)


def cat(tensors, dim=0, *, axis=None):
    """Join tensors along an existing dimension (`axis` is numpy's name for it). Mirrors `torch.cat`."""
    return _join.Cat.apply(dim if axis is None else axis, *tensors)


def stack(tensors, dim=0):
    """Join tensors along a new dimension. Mirrors `torch.stack`."""
    return _join.Stack.apply(dim, *tensors)


def where(condition, input, other):
    """Pick from `input` where `condition` is True, else from `other`. Mirrors `torch.where`."""
    if not isinstance(input, Tensor):
        # two plain numbers become tensors of PyTorch's default dtypes
        input = as_operand(input, other) if isinstance(other, Tensor) else tensor(input)
    # the condition goes in as a plain array: like PyTorch's node, WhereBackward0 has edges only to input and other
    return like(_Where.apply(condition._data, input, as_operand(other, input)), condition)


def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    return Tensor.allclose(input, other, rtol, atol, equal_nan)


def equal(input, other):
    return Tensor.equal(input, other)


def softmax(input, dim=_MISSING, dtype=None):
    """exp(x) / sum(exp(x)) along `dim` (required, unlike F.softmax). Mirrors `torch.softmax`."""
    return Tensor.softmax(input, dim, dtype)


def log_softmax(input, dim=_MISSING, dtype=None):
    """log(softmax(x)) along `dim`, computed stably. Mirrors `torch.log_softmax`."""
    return Tensor.log_softmax(input, dim, dtype)
