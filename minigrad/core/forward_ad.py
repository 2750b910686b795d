"""Forward-mode AD: a tangent rides along with a tensor, and every op computes its output's tangent as it runs.

Reverse mode (graph.py, engine.py) records the forward pass and walks it backward once, from one output: a row
of the Jacobian, `vᵀJ`, per backward pass. Forward mode records nothing: each tensor may carry a *tangent* (the
direction `v` it is moving in), and each op, right after computing its result, computes the result's tangent
`J v` with its forward-derivative formula, `Function.jvp`. One forward pass gives a column of the Jacobian.

`Function.apply` calls `push_tangents` after forward when a dual level is active (`autograd/forward_ad.py` has the
public API: `dual_level`, `make_dual`, `unpack_dual`). The formulas sit in each op next to its `backward`, as in
PyTorch's derivatives.yaml; most ops use one of the shortcuts written here, derivatives.yaml's two first:
  - `linear`: an op linear in its tensor inputs (sum, reshape, indexing, cat, +, ...) maps tangents as it maps
    values, so the tangent of `f(x, y)` is `f(tx, ty)` (derivatives.yaml's `auto_linear`);
  - `element_wise`: a one-input elementwise op has a diagonal Jacobian, so `J v = Jᵀ v`: its backward formula
    applied to the tangent (derivatives.yaml's `auto_element_wise`);
  - `zero` (floor, sign, fill_: a derivative of 0) and `bilinear` (x @ y: `f(tx, y) + f(x, ty)`);
  - `from_backward`, for ops whose forward formula would repeat a long backward one (convolution, pooling,
    the norms): `u ↦ Jᵀ u` is linear, so the gradient of ⟨Jᵀ u, v⟩ with respect to u is `J v` (two backward
    passes, so slower than a formula).
A built-in op's formula reads its inputs as `ctx.primals` and its output as `ctx.result`; a custom Function's
reads what `setup_context` kept (`ctx.save_for_forward`, or attributes), as in PyTorch.

`forward_ad.dual_level` opens one level at a time, as in PyTorch ("Nested forward mode AD is not supported");
`torch.func.jvp` nests them (`jacfwd(jacfwd(f))`): a tensor keeps one tangent per level, and level L's formulas
run with only the outer levels on, so their results carry outer tangents (a tangent's own derivative) and never
level L's. The formulas run in the caller's grad mode, so a tangent computed from tensors that require grad is
in the graph (reverse over forward), and backward formulas run inside a level carry tangents (forward over
reverse: `hessian` is `jacfwd(jacrev(f))`).
"""
import weakref

import numpy as np

from ..compat import checks
from .engine import grad
from .grad_mode import _State
from .tensor import TensorBase


class _Level:
    # one entry per active level, outermost first: who opened it ("user": forward_ad.dual_level, or "func":
    # torch.func.jvp, which nests), and the tensors given a tangent in it, id -> weak reference, so that
    # exiting it drops their tangents. (Not a WeakSet: that compares tensors with ==, which is elementwise.)
    KINDS = []
    DUALS = []


def enter_level(kind="user"):
    """Open a level and return its number. PyTorch's forward_ad allows one at a time; torch.func.jvp nests."""
    if _Level.KINDS and (kind == "user" or "user" in _Level.KINDS):
        raise RuntimeError("Nested forward mode AD is not supported at the moment")
    _Level.KINDS.append(kind)
    _Level.DUALS.append({})
    _State.forward_ad = len(_Level.KINDS)       # the number of active levels (0: forward mode is off)
    return _State.forward_ad - 1


def exit_level():
    if not _Level.KINDS:
        raise RuntimeError("Dual level must be a positive number.")
    level = len(_Level.KINDS) - 1
    for ref in _Level.DUALS.pop().values():
        t = ref()
        if t is not None and t._tangents:
            t._tangents = {k: v for k, v in t._tangents.items() if k != level} or None
    _Level.KINDS.pop()
    _State.forward_ad = len(_Level.KINDS)


