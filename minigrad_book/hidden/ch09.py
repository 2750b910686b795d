"""Hidden cases for chapter 9: gradients that are not all ones, another threshold and factor, 2-D float64."""
import minigrad as torch

from widgets.exercises import check, expect


def _leaf(data):
    return torch.tensor(data, dtype=torch.float64, requires_grad=True)


def _tensor(rows):
    return torch.tensor(rows, dtype=torch.float64)


@check("SquareAndCube also scales each output's gradient by its grad_output, on a 2-D float64 tensor.")
def check_square_and_cube(fn):
    data = [[1.0, -2.0], [0.5, 3.0]]
    w_square, w_cube = _tensor([[1.0, -1.0], [4.0, 0.5]]), _tensor([[2.0, 0.0], [-3.0, 1.0]])
    x = _tensor(data)
    want = {"square": w_square * 2 * x, "cube": w_cube * 3 * x * x, "both": w_square * 2 * x + w_cube * 3 * x * x}
    for used in want:
        leaf = _leaf(data)
        square, cube = fn.apply(leaf)
        loss = {"square": (square * w_square).sum(), "cube": (cube * w_cube).sum(),
                "both": (square * w_square).sum() + (cube * w_cube).sum()}[used]
        loss.backward()
        expect(leaf.grad is not None and torch.allclose(leaf.grad, want[used]),
               f"with only the {used} used ('both': the two), weighted by a grad_output that is not all ones, on "
               "a 2-D float64 x, x.grad is not the weighted sum of 2x and 3x**2.")


@check("ClampWithMask also works with another threshold and grad_output, on a 2-D float64 tensor.")
def check_clamp_with_mask(fn):
    data = [[-2.0, 1.5, 0.5], [3.0, 1.25, 2.0]]
    x = _leaf(data)
    clamped, mask = fn.apply(x, 1.0)
    want_mask = [[1.0 if v > 1.0 else 0.0 for v in row] for row in data]
    expect(not mask.requires_grad and clamped.requires_grad, "with lo = 1.0 on a 2-D float64 tensor, the mask "
                                                             "should not require grad and the clamped output should.")
    expect(clamped.tolist() == [[max(v, 1.0) for v in row] for row in data] and mask.tolist() == want_mask,
           "with lo = 1.0, the outputs are not x.clamp(min=1.0) and the mask x > 1.0.")
    weights = _tensor([[1.0, 10.0, 100.0], [-1.0, 5.0, 0.5]])
    (clamped * weights).sum().backward()
    expect(x.grad is not None and torch.allclose(x.grad, weights * _tensor(want_mask)),
           "with lo = 1.0 (not 0) on a 2-D float64 tensor, x.grad is not grad_clamped * mask: use the mask "
           "that forward computed, not a comparison with a fixed number.")


@check("MulInPlace also works with a negative factor, on a 2-D float64 tensor, with later operations after it.")
def check_mul_in_place(fn):
    data = [[1.0, -2.0], [0.5, 4.0]]
    a = _leaf(data)
    h = a * 1
    out = fn.apply(h, -0.5)
    expect(out is h and h.tolist() == [[-0.5 * v for v in row] for row in data],
           "with c = -0.5 on a 2-D float64 tensor, apply did not return h multiplied in place.")
    weights = _tensor([[1.0, 2.0], [-3.0, 0.25]])
    (h * h * weights).sum().backward()              # d/da of w * (c a)**2 = 2 w c**2 a
    expect(a.grad is not None and torch.allclose(a.grad, 2 * weights * 0.25 * _tensor(data)),
           "with c = -0.5 and more operations after the in-place one, a.grad is not grad_output * c.")
