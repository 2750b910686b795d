"""Grad mode: is a new op recorded? `no_grad`, `enable_grad`, `set_grad_enabled`. Mirrors `torch.autograd.grad_mode`.

`_State` is the switch every layer reads: one global (minigrad runs autograd on one thread), at the bottom of
the package so that tensors and Functions can read it. Each mode is a context manager and a decorator, as in
PyTorch (the decorator part is `compat/decorators.py`). `inference_mode` sets the same switch, plus the
inference-tensor flags below: it is in `autograd/grad_mode.py`.
"""
from ..compat.decorators import _DecoratorContextManager, _NoParamDecoratorContextManager


class _State:
    enabled = True           # is a new op recorded? Read on every op, so a plain class attribute
    inference = False        # inside inference_mode: nothing is recorded and new tensors are inference tensors
    inference_grad = False   # inside inference_mode, what is_grad_enabled() reports (recording stays off)
    inference_used = False   # set once inference_mode was entered: until then no tensor is an inference tensor
    anomaly = False          # detect_anomaly: nodes keep their forward traceback (compat/anomaly.py)
    anomaly_check_nan = True # ... and backward checks every gradient for NaN
    forward_ad = 0           # how many dual levels are open: ops compute their outputs' tangents (forward_ad.py)
    transforms = []          # the torch.func transforms running, innermost last (func/transforms.py)


def is_grad_enabled():
    """Return True if grad mode is on. Mirrors `torch.is_grad_enabled`."""
    return _State.inference_grad if _State.inference else _State.enabled


def _set_grad_enabled(mode):
    if type(mode) is not bool:
        raise TypeError(f"set_grad_enabled(): argument 'enabled' (position 1) must be bool, not "
                        f"{type(mode).__name__}")
    if _State.inference:
        _State.inference_grad = mode     # in inference mode nothing is recorded, whatever grad mode says
    else:
        _State.enabled = mode


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
        # torch's module path, where PyTorch programs find it (minigrad.autograd.grad_mode re-exports it)
        return f"minigrad.autograd.grad_mode.{type(self).__qualname__}(mode={self.mode})"

    __repr__ = __str__

    def clone(self):
        return self.__class__(self.mode)
