"""Hidden cases for chapter 13: a matrix-shaped w, float64, gradients that are not all ones, a third derivative,
and another critic with more rows and features.
"""
import minigrad as torch
from minigrad import autograd

from widgets.exercises import check, expect


def _tensor(rows, **kwargs):
    return torch.tensor(rows, dtype=torch.float64, **kwargs)


def _hvp_cases():
    """(description, f, w, v, H @ v written out by hand)."""
    w, v = [[1.0, -2.0, 0.5], [3.0, 0.0, -1.0]], [[1.0, 0.5, -1.0], [2.0, 1.0, 0.0]]
    total = sum(sum(row) for row in v)                  # H = diag(6 w) + 2 (every entry of w with every other)
    yield ("f(w) = (w ** 3).sum() + w.sum() ** 2 with w of shape (2, 3)",
           lambda w: (w ** 3).sum() + w.sum() ** 2, w, v,
           [[6 * a * b + 2 * total for a, b in zip(ra, rb)] for ra, rb in zip(w, v)])
    w, v = [2.0, -1.0, 3.0], [1.0, 2.0, -1.0]
    yield ("f(w) = w[0] * w[1] * w[2]", lambda w: w[0] * w[1] * w[2], w, v,
           [w[2] * v[1] + w[1] * v[2], w[2] * v[0] + w[0] * v[2], w[1] * v[0] + w[0] * v[1]])


@check("hvp also works for a w of shape (2, 3) and a product of three entries, in float64.")
def check_hvp(hvp):
    for text, f, w_data, v_data, want in _hvp_cases():
        w, v = _tensor(w_data, requires_grad=True), _tensor(v_data)
        got = hvp(f, w, v)
        expect(isinstance(got, torch.Tensor) and got.shape == w.shape,
               f"for {text}, hvp did not return a tensor of w's shape {tuple(w.shape)}.")
        expect(torch.allclose(got, _tensor(want)), f"for {text} in float64, hvp is not H @ v.")


@check("Sin's backward also scales by grad_output, keeps float32 on 2-D, and can be differentiated three times.")
def check_sin(fn):
    data = [[-1.5, 0.0], [0.75, 3.0]]
    weights = torch.tensor([[1.0, -2.0], [0.5, 3.0]])
    x = torch.tensor(data, requires_grad=True)           # float32
    out = fn.apply(x)
    expect(isinstance(out, torch.Tensor) and out.dtype == torch.float32 and out.shape == (2, 2),
           "on a 2-D float32 tensor, Sin.apply(x) did not return a float32 tensor of x's shape.")
    plain = x.detach()
    (g,) = autograd.grad((out * weights).sum(), x, create_graph=True)
    expect(torch.allclose(g, weights * plain.cos(), atol=1e-6),
           "with a grad_output that is not all ones, the first derivative is not grad_output * cos(x).")
    (g2,) = autograd.grad(g.sum(), x, create_graph=True)
    expect(torch.allclose(g2, -weights * plain.sin(), atol=1e-6),
           "with a grad_output that is not all ones, the second derivative is not -grad_output * sin(x).")
    (g3,) = autograd.grad(g2.sum(), x)
    expect(torch.allclose(g3, -weights * plain.cos(), atol=1e-6), "the third derivative is not -cos(x).")


def _critic():
    first = _tensor([[0.5, -1.0, 0.25, 2.0], [1.0, 0.3, -0.5, 0.0], [-0.2, 0.8, 1.5, -1.0]], requires_grad=True)
    last = _tensor([1.0, -2.0, 0.5, 0.75], requires_grad=True)
    return [first, last], lambda inputs: (inputs @ first).sin() @ last


DATA = [[1.0, 0.0, -1.0], [0.5, -0.5, 2.0], [0.0, 2.0, 0.25], [-1.0, 1.0, 1.0], [3.0, -0.5, 0.0]]


def _reference():
    """The penalty and the weights' gradients, one autograd.grad per row."""
    weights, critic = _critic()
    inputs = _tensor(DATA, requires_grad=True)
    scores = critic(inputs)
    terms = []
    for i in range(len(DATA)):
        (grad_row,) = autograd.grad(scores[i], inputs, create_graph=True)
        terms.append((grad_row[i].norm() - 1) ** 2)
    penalty = torch.stack(terms).mean()
    penalty.backward()
    return penalty.detach(), [w.grad for w in weights]


@check("gradient_penalty also works for another critic, with 5 rows of 3 features, in float64.")
def check_gradient_penalty(fn):
    want, want_grads = _reference()
    weights, critic = _critic()
    inputs = _tensor(DATA, requires_grad=True)
    penalty = fn(critic, inputs)
    expect(isinstance(penalty, torch.Tensor) and penalty.numel() == 1,
           "for a critic with 5 rows of 3 features, gradient_penalty did not return a single number.")
    expect(inputs.grad is None and all(w.grad is None for w in weights),
           "for another critic, gradient_penalty filled a .grad: use autograd.grad.")
    expect(torch.allclose(penalty.detach().reshape(()), want), "for a two-layer critic with 5 rows of 3 features "
                                                               "in float64, the penalty is not the mean over the "
                                                               "rows of (|gradient of the row| - 1) ** 2.")
    penalty.backward()
    expect(all(w.grad is not None and torch.allclose(w.grad, g) for w, g in zip(weights, want_grads)),
           "for another critic, penalty.backward() does not give the weights the right gradients.")
