"""Checks for chapter 12: Function or Module, a Function inside a Module, and the three-line training step.

Example (a book cell):
    >>> from widgets.exercises import ch12
    >>> ch12.check_train_step(train_step)
    ✓ correct — ...
"""
import copy

import minigrad as torch
from minigrad import nn, optim

from ..i18n import N_, _
from . import Hint, check, expect

# begin solution: the student copy (minigrad-book release) leaves this out
WHICH = {
    "a ReLU with a hand-written backward": "Function",
    "a layer that holds a learnable weight and bias, its backward left to autograd": "Module",
    "a whole classifier made of layers": "Module",
    "an operation computed with numpy, whose gradient autograd cannot see": "Function",
}
# end solution


def node_names(tensor):
    """Return the names of every node behind `tensor`, by walking `grad_fn.next_functions`."""
    names, seen, stack = [], set(), [tensor.grad_fn] if tensor.grad_fn is not None else []
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        names.append(node.name())
        stack.extend(n for n, _ in node.next_functions if n is not None)
    return names


@check(N_("a Function is one operation with its own backward; a Module holds parameters and composes operations."))
def check_which(answers):
    """`answers` maps each case of WHICH to "Function" or "Module"."""
    expect(isinstance(answers, dict), _("answers should be a dict, got {type}.")
                                      .format(type=type(answers).__name__))
    missing = [case for case in WHICH if case not in answers]
    if missing:
        raise Hint(_("answers is missing the case {case!r}: keep the keys as given.")
                   .format(case=missing[0]))
    open_ = [case for case in WHICH if answers[case] is Ellipsis or answers[case] is None]
    expect(not open_, _('{n_open} answers are still `...`: write "Function" or "Module" for each.')
                      .format(n_open=len(open_)))
    for case, want in WHICH.items():
        got = answers[case]
        expect(got in ("Function", "Module"),
               _('for {case!r} the answer is {got!r}: write "Function" or "Module".')
               .format(case=case, got=got))
        why = (_("it has parameters or is built from layers, and autograd derives its backward") if want == "Module"
               else _("it is one operation whose backward you write by hand (and it holds no parameters)"))
        expect(got == want, _("{case!r}: not a {got} — {why}.")
                            .format(case=case, got=got, why=why))


@check(N_("SmallNet holds two Linear layers (4 parameters) and calls the MyReLU Function in forward."))
def check_small_net(cls):
    """`cls()` is a Module: Linear(2, 8), the custom relu, Linear(8, 2)."""
    torch.manual_seed(0)
    model = cls()
    expect(isinstance(model, nn.Module), _("{cls}() is a {type}, not an nn.Module.")
                                         .format(cls=cls.__name__, type=type(model).__name__))
    params = list(model.parameters())
    expect(params, _("{cls} has no parameters: assign nn.Linear layers as attributes in __init__ (self.hidden = "
                     "nn.Linear(2, 8), ...).")
                   .format(cls=cls.__name__))
    shapes = sorted(tuple(p.shape) for p in params)
    expect(shapes == [(2,), (2, 8), (8,), (8, 2)],
           _("the parameter shapes are {shapes}, expected those of Linear(2, 8) and Linear(8, 2).")
           .format(shapes=shapes))
    out = model(torch.ones(5, 2))
    expect(out is not None, _("forward returned None: return the output of the last layer."))
    expect(tuple(out.shape) == (5, 2), _("the output has shape {out_shape} for 5 inputs, expected (5, 2).")
                                       .format(out_shape=tuple(out.shape)))
    names = node_names(out)
    expect("MyReLUBackward" in names, _("the graph has no MyReLUBackward node (it has {names}): call relu (= "
                                        "MyReLU.apply) between the two layers.")
                                      .format(names=sorted(set(names))))


def _fresh():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(2, 4), nn.Tanh(), nn.Linear(4, 2))
    X = torch.randn(8, 2)
    y = torch.tensor([0, 1, 1, 0, 1, 0, 0, 1])
    return model, X, y


# begin solution: the student copy (minigrad-book release) leaves this out
def _run(model, X, y, steps, zero_grad=True):
    opt, loss_fn, losses = optim.SGD(model.parameters(), lr=0.5), nn.CrossEntropyLoss(), []
    for _ in range(steps):
        if zero_grad:
            opt.zero_grad()
        loss = loss_fn(model(X), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses
# end solution


def _same(m1, m2):
    return all(torch.allclose(p, q, atol=1e-6) for p, q in zip(m1.parameters(), m2.parameters()))


@check(N_("two calls of train_step do exactly two steps of gradient descent and return the losses."))
def check_train_step(fn):
    """`fn(model, optimizer, loss_fn, X, y)` does zero_grad, backward and step, and returns the loss."""
    model, X, y = _fresh()
    start = copy.deepcopy(model)
    reference, piled = copy.deepcopy(model), copy.deepcopy(model)
    want = _run(reference, X, y, 2)
    _run(piled, X, y, 2, zero_grad=False)
    opt, loss_fn = optim.SGD(model.parameters(), lr=0.5), nn.CrossEntropyLoss()
    got = [fn(model, opt, loss_fn, X, y) for _ in range(2)]
    expect(got[0] is not None, _("train_step returned None: return the loss (loss.item() gives a number)."))
    if _same(model, start):
        no_grad = all(p.grad is None for p in model.parameters())
        raise Hint(_("the parameters did not change: no gradient was computed, call loss.backward().") if no_grad
                   else _("the parameters did not change: call optimizer.step()."))
    expect(not _same(model, piled) or _same(reference, piled),
           _("gradients piled up across the two calls: call optimizer.zero_grad() at the start of each step."))
    expect(_same(model, reference), _("after two calls the parameters differ from two steps of SGD: do exactly "
                                      "zero_grad(), loss = loss_fn(model(X), y), loss.backward(), step() once per "
                                      "call."))
    try:
        values = [float(v) for v in got]
    except (TypeError, ValueError, RuntimeError):
        raise Hint(_("train_step returned {type}: return the loss as a number, loss.item().")
                   .format(type=type(got[0]).__name__)) from None
    expect(all(abs(v - w) < 1e-5 for v, w in zip(values, want)),
           _("train_step returned {values}, expected the losses {want} (computed before step).")
           .format(values=values, want=[round(w, 5) for w in want]))
