"""Hidden cases for chapter 14: a 2-D x with a negative beta, other Functions to gradcheck (one wrong only in
beta's gradient), other betas and batch sizes for SwishNet, another model, step count and learning rate.
"""
import copy

import minigrad as torch
from minigrad import nn, optim
from minigrad.autograd import Function

from widgets.exercises import check, expect

from . import _training


def _swish(x, beta):
    return x * torch.sigmoid(beta * x)


@check("Swish also works on a 2-D float64 x with a negative beta and a grad_output that is not all ones.")
def check_swish(fn):
    x = torch.tensor([[-2.0, 0.5], [3.0, -0.25], [1.0, 0.0]], dtype=torch.float64, requires_grad=True)
    beta = torch.tensor(-0.7, dtype=torch.float64, requires_grad=True)
    y = fn.apply(x, beta)
    xd, bd = x.detach(), beta.detach()
    expect(isinstance(y, torch.Tensor) and y.dtype == torch.float64 and torch.allclose(y, _swish(xd, bd)),
           "on a 2-D float64 x with beta = -0.7, forward is not the float64 x * sigmoid(beta * x).")
    grad_output = torch.tensor([[1.0, -2.0], [0.5, 3.0], [-1.0, 4.0]], dtype=torch.float64)
    y.backward(grad_output)
    s = torch.sigmoid(bd * xd)
    expect(x.grad is not None and torch.allclose(x.grad, grad_output * s * (1 + bd * xd * (1 - s))),
           "on a 2-D x with beta = -0.7 and a grad_output that is not all ones, x.grad is wrong.")
    expect(beta.grad is not None and tuple(beta.grad.shape) == ()
           and torch.allclose(beta.grad, (grad_output * xd * xd * s * (1 - s)).sum()),
           "on a 2-D x with a grad_output that is not all ones, beta.grad is not the sum of "
           "grad_output * x² * s * (1 - s).")


class _Scale(Function):
    """x * beta: another correct Function of (x, beta), so that my_gradcheck is tried on more than Swish."""

    @staticmethod
    def forward(x, beta):
        return x * beta

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(*inputs)

    @staticmethod
    def backward(ctx, grad_output):
        x, beta = ctx.saved_tensors
        return grad_output * beta, (grad_output * x).sum()


class _SwishWrongBeta(Function):
    """A Swish whose x-gradient is right and whose beta-gradient is twice too big."""

    @staticmethod
    def forward(x, beta):
        return _swish(x, beta)

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(*inputs)

    @staticmethod
    def backward(ctx, grad_output):
        x, beta = ctx.saved_tensors
        s = torch.sigmoid(beta * x)
        return grad_output * s * (1 + beta * x * (1 - s)), 2 * (grad_output * x * x * s * (1 - s)).sum()


@check("my_gradcheck also says True for another correct Function and False when only beta's gradient is wrong.")
def check_my_gradcheck(fn):
    good = fn(_Scale)
    expect(good is True, f"on another correct Function of (x, beta), x * beta, my_gradcheck returned {good!r}.")
    bad = fn(_SwishWrongBeta)
    expect(bad is False, f"on a Swish whose gradient for beta is wrong (the one for x is right), my_gradcheck "
                         f"returned {bad!r}, expected False: beta must require grad too, so that gradcheck checks "
                         "its gradient.")


@check("SwishNet also computes the 2 -> 32 -> 32 -> 3 network with each beta in its place, for any batch size.")
def check_swish_net(cls):
    torch.manual_seed(7)
    model = cls()
    linears = {(m.in_features, m.out_features): m for m in model.modules() if isinstance(m, nn.Linear)}
    betas = [p for p in model.parameters() if p.dim() == 0]
    expect(set(linears) == {(2, 32), (32, 32), (32, 3)} and len(betas) == 2,
           "SwishNet should hold Linear(2, 32), Linear(32, 32), Linear(32, 3) and two betas.")
    with torch.no_grad():
        betas[0].fill_(0.5)
        betas[1].fill_(2.0)

    def reference(x, first, second):
        h = _swish(linears[2, 32](x), first)
        return linears[32, 3](_swish(linears[32, 32](h), second))

    for rows in (6, 1):
        x = torch.randn(rows, 2) * 2
        got = model(x)
        expect(isinstance(got, torch.Tensor) and tuple(got.shape) == (rows, 3),
               f"for a batch of {rows} random inputs, the output does not have shape ({rows}, 3).")
        with torch.no_grad():
            candidates = [reference(x, betas[0], betas[1]), reference(x, betas[1], betas[0])]
        expect(any(torch.allclose(got, want, atol=1e-5) for want in candidates),
               f"with the betas set to 0.5 and 2.0 and a batch of {rows} random inputs, the output is not "
               "Linear(32, 3)(swish(Linear(32, 32)(swish(Linear(2, 32)(x), beta)), other beta)).")


def _problem():
    torch.manual_seed(11)
    model = nn.Sequential(nn.Linear(3, 6), nn.ReLU(), nn.Linear(6, 4))
    return model, torch.randn(16, 3), torch.tensor([0, 1, 2, 3] * 4)


def _reference(model, X, y, steps, lr):
    return _training.losses(model, X, y, steps, optim.Adam(model.parameters(), lr=lr), nn.CrossEntropyLoss())


@check("train also follows its steps and lr on another model with four classes.")
def check_train(fn):
    for steps, lr in ((3, 0.01), (1, 0.2)):
        model, X, y = _problem()
        reference = copy.deepcopy(model)
        want = _reference(reference, X, y, steps, lr)
        got = fn(model, X, y, steps=steps, lr=lr)
        expect(isinstance(got, (list, tuple)) and len(got) == steps,
               f"train(..., steps={steps}) did not return a list of {steps} losses.")
        expect(all(abs(float(g) - w) < 1e-5 for g, w in zip(got, want)),
               f"with steps={steps} and lr={lr} on a four-class model, the losses are not those of Adam with "
               "that lr and CrossEntropyLoss.")
        expect(all(torch.allclose(p, q, atol=1e-6) for p, q in zip(model.parameters(), reference.parameters())),
               f"with steps={steps} and lr={lr}, the model's parameters are not those after {steps} Adam steps.")
