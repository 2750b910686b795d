"""Module-level functions that arrange tensors: grids (`torch.meshgrid`, `cartesian_prod`, `combinations`), at
least n dims (`atleast_1d/2d/3d`), stacking (`hstack`, `vstack`, `dstack`, `column_stack`, `row_stack`),
splitting (`tensor_split`, `hsplit`, `vsplit`, `dsplit`), `rot90`, and the contractions `tensordot`, `inner`,
`trace`.

Each is PyTorch's composition of views, cats and masks (ATen's TensorShape.cpp), so the graphs are torch's:
`meshgrid` is a view then an expand per tensor, `cartesian_prod` stacks the flattened grids, `combinations`
masks them.
"""
import warnings

import numpy as np

from ..compat.callers import stacklevel_outside
from .alias_functions import _tensor_list, method_function
from .creation import arange, empty
from .functions import cat, stack
from .layout import contract
from .pointwise import _tensor_arg
from .settings_functions import is_warn_always_enabled
from .tensor import Tensor

__all__ = ["meshgrid", "cartesian_prod", "combinations", "atleast_1d", "atleast_2d", "atleast_3d", "hstack",
           "vstack", "dstack", "column_stack", "row_stack", "tensor_split", "hsplit", "vsplit", "dsplit", "rot90",
           "tensordot", "inner", "trace"]

_MESHGRID_WARNING = ("torch.meshgrid: in an upcoming release, it will be required to pass the indexing argument. "
                     "(Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/TensorShape.cpp:4215.)")
_WARNED = []


# ---- grids ---------------------------------------------------------------------------------------------------------
def meshgrid(*tensors, indexing=None):
    """Coordinate grids of 1-d tensors: output i holds tensor i's values along dim i, repeated along the others.

    indexing "ij" (the default, with a warning when not given) gives shape (len(t0), len(t1), ...); "xy", numpy's
    default, swaps the first two dims. Each grid is a view (an expand): write to it only after `.clone()`.

    Example:
        >>> xs, ys = torch.meshgrid(torch.arange(3), torch.arange(2), indexing="xy")
        >>> xs.shape
        torch.Size([2, 3])
    """
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])         # the old spelling: one list of tensors
    if indexing is None:
        if is_warn_always_enabled() or not _WARNED:
            _WARNED.append(True)            # PyTorch warns once per process (TORCH_WARN_ONCE)
            warnings.warn(_MESHGRID_WARNING, UserWarning, stacklevel=stacklevel_outside())
        indexing = "ij"
    if indexing not in ("ij", "xy"):
        raise RuntimeError(f'torch.meshgrid: indexing must be one of "xy" or "ij", but received: {indexing}')
    return _grids(_tensor_list("meshgrid", tensors), indexing == "xy")


def _grids(tensors, xy):
    if not tensors:
        raise RuntimeError("meshgrid expects a non-empty TensorList")
    for t in tensors:
        if t.dtype is not tensors[0].dtype:
            raise RuntimeError("meshgrid expects all tensors to have the same dtype")
        if t.dim() > 1:
            raise RuntimeError(f"torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got: {t}")
    swap = xy and len(tensors) >= 2         # ATen swaps the first two inputs, and the first two outputs back
    order = [1, 0] + list(range(2, len(tensors))) if swap else list(range(len(tensors)))
    shape = [tensors[k].numel() for k in order]
    grids = []
    for i, k in enumerate(order):
        view = [1] * len(order)
        view[i] = -1
        grids.append(tensors[k].view(view).expand(shape))
    return tuple(grids[k] for k in order)


def cartesian_prod(*tensors):
    """Every combination of one element from each 1-d tensor, one row each (a single tensor comes back as is)."""
    for t in _tensor_list("cartesian_prod", tensors):
        if t.dim() != 1:
            raise RuntimeError(f"Expect a 1D vector, but got shape {list(t.shape)}")
    if len(tensors) == 1:
        return tensors[0]
    return stack([g.flatten() for g in _grids(tensors, False)], 1)


def combinations(input, r=2, with_replacement=False):
    """The r-element combinations of a 1-d tensor's elements, in order, one row each (with_replacement: an
    element may repeat, as itertools.combinations_with_replacement)."""
    _tensor_arg(input, "combinations", "input", 1)
    if input.dim() != 1:
        raise RuntimeError(f"Expect a 1D vector, but got shape {list(input.shape)}")
    if r < 0:
        raise RuntimeError(f"Expect a non-negative number, but got {r}")
    if r == 0:
        return empty(0, dtype=input.dtype)
    grids = _grids((input,) * r, False)
    index = _grids((arange(input.numel()),) * r, False)
    mask = np.ones(grids[0].shape, bool)
    for lower, upper in zip(index[:-1], index[1:]):       # i < j < k < ... (or <= with replacement)
        mask &= (lower._data <= upper._data) if with_replacement else (lower._data < upper._data)
    return stack([g.masked_select(Tensor._make(mask)) for g in grids], 1)


