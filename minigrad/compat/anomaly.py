"""What anomaly mode adds (`torch.autograd.detect_anomaly`): each new node keeps the traceback of the forward
call that made it, and when a node's backward fails, or returns NaN, the error comes with that traceback.

The switches are `_State.anomaly` and `_State.anomaly_check_nan` (core/grad_mode.py); the core calls the three
functions below only while anomaly mode is on. Nothing here imports the rest of minigrad.
"""
import traceback
import warnings

import numpy as np

from .callers import PACKAGE


def forward_traceback():
    """The stack of the forward call, as the list of lines PyTorch keeps in `node.metadata["traceback_"]`.

    PyTorch's built-in ops are C++, so its traceback ends in the user's code; minigrad's own frames are left out
    for the same picture."""
    frames = [f for f in traceback.extract_stack()[:-1] if not f.filename.startswith(PACKAGE)]
    return traceback.format_list(frames)


def warn_error_in(node):
    """Name the node whose backward failed and show where its forward ran (then the error propagates)."""
    name = type(node).name(node)
    if "traceback_" not in node.metadata:       # the forward ran outside anomaly mode
        warnings.warn(f"Error detected in {name}. No forward pass information available. Enable detect anomaly "
                      "during forward pass for more information.", stacklevel=2)
        return
    stack = "".join(node.metadata["traceback_"])
    warnings.warn(f"Error detected in {name}. Traceback of forward call that caused the error:\n{stack}",
                  stacklevel=2)


def check_nan(node, grad_inputs):
    """PyTorch's check on what a node returned: no NaN in any gradient."""
    for i, g in enumerate(grad_inputs):
        if g is not None and g._data.dtype.kind == "f" and np.isnan(g._data).any():
            raise RuntimeError(f"Function '{type(node).name(node)}' returned nan values in its {i}th output.")
