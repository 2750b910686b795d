"""Hidden cases for chapter 7: a grad_output that is not all ones, 2-D tensors, float32 and float64, large |x|."""
import minigrad as torch

from widgets.exercises import check, expect


@check("Mul also multiplies 2-D float64 tensors and scales both gradients by grad_output.")
def check_mul(fn):
    xs, ys = [[1.5, -2.0, 0.0], [4.0, 0.5, -3.0]], [[2.0, 3.0, -1.0], [-0.5, 8.0, 1.0]]
    weights = [[1.0, -2.0, 3.0], [0.5, 10.0, -4.0]]
    grad_output = torch.tensor(weights, dtype=torch.float64)
    x = torch.tensor(xs, dtype=torch.float64, requires_grad=True)
    y = torch.tensor(ys, dtype=torch.float64, requires_grad=True)
    out = fn.apply(x, y)
    expect(isinstance(out, torch.Tensor) and out.dtype == torch.float64 and out.shape == (2, 3),
           "on 2-D float64 tensors, Mul.apply(x, y) did not return a float64 tensor of their shape.")
    expect(torch.allclose(out, x.detach() * y.detach()), "on 2-D float64 tensors, Mul.apply(x, y) is not x * y.")
    out.backward(grad_output)
    expect(x.grad is not None and torch.allclose(x.grad, grad_output * y.detach()),
           "with a grad_output that is not all ones, x.grad is not grad_output * y.")
    expect(y.grad is not None and torch.allclose(y.grad, grad_output * x.detach()),
           "with a grad_output that is not all ones, y.grad is not grad_output * x.")
    y = torch.tensor(ys, dtype=torch.float64, requires_grad=True)
    fn.apply(torch.tensor(xs, dtype=torch.float64), y).backward(grad_output)
    expect(y.grad is not None and torch.allclose(y.grad, grad_output * torch.tensor(xs, dtype=torch.float64)),
           "with only y requiring grad and a grad_output that is not all ones, y.grad is not grad_output * x.")


@check("Sigmoid also keeps float32, works on a 2-D tensor, for large |x|, and scales by grad_output.")
def check_sigmoid(fn):
    data = [[-20.0, -3.0, 0.0], [0.5, 4.0, 20.0]]
    x = torch.tensor(data, requires_grad=True)           # float32
    out = fn.apply(x)
    expect(isinstance(out, torch.Tensor) and out.dtype == torch.float32 and out.shape == (2, 3),
           "on a 2-D float32 tensor, Sigmoid.apply(x) did not return a float32 tensor of x's shape.")
    s = torch.sigmoid(x.detach())
    expect(torch.allclose(out, s, atol=1e-6), "on a 2-D float32 tensor with values from -20 to 20, "
                                              "Sigmoid.apply(x) is not 1 / (1 + exp(-x)).")
    grad_output = torch.tensor([[1.0, -2.0, 3.0], [0.5, 10.0, -4.0]])
    out.backward(grad_output)
    expect(x.grad is not None and torch.allclose(x.grad, grad_output * s * (1 - s), atol=1e-6),
           "with a grad_output that is not all ones, x.grad is not grad_output * s * (1 - s).")
