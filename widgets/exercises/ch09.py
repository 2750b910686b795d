"""Checks for chapter 9: several outputs, `set_materialize_grads`, `mark_non_differentiable`, `mark_dirty`.

Example (a book cell):
    >>> from widgets.exercises import ch09
    >>> ch09.check_square_and_cube(SquareAndCube)
    ✓ correct — ...
"""
import minigrad as torch

from ..i18n import N_, _
from . import Hint, check, expect


def _values(t):
    return [round(v, 4) for v in t.tolist()] if isinstance(t, torch.Tensor) else repr(t)


def _grad_of(x):
    return "None" if x.grad is None else _values(x.grad)


def _probe(fn):
    """Subclass the learner's Function so that we can see what its backward receives."""
    seen = []

    class Probe(fn):
        @staticmethod
        def backward(ctx, *grads):
            seen.append(grads)
            return fn.backward(ctx, *grads)
    return Probe, seen


class _watching_zeros:
    """While active, note every call of torch.zeros / zeros_like / full_like (how a None becomes zeros again)."""

    NAMES = ("zeros", "zeros_like", "full_like")

    def __init__(self, calls):
        self.calls, self.saved = calls, {}

    def __enter__(self):
        for name in self.NAMES:
            original = self.saved[name] = getattr(torch, name)

            def spy(*args, _name=name, _original=original, **kwargs):
                self.calls.append(f"torch.{_name}")
                return _original(*args, **kwargs)
            setattr(torch, name, spy)

    def __exit__(self, *exc):
        for name, original in self.saved.items():
            setattr(torch, name, original)
        return False


@check(N_("both outputs work alone and together, and an unused output's gradient arrives as None."))
def check_square_and_cube(fn):
    """`fn.apply(x)` returns (x**2, x**3); backward copes with a None gradient for either output."""
    probe, seen = _probe(fn)
    data = [1.0, -2.0, 3.0]
    out = probe.apply(torch.tensor(data, requires_grad=True))
    expect(out is not None, _("forward returned None: it is still the stub. Return the two tensors x**2, x**3."))
    expect(isinstance(out, tuple) and len(out) == 2,
           _("forward should return a tuple of two tensors (x**2, x**3), got {type}.")
           .format(type=type(out).__name__))
    expected = {"square": [2 * v for v in data], "cube": [3 * v * v for v in data],
                "both": [2 * v + 3 * v * v for v in data]}
    for used, want in expected.items():
        x = torch.tensor(data, requires_grad=True)
        square, cube = probe.apply(x)
        loss = {"square": square.sum(), "cube": cube.sum(), "both": square.sum() + cube.sum()}[used]
        label = {"square": _("square"), "cube": _("cube"), "both": _("both")}[used]     # the output(s) used
        made_zeros = []
        try:
            with _watching_zeros(made_zeros):
                loss.backward()
        except Exception as error:
            raise Hint(_("with only the {used} used, backward raised {type}: {error} — check each gradient for "
                         "None before using it.")
                       .format(used=label, type=type(error).__name__, error=error)) from None
        expect(used == "both" or not made_zeros,
               _("with only the {used} used, your backward made a tensor of zeros ({call}) for the missing "
                 "gradient: that is what materializing gradients does, and what set_materialize_grads(False) "
                 "saves. Skip the term whose gradient is None instead.")
               .format(used=label, call=made_zeros[0] if made_zeros else ''))
        expect(x.grad is not None, _("with only the {used} used, x.grad stayed None: backward returned no gradient.")
                                   .format(used=label))
        expect(torch.allclose(x.grad, torch.tensor(want)),
               _("with only the {used} used, x.grad is {x_grad}, expected {want} (d(x**2)/dx = 2x, d(x**3)/dx = "
                 "3x**2).")
               .format(used=label, x_grad=_grad_of(x), want=want))
        if used == "square":
            expect(seen[-1][1] is None,
                   _("with only the square used, the cube's gradient arrived as {grad}, not None: call "
                     "ctx.set_materialize_grads(False) in setup_context.")
                   .format(grad=_values(seen[-1][1])))


@check(N_("the mask is not differentiable, the clamped output is, and its gradient is the mask."))
def check_clamp_with_mask(fn):
    """`fn.apply(x, lo)` returns (x.clamp(min=lo), float mask); only the first is differentiable."""
    x = torch.tensor([-2.0, 0.5, 3.0], requires_grad=True)
    out = fn.apply(x, 0.0)
    expect(isinstance(out, tuple) and len(out) == 2,
           _("forward should return (clamped, mask)."))
    clamped, mask = out
    expect(not mask.requires_grad, _("mask.requires_grad is True: mark it with ctx.mark_non_differentiable(mask) "
                                     "in setup_context (a float output is differentiable unless you say otherwise)."))
    expect(clamped.requires_grad, _("the clamped output does not require grad: mark only the mask, not both "
                                    "outputs."))
    try:
        (clamped * torch.tensor([1.0, 10.0, 100.0])).sum().backward()
    except Exception as error:
        raise Hint(_("backward raised {type}: {error}")
                   .format(type=type(error).__name__, error=error)) from None
    expect(x.grad is not None, _("x.grad is None: backward should return grad_clamped * mask (and None for lo)."))
    expect(torch.allclose(x.grad, torch.tensor([0.0, 10.0, 100.0])),
           _("x.grad is {x_grad} for grad_clamped [1, 10, 100], expected [0, 10, 100]: multiply by the mask.")
           .format(x_grad=_grad_of(x)))


@check(N_("x is changed in place, returned itself, recorded with your node, and a leaf is refused."))
def check_mul_in_place(fn):
    """`fn.apply(x, c)` multiplies x by c in place (mark_dirty) and returns x."""
    a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    h = a * 1
    out = fn.apply(h, 3.0)
    expect(out is not None, _("forward returned None: it is still the stub (multiply x in place, return x)."))
    expect(h.tolist() == [3.0, 6.0, 9.0], _("h is {h} after apply(h, 3.0), expected [3.0, 6.0, 9.0]: change x in "
                                            "place with x.mul_(c).")
                                          .format(h=_values(h)))
    expect(out is h, _("apply returned a new tensor, not h itself: call ctx.mark_dirty(x) so autograd knows that "
                       "forward changed x in place (and return x)."))
    name = h.grad_fn.name() if h.grad_fn is not None else None
    expect(name == fn.__name__ + "Backward",
           _("h.grad_fn is {name}, expected {fn}Backward.")
           .format(name=name, fn=fn.__name__))
    h.sum().backward()
    expect(a.grad is not None and a.grad.tolist() == [3.0, 3.0, 3.0],
           _("a.grad is {a_grad}, expected [3.0, 3.0, 3.0]: backward returns grad_output * c (and None for c).")
           .format(a_grad=_grad_of(a)))
    leaf = torch.tensor([1.0, 2.0], requires_grad=True)
    try:
        fn.apply(leaf, 2.0)
    except RuntimeError as error:
        expect("leaf Variable" in str(error),
               _("on a leaf, apply raised an unexpected error: {error}")
               .format(error=error))
    else:
        raise Hint(_("apply on a leaf that requires grad should raise the leaf error: did you call mark_dirty?"))
