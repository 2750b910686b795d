"""Checks for chapter 15: a custom Function's jvp, a directional derivative with dual tensors, a forward-over-
reverse Hessian-vector product.

Example (a book cell):
    >>> from widgets.exercises import ch15
    >>> ch15.check_cube_jvp(Cube)
    ✗ not yet — this is still the stub: replace the `...` with your code, then run the cell again.
"""
import minigrad as torch
from minigrad import autograd, func
from minigrad.autograd import forward_ad as fwAD

from ..i18n import N_, _
from . import Hint, check, expect


def _values(t):
    return [round(v, 4) for v in t.reshape(-1).tolist()] if isinstance(t, torch.Tensor) else repr(t)


@check(N_("Cube's jvp gives 3 x² · tangent, and gradcheck agrees in forward mode."))
def check_cube_jvp(fn):
    """`fn.apply(x)` is x ** 3, with a `jvp` for forward mode."""
    x = torch.tensor([-1.0, 0.5, 2.0], dtype=torch.float64)
    tangent = torch.tensor([1.0, 2.0, -1.0], dtype=torch.float64)
    with fwAD.dual_level():
        try:
            out = fn.apply(fwAD.make_dual(x, tangent))
        except (RuntimeError, ValueError) as error:
            if "saved_tensors" in str(error) or "unpack" in str(error).lower():
                raise Hint(_("jvp could not read ctx.saved_tensors ({error}): in setup_context, keep x for jvp with "
                             "ctx.save_for_forward(x).").format(error=error))
            raise
        expect(isinstance(out, torch.Tensor), _("Cube.apply(x) returned {type}, expected a tensor.")
               .format(type=type(out).__name__))
        got = fwAD.unpack_dual(out).tangent
    want = 3 * x ** 2 * tangent
    expect(got is not None, _("the output has no tangent: jvp returned None. Return 3 * x ** 2 * x_t."))
    if got.shape == want.shape and torch.allclose(got, 3 * x ** 2):
        raise Hint(_("jvp returned 3 x² = {got}: that is the derivative, not yet times the tangent x_t.")
                   .format(got=_values(got)))
    expect(got.shape == want.shape and torch.allclose(got, want),
           _("at x = {x} with tangent {t}, jvp gave {got}, expected 3 x² · tangent = {want}.")
           .format(x=_values(x), t=_values(tangent), got=_values(got), want=_values(want)))
    expect(autograd.gradcheck(fn.apply, (x.clone().requires_grad_(),), check_forward_ad=True,
                              check_backward_ad=False, raise_exception=False),
           _("gradcheck(check_forward_ad=True) says the jvp disagrees with finite differences elsewhere."))


@check(N_("directional_derivative gives the tangent of f's output, read inside the dual level."))
def check_directional_derivative(directional_derivative):
    """`directional_derivative(f, x, v)` is J v, from one forward pass with a dual input."""
    cases = [(lambda t: (t.sin() * t).sum(), [0.5, 1.0, 2.0], [1.0, 0.0, -1.0]),
             (lambda t: t.exp() * t[0], [0.0, 1.0], [2.0, 1.0])]
    for f, x_data, v_data in cases:
        x, v = torch.tensor(x_data), torch.tensor(v_data)
        got = directional_derivative(f, x, v)
        want = func.jvp(f, (x,), (v,))[1]
        expect(got is not None, _("directional_derivative returned None: it is still the stub, or it read the "
                                  "tangent after `with fwAD.dual_level():` ended, which drops every tangent."))
        expect(isinstance(got, torch.Tensor), _("directional_derivative returned {type}, expected a tensor.")
               .format(type=type(got).__name__))
        if got.shape == want.shape and torch.allclose(got, f(x)) and not torch.allclose(got, want):
            raise Hint(_("directional_derivative returned f(x), the primal: return unpack_dual(...).tangent."))
        expect(got.shape == want.shape and torch.allclose(got, want, atol=1e-6),
               _("at x = {x}, v = {v}, directional_derivative gave {got}, expected J v = {want}.")
               .format(x=x_data, v=v_data, got=_values(got), want=_values(want)))


@check(N_("hvp is H @ v, forward mode over the reverse-mode gradient, without building H."))
def check_hvp(hvp):
    """`hvp(f, x, v)` is the Hessian of the scalar f at x times v, as jvp(grad(f))."""
    cases = [(lambda w: w[0] ** 2 * w[1] + w[1] ** 3, [1.0, 2.0], [1.0, 0.5]),
             (lambda w: (w.sin() * w.sum()).sum(), [0.5, -1.0, 2.0], [1.0, 2.0, 0.0])]
    for f, x_data, v_data in cases:
        x, v = torch.tensor(x_data), torch.tensor(v_data)
        got = hvp(f, x, v)
        expect(got is not None, _("hvp returned None: it is still the stub."))
        if isinstance(got, tuple):
            raise Hint(_("hvp returned a tuple: func.jvp returns (value, tangent), and the product is the tangent, "
                         "its second entry."))
        expect(isinstance(got, torch.Tensor), _("hvp returned {type}, expected a tensor.")
               .format(type=type(got).__name__))
        want = func.hessian(f)(x) @ v
        gradient = func.grad(f)(x)
        if got.shape == want.shape and torch.allclose(got, gradient) and not torch.allclose(got, want):
            raise Hint(_("hvp returned the gradient: that is the value of grad(f), not yet its derivative along v."))
        expect(got.shape == want.shape and torch.allclose(got, want, atol=1e-5),
               _("at x = {x}, v = {v}, hvp gave {got}, expected H @ v = {want}.")
               .format(x=x_data, v=v_data, got=_values(got), want=_values(want)))
