"""Checks for chapter 10: `save_for_backward` (outputs and intermediates) and the version check.

Example (a book cell):
    >>> from widgets.exercises import ch10
    >>> ch10.check_sigmoid(MySigmoid)
    ✓ correct — ...
"""
import minigrad as torch
from minigrad.autograd import gradcheck

from ..i18n import N_, _
from . import Hint, check, expect


def _values(t):
    return [round(v, 4) for v in t.tolist()] if isinstance(t, torch.Tensor) else repr(t)


def _apply(fn, x):
    try:
        y = fn.apply(x)
    except Exception as error:
        raise Hint(_("{fn}.apply(x) raised {type}: {error}")
                   .format(fn=fn.__name__, type=type(error).__name__, error=error)) from None
    expect(y is not None, _("forward returned None: it is still the stub."))
    expect(isinstance(y, torch.Tensor), _("forward should return one tensor, got {type}.")
                                        .format(type=type(y).__name__))
    return y


def _saved(y, what):
    saved = y.grad_fn.saved_tensors if y.grad_fn is not None else ()
    expect(len(saved) == 1, _("ctx.saved_tensors holds {n_saved} tensors, expected exactly one: {what}. Save it "
                              "with ctx.save_for_backward(...), not as a ctx attribute.")
                            .format(n_saved=len(saved), what=what))
    return saved[0]


def _gradcheck(fn, data):
    x = torch.tensor(data, dtype=torch.float64, requires_grad=True)
    try:
        ok = gradcheck(fn.apply, (x,), raise_exception=False)
    except Exception as error:
        raise Hint(_("backward raised {type}: {error}")
                   .format(type=type(error).__name__, error=error)) from None
    return ok


@check(N_("MySigmoid saves only its output and its backward matches finite differences."))
def check_sigmoid(fn):
    """`fn.apply(x)` is the sigmoid; it saves its output y and returns grad * y * (1 - y)."""
    x = torch.tensor([-1.0, 0.0, 2.0], requires_grad=True)
    y = _apply(fn, x)
    expect(torch.allclose(y, torch.sigmoid(x.detach())),
           _("forward gave {y}, expected {want} = 1 / (1 + exp(-x)).")
           .format(y=_values(y), want=_values(torch.sigmoid(x.detach()))))
    saved = _saved(y, _("the output y"))
    expect(torch.allclose(saved, y.detach()),
           _("the saved tensor is {saved}, but the output is {y}: save the output (setup_context's `output`).")
           .format(saved=_values(saved), y=_values(y)))
    y.sum().backward()
    want = (y * (1 - y)).detach()
    expect(x.grad is not None and torch.allclose(x.grad, want),
           _("x.grad is {x_grad}, expected y * (1 - y) = {want}.")
           .format(x_grad=None if x.grad is None else _values(x.grad), want=_values(want)))
    expect(_gradcheck(fn, [-1.5, 0.3, 2.0]),
           _("gradcheck (float64) disagrees with your backward."))


@check(N_("Softsign saves the intermediate d = 1 + |x| and its backward matches finite differences."))
def check_softsign(fn):
    """`fn.apply(x)` is x / (1 + |x|); it saves d = 1 + |x| and returns grad / d**2."""
    x = torch.tensor([-2.0, 0.5, 3.0], requires_grad=True)
    y = _apply(fn, x)
    d = 1 + x.detach().abs()
    expect(torch.allclose(y, x.detach() / d),
           _("forward gave {y}, expected x / (1 + |x|) = {want}.")
           .format(y=_values(y), want=_values(x.detach() / d)))
    saved = _saved(y, _("the intermediate d = 1 + |x|"))
    expect(saved.shape == d.shape and torch.allclose(saved, d),
           _("the saved tensor is {saved}, expected d = 1 + |x| = {d}.")
           .format(saved=_values(saved), d=_values(d)))
    y.sum().backward()
    expect(x.grad is not None and torch.allclose(x.grad, 1 / d ** 2),
           _("x.grad is {x_grad}, expected 1 / d**2 = {want}.")
           .format(x_grad=None if x.grad is None else _values(x.grad), want=_values(1 / d ** 2)))
    expect(_gradcheck(fn, [-2.0, 0.5, 3.0]),
           _("gradcheck (float64) disagrees with your backward."))


@check(N_("no version error, x is updated, and the gradient is the one of the cube of the original x."))
def check_fixed_update(fn):
    """`fn(a)` returns the updated x (a + 1) after a backward that needs the original x = a * 1."""
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    try:
        x = fn(a)
    except RuntimeError as error:
        if "modified by an inplace operation" in str(error):
            raise Hint(_("still the version error: a tensor saved for backward is changed in place. Compute the "
                         "new x out of place (x = x + 1) instead of x.add_(1).")) from None
        raise
    expect(x is not None, _("the function returned None: return x at the end."))
    expect(x.tolist() == [2.0, 3.0], _("the returned x is {x}, expected a + 1 = [2.0, 3.0].")
                                     .format(x=_values(x)))
    expect(a.grad is not None, _("a.grad is None: keep the backward call."))
    expect(a.grad.tolist() == [3.0, 12.0], _("a.grad is {a_grad}, expected 3 * a**2 = [3.0, 12.0]: the backward "
                                             "must see the x that the cube was computed from.")
                                           .format(a_grad=_values(a.grad)))