def tangent_of(t, level=None):
    """The tangent `t` carries at `level` (the innermost active one by default), or None."""
    if not t._tangents:
        return None
    level = _State.forward_ad - 1 if level is None else level
    return t._tangents.get(level) if 0 <= level < _State.forward_ad else None


def set_tangent(t, tangent, level=None):
    if tangent._data.shape != t._data.shape:
        checks.tangent_shape(t, tangent)
    level = _State.forward_ad - 1 if level is None else level
    t._tangents = {**(t._tangents or {}), level: tangent}
    _Level.DUALS[level][id(t)] = weakref.ref(t)


def copy_tangents(source, target):
    """Give `target` every tangent `source` carries (a detached copy that must keep its directions)."""
    for level, tangent in (source._tangents or {}).items():
        if level < _State.forward_ad:
            set_tangent(target, tangent, level)
    return target


class paused:
    """Inside level L's forward-derivative formulas only the levels outside it stay on: the ops there compute
    the outer levels' tangents (what nesting needs: the tangent of a tangent) and none of level L's own."""

    def __init__(self, level=None):
        self.level = _State.forward_ad - 1 if level is None else level

    def __enter__(self):
        self.prev, _State.forward_ad = _State.forward_ad, self.level

    def __exit__(self, *exc):
        _State.forward_ad = self.prev


def push_tangents(cls, ctx, inputs, output):
    """After `forward`, for each active level where an input carries a tangent: give each float output its
    tangent, `cls.jvp(ctx, *tangents)`. Inputs without one count as zeros, as PyTorch passes them to a custom
    `jvp`."""
    if cls._builtin:
        ctx.primals, ctx.result = inputs, output
    elif ctx._for_forward is None:
        ctx._for_forward = ()       # inside jvp, saved_tensors is only what save_for_forward kept, as in PyTorch
    outputs = output if isinstance(output, tuple) else (output,)
    for level in range(_State.forward_ad):
        tangents = [tangent_of(a, level) if isinstance(a, TensorBase) else None for a in inputs]
        if not any(t is not None for t in tangents):
            continue
        tangents = [_zero_if_missing(t, a, cls._builtin) for t, a in zip(tangents, inputs)]
        with paused(level):
            out_tangents = cls.jvp(ctx, *tangents)
        if not isinstance(out_tangents, tuple):
            out_tangents = (out_tangents,)
        if len(out_tangents) != len(outputs):
            raise RuntimeError("Function's jvp returned an invalid number of forward gradients (expected "
                               f"{len(outputs)} but got {len(out_tangents)})")
        for out, tangent in zip(outputs, out_tangents):
            if _differentiable(out, ctx) and tangent is not None:
                if not cls._builtin:
                    _check_view(out, tangent, inputs, ctx, level)
                set_tangent(out, tangent, level)
    ctx._for_forward = None
    return output


def _check_view(out, tangent, inputs, ctx, level):
    """A custom forward that returns an input as-is must return (a view of) that input's tangent from jvp."""
    for a in inputs:
        if isinstance(a, TensorBase) and out._data is a._data and not any(out is t for t in ctx._dirty):
            own = tangent_of(a, level)
            if own is not None and not np.shares_memory(tangent._data, own._data):
                raise RuntimeError("A custom Function's forward is returning a view (or an input as-is) but the "
                                   "jvp is not returning a view.")


def _zero_if_missing(tangent, a, builtin):
    """Zeros for a float tensor input without a tangent (and, for a built-in op's formula, for an integer one).
    An empty tensor is its own tangent: that keeps sentinels such as nn.functional's undefined bias."""
    if tangent is not None or not isinstance(a, TensorBase) or (a._data.dtype.kind != "f" and not builtin):
        return tangent
    if a._data.size == 0:
        return a
    return TensorBase._make(np.zeros_like(a._data))


def _differentiable(out, ctx):
    if not isinstance(out, TensorBase) or out._data.dtype.kind != "f":
        return False
    return not any(out is t for t in ctx._non_differentiable)


