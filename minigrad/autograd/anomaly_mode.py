"""Anomaly mode: `detect_anomaly` and `set_detect_anomaly`. Mirrors `torch.autograd.anomaly_mode`.

While it is on, every node records the traceback of the forward call that created it, and backward checks what
each node returns: a gradient with NaN raises "Function 'DivBackward0' returned nan values in its 1th output.",
and any error in a node's backward is preceded by a warning that shows that node's forward traceback. The
reports are `compat/anomaly.py`; the switch is read by `Function.apply` and the engine.

Example:
    >>> with torch.autograd.detect_anomaly():
    ...     y = x / x                 # the node keeps this line
    ...     y.sum().backward()        # at x = 0: RuntimeError naming DivBackward0, with a warning showing `y = x / x`
"""
import warnings

from ..core.grad_mode import _State

__all__ = ["detect_anomaly", "set_detect_anomaly"]


def set_anomaly_enabled(enabled, check_nan=True):
    """Turn anomaly mode on or off. Mirrors `torch.set_anomaly_enabled`."""
    _State.anomaly, _State.anomaly_check_nan = bool(enabled), bool(check_nan)


def is_anomaly_enabled():
    """Mirrors `torch.is_anomaly_enabled`."""
    return _State.anomaly


def is_anomaly_check_nan_enabled():
    """Mirrors `torch.is_anomaly_check_nan_enabled`."""
    return _State.anomaly_check_nan


class detect_anomaly:
    """Context manager: anomaly mode on inside it (with the NaN check unless `check_nan=False`). It warns when
    created, as PyTorch does: the mode slows every op down and is meant for debugging."""

    def __init__(self, check_nan=True):
        self.prev, self.prev_check_nan = _State.anomaly, _State.anomaly_check_nan
        self.check_nan = check_nan
        warnings.warn("Anomaly Detection has been enabled. This mode will increase the runtime and should only be "
                      "enabled for debugging.", stacklevel=2)

    def __enter__(self):
        set_anomaly_enabled(True, self.check_nan)

    def __exit__(self, *args):
        set_anomaly_enabled(self.prev, self.prev_check_nan)


class set_detect_anomaly:
    """Turn anomaly mode on or off at once; used as a context manager, the old setting comes back on leaving."""

    def __init__(self, mode, check_nan=True):
        self.prev, self.prev_check_nan = _State.anomaly, _State.anomaly_check_nan
        set_anomaly_enabled(mode, check_nan)

    def __enter__(self):
        pass

    def __exit__(self, *args):
        set_anomaly_enabled(self.prev, self.prev_check_nan)
