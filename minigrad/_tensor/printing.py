"""`repr(tensor)` exactly as PyTorch prints it (a port of `torch/_tensor_str.py`), with its print options.

Floats get `precision` decimals (4), scientific notation when the magnitudes span too widely (or as `sci_mode`
says), and a trailing `.` when every value is whole; columns are right-aligned; tensors over `threshold` elements
(1000) are summarised with `...`, keeping `edgeitems` (3) at each end of each dimension; lines break before
`linewidth` (80). `torch.set_printoptions` changes these (minigrad/_tensor/settings_functions.py).
"""
import dataclasses
import math

import numpy as np

from ..core.forward_ad import tangent_of
from ..core.dtype import bool as bool_, default_float, int64


@dataclasses.dataclass
class PrintOptions:
    """PyTorch's `torch._tensor_str.PRINT_OPTS`: what `set_printoptions` sets and every repr reads."""
    precision: int = 4
    threshold: float = 1000
    edgeitems: int = 3
    linewidth: int = 80
    sci_mode: object = None         # None: chosen from the values; True or False: always or never


PRINT_OPTS = PrintOptions()


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
        precision, forced = PRINT_OPTS.precision, PRINT_OPTS.sci_mode
        self.sci_mode = (hi / lo > 1000.0 or hi > 1.0e8 or lo < 1.0e-4) if forced is None else forced
        if self.int_mode:
            fmt = f"{{:.{precision}e}}" if self.sci_mode else "{:.0f}"
            extra = 0 if self.sci_mode else 1          # room for the trailing "."
        else:
            fmt = f"{{:.{precision}e}}" if self.sci_mode else f"{{:.{precision}f}}"
            extra = 0
        for v in finite.tolist():
            self.max_width = max(self.max_width, len(fmt.format(v)) + extra)

    def format(self, value):
        if self.floating:
            if self.sci_mode:
                text = f"{{:{self.max_width}.{PRINT_OPTS.precision}e}}".format(value)
            elif self.int_mode:
                text = f"{value:.0f}"
                if not (math.isinf(value) or math.isnan(value)):
                    text += "."
            else:
                text = f"{{:.{PRINT_OPTS.precision}f}}".format(value)
        else:
            text = str(value)
        return (self.max_width - len(text)) * " " + text


def _summarized(a, edge):
    """Keep only the first and last `edge` entries along every axis (what gets printed)."""
    if a.ndim == 0:
        return a
    if a.ndim > 1 and not edge:
        return a[(slice(0, 0),) * a.ndim]
    if a.shape[0] > 2 * edge:
        a = np.concatenate([a[:edge], a[-edge:]])
    if a.ndim == 1:
        return a
    return np.stack([_summarized(row, edge) for row in a])


def _vector_str(a, indent, summarize, fmt):
    edge = PRINT_OPTS.edgeitems
    per_line = max(1, int(math.floor((PRINT_OPTS.linewidth - indent) / (fmt.max_width + 2))))
    if summarize and not edge:
        data = ["..."]
    elif summarize and a.shape[0] > 2 * edge:
        data = [fmt.format(v) for v in a[:edge].tolist()] + [" ..."] + [fmt.format(v) for v in a[-edge:].tolist()]
    else:
        data = [fmt.format(v) for v in a.tolist()]
    lines = [", ".join(data[i:i + per_line]) for i in range(0, len(data), per_line)]
    return "[" + ("," + "\n" + " " * (indent + 1)).join(lines) + "]"


def _body(a, indent, summarize, fmt):
    if a.ndim == 0:
        return fmt.format(a.item())
    if a.ndim == 1:
        return _vector_str(a, indent, summarize, fmt)
    edge = PRINT_OPTS.edgeitems
    if summarize and a.shape[0] > 2 * edge:
        rows = ([_body(a[i], indent + 1, summarize, fmt) for i in range(edge)] + ["..."]
                + [_body(a[i], indent + 1, summarize, fmt) for i in range(len(a) - edge, len(a))])
    else:
        rows = [_body(a[i], indent + 1, summarize, fmt) for i in range(a.shape[0])]
    return "[" + ("," + "\n" * (a.ndim - 1) + " " * (indent + 1)).join(rows) + "]"


def array_str(a, indent, floating):
    """The bracketed values part of a tensor's repr."""
    if a.size == 0:
        return "[]"
    summarize = a.size > PRINT_OPTS.threshold
    fmt = _Formatter(_summarized(a, PRINT_OPTS.edgeitems) if summarize else a, floating)
    return _body(a, indent, summarize, fmt)


def tensor_repr(t, prefix="tensor("):
    """Return `tensor([...], dtype=..., grad_fn=<...>)` with PyTorch's layout."""
    a, dtype, default = t._data, t.dtype, default_float()
    indent = len(prefix)
    suffixes = []
    if a.size == 0:
        if a.ndim != 1:
            suffixes.append(f"size={tuple(a.shape)}")
        if dtype is not default:
            suffixes.append(f"dtype={dtype!r}")
        body = "[]"
    else:
        if not PRINT_OPTS.edgeitems:
            suffixes.append(f"size={tuple(a.shape)}")
        if dtype not in (default, int64, bool_):
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
        if last_line_len + len(suffix) + 2 > PRINT_OPTS.linewidth:
            parts.append(",\n" + " " * indent + suffix)
            last_line_len = indent + len(suffix)
        else:
            parts.append(", " + suffix)
            last_line_len += len(suffix) + 2
    parts.append(")")
    return "".join(parts)
