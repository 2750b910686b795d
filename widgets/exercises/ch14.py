"""Checks for chapter 14, the capstone: a Swish Function with a learnable beta, its gradcheck, a Module that
uses it, and training.

Example (a book cell):
    >>> from widgets.exercises import ch14
    >>> ch14.check_swish(Swish)
    ✓ correct — ...
"""
import copy

import minigrad as torch
from minigrad import nn, optim
from minigrad.autograd import Function, gradcheck

from . import STUB_HINT, Hint, check, expect
from .ch12 import node_names


def _values(t):
    if isinstance(t, torch.Tensor):
        return round(t.item(), 4) if t.dim() == 0 else [round(v, 4) for v in t.tolist()]
    return repr(t)


# begin solution: the student copy (minigrad-book release) leaves this out
class _Swish(Function):
    """A correct Swish with a learnable beta, to try the learner's gradcheck on."""

    @staticmethod
    def forward(x, beta):
        return x * torch.sigmoid(beta * x)

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(*inputs)

    @staticmethod
    def backward(ctx, grad_output):
        x, beta = ctx.saved_tensors
        s = torch.sigmoid(beta * x)
        return grad_output * s * (1 + beta * x * (1 - s)), (grad_output * x * x * s * (1 - s)).sum()


class _SwishWrongBackward(_Swish):
    """A Swish whose backward forgets a term of the x-gradient: gradcheck must catch it."""

    @staticmethod
    def backward(ctx, grad_output):
        x, beta = ctx.saved_tensors
        s = torch.sigmoid(beta * x)
        return grad_output * s, (grad_output * x * x * s * (1 - s)).sum()
# end solution


@check("Swish computes x * sigmoid(beta * x), returns a gradient for x and for beta, and passes gradcheck.")
def check_swish(fn):
    """`fn.apply(x, beta)` = x * sigmoid(beta * x); backward gives s * (1 + beta*x*(1 - s)) and sum(x² s (1 - s))."""
    x = torch.tensor([-3.0, -0.5, 0.0, 1.0, 4.0], requires_grad=True)
    beta = torch.tensor(1.5, requires_grad=True)
    y = fn.apply(x, beta)
    expect(y is not None, "forward returned None: it is still the stub.")
    s = torch.sigmoid(beta.detach() * x.detach())
    want = x.detach() * s
    expect(isinstance(y, torch.Tensor) and torch.allclose(y, want),
           f"forward gave {_values(y)}, expected x * sigmoid(beta * x) = {_values(want)} for beta = 1.5.")
    expect(y.grad_fn is not None and y.grad_fn.name() == fn.__name__ + "Backward",
           f"the output's grad_fn should be {fn.__name__}Backward: call the class's apply.")
    try:
        y.sum().backward()
    except Exception as error:
        raise Hint(f"backward raised {type(error).__name__}: {error}") from None
    want = s * (1 + beta.detach() * x.detach() * (1 - s))
    expect(x.grad is not None and torch.allclose(x.grad, want, atol=1e-5),
           f"x.grad is {None if x.grad is None else _values(x.grad)}, expected s * (1 + beta * x * (1 - s)) = "
           f"{_values(want)} with s = sigmoid(beta * x).")
    want = (x.detach() ** 2 * s * (1 - s)).sum()
    expect(beta.grad is not None, "beta.grad is None: backward must return a gradient for beta as its second "
                                  "value (beta is a tensor that requires grad, not a setting).")
    expect(tuple(beta.grad.shape) == () and torch.allclose(beta.grad, want, atol=1e-5),
           f"beta.grad is {_values(beta.grad)}, expected the sum over all elements of grad_output * x² * s * (1 - s) "
           f"= {_values(want)}.")
    x64 = torch.tensor([-2.5, -0.3, 0.7, 2.0], dtype=torch.float64, requires_grad=True)
    beta64 = torch.tensor(0.8, dtype=torch.float64, requires_grad=True)
    expect(gradcheck(fn.apply, (x64, beta64), raise_exception=False),
           "gradcheck (float64, on x and beta) disagrees with your backward.")


