"""`torch.func.vmap`: run a function written for one sample on a whole batch.

PyTorch vectorizes with a batching rule per op; minigrad runs `func` once per sample and stacks the results,
with PyTorch's semantics and errors (`in_dims` and `out_dims` as ints or pytrees, nesting, `chunk_size`,
`randomness=`). For a function that follows PyTorch's rules the results are the same; only the speed differs.
What a batching rule refuses, minigrad refuses too, with PyTorch's message (compat/batched.py tracks which
tensors hold a sample): `.item()` and Python control flow on a sample's values, reading its data (`.tolist()`,
`.numpy()`), ops with data-dependent output shapes (`nonzero`, `unique`, boolean masks), and writing a sample into
an unbatched tensor in place (`buf.add_(x)`). What the loop cannot see are Python side effects: a `print`, a
Python counter, or an in-place change of an unbatched tensor by unbatched values runs once per sample here and
once in PyTorch. With `randomness="different"` each sample draws in turn, so the numbers match PyTorch's only
where its batched draw takes them in the same order (e.g. `rand`). A custom Function needs a vmap rule (its
`vmap` staticmethod) or `generate_vmap_rule = True` under vmap, as in PyTorch; the loop runs it on each sample,
so its rule is checked for but never called.
"""
import functools

from .. import random
from .._tensor.functions import stack
from .._tensor.tensor import Tensor
from ..compat import batched
from ..core.grad_mode import _State
from ..random.generator import VMAP_RANDOMNESS
from .pytree import broadcast_prefix, spec_repr, tree_flatten, tree_unflatten

__all__ = ["vmap"]


def vmap(func, in_dims=0, out_dims=0, randomness="error", *, chunk_size=None):
    """Return a function that maps `func` over dimension `in_dims` of its inputs (an int for all, None for an
    input that is not batched, or a tuple with one entry per argument) and stacks the outputs along `out_dims`.

    Example:
        >>> torch.func.vmap(torch.dot)(torch.ones(5, 3), torch.ones(5, 3))      # five dot products
        tensor([3., 3., 3., 3., 3.])
    """
    if randomness not in ("error", "different", "same"):
        raise RuntimeError(f"Only allowed values for randomness are 'error', 'different', or 'same'. Got {randomness}")
    if chunk_size is not None and (not isinstance(chunk_size, int) or chunk_size <= 0):
        raise ValueError(f"vmap: chunk_size should be None or greater than 0. (got {chunk_size})")

    def wrapped(*args, **kwargs):
        _check_out_dims(func, out_dims)
        leaves, spec = tree_flatten(args)
        dims = _in_dims_per_leaf(func, in_dims, args, leaves, spec)
        level = batched.Level(_batch_size(leaves, dims), torch_level=len(_State.transforms) + 1)
        state = random.get_rng_state() if randomness == "same" else None
        results = []
        VMAP_RANDOMNESS.append(randomness)
        _State.transforms.append("vmap")
        batched.LEVELS.append(level)
        try:
            for i in range(level.size):
                level.index = i
                if state is not None:
                    random.set_rng_state(state)     # every sample draws the same numbers
                sample = [leaf if d is None else batched.mark(leaf[(slice(None),) * d + (i,)], level)
                          for leaf, d in zip(leaves, dims)]
                results.append(func(*tree_unflatten(sample, spec), **kwargs))
        finally:
            VMAP_RANDOMNESS.pop()
            _State.transforms.pop()
            batched.LEVELS.pop()
        return _stack_outputs(func, results, out_dims, level)
    return wrapped


def _name(func):
    if hasattr(func, "__name__"):
        return func.__name__
    if isinstance(func, functools.partial):
        return f"functools.partial({_name(func.func)}, ...)"
    return repr(func)       # e.g. an nn.Module


