"""Shared helpers: checking what a widget was given, escaping text for labels, and printing small tensors.

Every widget checks its input the same way and fails with an `InputError`: a one-paragraph message that
Jupyter shows as it is (no traceback), because it is the learner's input, not the library, that is wrong.
"""
import html
import math
import re

import numpy as np

import minigrad

from .i18n import _

SMALL = 6          # the one rule, for boxes, edges and panels: at most this many elements show their values

# the very text of minigrad's (and PyTorch's) backward for a non-scalar output without a gradient
NON_SCALAR_MESSAGE = "grad can be implicitly created only for scalar outputs"


class InputError(Exception):
    """Base of the errors a widget raises for bad input. Jupyter shows only the message, not a traceback."""

    def _render_traceback_(self):
        # IPython calls this instead of printing a traceback: the message is the whole story
        return [f"{type(self).__name__}: {self}"]


class InputTypeError(InputError, TypeError):
    """Raised for something that is not a minigrad Tensor (or Module)."""


class InputValueError(InputError, ValueError):
    """Raised for a tensor with no graph, or a non-scalar output without a `gradient`."""


def check_tensor(t, who, position=""):
    """Raise InputTypeError unless `t` is a minigrad Tensor."""
    if not isinstance(t, minigrad.Tensor):
        raise InputTypeError(_("{who} expected a minigrad Tensor{position}, but got {got}. Build it with "
                               "minigrad (e.g. `x = minigrad.tensor([1.0, 2.0], requires_grad=True)`); "
                               "real torch tensors and numpy arrays cannot be drawn.").format(
                                   who=who, position=position, got=describe(t)))


def check_graph(t, who, position=""):
    """Raise InputValueError if `t` is in no graph (it does not require grad)."""
    if not t.requires_grad:
        raise InputValueError(_("{who}: the tensor{position} does not require grad, so it has no graph to show "
                                "(its grad_fn is None). Create the leaves with requires_grad=True, or call "
                                "x.requires_grad_(), before computing with them.").format(who=who, position=position))


def describe(obj):
    """Name the type of `obj` for a message, e.g. 'a list' or 'a torch.Tensor'."""
    cls = type(obj)
    name = cls.__name__ if cls.__module__ == "builtins" else f"{cls.__module__.split('.')[0]}.{cls.__qualname__}"
    return f"{'an' if name[:1].lower() in 'aeiou' else 'a'} {name}"


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def esc(text):
    """Escape `text` for a Graphviz HTML-like label or an HTML page: no markup gets through, newlines break lines."""
    text = _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", str(text))
    text = html.escape(text, quote=True).replace("&#x27;", "&#39;")
    return text.replace("\r\n", "\n").replace("\n", "<BR/>").replace("\t", " ")


def esc_html(text):
    """Escape `text` for ordinary HTML (the side panels): like `esc`, with `<br>` for newlines."""
    return esc(text).replace("<BR/>", "<br>")


def shape_text(t):
    """Return a tensor's shape as `(2, 3)`, and `()` for a scalar."""
    dims = tuple(t.shape)
    return "(" + ", ".join(str(d) for d in dims) + ("," if len(dims) == 1 else "") + ")"


def shape_words(t):
    """Say a tensor's shape in words for a learner: `a scalar` for shape (), else `shape (2, 3)`."""
    return "a scalar" if not tuple(t.shape) else f"shape {shape_text(t)}"


def values_text(t):
    """Return the values of a small tensor (or numpy array) on one line, e.g. `[1.5, -2.]`; None if too big."""
    data = t.data.numpy() if isinstance(t, minigrad.Tensor) else np.asarray(t)   # .data: detached, no side effect
    if data.size > SMALL:
        return None
    return _nested(data.tolist())


def _nested(value):
    # bounded by the number of dimensions (a handful), so recursion is fine here
    if isinstance(value, list):
        return "[" + ", ".join(_nested(v) for v in value) + "]"
    return _number(value)


def _number(v):
    """Print one number as PyTorch does: 4 decimals, `2.` for whole floats, scientific when huge or tiny."""
    if isinstance(v, (bool, int)):
        return str(v)
    if not math.isfinite(v):
        return str(v)
    if v == int(v) and abs(v) < 1e8:
        return f"{v:.0f}."
    if abs(v) >= 1e8 or abs(v) < 1e-4:
        return f"{v:.4e}"
    return f"{v:.4f}".rstrip("0")


def tensor_text(t):
    """Describe a tensor in a few characters: its values when small, else its shape; None prints as None.

    A gradient computed with create_graph=True has a grad_fn of its own: it is named, as torch's repr names it.
    """
    if t is None:
        return "None"
    values = values_text(t)
    text = values if values is not None else f"a tensor of {shape_words(t)}"
    return text if t.grad_fn is None else f"{text} (grad_fn={t.grad_fn.name()})"
