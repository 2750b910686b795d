"""The in-place methods of `Tensor`: `add_`, `mul_`, `fill_`, `t[index] = value`, `apply_`, ...

Each in-place change runs the op out of place, writes the result into the tensor's own memory, bumps its
version counter (so saved copies of it are detected as stale) and, when recorded, makes the op's node the
tensor's new `grad_fn`.
"""
import re
import warnings

import numpy as np

from ..compat.batched import refuse_inplace, refuse_masks
from ..core import dtype as _dtype
from ..random import functions as _random_functions
from ..core.grad_mode import _State
from ..core.tensor import TensorBase
from ..core.forward_ad import set_tangent, tangent_of
from ..core.graph import SavedTensor, set_history
from .pointwise import _named_comparison
from .views import AsStridedBackward0, CopySlices, locate, refresh_view, refresh_views
from ..ops import arithmetic, comparison_inplace, unary
from ..ops.indexing import IndexPut, SetSlice, index_array as _index_array, is_basic_index
from ..ops._common import as_operand as _as_tensor, is_number as _is_number, wrap


# called with a tensor about to be changed in place (autograd/graph.py's allow_mutation_on_saved_tensors clones it)
BEFORE_WRITE = []


class TensorInPlace:
    """In-place changes for `Tensor`."""

    # ---- the in-place ops: each is also a recorded op, and bumps the version counter ---------------------------
    def add_(self, other, alpha=1):
        return self._inplace(arithmetic.Add, _as_tensor(other, self), alpha)

    def sub_(self, other, alpha=1):
        return self._inplace(arithmetic.Sub, arithmetic.subtraction_operand(other, self), alpha)

    def mul_(self, other):
        return self._inplace(arithmetic.Mul, _as_tensor(other, self))

    def div_(self, other, *, rounding_mode=None):
        if rounding_mode is None:
            return self._inplace(arithmetic.Div, _as_tensor(other, self))
        return self._inplace(arithmetic.rounded_division(rounding_mode), _as_tensor(other, self))

    def clamp_(self, min=None, max=None):
        return self._inplace(unary.Clamp, min, max)

    def fill_(self, value):
        refuse_inplace(self, (value,), "fill_")
        return self._inplace(unary.Fill, float(value) if self.dtype.is_floating_point else value)

    def zero_(self):
        return self._inplace(unary.Zero)

    def copy_(self, src):
        return self._inplace(unary.Copy, src)

    # ---- comparisons and logic in place: self becomes 1 where it holds, 0 elsewhere, in its own dtype ----------
    def _compare_(self, name, other):
        scalar, tensor = comparison_inplace.BY_NAME[name]
        if isinstance(other, TensorBase):
            return self._inplace(tensor, other)
        if not _is_number(other):
            return _named_comparison(f"{name}_", None)(self, other)     # PyTorch's TypeError
        return self._inplace(scalar, other)

    def eq_(self, other):
        return self._compare_("eq", other)

    def ne_(self, other):
        return self._compare_("ne", other)

    def gt_(self, other):
        return self._compare_("gt", other)

    def ge_(self, other):
        return self._compare_("ge", other)

    def lt_(self, other):
        return self._compare_("lt", other)

    def le_(self, other):
        return self._compare_("le", other)

    greater_, greater_equal_, less_, less_equal_, not_equal_ = gt_, ge_, lt_, le_, ne_

    def _logical_(self, result):
        """Write a logical op's bool result as self's dtype. PyTorch does not differentiate these ops, so it records
        nothing (grad_fn stays) and allows them even on a leaf that requires grad."""
        if result.shape != self.shape:
            raise RuntimeError(f"output with shape {list(self.shape)} doesn't match the broadcast shape "
                               f"{list(result.shape)}")
        self._data[...] = result._data
        self._bump_version()
        return self

    def logical_and_(self, other):
        return self._logical_(self.logical_and(other))

    def logical_or_(self, other):
        return self._logical_(self.logical_or(other))

    def logical_xor_(self, other):
        return self._logical_(self.logical_xor(other))

    def logical_not_(self):
        return self._logical_(self.logical_not())

    # ---- random fills, PyTorch's numbers for the same seed (see random/generator.py): not recorded in the graph ----
    def normal_(self, mean=0.0, std=1.0, *, generator=None):
        """Fill with N(mean, std**2) samples."""
        return self._inplace_random(_random_functions.normal_fill, mean, std, generator)

    def uniform_(self, a=0.0, b=1.0, *, generator=None):
        """Fill with U(a, b) samples."""
        return self._inplace_random(_random_functions.uniform_fill, a, b, generator)

    def random_(self, *bounds, generator=None):
        """Integers: `random_()` over the dtype's range, `random_(to)` from [0, to), `random_(from, to)`."""
        low, high = (None, None) if not bounds else (None, bounds[0]) if len(bounds) == 1 else bounds
        return self._inplace_random(_random_functions.random_fill, low, high, generator)

    def bernoulli_(self, p=0.5, *, generator=None):
        """Fill with 1 with probability p (a number, or a tensor of probabilities), else 0."""
        return self._inplace_random(_random_functions.bernoulli_fill, p, generator)

    def exponential_(self, lambd=1.0, *, generator=None):
        """Fill with Exp(lambd) samples."""
        return self._inplace_random(_random_functions.exponential_fill, lambd, generator)

    def bernoulli(self, p=None, *, generator=None):
        """A new tensor of 0/1 draws, 1 with probability self[i] (or p). Mirrors `torch.bernoulli`."""
        return _random_functions.bernoulli(self, p, generator=generator)

    def multinomial(self, num_samples, replacement=False, *, generator=None):
        """Draw category indices with probabilities proportional to self's rows. Mirrors `torch.multinomial`."""
        return _random_functions.multinomial(self, num_samples, replacement, generator=generator)

    def _inplace_random(self, fill, *args):
        self._check_inplace()
        if 0 in self._data.strides and _overlaps_itself(self._data):
            raise RuntimeError("unsupported operation: more than one element of the written-to tensor refers to a "
                               "single memory location. Please clone() the tensor before performing the operation.")
        fill(self._data, *args)
        self._bump_version()
        return self

    # ---- the machinery ---------------------------------------------------------------------------------
    def _check_inplace(self):
        for hook in BEFORE_WRITE:       # torch.autograd.graph.allow_mutation_on_saved_tensors
            hook(self)
        if not _State.enabled:
            return
        if self.grad_fn is None and self._requires_grad:
            raise RuntimeError("a leaf Variable that requires grad is being used in an in-place operation.")
        base = self._base
        if base is not None and base.grad_fn is None and base._requires_grad:
            raise RuntimeError("a view of a leaf Variable that requires grad is being used in an in-place "
                               "operation.")

    def _write(self, result):
        """Store an op's result in this tensor's memory, in place, and record it (the in-place op's node)."""
        if _State.forward_ad and (result._tangents or self._tangents):
            for level in range(_State.forward_ad):
                _write_tangent(self, tangent_of(result, level), level)
        if result.grad_fn is not None and self._base is not None:
            return _write_through_view(self, result)
        self._check_fits(result)
        self._data[...] = result._data
        self._bump_version()
        if result.grad_fn is not None:
            set_history(self, result.grad_fn, result._output_nr)
            if self._views:
                refresh_views(self)
        return self

    def _check_fits(self, result):
        if _dtype._CATEGORY[result.dtype] > _dtype._CATEGORY[self.dtype]:
            raise RuntimeError(f"result type {result.dtype._scalar_name} can't be cast to the desired output "
                               f"type {self.dtype._scalar_name}")
        if result._data.shape != self._data.shape:      # x.add_(y) cannot grow x
            raise RuntimeError(f"output with shape {list(self._data.shape)} doesn't match the broadcast shape "
                               f"{list(result._data.shape)}")

    def _inplace(self, op, *args):
        self._check_inplace()
        refuse_inplace(self, args, _method_name(op))        # under vmap, one unbatched tensor cannot take a batch
        if 0 in self._data.strides and op not in (unary.Fill, unary.Zero) and _overlaps_itself(self._data):
            raise RuntimeError("unsupported operation: more than one element of the written-to tensor refers to a "
                               "single memory location. Please clone() the tensor before performing the operation.")
        for a in args:
            if isinstance(a, TensorBase) and a is not self and _partly_overlap(a._data, self._data):
                raise RuntimeError("unsupported operation: some elements of the input tensor and the written-to "
                                   "tensor refer to a single memory location. Please clone() the tensor before "
                                   "performing the operation.")
        result = op.apply(self, *args)
        node = result.grad_fn
        if node is not None and node._saved:
            # the op saved this tensor as its first input, which is about to change: like PyTorch, keep its
            # original value, as a recorded clone so that double backward reaches its history. Saved as another
            # input too (`a.mul_(a)`), it fails the version check, as in PyTorch.
            saved = list(node._saved)
            k = next((k for k, s in enumerate(saved) if s is not None and s.tensor is self), None)
            if k is not None:
                saved[k] = SavedTensor(self.clone(), node)
                node._saved = saved
        return self._write(result)

    def __setitem__(self, index, value):
        """`t[index] = value`, including boolean masks as in `grad_input[x < 0] = 0`."""
        basic = is_basic_index(index)
        if basic and self.grad_fn is None and self._requires_grad and _State.enabled:
            # a basic index writes through a view of the leaf, and PyTorch words the error so
            raise RuntimeError("a view of a leaf Variable that requires grad is being used in an in-place "
                               "operation.")
        self._check_inplace()
        index_tensors = [i for i in (index if isinstance(index, tuple) else (index,)) if isinstance(i, TensorBase)]
        refuse_masks(index_tensors)
        refuse_inplace(self, index_tensors + [value], "setitem" if basic else "index_put_")
        if not isinstance(value, TensorBase) or value.dim() == 0:
            _no_byte_mask_fill(index)
        index = _plain_index(index)
        if not basic and 0 in self._data.strides and _overlaps_itself(self._data):
            _warn_expanded_write(index)
        if _State.enabled and (self._requires_grad or (isinstance(value, TensorBase) and value._requires_grad)) or (
                _State.forward_ad and (self._tangents or getattr(value, "_tangents", None))):
            value = _setitem_value(self, index, _as_tensor(value, self), basic)
            self._write((SetSlice if basic else IndexPut).apply(self, index, value))
        else:
            if isinstance(value, TensorBase):
                value = _setitem_value(self, index, value, basic)     # PyTorch's error if it does not fit
            self._data[index] = value._data if isinstance(value, TensorBase) else value
            self._bump_version()

    def apply_(self, callable):
        """Call `callable` on every element, in place, and return self. Mirrors `torch.Tensor.apply_`.

        One Python call per element, so it is slow: prefer vectorised tensor ops. Results are cast back to
        this tensor's dtype (on an int64 tensor, 2.7 becomes 2).
        """
        if self._requires_grad:
            raise RuntimeError("Can't call apply_() on Variable that requires grad. Use var.detach().apply_() "
                               "instead.")
        flat = self._data.reshape(-1)
        cast = bool if self.dtype is _dtype.bool else int if not self.dtype.is_floating_point else float
        for i, v in enumerate(flat.tolist()):
            result = callable(v)
            if not isinstance(result, (int, float, bool, np.number)) and not (
                    isinstance(result, TensorBase) and result.numel() == 1):
                raise TypeError(f"must be real number, not {type(result).__name__}")
            flat[i] = cast(result)
        if not np.shares_memory(flat, self._data):
            self._data[...] = flat.reshape(self._data.shape)
        return self       # note: like PyTorch's apply_, this does not bump the version counter