@check("my_gradcheck says True for a correct backward and False for a wrong one.")
def check_my_gradcheck(fn):
    """`fn(function_class)` runs gradcheck on float64 inputs x and beta and returns True or False (never raises)."""
    try:
        good = fn(_Swish)
    except Exception as error:
        raise Hint(f"on a correct Swish, my_gradcheck raised {type(error).__name__}: {error}") from None
    if good is None or good is Ellipsis:
        raise Hint(STUB_HINT)
    expect(good is True, f"on a correct Swish, my_gradcheck returned {good!r}, expected True. Give apply both "
                         "inputs, x and beta, as float64 tensors with requires_grad=True: in float32 the finite "
                         "differences are too rough.")
    try:
        bad = fn(_SwishWrongBackward)
    except Exception as error:
        raise Hint(f"on a wrong backward, my_gradcheck raised {type(error).__name__} instead of returning False: "
                   "pass raise_exception=False to gradcheck.") from None
    expect(bad is False, f"on a Swish with a wrong backward, my_gradcheck returned {bad!r}, expected False.")


@check("SwishNet has three Linear layers (2 -> 32 -> 32 -> 3), two learnable betas and two Swish nodes.")
def check_swish_net(cls):
    """`cls()`: Linear(2, 32), Swish, Linear(32, 32), Swish, Linear(32, 3); each Swish with its own beta Parameter."""
    torch.manual_seed(0)
    model = cls()
    expect(isinstance(model, nn.Module), f"{cls.__name__}() is a {type(model).__name__}, not an nn.Module.")
    shapes = sorted(tuple(p.shape) for p in model.parameters())
    expect(shapes, f"{cls.__name__} has no parameters: create the nn.Linear layers in __init__.")
    linear = sorted([(32, 2), (32,), (32, 32), (32,), (3, 32), (3,)])
    expect([s for s in shapes if s] == linear,
           f"the parameter shapes are {shapes}, expected {linear} for the Linear layers 2->32, 32->32, 32->3.")
    expect(shapes.count(()) == 2, f"{cls.__name__} has {shapes.count(())} parameters of shape (), expected 2: "
                                  "one beta per Swish, each nn.Parameter(torch.tensor(1.0)).")
    out = model(torch.ones(4, 2))
    expect(out is not None, "forward returned None: return the output of the last layer.")
    expect(tuple(out.shape) == (4, 3), f"the output has shape {tuple(out.shape)} for 4 inputs, expected (4, 3).")
    count = node_names(out).count("SwishBackward")
    expect(count == 2, f"the graph has {count} SwishBackward nodes, expected 2: apply Swish after each of "
                       "the first two layers.")
    out.sum().backward()
    betas = [p for p in model.parameters() if p.dim() == 0]
    expect(all(p.grad is not None for p in betas),
           "after backward a beta has no gradient: pass each beta Parameter to Swish.apply.")


def _problem():
    torch.manual_seed(1)
    model = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 3))
    return model, torch.randn(12, 2), torch.tensor([0, 1, 2] * 4)


# begin solution: the student copy (minigrad-book release) leaves this out
def _reference(model, X, y, steps, lr):
    optimizer, loss_fn, losses = optim.Adam(model.parameters(), lr=lr), nn.CrossEntropyLoss(), []
    for _ in range(steps):
        optimizer.zero_grad()
        loss = loss_fn(model(X), y)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses
# end solution


@check("train runs `steps` Adam steps with the three-line loop and returns one loss per step.")
def check_train(fn):
    """`fn(model, X, y, steps, lr)` trains with Adam and CrossEntropyLoss and returns the list of losses."""
    model, X, y = _problem()
    want = _reference(copy.deepcopy(model), X, y, 5, 0.05)
    got = fn(model, X, y, steps=5, lr=0.05)
    expect(got is not None, "train returned None: return the list of losses (one loss.item() per step).")
    expect(isinstance(got, (list, tuple)) and len(got) == 5,
           f"train(..., steps=5) returned {type(got).__name__}"
           f"{f' of length {len(got)}' if isinstance(got, (list, tuple)) else ''}, expected a list of 5 losses.")
    try:
        got = [float(v) for v in got]
    except (TypeError, ValueError, RuntimeError):
        raise Hint("the losses should be numbers: append loss.item().") from None
    expect(abs(got[0] - want[0]) < 1e-5, f"the first loss is {got[0]:.5f}, expected {want[0]:.5f}: use "
                                         "nn.CrossEntropyLoss() on model(X) and y.")
    expect(all(abs(g - w) < 1e-4 for g, w in zip(got, want)),
           f"the losses are {[round(g, 4) for g in got]}, expected {[round(w, 4) for w in want]}: each step should "
           "be zero_grad(), loss.backward(), step() with optim.Adam(model.parameters(), lr=lr).")
