"""Module-level spellings of tensor methods: `torch.relu(x)` is `x.relu()`, and so on."""
from ..compat.batched import like
from .creation import tensor
from .reductions import _MISSING
from .tensor import Tensor
from ..ops import join as _join
from ..ops._common import as_operand
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
add, sub, mul, div = Tensor.add, Tensor.sub, Tensor.mul, Tensor.div


def norm(input, p="fro", dim=None, keepdim=False):
    """The p-norm of `input`, over all elements or along `dim`. Mirrors `torch.norm`."""
    return input.norm(p, dim, keepdim)


def cat(tensors, dim=0):
    """Join tensors along an existing dimension. Mirrors `torch.cat`."""
    return _join.Cat.apply(dim, *tensors)


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
