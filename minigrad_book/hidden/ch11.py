"""Hidden cases for chapter 11: 2-D float64 tensors, gradients that are not all ones, three slopes at once."""
import minigrad as torch

from widgets.exercises import check, expect

DATA = [[-2.0, 0.5], [3.0, -0.25]]
WEIGHTS = [[1.0, -2.0], [10.0, 0.5]]


def _tensor(rows):
    return torch.tensor(rows, dtype=torch.float64)


@check("Square also keeps float64 on a 2-D tensor and scales its gradient by grad_output.")
def check_square(fn):
    x = torch.tensor(DATA, dtype=torch.float64, requires_grad=True)
    y = fn.apply(x)
    expect(isinstance(y, torch.Tensor) and y.dtype == torch.float64 and torch.allclose(y, _tensor(DATA) ** 2),
           "on a 2-D float64 tensor, Square.apply(x) is not the float64 x * x.")
    y.backward(_tensor(WEIGHTS))
    expect(x.grad is not None and torch.allclose(x.grad, 2 * _tensor(DATA) * _tensor(WEIGHTS)),
           "with a grad_output that is not all ones, x.grad is not 2 * x * grad_output.")


@check("LeakyReLU also keeps three different slopes apart on 2-D float64, and scales by grad_output.")
def check_leaky_relu(fn):
    slopes = [0.2, 0.0, 2.0]
    xs = [torch.tensor(DATA, dtype=torch.float64, requires_grad=True) for _ in slopes]
    ys = [fn.apply(x, slope) for x, slope in zip(xs, slopes)]      # all three before any backward
    x = _tensor(DATA)
    for y, slope in zip(ys, slopes):
        expect(isinstance(y, torch.Tensor) and torch.allclose(y, torch.where(x > 0, x, x * slope)),
               f"on a 2-D float64 tensor, apply(x, {slope}) is not x where x > 0 and {slope} * x elsewhere.")
    for x_, y, slope in zip(xs, ys, slopes):
        y.backward(_tensor(WEIGHTS))
        want = torch.where(x > 0, _tensor(WEIGHTS), _tensor(WEIGHTS) * slope)
        expect(x_.grad is not None and torch.allclose(x_.grad, want),
               f"with slope {slope} (one of three calls made before any backward) and a grad_output that is not "
               "all ones, x.grad is not grad_output where x > 0 and slope * grad_output elsewhere.")
