"""Switches that turn graph recording off and on: `no_grad`, `enable_grad`, `set_grad_enabled`."""
import functools


class _State:
    enabled = True      # read on every op, so it is a plain class attribute


def is_grad_enabled():
    """Return True if new operations are being recorded in the graph. Mirrors `torch.is_grad_enabled`."""
    return _State.enabled


class set_grad_enabled:
    """Turn recording on or off, as a function call or as a context manager. Mirrors `torch.set_grad_enabled`."""

    def __init__(self, mode):
        self.prev = _State.enabled
        _State.enabled = bool(mode)
        self.mode = bool(mode)

    def __enter__(self):
        return None

    def __exit__(self, *exc):
        _State.enabled = self.prev
        return False


class _Mode:
    mode = None

    def __enter__(self):
        self.prev = _State.enabled
        _State.enabled = self.mode

    def __exit__(self, *exc):
        _State.enabled = self.prev
        return False

    def __call__(self, fn):
        # used as a decorator: @torch.no_grad()
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with type(self)():
                return fn(*args, **kwargs)
        return wrapper


class no_grad(_Mode):
    """Context manager (and decorator) that stops recording: results have no grad_fn. Mirrors `torch.no_grad`.

    Example:
        >>> with torch.no_grad():
        ...     y = x * 2          # y.requires_grad is False
    """
    mode = False


class enable_grad(_Mode):
    """Context manager (and decorator) that turns recording back on inside `no_grad`. Mirrors `torch.enable_grad`."""
    mode = True
