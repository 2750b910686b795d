"""Checks for chapter 13: Hessian-vector products, a twice-differentiable Function, a gradient penalty.

Example (a book cell):
    >>> from widgets.exercises import ch13
    >>> ch13.check_hvp(hvp)
    ✗ not yet — hvp returned None: it is still the stub.
"""
import minigrad as torch
from minigrad import autograd

from ..i18n import N_, _
from . import Hint, check, expect


def _values(t):
    return [round(v, 4) for v in t.reshape(-1).tolist()] if isinstance(t, torch.Tensor) else repr(t)


def _hvp_cases():
    """(description, f, w, v, H written out by hand as nested lists)."""
    w1 = [1.0, 2.0]
    yield ("f(w) = w[0]**2 * w[1] + w[1]**3", lambda w: w[0] ** 2 * w[1] + w[1] ** 3, w1, [1.0, 0.5],
           [[2 * w1[1], 2 * w1[0]], [2 * w1[0], 6 * w1[1]]])
    w2 = [1.0, -2.0, 0.5]
    yield ("f(w) = (w ** 3).sum()", lambda w: (w ** 3).sum(), w2, [1.0, 1.0, 2.0],
           [[6 * w2[0], 0, 0], [0, 6 * w2[1], 0], [0, 0, 6 * w2[2]]])
    A = [[1.0, 2.0], [0.0, 3.0]]
    yield (_("f(w) = w @ A @ w, A not symmetric"), lambda w: w @ torch.tensor(A) @ w, [0.5, -1.0], [2.0, -1.0],
           [[2.0, 2.0], [2.0, 6.0]])        # the Hessian of w A w is A + A^T


@check(N_("hvp gives H @ v from two backward passes, without building H."))
def check_hvp(hvp):
    """`hvp(f, w, v)` returns the Hessian of the scalar f at w times v."""
    for text, f, w_data, v_data, H in _hvp_cases():
        w, v = torch.tensor(w_data, requires_grad=True), torch.tensor(v_data)
        try:
            got = hvp(f, w, v)
        except RuntimeError as error:
            expect("does not require grad" not in str(error),
                   _("for {text}, autograd.grad said: {error}. The gradient g has no graph: compute it with "
                     "create_graph=True, so that it can be differentiated again.")
                   .format(text=text, error=error))
            raise
        expect(got is not None and got is not ...,
               _("hvp returned None: it is still the stub."))
        if isinstance(got, tuple) and len(got) == 1:
            raise Hint(_("hvp returned a tuple: autograd.grad returns one gradient per input, unpack it with (hv,) "
                         "= autograd.grad(...)."))
        expect(isinstance(got, torch.Tensor),
               _("hvp returned {type}, expected a tensor.")
               .format(type=type(got).__name__))
        want = torch.tensor(H) @ v
        w_plain = torch.tensor(w_data, requires_grad=True)
        (g,) = autograd.grad(f(w_plain), w_plain)
        if got.shape == g.shape and torch.allclose(got, g):
            raise Hint(_("for {text}, hvp returned the gradient {g}: differentiate once more, the gradient of (g * "
                         "v).sum().")
                       .format(text=text, g=_values(g)))
        if got.shape == g.shape and torch.allclose(got, g * v):
            raise Hint(_("for {text}, hvp returned g * v: that is the product of the gradient with v, not of the "
                         "Hessian. Differentiate (g * v).sum() with respect to w.")
                       .format(text=text))
        expect(got.shape == want.shape and torch.allclose(got, want, atol=1e-5),
               _("for {text} at w = {w_data}, v = {v_data}, hvp gave {got}, expected H @ v = {want} (H = {H}).")
               .format(text=text, w_data=w_data, v_data=v_data, got=_values(got), want=_values(want), H=H))


