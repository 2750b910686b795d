"""Small pieces the optimizers share: PyTorch's option checks, its step counter, ATen's rounding of updates."""
import functools

import numpy as np

from ..core import dtype as _dtype
from .._tensor.creation import get_default_dtype, tensor
from .._tensor.tensor import Tensor
from ..core.grad_mode import is_grad_enabled, set_grad_enabled

# where PyTorch's capturable optimizers may run: never the CPU, so capturable=True fails at the first step
CAPTURABLE_DEVICES = ["cuda", "xpu", "hpu", "privateuseone", "xla"]


def typename(obj):
    """Name a value's type as `torch.typename` does: `torch.FloatTensor` for a tensor, `int` for an int."""
    if isinstance(obj, Tensor):
        return obj.type()
    cls = type(obj)
    module = cls.__module__
    return cls.__qualname__ if module in ("", "builtins") else f"{module}.{cls.__qualname__}"


def use_grad_for_differentiable(step):
    """Run `step` recording a graph only for a `differentiable=True` optimizer, as PyTorch's decorator does.

    Usually the update must not be recorded (grad mode off); with differentiable=True it is, so the new
    parameters have a `grad_fn` and one can differentiate through the optimizer step itself.
    """
    @functools.wraps(step)
    def wrapper(self, *args, **kwargs):
        with set_grad_enabled(self.defaults["differentiable"]):
            return step(self, *args, **kwargs)
    return wrapper


def step_each_parameter(optimizer, closure):
    """One step of an optimizer with per-parameter state (Adam, RMSprop): create the state of each parameter that
    has a gradient (on its first step), then update each; return `closure()`'s loss if given."""
    loss = optimizer._closure_loss(closure)
    for group in optimizer.param_groups:
        for p in group["params"]:
            if p.grad is not None:
                optimizer._init_state(p, group)
        for p in group["params"]:
            if p.grad is not None:
                check_capturable(group, *getattr(optimizer, "_capturable_check", ()))
                optimizer._update(p, optimizer.state[p], group)
    return loss


def check_fused(fused, foreach, differentiable):
    """PyTorch's checks of `fused=True` against the other options (made after the groups are built)."""
    if fused:
        if differentiable:
            raise RuntimeError("`fused` does not support `differentiable`")
        if foreach:
            raise RuntimeError("`fused` and `foreach` cannot be `True` together.")


def check_capturable(group, what="params and state_steps", devices=CAPTURABLE_DEVICES):
    """capturable=True keeps the step counter on an accelerator; on the CPU PyTorch's step fails so."""
    if group.get("capturable"):
        raise AssertionError(f"If capturable=True, {what} must be on supported devices: {devices}.")


def new_step(fused=False):
    """A fresh step counter: a 0-d tensor, float32 when fused, else of the default dtype (as PyTorch keeps it)."""
    return tensor(0.0, dtype=_dtype.float32 if fused else get_default_dtype())


# ---- ATen's pointwise updates, rounded as ATen rounds them ----------------------------------------------------
# ATen's CPU kernels compute `self + alpha * other` (add_, addcmul_, lerp_) with a fused multiply-add: one
# rounding instead of two. For float32 it is had through float64: the float32 product fits a float64 without
# rounding, and the sum's two roundings (to float64, then float32) differ from one only when it falls exactly
# halfway between two float32s, so minigrad's updates are torch's to the bit in practice; for float64 they are
# plain multiply-then-add (one ulp of float64 apart at most).
def fma(a, b, c):
    """a * b + c, rounded once for float32 tensors (ATen's fused multiply-add); `b` may be a number."""
    if a.dtype is not _dtype.float32:
        return a * b + c
    if not is_grad_enabled():       # the usual, unrecorded step: the same sums on the arrays. perf: 11 % on bench
        # small_mlp_training (7.1 -> 6.3 ms, min of 40, this and four Tensor ops alternating in one process)
        b = b._data.astype(np.float64) if isinstance(b, Tensor) else float(np.float32(b))
        return Tensor._make((a._data.astype(np.float64) * b + c._data.astype(np.float64)).astype(np.float32))
    b = b.double() if isinstance(b, Tensor) else float(np.float32(b))       # differentiable=True: recorded
    return (a.double() * b + c.double()).float()


def add_scaled(t, other, alpha):
    """`t.add(other, alpha=alpha)` as ATen computes it: t + alpha * other, rounded once."""
    return t + other if alpha == 1 else fma(other, alpha, t)


def store(t, value):
    """`t.copy_(value)` of an update of the same shape and dtype; unrecorded, Tensor's own in-place write (its
    shape and dtype check, then the memory and the version counter) without the Copy op. perf: 18 % on bench
    small_mlp_training (6.3 -> 5.2 ms, min of 40, alternating with copy_ in one process)"""
    return t.copy_(value) if is_grad_enabled() else t._write(value)


def add_scaled_(t, other, alpha):
    """`t.add_(other, alpha=alpha)`, in place."""
    return t.add_(other) if alpha == 1 else store(t, fma(other, alpha, t))


def addcmul_(t, t1, t2, value):
    """`t.addcmul_(t1, t2, value=value)`: t + (value * t1) * t2, the last multiply-add rounded once."""
    return store(t, fma(t1 if value == 1 else t1 * value, t2, t))


def lerp_(start, end, weight):
    """`start.lerp_(end, weight)`: start + weight * (end - start), in place, with ATen's two formulas.

    ATen switches formula at |weight| = 0.5 so that weight = 1 gives `end` exactly.
    """
    if abs(weight) < 0.5:
        return store(start, fma(end - start, weight, start))
    return store(start, fma(start - end, np.float32(1) - np.float32(weight), end))


def differentiable_add_(t, value, differentiable):
    """`t + value`, in place unless the step is recorded (PyTorch avoids overwriting a tensor backward needs)."""
    return t.add(value) if differentiable else t.add_(value)


def refuse_differentiable(name, differentiable):
    """minigrad records the update only for the optimizers that existed before these (Adam, SGD, ...); the others
    refuse differentiable=True rather than silently leave the graph out."""
    if differentiable:
        raise NotImplementedError(f"minigrad's {name} does not support differentiable=True (torch's does); "
                                  "use Adam, AdamW, SGD, RMSprop or Adagrad to differentiate through a step")


def check_betas(lr, eps, betas, weight_decay):
    """The option checks Adamax, NAdam and RAdam share with Adam, in PyTorch's words."""
    if not 0.0 <= lr:
        raise ValueError(f"Invalid learning rate: {lr}")
    if not 0.0 <= eps:
        raise ValueError(f"Invalid epsilon value: {eps}")
    if not 0.0 <= betas[0] < 1.0:
        raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
    if not 0.0 <= betas[1] < 1.0:
        raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
    if not 0.0 <= weight_decay:
        raise ValueError(f"Invalid weight_decay value: {weight_decay}")


def weight_decay_(p, grad, group):
    """Adam's two kinds of weight decay: shrink p in place (decoupled, as AdamW), or add the L2 term to the
    gradient; return the gradient to use."""
    lr, weight_decay = group["lr"], group["weight_decay"]
    if weight_decay == 0:
        return grad
    if group["decoupled_weight_decay"]:
        p.mul_(1 - lr * weight_decay)
        return grad
    return add_scaled(grad, p, weight_decay)
