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

from ..i18n import N_, _
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


@check(N_("Swish computes x * sigmoid(beta * x), returns a gradient for x and for beta, and passes gradcheck."))
def check_swish(fn):
    """`fn.apply(x, beta)` = x * sigmoid(beta * x); backward gives s * (1 + beta*x*(1 - s)) and sum(x² s (1 - s))."""
    x = torch.tensor([-3.0, -0.5, 0.0, 1.0, 4.0], requires_grad=True)
    beta = torch.tensor(1.5, requires_grad=True)
    y = fn.apply(x, beta)
    expect(y is not None, _("forward returned None: it is still the stub."))
    s = torch.sigmoid(beta.detach() * x.detach())
    want = x.detach() * s
    expect(isinstance(y, torch.Tensor) and torch.allclose(y, want),
           _("forward gave {y}, expected x * sigmoid(beta * x) = {want} for beta = 1.5.")
           .format(y=_values(y), want=_values(want)))
    expect(y.grad_fn is not None and y.grad_fn.name() == fn.__name__ + "Backward",
           _("the output's grad_fn should be {fn}Backward: call the class's apply.")
           .format(fn=fn.__name__))
    try:
        y.sum().backward()
    except Exception as error:
        raise Hint(_("backward raised {type}: {error}")
                   .format(type=type(error).__name__, error=error)) from None
    want = s * (1 + beta.detach() * x.detach() * (1 - s))
    expect(x.grad is not None and torch.allclose(x.grad, want, atol=1e-5),
           _("x.grad is {x_grad}, expected s * (1 + beta * x * (1 - s)) = {want} with s = sigmoid(beta * x).")
           .format(x_grad=None if x.grad is None else _values(x.grad), want=_values(want)))
    want = (x.detach() ** 2 * s * (1 - s)).sum()
    expect(beta.grad is not None, _("beta.grad is None: backward must return a gradient for beta as its second "
                                    "value (beta is a tensor that requires grad, not a setting)."))
    expect(tuple(beta.grad.shape) == () and torch.allclose(beta.grad, want, atol=1e-5),
           _("beta.grad is {beta_grad}, expected the sum over all elements of grad_output * x² * s * (1 - s) = "
             "{want}.")
           .format(beta_grad=_values(beta.grad), want=_values(want)))
    x64 = torch.tensor([-2.5, -0.3, 0.7, 2.0], dtype=torch.float64, requires_grad=True)
    beta64 = torch.tensor(0.8, dtype=torch.float64, requires_grad=True)
    expect(gradcheck(fn.apply, (x64, beta64), raise_exception=False),
           _("gradcheck (float64, on x and beta) disagrees with your backward."))


@check(N_("my_gradcheck says True for a correct backward and False for a wrong one."))
def check_my_gradcheck(fn):
    """`fn(function_class)` runs gradcheck on float64 inputs x and beta and returns True or False (never raises)."""
    try:
        good = fn(_Swish)
    except Exception as error:
        raise Hint(_("on a correct Swish, my_gradcheck raised {type}: {error}")
                   .format(type=type(error).__name__, error=error)) from None
    if good is None or good is Ellipsis:
        raise Hint(_(STUB_HINT))
    expect(good is True, _("on a correct Swish, my_gradcheck returned {good!r}, expected True. Give apply both "
                           "inputs, x and beta, as float64 tensors with requires_grad=True: in float32 the finite "
                           "differences are too rough.")
                         .format(good=good))
    try:
        bad = fn(_SwishWrongBackward)
    except Exception as error:
        raise Hint(_("on a wrong backward, my_gradcheck raised {type} instead of returning False: pass "
                     "raise_exception=False to gradcheck.")
                   .format(type=type(error).__name__)) from None
    expect(bad is False, _("on a Swish with a wrong backward, my_gradcheck returned {bad!r}, expected False.")
                         .format(bad=bad))


@check(N_("SwishNet has three Linear layers (2 -> 32 -> 32 -> 3), two learnable betas and two Swish nodes."))
def check_swish_net(cls):
    """`cls()`: Linear(2, 32), Swish, Linear(32, 32), Swish, Linear(32, 3); each Swish with its own beta Parameter."""
    torch.manual_seed(0)
    model = cls()
    expect(isinstance(model, nn.Module), _("{cls}() is a {type}, not an nn.Module.")
                                         .format(cls=cls.__name__, type=type(model).__name__))
    shapes = sorted(tuple(p.shape) for p in model.parameters())
    expect(shapes, _("{cls} has no parameters: create the nn.Linear layers in __init__.")
                   .format(cls=cls.__name__))
    linear = sorted([(32, 2), (32,), (32, 32), (32,), (3, 32), (3,)])
    expect([s for s in shapes if s] == linear,
           _("the parameter shapes are {shapes}, expected {linear} for the Linear layers 2->32, 32->32, 32->3.")
           .format(shapes=shapes, linear=linear))
    expect(shapes.count(()) == 2, _("{cls} has {count} parameters of shape (), expected 2: one beta per Swish, "
                                    "each nn.Parameter(torch.tensor(1.0)).")
                                  .format(cls=cls.__name__, count=shapes.count(())))
    out = model(torch.ones(4, 2))
    expect(out is not None, _("forward returned None: return the output of the last layer."))
    expect(tuple(out.shape) == (4, 3), _("the output has shape {out_shape} for 4 inputs, expected (4, 3).")
                                       .format(out_shape=tuple(out.shape)))
    count = node_names(out).count("SwishBackward")
    expect(count == 2, _("the graph has {count} SwishBackward nodes, expected 2: apply Swish after each of the "
                         "first two layers.")
                       .format(count=count))
    out.sum().backward()
    betas = [p for p in model.parameters() if p.dim() == 0]
    expect(all(p.grad is not None for p in betas),
           _("after backward a beta has no gradient: pass each beta Parameter to Swish.apply."))


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


@check(N_("train runs `steps` Adam steps with the three-line loop and returns one loss per step."))
def check_train(fn):
    """`fn(model, X, y, steps, lr)` trains with Adam and CrossEntropyLoss and returns the list of losses."""
    model, X, y = _problem()
    want = _reference(copy.deepcopy(model), X, y, 5, 0.05)
    got = fn(model, X, y, steps=5, lr=0.05)
    expect(got is not None, _("train returned None: return the list of losses (one loss.item() per step)."))
    if not isinstance(got, (list, tuple)):
        raise Hint(_("train(..., steps=5) returned {type}, expected a list of 5 losses.").format(type=type(got).__name__))
    expect(len(got) == 5, _("train(..., steps=5) returned {type} of length {length}, expected a list of 5 losses.")
                          .format(type=type(got).__name__, length=len(got)))
    try:
        got = [float(v) for v in got]
    except (TypeError, ValueError, RuntimeError):
        raise Hint(_("the losses should be numbers: append loss.item().")) from None
    expect(abs(got[0] - want[0]) < 1e-5, _("the first loss is {got0:.5f}, expected {want0:.5f}: use "
                                           "nn.CrossEntropyLoss() on model(X) and y.")
                                         .format(got0=got[0], want0=want[0]))
    expect(all(abs(g - w) < 1e-4 for g, w in zip(got, want)),
           _("the losses are {got}, expected {want}: each step should be zero_grad(), loss.backward(), step() with "
             "optim.Adam(model.parameters(), lr=lr).")
           .format(got=[round(g, 4) for g in got], want=[round(w, 4) for w in want]))
