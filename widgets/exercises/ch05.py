"""Checks for chapter 5: the `gradient` of a non-scalar backward, Jacobians built from backward, retain_graph.

Example (a book cell):
    >>> from widgets.exercises import ch05
    >>> ch05.check_weights(v)
    ✗ not yet — this is still the stub: replace the `...` with your code, then run the cell again.
"""
import minigrad as torch

from ..i18n import N_, _
from . import Hint, check, expect


def _values(t):
    return [round(v, 4) for v in t.reshape(-1).tolist()] if isinstance(t, torch.Tensor) else repr(t)


@check(N_("y.backward(v) with v = [2, -1] gives the gradient of 2 * y[0] - y[1]."))
def check_weights(v):
    """`v` is the gradient to pass to `y.backward(v)` so that x.grad is d(2*y[0] - y[1])/dx."""
    expect(isinstance(v, torch.Tensor), _("v should be a tensor, got {type}.")
                                        .format(type=type(v).__name__))
    expect(v.shape == (2,), _("v has shape {v_shape}, but y has shape (2,): the gradient must have y's shape "
                              "(otherwise backward raises 'Mismatch in shape').")
                            .format(v_shape=tuple(v.shape)))
    x = torch.tensor([[1.0, 2.0, 2.0], [3.0, 0.0, 4.0]], requires_grad=True)
    torch.norm(x, dim=1).backward(v)
    want = torch.tensor([[2 / 3, 4 / 3, 4 / 3], [-0.6, 0.0, -0.8]])
    expect(torch.allclose(x.grad, want, atol=1e-5),
           _("with v = {v}, x.grad is {x_grad}, expected {want}: v holds the weight of each output, here 2 for "
             "y[0] and -1 for y[1].")
           .format(v=_values(v), x_grad=_values(x.grad), want=_values(want)))


def _cases():
    """Functions with known Jacobians: (description, f, x, expected J as nested lists)."""
    x1 = [1.0, -2.0, 3.0]
    yield "f(x) = x * x", lambda x: x * x, x1, [[2.0, 0, 0], [0, -4.0, 0], [0, 0, 6.0]]
    yield _("f(x) = x.sum() * x[0] (a scalar)"), lambda x: x.sum() * x[0], x1, [[3.0, 1.0, 1.0]]
    x2 = [[1.0, 2.0, 2.0], [3.0, 0.0, 4.0]]
    yield ("f(x) = torch.norm(x, dim=1)", lambda x: torch.norm(x, dim=1), x2,
           [[1 / 3, 2 / 3, 2 / 3, 0, 0, 0], [0, 0, 0, 0.6, 0, 0.8]])
    yield ("f(x) = x.sum(dim=0)", lambda x: x.sum(dim=0), x2,
           [[1.0, 0, 0, 1.0, 0, 0], [0, 1.0, 0, 0, 1.0, 0], [0, 0, 1.0, 0, 0, 1.0]])


@check(N_("jacobian builds J one row per output element, with one backward each, and v @ J matches backward(v)."))
def check_jacobian(jacobian):
    """`jacobian(f, x)` returns J with J[i, j] = d f(x).reshape(-1)[i] / d x.reshape(-1)[j]."""
    for text, f, data, rows in _cases():
        x = torch.tensor(data, requires_grad=True)
        try:
            J = jacobian(f, x)
        except RuntimeError as error:
            expect("Mismatch in shape" not in str(error),
                   _("for {text}, backward said: {error} Reshape the one-hot vector to y.shape.")
                   .format(text=text, error=error))
            raise
        expect(J is not None and J is not ...,
               _("jacobian returned None: it is still the stub."))
        expect(isinstance(J, torch.Tensor), _("for {text}, jacobian returned {type}, expected a tensor.")
                                            .format(text=text, type=type(J).__name__))
        want = torch.tensor(rows)
        n_out, n_in = want.shape
        if tuple(J.shape) == (n_in, n_out) and n_in != n_out:
            raise Hint(_("for {text}, J has shape {J_shape}, expected {want_shape}: one ROW per output element "
                         "(the gradient of that element), one column per input element.")
                       .format(text=text, J_shape=tuple(J.shape), want_shape=(n_out, n_in)))
        expect(tuple(J.shape) == (n_out, n_in),
               _("for {text}, J has shape {J_shape}, expected {want_shape} (outputs x inputs, flattened).")
               .format(text=text, J_shape=tuple(J.shape), want_shape=(n_out, n_in)))
        if not torch.allclose(J.float(), want, atol=1e-5):
            cumulative = torch.stack([want[: i + 1].sum(0) for i in range(n_out)])
            if n_out > 1 and torch.allclose(J.float(), cumulative, atol=1e-5):
                raise Hint(_("for {text}, each row of J is the sum of the rows before it: gradients accumulate in "
                             "x.grad. Set x.grad = None before each backward.")
                           .format(text=text))
            raise Hint(_("for {text}, J is {J} (flattened), expected {want}: row i is x.grad after backward with a "
                         "one-hot gradient (1 at output element i, 0 elsewhere).")
                       .format(text=text, J=_values(J), want=_values(want)))


@check(N_("two backward passes through one graph, the first with retain_graph=True, and x.grad holds their sum."))
def check_two_backwards(fn):
    """`fn(x)` builds loss = (x ** 3).sum() once, runs backward on it twice, and returns x.grad."""
    x = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)
    built = []          # every tensor a node saves for backward: counts how many graphs the function built
    with torch.autograd.graph.saved_tensors_hooks(lambda t: built.append(t) or t, lambda t: t):
        (torch.tensor([1.0], requires_grad=True) ** 3).sum()
        per_graph, built[:] = len(built), []
        try:
            grad = fn(x)
        except RuntimeError as error:
            expect("second time" not in str(error),
                   _("the second backward raised 'Trying to backward through the graph a second time': pass "
                     "retain_graph=True to the FIRST backward."))
            raise
    expect(grad is not ..., _("the function returned `...`: it is still the stub (return x.grad at the end)."))
    expect(grad is not None, _("the function returned None: x.grad is still None, so no backward ran yet. Replace "
                               "the `...` with two backward passes through `loss`."))
    expect(isinstance(grad, torch.Tensor), _("the function returned {type}, expected x.grad.")
                                           .format(type=type(grad).__name__))
    once = [3 * v * v for v in x.tolist()]
    expect(len(built) <= per_graph, _("the function built the loss more than once: two graphs, one backward each. "
                                      "Build loss once (as the stub does) and run backward twice through it, the "
                                      "first time with retain_graph=True."))
    if torch.allclose(grad, torch.tensor(once)):
        raise Hint(_("x.grad is {grad}, the gradient of ONE backward (3 x**2). Run backward twice on the same "
                     "loss: the second adds to x.grad.")
                   .format(grad=_values(grad)))
    expect(torch.allclose(grad, torch.tensor([2 * g for g in once])),
           _("x.grad is {grad}, expected {want} (twice 3 x**2): build the loss once, call "
             "loss.backward(retain_graph=True), then loss.backward().")
           .format(grad=_values(grad), want=[2 * g for g in once]))
