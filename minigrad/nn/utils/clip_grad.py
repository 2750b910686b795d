"""Gradient clipping: scale the gradients so that their total norm is at most `max_norm` (`clip_grad_norm_`), or
clamp each element (`clip_grad_value_`). Mirrors `torch.nn.utils.clip_grad`.

`foreach` is accepted for PyTorch's signature: minigrad has one implementation, the loop.
"""
import functools
import types
import warnings

from ... import linalg
from ..._tensor.creation import tensor
from ..._tensor.functions import stack
from ..._tensor.tensor import Tensor
from ...core.grad_mode import no_grad

__all__ = ["clip_grad_norm", "clip_grad_norm_", "clip_grad_value_"]


def _no_grad(func):
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        with no_grad():
            return func(*args, **kwargs)
    return wrapper


@_no_grad
def get_total_norm(tensors, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    """Return the `norm_type`-norm of all `tensors` together, as if they were one vector (the norm of the norms).

    Mirrors `torch.nn.utils.get_total_norm`.
    """
    tensors = [tensors] if isinstance(tensors, Tensor) else list(tensors)
    norm_type = float(norm_type)
    if len(tensors) == 0:
        return tensor(0.0)
    norms = [linalg.vector_norm(g, norm_type) for g in tensors]
    total_norm = linalg.vector_norm(stack(norms), norm_type)
    if error_if_nonfinite and bool(total_norm.isnan() | total_norm.isinf()):
        raise RuntimeError(f"The total norm of order {norm_type} for gradients from `parameters` is non-finite, so "
                           "it cannot be clipped. To disable this error and scale the gradients by the non-finite "
                           "norm anyway, set `error_if_nonfinite=False`")
    return total_norm


@_no_grad
def clip_grads_with_norm_(parameters, max_norm, total_norm, foreach=None):
    """Scale the gradients in place by min(max_norm / (total_norm + 1e-6), 1), a total norm computed before.

    Mirrors `torch.nn.utils.clip_grads_with_norm_`.
    """
    if isinstance(parameters, Tensor):
        parameters = [parameters]
    grads = [p.grad for p in parameters if p.grad is not None]
    max_norm = float(max_norm)
    if len(grads) == 0:
        return
    clip_coef = max_norm / (total_norm + 1e-6)
    clip_coef_clamped = clip_coef.clamp(max=1.0)       # only ever scale down
    for g in grads:
        g.mul_(clip_coef_clamped)


@_no_grad
def clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    """Scale the gradients of `parameters` in place so that their total norm is at most `max_norm`; return the
    total norm before clipping (a 0-d tensor). `norm_type` may be `float("inf")`.

    Mirrors `torch.nn.utils.clip_grad_norm_`.

    Example:
        >>> loss.backward()
        >>> torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
        >>> optimizer.step()
    """
    if isinstance(parameters, Tensor):
        parameters = [parameters]
    else:
        is_generator = isinstance(parameters, types.GeneratorType)
        parameters = list(parameters)
        if is_generator and len(parameters) == 0:
            warnings.warn("`parameters` is an empty generator, no gradient clipping will occur.", stacklevel=3)
    grads = [p.grad for p in parameters if p.grad is not None]
    total_norm = get_total_norm(grads, norm_type, error_if_nonfinite, foreach)
    clip_grads_with_norm_(parameters, max_norm, total_norm, foreach)
    return total_norm


def clip_grad_norm(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    """The deprecated name of `clip_grad_norm_`."""
    warnings.warn("`torch.nn.utils.clip_grad_norm` is now deprecated in favor of `torch.nn.utils.clip_grad_norm_`.",
                  FutureWarning, stacklevel=2)
    return clip_grad_norm_(parameters, max_norm, norm_type, error_if_nonfinite, foreach)


@_no_grad
def clip_grad_value_(parameters, clip_value, foreach=None):
    """Clamp every gradient element into [-clip_value, clip_value], in place. Mirrors PyTorch's clip_grad_value_."""
    if isinstance(parameters, Tensor):
        parameters = [parameters]
    clip_value = float(clip_value)
    for grad in [p.grad for p in parameters if p.grad is not None]:
        grad.clamp_(min=-clip_value, max=clip_value)
