"""`Parameter`: the tensor type that a Module registers as a learnable weight; `Buffer`, the mark that makes a
Module register a tensor as a buffer (state, not learned)."""
import numpy as np

from .._tensor.tensor import Tensor
from ..core.dtype import default_float
from .._tensor.printing import tensor_repr


class Parameter(Tensor):
    """A leaf tensor that requires grad and that a Module registers when assigned as an attribute.

    Mirrors `torch.nn.Parameter`. It shares memory with `data` (no copy), as PyTorch's does. Results of
    operations on a Parameter are plain tensors: only the leaf itself is a Parameter.

    Args:
        data: the initial values (a tensor); None gives an empty tensor.
        requires_grad: whether backward should fill `.grad`. Default: True.

    Example:
        >>> w = nn.Parameter(torch.zeros(2))
        >>> w
        Parameter containing:
        tensor([0., 0.], requires_grad=True)
    """

    def __new__(cls, data=None, requires_grad=True):
        if data is None:
            data = Tensor._make(np.zeros(0, default_float().np_type))
        if not isinstance(data, Tensor):
            raise AttributeError(f"'{type(data).__name__}' object has no attribute 'detach'")
        if requires_grad and not data.dtype.is_floating_point:
            raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
        p = cls._make(data._data)
        p.requires_grad = requires_grad
        return p

    def __init__(self, data=None, requires_grad=True):
        pass  # all done in __new__: Tensor.__init__ would build a new array instead of sharing data's

    def __repr__(self):
        return "Parameter containing:\n" + tensor_repr(self)

    def __deepcopy__(self, memo):
        if id(self) not in memo:
            copy = type(self)(Tensor._make(self._data.copy()), self.requires_grad)
            if self._grad is not None:
                copy._grad = Tensor._make(self._grad._data.copy())
            memo[id(self)] = copy
        return memo[id(self)]

    def __reduce_ex__(self, protocol):
        return type(self), (Tensor._make(self._data), self.requires_grad)


class _BufferMeta(type):
    def __instancecheck__(cls, instance):
        """A tensor is a Buffer when `Buffer(...)` marked it (PyTorch's `_BufferMeta`)."""
        return isinstance(instance, Tensor) and getattr(instance, "_is_buffer", False)


class Buffer(Tensor, metaclass=_BufferMeta):
    """Mark a tensor as a buffer: `self.running_mean = nn.Buffer(torch.zeros(3))` registers it, as
    `register_buffer` does; `persistent=False` keeps it out of `state_dict`. Mirrors `torch.nn.Buffer`: the result
    is a plain tensor (detached, keeping `requires_grad`) that carries the mark."""

    def __new__(cls, data=None, *, persistent=True):
        if data is None:
            data = Tensor._make(np.zeros(0, default_float().np_type))
        t = data.detach().requires_grad_(data.requires_grad)
        t.persistent, t._is_buffer = persistent, True
        return t


def zero_grads(params, set_to_none=True):
    """Reset `.grad` of each tensor: to None, or to zeros in place (detached). Used by both zero_grad()s."""
    for p in params:
        if p.grad is not None:
            if set_to_none:
                p.grad = None
            else:
                if p.grad.grad_fn is not None:
                    p.grad.detach_()
                else:
                    p.grad.requires_grad_(False)
                p.grad.zero_()
