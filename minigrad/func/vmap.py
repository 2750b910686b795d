"""`torch.func.vmap`: run a function written for one sample on a whole batch.

PyTorch vectorizes with a batching rule per op; minigrad runs `func` once per sample and stacks the results,
with PyTorch's semantics and errors (`in_dims`, `out_dims`, nesting, `chunk_size`, `randomness=`). For a
function that follows PyTorch's rules the results are the same; only the speed differs. What a batching rule
forbids, the loop does not catch: `.item()`, Python control flow on a tensor's value, an in-place change of an
unbatched tensor (`buf.add_(x)`, which PyTorch refuses and the loop accumulates), reading a tensor's data, and
ops with data-dependent output shapes raise inside PyTorch's vmap and run here; `in_dims` given as a dict of a
pytree is not supported. With `randomness="different"` each sample draws in turn, so the numbers
match PyTorch's only where its batched draw takes them in the same order (e.g. `rand`). A custom Function
needs a vmap rule (its `vmap` staticmethod) or `generate_vmap_rule = True` under vmap, as in PyTorch; the loop
runs it on each sample, so its rule is checked for but never called.
"""
from .. import random
from .._tensor.functions import stack
from .._tensor.tensor import Tensor
from ..core.grad_mode import _State
from ..random.generator import VMAP_RANDOMNESS
from .pytree import tree_flatten, tree_unflatten

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
    name = getattr(func, "__name__", repr(func))

    def wrapped(*args, **kwargs):
        dims = _in_dims_per_leaf(name, in_dims, args)
        leaves, spec = tree_flatten(args)
        size = _batch_size(name, leaves, dims)
        state = random.get_rng_state() if randomness == "same" else None
        results = []
        VMAP_RANDOMNESS.append(randomness)
        _State.transforms.append("vmap")
        try:
            for i in range(size):
                if state is not None:
                    random.set_rng_state(state)     # every sample draws the same numbers
                sample = [leaf[(slice(None),) * d + (i,)] if d is not None else leaf for leaf, d in zip(leaves, dims)]
                results.append(func(*tree_unflatten(sample, spec), **kwargs))
        finally:
            VMAP_RANDOMNESS.pop()
            _State.transforms.pop()
        return _stack_outputs(name, results, out_dims)
    return wrapped


def _in_dims_per_leaf(name, in_dims, args):
    if isinstance(in_dims, int) or in_dims is None:
        per_arg = [in_dims] * len(args)
    elif isinstance(in_dims, (tuple, list)):
        if len(in_dims) != len(args):
            raise ValueError(f"vmap({name}, in_dims={tuple(in_dims)}, ...)(<inputs>): in_dims is not compatible with "
                             "the structure of `inputs`.")
        per_arg = list(in_dims)
    else:
        raise ValueError(f"vmap({name}, in_dims={in_dims}, ...): expected `in_dims` to be int or a (potentially "
                         f"nested) tuple matching the structure of inputs, got: {type(in_dims)}.")
    dims = []
    for arg, d in zip(args, per_arg):
        leaves, _ = tree_flatten(arg)
        for leaf in leaves:
            if d is None:
                dims.append(None)
                continue
            if not isinstance(leaf, Tensor):
                raise ValueError(f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): Got in_dim={d} for an input but "
                                 f"the input is of type {type(leaf)}. We cannot vmap over non-Tensor arguments, "
                                 "please use None as the respective in_dim")
            n = leaf.dim()
            if not -n <= d < n:
                raise ValueError(f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): Got in_dim={d} for some input, but "
                                 f"that input is a Tensor of dimensionality {n} so expected in_dim to satisfy "
                                 f"-{n} <= in_dim < {n}.")
            dims.append(d % n)
    return dims


def _batch_size(name, leaves, dims):
    sizes = [leaf.shape[d] for leaf, d in zip(leaves, dims) if d is not None]
    if not sizes:
        raise ValueError(f"vmap({name}, in_dims=..., ...)(<inputs>): at least one input must be batched (in_dims "
                         "None for every input)")
    if len(set(sizes)) > 1:
        raise ValueError("vmap: Expected all tensors to have the same size in the mapped dimension, got sizes "
                         f"{sizes} for the mapped dimension")
    return sizes[0]


def _stack_outputs(name, results, out_dims):
    leaves_per_sample = [tree_flatten(r) for r in results]
    leaves0, spec = leaves_per_sample[0]
    dims = [out_dims] * len(leaves0) if isinstance(out_dims, int) or out_dims is None else list(out_dims)
    stacked = []
    for j, d in enumerate(dims):
        column = [leaves[j] for leaves, _ in leaves_per_sample]
        if d is None:
            stacked.append(column[0])
            continue
        if not isinstance(column[0], Tensor):
            raise ValueError(f"vmap({name}, ...): `{name}` must only return Tensors, got type {type(column[0])}. Did "
                             "you mean to set out_dims= to None for output?")
        stacked.append(stack(column, dim=d))
    return tree_unflatten(stacked, spec)