def _in_dims_per_leaf(func, in_dims, args, leaves, spec):
    """One in_dim per leaf of `args`: `in_dims` is an int for all, or a tuple with one entry per argument, each
    an int, None, or a pytree like the argument (a dict for a dict, ...) down to any depth."""
    where = f"vmap({_name(func)}, in_dims={in_dims}, ...)(<inputs>)"
    if not isinstance(in_dims, (int, tuple)):
        raise ValueError(f"{where}: expected `in_dims` to be int or a (potentially nested) tuple matching the "
                         f"structure of inputs, got: {type(in_dims)}.")
    if not args:
        raise ValueError(f"vmap({_name(func)})(<inputs>): got no inputs. Maybe you forgot to add inputs, or you are "
                         "trying to vmap over a function with no inputs. The latter is unsupported.")
    dims = broadcast_prefix(in_dims, args)
    if dims is None:
        raise ValueError(f"{where}: in_dims is not compatible with the structure of `inputs`. in_dims has structure "
                         f"{spec_repr(tree_flatten(in_dims)[1])} but inputs has structure {spec_repr(spec)}.")
    for k, (leaf, d) in enumerate(zip(leaves, dims)):
        if d is None:
            continue
        if not isinstance(d, int):
            raise ValueError(f"{where}: Got in_dim={d} for an input but in_dim must be either an integer dimension "
                             "or None.")
        if not isinstance(leaf, Tensor):
            raise ValueError(f"{where}: Got in_dim={d} for an input but the input is of type {type(leaf)}. We cannot "
                             "vmap over non-Tensor arguments, please use None as the respective in_dim")
        n = leaf.dim()
        if not -n <= d < n:
            raise ValueError(f"{where}: Got in_dim={d} for some input, but that input is a Tensor of dimensionality "
                             f"{n} so expected in_dim to satisfy -{n} <= in_dim < {n}.")
        dims[k] = d % n
    return dims


def _batch_size(leaves, dims):
    sizes = [leaf.shape[d] for leaf, d in zip(leaves, dims) if d is not None]
    if not sizes:
        raise ValueError("vmap: Expected at least one Tensor to vmap over")
    if any(size != sizes[0] for size in sizes):
        raise ValueError("vmap: Expected all tensors to have the same size in the mapped dimension, got sizes "
                         f"{sizes} for the mapped dimension")
    return sizes[0]


def _check_out_dims(func, out_dims):
    for d in [out_dims] if isinstance(out_dims, int) else tree_flatten(out_dims)[0]:
        if d is not None and not isinstance(d, int):
            raise ValueError(f"vmap({_name(func)}, ..., out_dims={out_dims}): `out_dims` must be an int, None or a "
                             "python collection of ints representing where in the outputs the vmapped dimension "
                             "should appear.")


def _stack_outputs(func, results, out_dims, level):
    """Stack the samples' outputs along `out_dims` (one per output leaf, as `in_dims` per input leaf)."""
    name = _name(func)
    spec = tree_flatten(results[0])[1]
    if spec is None and isinstance(results[0], Tensor):      # a single tensor: out_dims may still be (d,)
        dims = list(out_dims) if isinstance(out_dims, tuple) and len(out_dims) == 1 else (
            [out_dims] if out_dims is None or isinstance(out_dims, int) else None)
    else:
        dims = broadcast_prefix(out_dims, results[0])
    if dims is None:
        raise ValueError(f"vmap({name}, ..., out_dims={out_dims})(<inputs>): out_dims is not compatible with the "
                         f"structure of `outputs`. out_dims has structure {spec_repr(tree_flatten(out_dims)[1])} "
                         f"but outputs has structure {spec_repr(spec)}.")
    columns = zip(*[tree_flatten(r)[0] for r in results])
    stacked = []
    for d, column in zip(dims, columns):
        if d is None:
            if any(isinstance(t, Tensor) and level.id in t._batched for t in column):
                raise ValueError(f"vmap({name}, ...): `{name}` can not return a BatchedTensor when out_dim is None")
            stacked.append(column[0])
            continue
        if not isinstance(column[0], Tensor):
            raise ValueError(f"vmap({name}, ...): `{name}` must only return Tensors, got type {type(column[0])}. Did "
                             "you mean to set out_dims= to None for output?")
        stacked.append(stack(column, dim=d))
    return tree_unflatten(stacked, spec)
