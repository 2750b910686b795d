"""Hidden cases for chapter 4: other shapes, values and dtypes than the visible checks use."""
import minigrad as torch

from widgets.exercises import check, expect


def _grad(fn, data, grad_output, dtype=torch.float32):
    x = torch.tensor(data, dtype=dtype, requires_grad=True)
    out = fn.apply(x)
    out.backward(torch.tensor(grad_output, dtype=dtype))
    return out, x.grad


@check("Square also works on a 2-D float64 tensor.")
def check_square(fn):
    data, grad_output = [[1.5, -1.0], [0.0, 4.0]], [[3.0, -2.0], [5.0, 0.5]]
    out, grad = _grad(fn, data, grad_output, torch.float64)
    want = [[v * v for v in row] for row in data]
    expect(out.tolist() == want, "on a 2-D float64 tensor, forward did not give x * x.")
    expect(out.dtype == torch.float64, f"forward turned a float64 input into {out.dtype}.")
    want_grad = [[2 * v * g for v, g in zip(r, gr)] for r, gr in zip(data, grad_output)]
    expect(grad is not None and torch.allclose(grad, torch.tensor(want_grad, dtype=torch.float64)),
           "on a 2-D float64 tensor the gradient is not 2 * x * grad_output.")


@check("LeakyReLU also works on other values and on a 2-D tensor.")
def check_leaky_relu(fn):
    data, grad_output = [[-10.0, 7.0], [-0.25, 2.0]], [[1.0, 2.0], [3.0, 4.0]]
    out, grad = _grad(fn, data, grad_output)
    want = [[v if v >= 0 else 0.1 * v for v in row] for row in data]
    expect(torch.allclose(out, torch.tensor(want)), "on a 2-D tensor, forward is not x (x >= 0) / 0.1 x (x < 0).")
    want_grad = [[g if v >= 0 else 0.1 * g for v, g in zip(r, gr)] for r, gr in zip(data, grad_output)]
    expect(grad is not None and torch.allclose(grad, torch.tensor(want_grad)),
           "on a 2-D tensor the gradient is not grad_output (x >= 0) / 0.1 grad_output (x < 0).")


@check("count_nodes also counts a longer chain with a shared middle node.")
def check_count_nodes(fn):
    a = torch.tensor([1.0, -2.0], requires_grad=True)
    b = torch.tensor([3.0, 4.0], requires_grad=True)
    shared = a * b
    z = (shared + shared * 2).sum()
    expect(fn(z, "MulBackward0") == 2, "in z = (a*b + (a*b)*2).sum() with a*b computed once, MulBackward0 "
                                       "was not counted twice.")
    expect(fn(z, "torch::autograd::AccumulateGrad") == 2, "with two leaves, AccumulateGrad was not counted twice.")
