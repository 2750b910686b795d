"""Checks for chapter 11: migrating legacy (non-static, stateful) Functions to today's style.

Example (a book cell):
    >>> from widgets.exercises import ch11
    >>> ch11.check_square(Square)
    ✓ correct — ...
"""
import inspect

import minigrad as torch

from ..i18n import N_, _
from . import Hint, check, expect


def _values(t):
    return [round(v, 4) for v in t.tolist()] if isinstance(t, torch.Tensor) else repr(t)


def _static(fn, *names):
    for name in names:
        method = inspect.getattr_static(fn, name, None)
        expect(isinstance(method, staticmethod),
               _("{fn}.{name} is not a @staticmethod: put @staticmethod above it, and take ctx (not self) as the "
                 "first parameter.")
               .format(fn=fn.__name__, name=name))


def _apply(fn, *args):
    try:
        out = fn.apply(*args)
    except Exception as error:
        # half migrated: forward became static but still expects the slope from __init__, which apply never calls
        expect(not (isinstance(error, TypeError) and len(args) > 1 and "forward() takes" in str(error)),
               _("{fn}.apply{args} passes the slope on to forward, but your forward does not take it ({error}). "
                 "apply never calls __init__: take the slope as a parameter, forward(ctx, x, slope) (or "
                 "forward(x, slope) with setup_context), and keep it on ctx (ctx.slope = slope).")
               .format(fn=fn.__name__, args=_call(args), error=error))
        raise Hint(_("{fn}.apply{args} raised {type}: {error}")
                   .format(fn=fn.__name__, args=_call(args), type=type(error).__name__, error=error)) from None
    expect(out is not None, _("forward returned None: it is still the stub."))
    expect(isinstance(out, torch.Tensor), _("forward should return one tensor, got {type}.")
                                          .format(type=type(out).__name__))
    return out


def _call(args):
    return "(x" + "".join(f", {a}" for a in args[1:]) + ")"


def _backward(y, what):
    try:
        y.sum().backward()
    except Exception as error:
        raise Hint(_("backward of {what} raised {type}: {error}")
                   .format(what=what, type=type(error).__name__, error=error)) from None


@check(N_("Square is a new-style Function: static methods, called with .apply, correct gradient."))
def check_square(fn):
    """`fn` is `LegacySquare` migrated: static forward/backward, `fn.apply(x)` = x * x."""
    _static(fn, "forward", "backward")
    x = torch.tensor([-3.0, 0.5, 2.0], requires_grad=True)
    y = _apply(fn, x)
    expect(y.tolist() == [9.0, 0.25, 4.0], _("forward gave {y}, expected x * x = [9.0, 0.25, 4.0].")
                                           .format(y=_values(y)))
    expect(y.grad_fn is not None and y.grad_fn.name() == fn.__name__ + "Backward",
           _("the output's grad_fn should be {fn}Backward.")
           .format(fn=fn.__name__))
    _backward(y, "Square.apply(x)")
    expect(x.grad is not None and x.grad.tolist() == [-6.0, 1.0, 4.0],
           _("x.grad is {x_grad}, expected 2 * x = [-6.0, 1.0, 4.0].")
           .format(x_grad=None if x.grad is None else _values(x.grad)))


@check(N_("LeakyReLU takes its slope as an apply argument, keeps it on ctx, and returns None for it."))
def check_leaky_relu(fn):
    """`fn.apply(x, slope)`: x where x > 0, slope * x elsewhere; the slope lives on each call's ctx."""
    _static(fn, "forward", "backward")
    data = [-2.0, -0.5, 1.0, 3.0]
    x = torch.tensor(data, requires_grad=True)
    y = _apply(fn, x, 0.1)
    want = [v if v > 0 else 0.1 * v for v in data]
    expect(torch.allclose(y, torch.tensor(want)),
           _("apply(x, 0.1) gave {y}, expected {want}.")
           .format(y=_values(y), want=_values(torch.tensor(want))))
    # two calls with different slopes before either backward: each must keep its own slope
    x1 = torch.tensor(data, requires_grad=True)
    x2 = torch.tensor(data, requires_grad=True)
    y1, y2 = _apply(fn, x1, 0.1), _apply(fn, x2, 0.5)
    _backward(y1, "apply(x, 0.1)")
    _backward(y2, "apply(x, 0.5)")
    for x_, slope in ((x1, 0.1), (x2, 0.5)):
        want = torch.tensor([1.0 if v > 0 else slope for v in data])
        got = None if x_.grad is None else _values(x_.grad)
        expect(x_.grad is not None and torch.allclose(x_.grad, want),
               _("with slope {slope}, x.grad is {got}, expected {want}. If the two calls mixed up their slopes, "
                 "store the slope on ctx (ctx.slope = slope), not on the class: each call has its own ctx.")
               .format(slope=slope, got=got, want=_values(want)))