@check(N_("Sin's backward uses tensor operations: gradcheck and gradgradcheck pass, d²/dx² sin = -sin."))
def check_sin(fn):
    """`fn.apply(x)` is sin(x), with a backward that is itself differentiable."""
    x = torch.tensor([-1.0, 0.25, 2.0], dtype=torch.float64, requires_grad=True)
    out = fn.apply(x)
    expect(out is not None, _("Sin.apply(x) returned None: forward is still the stub. Return x.sin() (and save x)."))
    expect(isinstance(out, torch.Tensor) and torch.allclose(out, x.detach().sin()),
           _("Sin.apply(x) gave {out}, expected sin(x) = {want}.")
           .format(out=_values(out), want=_values(x.detach().sin())))
    try:
        (g,) = autograd.grad(out.sum(), x, create_graph=True)
    except Exception as error:
        raise Hint(_("the first backward raised {type}: {error}")
                   .format(type=type(error).__name__, error=error)) from None
    expect(g is not None, _("backward returned None instead of a gradient."))
    expect(torch.allclose(g, x.detach().cos()),
           _("the first derivative is {g}, expected cos(x) = {want}.")
           .format(g=_values(g), want=_values(x.detach().cos())))
    expect(g.requires_grad, _("with create_graph=True the gradient does not require grad: it was computed from "
                              "something that has no graph. Either a value forward computed (forward runs with "
                              "recording off, so an x.cos() saved there is a constant), or a copy outside the Tensor "
                              "world (numpy, .detach(), .item(), torch.tensor(...)). Save x itself, and compute "
                              "grad_output * x.cos() in backward."))
    (g2,) = autograd.grad(g.sum(), x)
    expect(torch.allclose(g2, -x.detach().sin()),
           _("the second derivative is {g2}, expected -sin(x) = {want}: use the saved x itself in backward "
             "(ctx.saved_tensors), not a detached copy.")
           .format(g2=_values(g2), want=_values(-x.detach().sin())))
    try:
        expect(autograd.gradgradcheck(fn.apply, (x,)),
               _("gradgradcheck returned False."))
    except RuntimeError as error:
        raise Hint(_("gradgradcheck failed: {first_line}")
                   .format(first_line=str(error).splitlines()[0])) from None


def _critic():
    weight = torch.tensor([[0.5, -1.0], [2.0, 0.3]], requires_grad=True)
    return weight, lambda inputs: (inputs @ weight).tanh().sum(dim=1)


def _reference(inputs_data):
    """The penalty and the weight's gradient, computed row by row (one autograd.grad per row)."""
    weight, critic = _critic()
    inputs = torch.tensor(inputs_data, requires_grad=True)
    scores = critic(inputs)
    terms = []
    for i in range(len(inputs_data)):
        (grad_row,) = autograd.grad(scores[i], inputs, create_graph=True)
        terms.append((grad_row[i].norm() - 1) ** 2)
    penalty = torch.stack(terms).mean()
    penalty.backward()
    return penalty.detach(), weight.grad


@check(N_("gradient_penalty is a loss built from a gradient (create_graph=True): backward reaches the weights."))
def check_gradient_penalty(fn):
    """`fn(critic, inputs)` returns mean_i (|d score_i / d inputs_i| - 1)^2, differentiable in the weights."""
    data = [[1.0, 0.0], [0.5, -0.5], [0.0, 2.0], [-1.0, 1.0]]
    want_penalty, want_grad = _reference(data)
    weight, critic = _critic()
    inputs = torch.tensor(data, requires_grad=True)
    penalty = fn(critic, inputs)
    expect(penalty is not None and penalty is not ...,
           _("gradient_penalty returned None: it is still the stub."))
    if not isinstance(penalty, torch.Tensor):
        raise Hint(_("gradient_penalty returned {type}: expected a single number, the mean over the rows.")
                   .format(type=type(penalty).__name__))
    expect(penalty.numel() == 1,
           _("gradient_penalty returned {type} of shape {shape}: expected a single number, the mean over the rows.")
           .format(type=type(penalty).__name__, shape=tuple(penalty.shape)))
    expect(weight.grad is None and inputs.grad is None,
           _("after gradient_penalty, a .grad is filled: compute the gradient with autograd.grad, which returns it "
             "and leaves every .grad alone (backward would add into the weights' .grad too)."))
    expect(torch.allclose(penalty.detach(), want_penalty, atol=1e-5),
           _("the penalty is {penalty:.4f}, expected {want_penalty:.4f}: per row, the norm of that row's gradient "
             "(norm(dim=1)), minus 1, squared; then the mean.")
           .format(penalty=penalty.item(), want_penalty=want_penalty.item()))
    expect(penalty.requires_grad, _("the penalty does not require grad, so backward cannot reach the weights: "
                                    "compute the gradient with create_graph=True."))
    penalty.backward()
    expect(weight.grad is not None and torch.allclose(weight.grad, want_grad, atol=1e-5),
           _("after penalty.backward(), weight.grad is {weight_grad}, expected {want_grad}.")
           .format(weight_grad=_values(weight.grad) if weight.grad is not None else None,
                   want_grad=_values(want_grad)))
