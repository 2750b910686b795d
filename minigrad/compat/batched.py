"""What PyTorch's vmap refuses, and how minigrad's vmap loop knows when to refuse it.

`torch.func.vmap` runs a function once, on tensors that carry a batch dimension the function does not see, and
each op dispatches to a batching rule. Some uses have no rule: reading a batched value in Python (`.item()`,
`float()`, `bool()` for an `if`, `.tolist()`, `.numpy()`), ops whose output shape depends on the values
(`nonzero`, `unique`, a boolean mask), and writing a batched value into an unbatched tensor in place
(`buf.add_(x)`: one tensor cannot hold a whole batch). minigrad's vmap (func/vmap.py) runs the function once per
sample instead, where every value is an ordinary tensor; to refuse what PyTorch refuses, it marks the tensors a
sample depends on. Each running vmap is a `Level`, and a tensor's `_batched` is the set of levels (their ids) at
which it is one sample of a batch: a sample's slice gets its level (`mark`), every op's output the levels of its
inputs (`Function.apply` calls `spread`, the few ops outside it call `like`). A level's id is never reused, so a
tensor that outlives its vmap is unbatched for the next one. Nothing here imports the rest of minigrad.
"""
import itertools
import warnings
import weakref

import numpy as np

from .callers import called_from_user, stacklevel_outside

LEVELS = []     # the vmaps running, outermost first


class Level:
    _ids = itertools.count(1)

    def __init__(self, size, torch_level):
        self.id = next(Level._ids)
        self.size = size                    # the batch size
        self.torch_level = torch_level      # PyTorch's level number in its messages: 1 for the outermost transform
        self.index = 0                      # the sample being run
        self._written = {}                  # id -> weakref of the unbatched tensors that sample 0 changed in place
        self._warned = False

    def unbatched_write(self, t):
        """`t`, not batched here, is changed in place by values that are not batched either. PyTorch makes that
        change once for the batch; the loop makes it once per sample: say so when it happens again."""
        if self.index == 0:
            self._written[id(t)] = weakref.ref(t)
            return
        ref = self._written.get(id(t))
        if not self._warned and ref is not None and ref() is t:
            self._warned = True
            warnings.warn(f"vmap: an in-place change of a tensor that is not batched ran again for sample "
                          f"{self.index + 1} of {self.size}. minigrad's vmap runs the function once per sample, "
                          "PyTorch once for the whole batch, so the tensor ends up changed more often than in "
                          "PyTorch. Make the change outside the function you vmap.", stacklevel=stacklevel_outside())


def mark(t, level):
    """`t` is one sample of `level`'s batch."""
    t._batched = t._batched | {level.id}
    return t


def spread(inputs, output):
    """An op's output(s) are batched at every level where one of its inputs is."""
    ids = _active(inputs)
    if ids:
        for out in output if isinstance(output, tuple) else (output,):
            if hasattr(out, "_batched"):
                out._batched = out._batched | ids
    return output


def like(output, *inputs):
    """`spread`, for the ops that make their tensor without `Function.apply` (comparisons, `any`, `argmax`, ...)."""
    return spread(inputs, output) if LEVELS else output


def _active(tensors):
    ids = frozenset().union(*[getattr(t, "_batched", ()) for t in tensors])
    return ids & {level.id for level in LEVELS} if ids else ids


def is_batched(t):
    return bool(LEVELS) and bool(_active((t,)))


# ---- reading a value in Python -----------------------------------------------------------------------------------
ITEM = ("vmap: It looks like you're calling .item() on a Tensor. We don't support vmap over calling .item() on a "
        "Tensor, please try to rewrite what you're doing with other operations. If error is occurring somewhere "
        "inside PyTorch internals, please file a bug report.")
CONTROL_FLOW = ("vmap: It looks like you're attempting to use a Tensor in some data-dependent control flow. We "
                "don't support that yet, please file an issue at https://github.com/pytorch/pytorch/issues .")
NO_STORAGE = "Cannot access data pointer of Tensor that doesn't have storage"
NO_RULE = "Batching rule not implemented for {}. We could not generate a fallback."


def refuse_read(t, message):
    """`.item()`, `bool()`, `.tolist()`, ... on a batched tensor, called by the user's code (minigrad's own
    reads stand for PyTorch's C++, which reads the batch as a whole)."""
    if LEVELS and _active((t,)) and called_from_user(3):
        raise RuntimeError(message)


# ---- ops whose output shape depends on the values ----------------------------------------------------------------
def refuse_dynamic_shape(t, op):
    if is_batched(t):
        raise RuntimeError("vmap: We do not support batching operators that can output dynamic shape. Attempted to "
                           f"vmap over {op}. Please file an issue at https://github.com/pytorch/pytorch/issues if "
                           "you need this feature.")


def refuse_masks(index_tensors):
    """An index holding a batched boolean (or uint8) mask: each sample would select a different number."""
    if LEVELS and any(i._data.dtype.kind in "bu" and _active((i,)) for i in index_tensors):
        raise RuntimeError("vmap: We do not support batching operators that can support dynamic shape. Attempting "
                           "to batch over indexing with a boolean mask.")


def refuse(t, message):
    if is_batched(t):
        raise RuntimeError(message)


# ---- in place --------------------------------------------------------------------------------------------------
_GENERIC = {"sub_", "mul_", "div_", "copy_", "masked_fill_", "setitem"}     # torch's shared "inplace arithmetic" rule
_OWN_RULE = {"fill_", "index_add_", "scatter_add_", "index_put_"}


def refuse_inplace(self, args, name):
    """Writing a batched value into a tensor that is not batched at that level: PyTorch's error for `name`."""
    if not LEVELS:
        return
    own = _active((self,))
    others = _active([a for a in args if hasattr(a, "_batched")])
    missing = [level for level in LEVELS if level.id in others and level.id not in own]
    if not missing:
        for level in LEVELS:
            if level.id not in own:
                level.unbatched_write(self)
        return
    if name == "add_":      # torch's add_ has a batching rule of its own, which fails on the shapes
        involved = [level for level in LEVELS if level.id in own | others]
        shape = list(self.shape)
        if own:
            shape = [level.size if level.id in own else 1 for level in involved] + shape
        sample = np.broadcast_shapes(tuple(self.shape), *[tuple(a.shape) for a in args if hasattr(a, "_batched")])
        raise RuntimeError(f"output with shape {shape} doesn't match the broadcast shape "
                           f"{[level.size for level in involved] + list(sample)}")
    if name in _GENERIC or name in _OWN_RULE:
        what, where = ("inplace arithmetic" if name in _GENERIC else name), "in a vmap"
    else:
        what, where = f"aten::{name}", f"at level {missing[-1].torch_level}"
    raise RuntimeError(f"vmap: {what}(self, *extra_args) is not possible because there exists a Tensor `other` in "
                       "extra_args that has more elements than `self`. This happened due to `other` being vmapped "
                       f"over but `self` not being vmapped over {where}. Please try to use out-of-place operators "
                       f"instead of {what}. If said operator is being called inside the PyTorch framework, please "
                       "file a bug report instead.")