# ---- the shortcuts: derivatives.yaml's two, and one from the backward formula -----------------------------------------------------------------------------
@staticmethod
def linear(ctx, *tangents):
    """The tangent of an op linear in its tensor inputs: the op itself, applied to the tangents (an integer
    tensor's is zeros; other inputs, such as dims or numpy index arrays, stay as they were)."""
    args = [t if isinstance(a, TensorBase) else a for t, a in zip(tangents, ctx.primals)]
    return ctx._forward_cls.apply(*args)


@staticmethod
def element_wise(ctx, tangent):
    """The tangent of a one-input elementwise op: its backward formula applied to the tangent (J is diagonal)."""
    fn = ctx._forward_cls
    return fn.gradient(tangent, ctx.primals[0] if fn.saves == "self" else ctx.result)


@staticmethod
def zero(ctx, *tangents):
    """The tangent of an op whose derivative is 0 everywhere it has one (floor, sign, fill_, ...)."""
    return TensorBase._make(np.zeros_like(ctx.result._data))


@staticmethod
def bilinear(ctx, tx, ty):
    """The tangent of an op linear in each of its two inputs (x @ y, a dot product): f(tx, y) + f(x, ty)."""
    (x, y), fn = ctx.primals, ctx._forward_cls
    return fn.apply(tx, y) + fn.apply(x, ty)


def not_implemented(aten_name):
    """The `jvp` of an op PyTorch gives no forward-mode derivative: it raises PyTorch's error, naming ATen's op."""
    @staticmethod
    def jvp(ctx, *tangents):
        raise not_implemented_error(aten_name)
    return jvp


def not_implemented_error(aten_name):
    return NotImplementedError(
        f"Trying to use forward AD with {aten_name} that does not support it because it has not been implemented "
        "yet.\nPlease file an issue to PyTorch at https://github.com/pytorch/pytorch/issues/new?template=feature-"
        "request.yml so that we can prioritize its implementation or submit a PR adding the implementation to "
        "derivatives.yaml")


@staticmethod
def from_backward(ctx, *tangents):
    """The tangent `J v` from the op's own backward, differentiated once more: two backward passes."""
    return transposed_backward(ctx._forward_cls, ctx.primals, tangents, ctx)


def transposed_backward(fn, primals, tangents, ctx):
    """`J v` for op `fn` at `primals`, `v` = `tangents`: run it again with recording on, take `Jᵀ u` for `u` that
    requires grad, and differentiate ⟨Jᵀ u, v⟩ with respect to `u`. The result stays in the graph when the
    primals are (reverse over forward)."""
    keep_graph = _State.enabled and any(isinstance(a, TensorBase) and a._requires_grad for a in primals)
    wrt = [(a if a._requires_grad else a.detach().requires_grad_()) if _differentiable(a, ctx) and a._data.size
           else a for a in primals]
    pairs = [(x, t) for x, t in zip(wrt, tangents) if isinstance(x, TensorBase) and x._requires_grad]
    recording, _State.enabled = _State.enabled, True
    try:
        output = fn.apply(*wrt)
        outputs = output if isinstance(output, tuple) else (output,)
        outs = [o for o in outputs if isinstance(o, TensorBase) and o._requires_grad]
        us = [TensorBase._make(np.zeros_like(o._data)).requires_grad_() for o in outs]
        if outs:
            vjps = grad(outs, [x for x, _ in pairs], us, create_graph=True, allow_unused=True)
            total = sum((g * t).sum() for g, (_, t) in zip(vjps, pairs) if g is not None)
            jvps = grad(total, us, create_graph=keep_graph, allow_unused=True, materialize_grads=True) if \
                isinstance(total, TensorBase) else [TensorBase._make(np.zeros_like(u._data)) for u in us]
    finally:
        _State.enabled = recording
    found = iter(jvps if keep_graph else [j.detach() for j in jvps]) if outs else iter(())
    # (an output that depends on no input with elements gets zeros)
    return tuple(next(found) if isinstance(o, TensorBase) and o._requires_grad else
                 TensorBase._make(np.zeros_like(o._data)) if _differentiable(o, ctx) else None for o in outputs)