VIEW_LAYOUT = ("minigrad cannot record this in-place change of a view: its base is not laid out plainly in "
               "memory. Change a clone() of the view, or write the change out of place.")


def _write_tangent(t, tangent, level):
    """Forward mode: an in-place op changes the tangent in place too (so a view's tangent, a view of its base's,
    changes the base's), or gives `t` one."""
    own = tangent_of(t, level)
    if own is None and tangent is not None and t._base is not None:
        own = _zero_base_tangent(t, level)
    if own is None:
        if tangent is not None:
            set_tangent(t, tangent.clone(), level)
    elif tangent is None:
        own._data[...] = 0
    else:
        own._data[...] = tangent._data


def _zero_base_tangent(view, level):
    """A dual written into a view of a tensor without a tangent: as in PyTorch, the base gets a zero tangent laid
    out as the base is, and the view's tangent is the same window of it (so later views of the base see it).
    None where the base's layout cannot be copied (then only the view gets a tangent)."""
    base, a = view._base, view._data
    if tangent_of(base, level) is not None:
        return None
    zeros = np.zeros_like(base._data)
    if zeros.strides != base._data.strides:
        return None
    # the window starts `offset` bytes into the zeros' one dense block (a reshape would copy a permuted block)
    offset = a.__array_interface__["data"][0] - base._data.__array_interface__["data"][0]
    block = np.lib.stride_tricks.as_strided(zeros, (zeros.size,), (zeros.itemsize,))
    window = np.lib.stride_tricks.as_strided(block[offset // a.itemsize:], a.shape, a.strides)
    set_tangent(base, wrap(zeros), level)
    set_tangent(view, wrap(window), level)
    return tangent_of(view, level)


def _write_through_view(view, result):
    """An in-place op on a view changes its base too: rewrite both histories, as PyTorch does.

    The base's new node is a CopySlices that wraps the op's node; the view's new node reads it back out.
    """
    base = view._base
    if base.grad_fn is None and base._requires_grad:
        raise RuntimeError("a view of a leaf Variable that requires grad is being used in an in-place operation.")
    if base.grad_fn is not view._base_grad_fn:
        refresh_view(view)                    # the base changed since the view was taken
    where = locate(base._data, view._data)
    if where is None:
        raise RuntimeError(VIEW_LAYOUT)
    view._check_fits(result)
    view._data[...] = result._data
    view._bump_version()                      # the counter is shared: the base's version moves too
    base_edge = (base.grad_fn, base._output_nr) if base.grad_fn is not None else (None, 0)
    base_meta, view_meta = (base._data.shape, base._data.dtype), (view._data.shape, view._data.dtype)
    copy = CopySlices(base_edge, result.grad_fn, where, base_meta)
    set_history(base, copy, 0)
    set_history(view, AsStridedBackward0((copy, 0), where, view_meta, base_meta), 0)
    view._base_grad_fn = copy                 # the view is up to date with its base again
    refresh_views(base, skip=view)            # and so are the base's other views
    return view


def _warn_expanded_write(index):
    """Torch still writes through an advanced index into an expanded tensor, with these warnings."""
    warnings.warn("Use of index_put_ on expanded tensors is deprecated. Please clone() the tensor before performing "
                  "this operation. This also applies to advanced indexing e.g. tensor[indices] = tensor",
                  UserWarning, stacklevel=3)
    if isinstance(index, np.ndarray) and index.dtype == np.bool_:
        warnings.warn("Use of masked_fill_ on expanded tensors is deprecated. Please clone() the tensor before "
                      "performing this operation. This also applies to advanced indexing e.g. tensor[mask] = scalar",
                      UserWarning, stacklevel=3)


def _overlaps_itself(a):
    """True if several positions of `a` share memory (an expanded tensor: stride 0 along a dim of size > 1)."""
    return any(stride == 0 and n > 1 for stride, n in zip(a.strides, a.shape))


def _share_exactly(a, b):
    """np.shares_memory, not by bounds: the borders of one array that circular padding copies onto each other
    interleave in memory without sharing an element. Too hard to tell counts as sharing."""
    try:
        return np.shares_memory(a, b, max_work=10 ** 5)
    except np.exceptions.TooHardError:
        return True


def _partly_overlap(a, b):
    """True if two arrays share memory without being the very same elements (PyTorch refuses that in place)."""
    if not np.may_share_memory(a, b) or not _share_exactly(a, b):
        return False
    same = (a.__array_interface__["data"][0] == b.__array_interface__["data"][0] and a.shape == b.shape
            and a.strides == b.strides)
    return not same


def _setitem_value(t, index, value, basic):
    """Shape the value of `t[index] = value` as PyTorch does, so that its graph has the same View/Expand nodes:
    leading size-1 dims are viewed away, and for a basic index the value is expanded to the slice it fills."""
    shape = value._data.shape
    if value._wrapped_number:
        return value
    lead = next((i for i, s in enumerate(shape) if s != 1), len(shape))
    if not basic:
        return value.view(shape[lead:]) if lead else value
    target = t._data[index].shape
    if shape == target or not shape:
        return value
    value = value.view(shape[lead:])
    return value if value._data.shape == target else value.expand(target)


def _no_byte_mask_fill(index):
    """`t[mask] = 5` is PyTorch's masked_fill_, which takes only bool masks (an index_put_ still takes uint8)."""
    for i in index if isinstance(index, tuple) else (index,):
        if isinstance(i, TensorBase) and i.dim() and i._data.dtype == np.uint8:
            raise RuntimeError("masked_fill_ only supports boolean masks, but got mask with dtype unsigned char")


def _method_name(op):
    """The in-place method that applies `op`, as PyTorch names it: `Mul` -> "mul_", `IndexAdd` -> "index_add_"."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", op.__name__).lower().removesuffix("_tensor") + "_"


def _plain_index(index):
    """Turn tensors inside an index into numpy arrays."""
    if isinstance(index, TensorBase):
        return _index_array(index)
    if isinstance(index, tuple):
        return tuple(_index_array(i) if isinstance(i, TensorBase) else i for i in index)
    return index
