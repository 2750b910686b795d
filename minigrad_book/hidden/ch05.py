"""Hidden cases for chapter 5: 2-D outputs, float64, more outputs than inputs, and an x whose .grad is not empty."""
import minigrad as torch

from widgets.exercises import check, expect


def _cases():
    """(description, f, x, dtype, expected J as nested lists), none of them in the visible check."""
    A = [[1.0, -1.0], [2.0, 0.5], [0.0, 3.0]]
    yield ("f(x) = x @ A, a 2-D output", lambda x: x @ torch.tensor(A), [[1.0, 2.0, -1.0], [0.5, 0.0, 2.0]],
           torch.float32,
           [[1.0, 2.0, 0.0, 0, 0, 0], [-1.0, 0.5, 3.0, 0, 0, 0], [0, 0, 0, 1.0, 2.0, 0.0], [0, 0, 0, -1.0, 0.5, 3.0]])
    yield ("f(x) = stack([x[0] * x[1], x[0] + x[1], x[0] ** 2]), more outputs than inputs",
           lambda x: torch.stack([x[0] * x[1], x[0] + x[1], x[0] ** 2]), [3.0, -2.0], torch.float64,
           [[-2.0, 3.0], [1.0, 1.0], [6.0, 0.0]])


@check("jacobian also works for 2-D outputs, float64, more outputs than inputs, and an x with a gradient already.")
def check_jacobian(jacobian):
    for text, f, data, dtype, rows in _cases():
        x = torch.tensor(data, dtype=dtype, requires_grad=True)
        x.grad = torch.full_like(x.detach(), 100.0)     # left over from an earlier backward
        J = jacobian(f, x)
        want = torch.tensor(rows, dtype=torch.float64)
        expect(isinstance(J, torch.Tensor), f"for {text}, jacobian returned {type(J).__name__}, not a tensor.")
        expect(tuple(J.shape) == tuple(want.shape), f"for {text}, J has shape {tuple(J.shape)}, expected "
                                                    f"{tuple(want.shape)} (outputs x inputs, flattened).")
        expect(torch.allclose(J.double(), want, atol=1e-6),
               f"for {text} in {dtype}, with x.grad already holding 100s from an earlier backward, J is wrong: "
               "no row may keep what x.grad held before its own backward.")


@check("the two backward passes also add up on a 2-D float64 x, and on top of a gradient x already had.")
def check_two_backwards(fn):
    data = [[0.5, -1.0, 2.0], [3.0, 0.0, -0.25]]
    x = torch.tensor(data, dtype=torch.float64, requires_grad=True)
    grad = fn(x)
    want = torch.tensor([[6 * v * v for v in row] for row in data], dtype=torch.float64)
    expect(isinstance(grad, torch.Tensor) and grad.shape == (2, 3), "on a 2-D float64 x, the function did not "
                                                                    "return x.grad of x's shape.")
    expect(torch.allclose(grad, want), "on a 2-D float64 x, x.grad is not twice 3 x**2.")
    y = torch.tensor([1.0, -2.0], requires_grad=True)
    y.grad = torch.tensor([10.0, 10.0])                   # backward adds to what is there
    grad = fn(y)
    expect(isinstance(grad, torch.Tensor) and grad.tolist() == [16.0, 34.0],
           "when x.grad already holds [10, 10], the two backward passes should add 2 * 3 x**2 to it (backward "
           "accumulates); the result is not that.")
