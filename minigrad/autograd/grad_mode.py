"""Grad modes: `no_grad`, `enable_grad`, `set_grad_enabled` and `inference_mode`. Mirrors `torch.autograd.grad_mode`.

Each one is a context manager and a decorator, as in PyTorch; `no_grad`, `enable_grad` and `inference_mode` also
decorate without parentheses (`@torch.no_grad`). The state they set is `_grad_state._State`.
"""
import functools
import inspect
import warnings

from .._grad_state import INFERENCE_INPLACE, INFERENCE_SAVED, _State  # noqa: F401 - re-exported


def is_grad_enabled():
    """Return True if grad mode is on. Mirrors `torch.is_grad_enabled`."""
    return _State.inference_grad if _State.inference else _State.enabled


def is_inference_mode_enabled():
    """Return True inside `inference_mode()`. Mirrors `torch.is_inference_mode_enabled`."""
    return _State.inference


def is_inference(input):
    """Return True if `input` was created in inference mode. Mirrors `torch.is_inference`."""
    if not hasattr(input, "is_inference"):
        raise TypeError(f"is_inference(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    return input.is_inference()


def _set_grad_enabled(mode):
    if type(mode) is not bool:
        raise TypeError(f"set_grad_enabled(): argument 'enabled' (position 1) must be bool, not "
                        f"{type(mode).__name__}")
    if _State.inference:
        _State.inference_grad = mode     # in inference mode nothing is recorded, whatever grad mode says
    else:
        _State.enabled = mode


class _DecoratorContextManager:
    """Let a context manager decorate a function too. Mirrors `torch.utils._contextlib._DecoratorContextManager`.

    Each call of the decorated function runs inside a fresh copy (`clone()`) of the context manager.
    """

    def __call__(self, orig_func):
        if inspect.isclass(orig_func):
            warnings.warn("Decorating classes is deprecated and will be disabled in future versions. You should "
                          "only decorate functions or methods. To preserve the current behavior of class "
                          "decoration, you can directly decorate the `__init__` method and nothing else.",
                          FutureWarning, stacklevel=2)
            func = lambda *args, **kwargs: orig_func(*args, **kwargs)   # noqa: E731 - as PyTorch wraps it
        else:
            func = orig_func
        if inspect.isgeneratorfunction(func):
            return _wrap_generator(self.clone, func)

        @functools.wraps(func)
        def decorate_context(*args, **kwargs):
            with self.clone():
                return func(*args, **kwargs)
        return decorate_context

    def __enter__(self):
        raise NotImplementedError

    def __exit__(self, exc_type, exc_value, traceback):
        raise NotImplementedError

    def clone(self):
        return self.__class__()


class _NoParamDecoratorContextManager(_DecoratorContextManager):
    """A decorator context manager that also works without parentheses: `@torch.no_grad`."""

    def __new__(cls, orig_func=None):
        if orig_func is None:
            return super().__new__(cls)
        return cls()(orig_func)


class no_grad(_NoParamDecoratorContextManager):
    """Context manager (and decorator) that turns grad mode off: results get no grad_fn. Mirrors `torch.no_grad`.

    Example:
        >>> with torch.no_grad():
        ...     y = x * 2          # y.requires_grad is False
    """

    def __init__(self):
        self.prev = False

    def __enter__(self):
        self.prev = is_grad_enabled()
        _set_grad_enabled(False)

    def __exit__(self, exc_type, exc_value, traceback):
        _set_grad_enabled(self.prev)


class enable_grad(_NoParamDecoratorContextManager):
    """Context manager (and decorator) that turns grad mode back on inside `no_grad`. Mirrors `torch.enable_grad`.

    Inside `inference_mode` it turns grad mode on, but nothing is recorded there, as in PyTorch.
    """

    def __enter__(self):
        self.prev = is_grad_enabled()
        _set_grad_enabled(True)

    def __exit__(self, exc_type, exc_value, traceback):
        _set_grad_enabled(self.prev)


class set_grad_enabled(_DecoratorContextManager):
    """Set grad mode on or off: takes effect at once as a call, and is undone on leaving when used as a context
    manager or decorator. Mirrors `torch.set_grad_enabled`.

    Args:
        mode: True to record operations, False not to (a bool, as in PyTorch).

    Example:
        >>> torch.set_grad_enabled(False)      # from now on, nothing is recorded
        >>> with torch.set_grad_enabled(True):
        ...     y = x * 2                      # recorded
    """

    def __init__(self, mode):
        self.prev = is_grad_enabled()
        self.mode = mode
        _set_grad_enabled(mode)

    def __call__(self, orig_func):
        _set_grad_enabled(self.prev)           # as a decorator it changes nothing until the function runs
        return super().__call__(orig_func)

    def __enter__(self):
        _set_grad_enabled(self.mode)

    def __exit__(self, exc_type, exc_value, traceback):
        _set_grad_enabled(self.prev)

    def __str__(self):
        return f"{type(self).__module__}.{type(self).__qualname__}(mode={self.mode})"

    __repr__ = __str__

    def clone(self):
        return self.__class__(self.mode)


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


def _wrap_generator(ctx_factory, func):
    """Decorate a generator function: the mode holds each time the generator runs, not while it is paused."""
    @functools.wraps(func)
    def generator_context(*args, **kwargs):
        gen = func(*args, **kwargs)
        try:
            with ctx_factory():
                response = gen.send(None)
            while True:
                try:
                    request = yield response
                except GeneratorExit:
                    with ctx_factory():
                        gen.close()
                    raise
                except BaseException as exc:      # thrown in by the caller: pass it on
                    with ctx_factory():
                        response = gen.throw(exc)
                else:
                    with ctx_factory():
                        response = gen.send(request)
        except StopIteration as e:
            return e.value
    return generator_context


__all__ = ["no_grad", "enable_grad", "set_grad_enabled", "inference_mode", "set_multithreading_enabled"]
