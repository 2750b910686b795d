"""Grad modes, as `torch.autograd.grad_mode` has them: the core's (`no_grad`, `enable_grad`, `set_grad_enabled`)
and `inference_mode`, which is no_grad plus *inference tensors* that autograd refuses later.
"""
from ..core.grad_mode import _State, enable_grad, is_grad_enabled, no_grad, set_grad_enabled  # noqa: F401
from ..compat.decorators import _DecoratorContextManager


def is_inference_mode_enabled():
    """Return True inside `inference_mode()`. Mirrors `torch.is_inference_mode_enabled`."""
    return _State.inference


def is_inference(input):
    """Return True if `input` was created in inference mode. Mirrors `torch.is_inference`."""
    if not hasattr(input, "is_inference"):
        raise TypeError(f"is_inference(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    return input.is_inference()


class inference_mode(_DecoratorContextManager):
    """Context manager (and decorator) for code that will never be differentiated. Mirrors `torch.inference_mode`.

    Like `no_grad`, nothing is recorded. Unlike it, every tensor created inside is an *inference tensor*
    (`t.is_inference()`), which autograd refuses later: saving one for backward, changing one in place or
    setting `requires_grad=True` on one outside the mode raises PyTorch's error. `inference_mode(False)` turns
    the mode (and grad mode) back on inside it.

    Args:
        mode: True to enter inference mode, False to leave it; or a function to decorate (`@torch.inference_mode`).

    Example:
        >>> with torch.inference_mode():
        ...     y = model(x)        # y.requires_grad is False and y.is_inference() is True
    """

    def __new__(cls, mode=True):
        if isinstance(mode, bool):
            return super().__new__(cls)
        return cls()(mode)

    def __init__(self, mode=True):
        self.mode = mode

    def __enter__(self):
        self._prev = _State.enabled, _State.inference, _State.inference_grad
        # as c10::InferenceMode does: entering the mode turns grad mode off, leaving it (mode=False) turns it on
        _State.enabled, _State.inference, _State.inference_grad = not self.mode, self.mode, False
        _State.inference_used = _State.inference_used or self.mode

    def __exit__(self, exc_type, exc_value, traceback):
        _State.enabled, _State.inference, _State.inference_grad = self._prev

    def clone(self):
        return self.__class__(self.mode)


class set_multithreading_enabled(_DecoratorContextManager):
    """Accept PyTorch's switch for multithreaded backward; minigrad's backward always runs on the calling thread.

    Mirrors `torch.autograd.set_multithreading_enabled` (its mode is kept, and has no effect).
    """

    _enabled = True

    def __init__(self, mode):
        self.prev = set_multithreading_enabled._enabled
        set_multithreading_enabled._enabled = self.mode = mode

    def __enter__(self):
        pass

    def __exit__(self, exc_type, exc_value, traceback):
        set_multithreading_enabled._enabled = self.prev

    def clone(self):
        return self.__class__(self.mode)


__all__ = ["no_grad", "enable_grad", "set_grad_enabled", "inference_mode", "set_multithreading_enabled"]
