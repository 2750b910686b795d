"""Hidden cases for chapter 8: other numbers (fractional and negative powers, asymmetric bounds, a negative scale),
2-D float64 tensors, values on the bounds, and two calls with different numbers before either backward.
"""
import minigrad as torch

from widgets.exercises import check, expect


def _leaf(data):
    return torch.tensor(data, dtype=torch.float64, requires_grad=True)


def _close(t, rows):
    return t is not None and torch.allclose(t, torch.tensor(rows, dtype=torch.float64))


@check("Power also works for fractional and negative n on 2-D float64 tensors, each call with its own n.")
def check_power(fn):
    data = [[0.25, 1.0], [4.0, 9.0]]
    weights = [[1.0, -2.0], [0.5, 3.0]]
    cases = [(0.5, [[v ** 0.5 for v in row] for row in data]), (-1, [[1 / v for v in row] for row in data]),
             (4, [[v ** 4 for v in row] for row in data])]
    xs = [_leaf(data) for _ in cases]
    outs = [fn.apply(x, n) for x, (n, _) in zip(xs, cases)]    # every call first, then every backward
    for out, (n, want) in zip(outs, cases):
        expect(isinstance(out, torch.Tensor) and _close(out, want), f"on a 2-D float64 tensor, Power.apply(x, {n}) "
                                                                    "is not x ** n.")
    for x, out, (n, _) in zip(xs, outs, cases):
        out.backward(torch.tensor(weights, dtype=torch.float64))
        want = [[n * v ** (n - 1) * g for v, g in zip(r, gr)] for r, gr in zip(data, weights)]
        expect(_close(x.grad, want), f"with n = {n}, after three calls with different n made before any "
                                     "backward, x.grad is not n * x ** (n - 1) * grad_output: keep n on ctx, "
                                     "which each call has its own of.")


@check("Clamp also works with other bounds, on the bounds themselves, on 2-D float64, each call with its own.")
def check_clamp(fn):
    data = [[-1.0, 0.0, 0.5], [3.0, 3.5, 2.0]]
    weights = [[1.0, 10.0, 100.0], [1000.0, -1.0, -10.0]]
    bounds = [(0.0, 3.0), (-0.5, 2.0)]
    xs = [_leaf(data) for _ in bounds]
    outs = [fn.apply(x, low, high) for x, (low, high) in zip(xs, bounds)]
    for out, (low, high) in zip(outs, bounds):
        want = [[min(max(v, low), high) for v in row] for row in data]
        expect(isinstance(out, torch.Tensor) and _close(out, want),
               f"on a 2-D float64 tensor, Clamp.apply(x, {low}, {high}) is not x.clamp({low}, {high}).")
    for x, out, (low, high) in zip(xs, outs, bounds):
        grad_output = torch.tensor(weights, dtype=torch.float64)
        out.backward(grad_output)
        want = [[g if low <= v <= high else 0.0 for v, g in zip(r, gr)] for r, gr in zip(data, weights)]
        expect(_close(x.grad, want), f"with low = {low} and high = {high} (two calls with different bounds made "
                                     "before any backward, and x values exactly on the bounds), x.grad is not "
                                     "grad_output where low <= x <= high and 0 elsewhere.")
        expect(grad_output.tolist() == weights, "backward changed grad_output in place.")


@check("Affine also works with a negative and an int scale, on 2-D float64, each call with its own scale.")
def check_affine(fn):
    xs, bs = [[1.0, -2.0], [0.5, 4.0]], [[0.5, 0.0], [-1.0, 2.0]]
    weights = [[1.0, -3.0], [10.0, 0.5]]
    scales = [-0.5, 3]
    pairs = [(_leaf(xs), _leaf(bs)) for _ in scales]
    outs = [fn.apply(x, scale, b) for (x, b), scale in zip(pairs, scales)]
    for out, scale in zip(outs, scales):
        want = [[v * scale + c for v, c in zip(r, cr)] for r, cr in zip(xs, bs)]
        expect(isinstance(out, torch.Tensor) and _close(out, want),
               f"on 2-D float64 tensors, Affine.apply(x, {scale}, b) is not x * scale + b.")
    for (x, b), out, scale in zip(pairs, outs, scales):
        out.backward(torch.tensor(weights, dtype=torch.float64))
        expect(_close(x.grad, [[scale * g for g in row] for row in weights]),
               f"with scale = {scale} (two calls with different scales made before any backward), x.grad is not "
               "scale * grad_output.")
        expect(_close(b.grad, weights), f"with scale = {scale}, b.grad is not grad_output.")
