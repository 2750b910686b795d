"""Hidden cases for chapter 10: 2-D float64 tensors, gradients that are not all ones, and other values of a."""
import minigrad as torch

from widgets.exercises import check, expect

DATA = [[-3.0, -0.5, 0.0], [0.25, 1.5, 6.0]]
WEIGHTS = [[1.0, -2.0, 3.0], [0.5, 10.0, -4.0]]


def _run(fn):
    """Apply `fn` to a 2-D float64 leaf; return (x, y, the one saved tensor or None)."""
    x = torch.tensor(DATA, dtype=torch.float64, requires_grad=True)
    y = fn.apply(x)
    expect(isinstance(y, torch.Tensor) and y.shape == (2, 3) and y.dtype == torch.float64,
           f"on a 2-D float64 tensor, {fn.__name__}.apply(x) did not return a float64 tensor of x's shape.")
    saved = y.grad_fn.saved_tensors if y.grad_fn is not None else ()
    return x, y, saved[0] if len(saved) == 1 else None


@check("MySigmoid also saves its output and scales by grad_output on a 2-D float64 tensor.")
def check_sigmoid(fn):
    x, y, saved = _run(fn)
    s = torch.sigmoid(x.detach())
    expect(torch.allclose(y.detach(), s), "on a 2-D float64 tensor, forward is not 1 / (1 + exp(-x)).")
    expect(saved is not None and saved.shape == (2, 3) and torch.allclose(saved, s),
           "on a 2-D float64 tensor, the one saved tensor is not the output y.")
    grad_output = torch.tensor(WEIGHTS, dtype=torch.float64)
    y.backward(grad_output)
    expect(x.grad is not None and torch.allclose(x.grad, grad_output * s * (1 - s)),
           "with a grad_output that is not all ones, x.grad is not grad_output * y * (1 - y).")


@check("Softsign also saves d = 1 + |x| and scales by grad_output on a 2-D float64 tensor.")
def check_softsign(fn):
    x, y, saved = _run(fn)
    d = 1 + x.detach().abs()
    expect(torch.allclose(y.detach(), x.detach() / d), "on a 2-D float64 tensor, forward is not x / (1 + |x|).")
    expect(saved is not None and saved.shape == (2, 3) and torch.allclose(saved, d),
           "on a 2-D float64 tensor, the one saved tensor is not d = 1 + |x|.")
    grad_output = torch.tensor(WEIGHTS, dtype=torch.float64)
    y.backward(grad_output)
    expect(x.grad is not None and torch.allclose(x.grad, grad_output / d ** 2),
           "with a grad_output that is not all ones, x.grad is not grad_output / d**2.")


@check("the fixed update also works for another a, 2-D and float64.")
def check_fixed_update(fn):
    data = [[-1.5, 0.5], [3.0, 0.0]]
    a = torch.tensor(data, dtype=torch.float64, requires_grad=True)
    x = fn(a)
    expect(isinstance(x, torch.Tensor) and x.dtype == torch.float64 and x.tolist() ==
           [[v + 1 for v in row] for row in data], "for a 2-D float64 a, the returned x is not a + 1.")
    want = torch.tensor([[3 * v * v for v in row] for row in data], dtype=torch.float64)
    expect(a.grad is not None and torch.allclose(a.grad, want),
           "for a 2-D float64 a, a.grad is not 3 * a**2: the backward must see the x the cube was computed from.")
