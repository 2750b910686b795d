"""Hidden cases for chapter 15: a float32 matrix with a tangent that is not all ones, a function of a matrix for
the directional derivative, and a Hessian-vector product on an x of shape (2, 3).
"""
import minigrad as torch
from minigrad import func
from minigrad.autograd import forward_ad as fwAD

from widgets.exercises import check, expect


@check("Cube's jvp also keeps float32 on a 2-D input, and scales by a tangent that is not all ones.")
def check_cube_jvp(fn):
    x = torch.tensor([[-1.5, 0.5], [2.0, 0.25]])
    tangent = torch.tensor([[1.0, -2.0], [0.5, 3.0]])
    with fwAD.dual_level():
        got = fwAD.unpack_dual(fn.apply(fwAD.make_dual(x, tangent))).tangent
    expect(isinstance(got, torch.Tensor) and got.dtype == torch.float32 and got.shape == (2, 2),
           "on a 2-D float32 input, the tangent is not a float32 tensor of x's shape.")
    expect(torch.allclose(got, 3 * x ** 2 * tangent), "on a 2-D input, the tangent is not 3 x² · tangent.")


@check("directional_derivative also works for a matrix x and a function with a matrix product.")
def check_directional_derivative(directional_derivative):
    weight = torch.tensor([[1.0, -1.0, 0.5], [0.0, 2.0, 1.0]])
    x = torch.tensor([[0.5, -1.0], [2.0, 0.25]])
    v = torch.tensor([[1.0, 0.0], [-1.0, 2.0]])

    def f(t):
        return (t @ weight).tanh()
    got = directional_derivative(f, x, v)
    want = func.jvp(f, (x,), (v,))[1]
    expect(isinstance(got, torch.Tensor) and got.shape == want.shape,
           f"for a matrix x, directional_derivative did not return a tensor of f(x)'s shape {tuple(want.shape)}.")
    expect(torch.allclose(got, want, atol=1e-6), "for a matrix x and f(x) = tanh(x @ W), the result is not J v.")


@check("hvp also works for an x of shape (2, 3).")
def check_hvp(hvp):
    x = torch.tensor([[1.0, -2.0, 0.5], [3.0, 0.0, -1.0]])
    v = torch.tensor([[1.0, 0.5, -1.0], [2.0, 1.0, 0.0]])

    def f(t):
        return (t ** 3).sum() + t.sum() ** 2
    got = hvp(f, x, v)
    total = float(v.sum())                 # H = diag(6 x) + 2 (every entry of x with every other)
    want = 6 * x * v + 2 * total
    expect(isinstance(got, torch.Tensor) and got.shape == x.shape,
           "for an x of shape (2, 3), hvp did not return a tensor of x's shape.")
    expect(torch.allclose(got, want), "for an x of shape (2, 3), hvp is not H @ v.")
