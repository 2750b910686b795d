"""`repr(tensor)` exactly as PyTorch prints it (a port of `torch/_tensor_str.py`, default print options).

Floats get 4 decimals, scientific notation when the magnitudes span too widely, and a trailing `.` when every
value is whole; columns are right-aligned; tensors over 1000 elements are summarised with `...`.
"""
import math

import numpy as np

from ..core.forward_ad import tangent_of
from ..core.dtype import bool as bool_, float32, int64

PRECISION, THRESHOLD, EDGEITEMS, LINEWIDTH = 4, 1000, 3, 80


class _Formatter:
    """Chooses one format (integer-valued, fixed or scientific) and one width for all elements."""

    def __init__(self, values, floating):
        self.floating, self.int_mode, self.sci_mode, self.max_width = floating, True, False, 1
        flat = values.reshape(-1)
        if not floating:
            for v in flat.tolist():
                self.max_width = max(self.max_width, len(str(v)))
            return
        finite = flat[np.isfinite(flat) & (flat != 0)].astype(np.float64)
        if finite.size == 0:
            return
        absval = np.abs(finite)
        lo, hi = absval.min(), absval.max()
        self.int_mode = bool(np.all(finite == np.ceil(finite)))
        if self.int_mode:
            self.sci_mode = hi / lo > 1000.0 or hi > 1.0e8
            fmt = f"{{:.{PRECISION}e}}" if self.sci_mode else "{:.0f}"
            extra = 0 if self.sci_mode else 1          # room for the trailing "."
        else:
            self.sci_mode = hi / lo > 1000.0 or hi > 1.0e8 or lo < 1.0e-4
            fmt = f"{{:.{PRECISION}e}}" if self.sci_mode else f"{{:.{PRECISION}f}}"
            extra = 0
        for v in finite.tolist():
            self.max_width = max(self.max_width, len(fmt.format(v)) + extra)

    def format(self, value):
        if self.floating:
            if self.sci_mode:
                text = f"{{:{self.max_width}.{PRECISION}e}}".format(value)
            elif self.int_mode:
                text = f"{value:.0f}"
                if not (math.isinf(value) or math.isnan(value)):
                    text += "."
            else:
                text = f"{{:.{PRECISION}f}}".format(value)
        else:
            text = str(value)
        return (self.max_width - len(text)) * " " + text


def _summarized(a):
    """Keep only the first and last EDGEITEMS entries along every axis (what gets printed)."""
    if a.ndim == 0:
        return a
    if a.shape[0] > 2 * EDGEITEMS:
        a = np.concatenate([a[:EDGEITEMS], a[-EDGEITEMS:]])
    if a.ndim == 1:
        return a
    return np.stack([_summarized(row) for row in a])


def _vector_str(a, indent, summarize, fmt):
    per_line = max(1, int(math.floor((LINEWIDTH - indent) / (fmt.max_width + 2))))
    if summarize and a.shape[0] > 2 * EDGEITEMS:
        data = ([fmt.format(v) for v in a[:EDGEITEMS].tolist()] + [" ..."]
                + [fmt.format(v) for v in a[-EDGEITEMS:].tolist()])
    else:
        data = [fmt.format(v) for v in a.tolist()]
    lines = [", ".join(data[i:i + per_line]) for i in range(0, len(data), per_line)]
    return "[" + ("," + "\n" + " " * (indent + 1)).join(lines) + "]"


def _body(a, indent, summarize, fmt):
    if a.ndim == 0:
        return fmt.format(a.item())
    if a.ndim == 1:
        return _vector_str(a, indent, summarize, fmt)
    if summarize and a.shape[0] > 2 * EDGEITEMS:
        rows = ([_body(a[i], indent + 1, summarize, fmt) for i in range(EDGEITEMS)] + ["..."]
                + [_body(a[i], indent + 1, summarize, fmt) for i in range(len(a) - EDGEITEMS, len(a))])
    else:
        rows = [_body(a[i], indent + 1, summarize, fmt) for i in range(a.shape[0])]
    return "[" + ("," + "\n" * (a.ndim - 1) + " " * (indent + 1)).join(rows) + "]"


def array_str(a, indent, floating):
    """The bracketed values part of a tensor's repr."""
    if a.size == 0:
        return "[]"
    summarize = a.size > THRESHOLD
    fmt = _Formatter(_summarized(a) if summarize else a, floating)
    return _body(a, indent, summarize, fmt)


def tensor_repr(t, prefix="tensor("):
    """Return `tensor([...], dtype=..., grad_fn=<...>)` with PyTorch's layout."""
    a, dtype = t._data, t.dtype
    indent = len(prefix)
    suffixes = []
    if a.size == 0:
        if a.ndim != 1:
            suffixes.append(f"size={tuple(a.shape)}")
        if dtype is not float32:
            suffixes.append(f"dtype={dtype!r}")
        body = "[]"
    else:
        if dtype not in (float32, int64, bool_):
            suffixes.append(f"dtype={dtype!r}")
        body = array_str(a, indent, dtype.is_floating_point)
    if t.grad_fn is not None:
        # like PyTorch, without a C++ namespace: grad_fn=<CopySlices>, not <torch::autograd::CopySlices>
        suffixes.append(f"grad_fn=<{t.grad_fn.name().rsplit('::', 1)[-1]}>")
    elif t.requires_grad:
        suffixes.append("requires_grad=True")
    tangent = tangent_of(t)
    if tangent is not None:
        suffixes.append(f"tangent={tensor_repr(tangent)}")     # forward mode (autograd/forward_ad.py)
    return _add_suffixes(prefix + body, suffixes, indent)


def _add_suffixes(text, suffixes, indent):
    parts = [text]
    last_line_len = len(text) - text.rfind("\n") + 1
    for suffix in suffixes:
        if last_line_len + len(suffix) + 2 > LINEWIDTH:
            parts.append(",\n" + " " * indent + suffix)
            last_line_len = indent + len(suffix)
        else:
            parts.append(", " + suffix)
            last_line_len += len(suffix) + 2
    parts.append(")")
    return "".join(parts)
