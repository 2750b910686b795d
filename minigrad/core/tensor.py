"""`TensorBase`: a numpy array plus what autograd needs (`requires_grad`, `grad`, `grad_fn`, a version counter).

The bottom of minigrad: it imports only numpy, the dtypes, the grad-mode switch and PyTorch's messages
(compat/). `minigrad.Tensor` (`_tensor/tensor.py`) is this class plus the methods that compute (`x + y`,
`x.sum()`, `x[0]`, `x.backward()`): they call the built-in ops, which build tensors, so they sit above the ops,
as `torch.Tensor` (Python) sits over `torch._C.TensorBase` (C++). The one seam between the two:
`set_tensor_class` tells `_make`, which every op calls, which class the tensors it makes are.
"""
import warnings

import numpy as np

from ..compat import checks
from ..compat.checks import NON_LEAF_DETACH_HINT, NON_LEAF_GRAD_WARNING, NON_LEAF_REQUIRES_GRAD
from ..compat.inference import INFERENCE_INPLACE
from . import dtype as _dtype
from .dtype import Size, default_float
from .grad_mode import _State


class TensorBase:
    """The state of a tensor: its data and what autograd needs. Mirrors `torch._C.TensorBase`."""

    # Defaults shared by all tensors; an instance stores only what differs, which keeps creation cheap.
    grad_fn = None             # the Node that produced this tensor; None for leaves
    _requires_grad = False
    _grad = None
    _output_nr = 0             # which output of grad_fn this tensor is
    _vc = None                 # version counter box [n], shared by views; None means version 0, unshared
    _grad_accumulator = None   # this leaf's AccumulateGrad node, created on first use
    _base = None               # for a view, the tensor whose memory it looks into (as `torch.Tensor._base`)
    _base_grad_fn = None       # for a view, its base's grad_fn when the view was taken
    _inference = False         # made in inference mode (a view follows its base instead: see is_inference)
    _wrapped_number = False    # True for a Python number turned into a 0-d tensor by an operator
    _tangents = None           # forward mode: {level: the direction this tensor moves in} (core/forward_ad.py)
    _batched = frozenset()     # torch.func.vmap: the levels at which it is one sample of a batch (compat/batched.py)
    __array_priority__ = 1000  # so that `numpy_value * tensor` calls Tensor.__rmul__

    def __init__(self, *args):
        # torch.Tensor([1, 2]) makes a tensor of the default dtype (float32) of those values; torch.Tensor(2, 3),
        # one of that shape (PyTorch's is uninitialized memory; minigrad's holds zeros)
        np_type = default_float().np_type
        if args and all(type(n) is int for n in args) or (len(args) == 1 and isinstance(args[0], Size)):
            self._data = np.zeros(tuple(args[0]) if isinstance(args[0], Size) else args, np_type)
        elif len(args) > 1 or (args and isinstance(args[0], (float, bool))):
            raise TypeError(f"new(): data must be a sequence (got {type(args[-1]).__name__})")
        else:
            self._data = np.array(args[0] if args else (), dtype=np_type)
        if _State.inference:
            self._inference = True

    @classmethod
    def _make(cls, array):
        """Wrap a numpy array (of a supported dtype) without copying: a `minigrad.Tensor`, or an instance of the
        subclass it is called on (`Parameter._make`)."""
        t = _new(_Tensor if cls is TensorBase else cls)
        t._data = array
        if _State.inference:
            t._inference = True
        return t

    # ---- metadata -----------------------------------------------------------------------------------------
    @property
    def shape(self):
        return Size(self._data.shape)

    def size(self, dim=None):
        """Return the shape, or the length of dimension `dim`."""
        if dim is None:
            return self.shape
        shape = self._data.shape
        if not shape:
            raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
        if not -len(shape) <= dim < len(shape):
            raise IndexError(f"Dimension out of range (expected to be in range of [{-len(shape)}, {len(shape) - 1}], "
                             f"but got {dim})")
        return shape[dim]

    def dim(self):
        return self._data.ndim

    ndim = property(dim)

    def numel(self):
        return self._data.size

    nelement = numel

    @property
    def dtype(self):
        try:
            return _dtype._BY_NUMPY[self._data.dtype]
        except KeyError:        # numpy's other name for a width (np.longlong) or a dtype minigrad lacks
            return _dtype.from_numpy_dtype(self._data.dtype)

    def is_floating_point(self):
        return self.dtype.is_floating_point

    # item(), numpy(), len(), bool(), device, to(), type() ...: the conversions, in _tensor/conversion.py
    __hash__ = object.__hash__      # by identity (Tensor's == is elementwise, as in PyTorch)

    # ---- autograd state -----------------------------------------------------------------------------------
    @property
    def requires_grad(self):
        """True if operations on this tensor are recorded so that gradients can flow back to it."""
        return self._requires_grad

    @requires_grad.setter
    def requires_grad(self, value):
        if self.grad_fn is not None:
            raise RuntimeError(NON_LEAF_REQUIRES_GRAD if value else NON_LEAF_REQUIRES_GRAD + NON_LEAF_DETACH_HINT)
        self._set_requires_grad(value, "only Tensors of floating point and complex dtype can require gradients")

    def requires_grad_(self, requires_grad=True):
        """Set `requires_grad` in place and return self.

        A non-leaf already requires grad: `requires_grad_()` on it returns it unchanged, as in PyTorch, and only
        `requires_grad_(False)` is an error.
        """
        if _State.transforms:
            checks.requires_grad_in_transform()
        if self.grad_fn is None:
            self._set_requires_grad(requires_grad, "only Tensors of floating point dtype can require gradients")
        elif not requires_grad:
            raise RuntimeError(NON_LEAF_REQUIRES_GRAD + NON_LEAF_DETACH_HINT)
        return self

    def _set_requires_grad(self, value, dtype_error):
        # PyTorch words the dtype error one way for `t.requires_grad = True`, another for `t.requires_grad_()`
        if value and not self.dtype.is_floating_point:
            raise RuntimeError(dtype_error)
        if value and not _State.inference and self.is_inference():
            raise RuntimeError("Setting requires_grad=True on inference tensor outside InferenceMode is not allowed.")
        self._requires_grad = bool(value)

    def is_inference(self):
        """Return True if this tensor was created in `inference_mode` (for a view: if its base was).

        Autograd refuses inference tensors outside the mode: they cannot be saved for backward or changed in place.
        """
        base = self._base
        # a wrapped number (the 2 of `x * 2`) stands for a Python number; minigrad caches them across modes
        return (self if base is None else base)._inference and not self._wrapped_number

    @property
    def output_nr(self):
        """Which output of `grad_fn` this tensor is (0 for a leaf). Mirrors `torch.Tensor.output_nr`."""
        return self._output_nr

    @property
    def is_leaf(self):
        """True for tensors that no recorded operation produced: only leaves receive `.grad`."""
        return self.grad_fn is None

    @property
    def retains_grad(self):
        """True if `retain_grad()` was called on this non-leaf tensor."""
        node = self.grad_fn
        if node is None or not node._retained:
            return False
        ref = node._retained.get(self._output_nr)
        return ref is not None and ref() is self

    @property
    def grad(self):
        if self.grad_fn is not None and not self.retains_grad:
            warnings.warn(NON_LEAF_GRAD_WARNING, UserWarning, stacklevel=2)
        return self._grad

    @grad.setter
    def grad(self, value):
        if value is not None:
            if not isinstance(value, TensorBase):
                raise TypeError(f"assigned grad expected to be a Tensor or None but got grad of type "
                                f"{type(value).__name__}")
            if value.shape != self.shape:
                raise RuntimeError(f"attempting to assign a gradient of size '{list(value.shape)}' to a tensor of "
                                   f"size '{list(self.shape)}'. Please ensure that the gradient and the tensor are "
                                   "the same size")
        self._grad = value

    @property
    def _version(self):
        if _State.inference_used and self.is_inference():
            raise RuntimeError("Inference tensors do not track version counter.")
        return 0 if self._vc is None else self._vc[0]

    def _bump_version(self):
        if _State.inference_used and not _State.inference and self.is_inference():
            # PyTorch checks in its version bump too, so (as there) the in-place op has already written its values
            raise RuntimeError(INFERENCE_INPLACE)
        if self._vc is None:
            self._vc = [0]
        self._vc[0] += 1

    def _shared_version_counter(self):
        if self._vc is None:
            self._vc = [0]
        return self._vc

    @property
    def data(self):
        """The same values, detached from the graph, sharing memory but not the version counter."""
        return self._same_memory()

    @data.setter
    def data(self, value):
        self._data = value._data

    def detach(self):
        """Return a tensor that shares this one's memory (and version counter) but is not in the graph."""
        t = self._same_memory()
        t._vc = self._shared_version_counter()
        t._batched = self._batched      # under vmap, still one sample of the batch
        return t

    def detach_(self):
        if self._base is not None:
            raise RuntimeError(checks.DETACH_VIEW)
        self.grad_fn, self._requires_grad, self._output_nr = None, False, 0
        return self

    def _alias(self):
        """Another tensor object over the same memory and version counter (used for views)."""
        t = self._same_memory()
        t._vc = self._shared_version_counter()
        return t

    def _same_memory(self):
        # like a view in PyTorch, a tensor over the same memory is an inference tensor exactly when this one is
        t = _new(_Tensor)
        t._data = self._data
        if self.is_inference():
            t._inference = True
        return t

    def _detached_copy(self):
        return TensorBase._make(self._data.copy())

    def _accumulate(self, other):
        # the gradient accumulates in place, as in PyTorch, so `x.grad` keeps its identity
        self._data += other._data
        self._bump_version()            # an in-place add in PyTorch too: x.grad._version counts the accumulations


_new = object.__new__
_Tensor = TensorBase    # minigrad.Tensor, once _tensor/tensor.py has run


def set_tensor_class(cls):
    """Make `cls` (a subclass of TensorBase: minigrad.Tensor) the class of every tensor `_make` creates."""
    global _Tensor
    _Tensor = cls