# ---- at least n dims, and stacking -----------------------------------------------------------------------------------
def _each(name, tensors, one):
    """PyTorch's atleast_nd: one tensor gives one tensor; several (or a list) give a tuple."""
    if len(tensors) == 1 and isinstance(tensors[0], Tensor):
        return one(tensors[0])
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    for t in tensors:
        if not isinstance(t, Tensor):
            raise TypeError(f"{name}() received an invalid combination of arguments - got ({type(t).__name__}), but "
                            f"expected one of:\n * (Tensor input)\n      didn't match because some of the arguments "
                            f"have invalid types: (!{type(t).__name__}!)\n * (tuple of Tensors tensors)\n      "
                            f"didn't match because some of the arguments have invalid types: (!{type(t).__name__}!)\n")
    return tuple(one(t) for t in tensors)


def _at_least_1d(t):
    return t.reshape(1) if t.dim() == 0 else t


def _at_least_2d(t):
    return t.reshape(1, 1) if t.dim() == 0 else t.unsqueeze(0) if t.dim() == 1 else t


def _at_least_3d(t):
    if t.dim() == 0:
        return t.reshape(1, 1, 1)
    if t.dim() == 1:
        return t.unsqueeze(0).unsqueeze(-1)
    return t.unsqueeze(-1) if t.dim() == 2 else t


def atleast_1d(*tensors):
    """Each tensor with at least 1 dim (a 0-d one as shape (1,)); others come back as they are."""
    return _each("atleast_1d", tensors, _at_least_1d)


def atleast_2d(*tensors):
    """Each tensor with at least 2 dims: a vector of n as a (1, n) row."""
    return _each("atleast_2d", tensors, _at_least_2d)


def atleast_3d(*tensors):
    """Each tensor with at least 3 dims: a vector of n as (1, n, 1), an (m, n) matrix as (m, n, 1)."""
    return _each("atleast_3d", tensors, _at_least_3d)


def _stacked(name, tensors):
    _tensor_list(name, tensors)
    if not tensors:
        raise RuntimeError(f"{name} expects a non-empty TensorList")
    return tensors


def hstack(tensors):
    """Join side by side: along dim 1, or dim 0 for vectors. Mirrors `torch.hstack`."""
    pieces = [_at_least_1d(t) for t in _stacked("hstack", tensors)]
    return cat(pieces, 0 if pieces[0].dim() == 1 else 1)


def vstack(tensors):
    """Join one below the other, along dim 0, with vectors as rows. Mirrors `torch.vstack`."""
    return cat([_at_least_2d(t) for t in _stacked("vstack", tensors)], 0)


row_stack = vstack


def dstack(tensors):
    """Join along the third dim (depth), with vectors and matrices given a third. Mirrors `torch.dstack`."""
    return cat([_at_least_3d(t) for t in _stacked("dstack", tensors)], 2)


def column_stack(tensors):
    """Join along dim 1, with vectors (and numbers) as columns. Mirrors `torch.column_stack`."""
    columns = [t.reshape(t.numel(), 1) if t.dim() <= 1 else t for t in _stacked("column_stack", tensors)]
    return cat(columns, 1)


# ---- splitting, turning, contracting ------------------------------------------------------------------------------
tensor_split, hsplit, vsplit, dsplit, rot90, trace = (
    method_function(n) for n in ("tensor_split", "hsplit", "vsplit", "dsplit", "rot90", "trace"))


def inner(input, other):
    return _tensor_arg(input, "inner", "input", 1).inner(_tensor_arg(other, "inner", "other", 2))


def tensordot(a, b, dims=2):
    """Sum the products of a and b over the last `dims` dims of a and the first `dims` of b, or over the dims
    of two lists, `dims=([1, 0], [0, 1])`. Mirrors `torch.tensordot`."""
    if isinstance(dims, Tensor):
        dims = dims.tolist() if dims.numel() > 1 else int(dims.item())
    if isinstance(dims, (tuple, list)):
        dims_a, dims_b = dims
    elif isinstance(dims, int) and not isinstance(dims, bool):
        if dims < 0:
            raise RuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
        if dims > min(a.dim(), b.dim()):
            raise RuntimeError(f"tensordot expects dims < ndim_a or ndim_b, but got dims={dims}")
        dims_a, dims_b = list(range(-dims, 0)), list(range(dims))
    else:
        raise RuntimeError("tensordot expects dims to be int or tuple[list[int], list[int]] or list[list[int]] "
                           f"containing two lists, but got dims={dims}")
    return contract(a, b, list(dims_a), list(dims_b))
