"""Checks for chapter 18: a tensor hook that reverses the gradient on one path, and module backward hooks that
record each Linear layer's output-gradient norm.

Example (a book cell):
    >>> from widgets.exercises import ch18
    >>> ch18.check_reverse_gradient(reverse_gradient)
    ✗ not yet — reverse_gradient returned None: it is still the stub, or it forgot to return.
"""
import minigrad as torch
from minigrad import nn

from ..i18n import N_, _
from . import Hint, check, expect


def _reversed_once(reverse_gradient, t):
    """reverse_gradient(t), checked to be a tensor with t's values that is still part of the graph."""
    out = reverse_gradient(t)
    expect(out is not None, _("reverse_gradient returned None: it is still the stub, or it forgot to return."))
    expect(isinstance(out, torch.Tensor), _("reverse_gradient returned {type}, expected a tensor.")
           .format(type=type(out).__name__))
    expect(out.shape == t.shape and torch.equal(out.detach(), t.detach()),
           _("reverse_gradient(t) must have t's values: it gave {got} for {want}. Only the gradient is negated.")
           .format(got=out.detach().tolist(), want=t.detach().tolist()))
    expect(out.requires_grad, _("reverse_gradient(t) does not require grad: no gradient can come back through it "
                                "(.detach() cuts the graph)."))
    return out


@check(N_("reverse_gradient negates the gradient on its own path and leaves t's other uses alone."))
def check_reverse_gradient(reverse_gradient):
    """`reverse_gradient(t)`: t's values; the gradient through it comes back as -grad, on that path only."""
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    out = (_reversed_once(reverse_gradient, x) * 3).sum() + (x * 2).sum()
    out.backward()
    expect(x.grad is not None, _("x.grad is None after backward: no gradient reached x."))
    if torch.equal(x.grad, torch.full((3,), -5.0)):
        raise Hint(_("x.grad is -5 for each element: the hook negated the gradients of both uses of x (3 + 2). "
                     "A hook on t itself sees the sum over all its uses; put it on a new tensor made from t "
                     "(t.view_as(t)) and return that."))
    if torch.equal(x.grad, torch.full((3,), 2.0)):
        raise Hint(_("x.grad is 2 for each element: nothing came back through reverse_gradient, only through "
                     "x * 2."))
    expect(torch.equal(x.grad, torch.full((3,), -1.0)),
           _("x.grad is {got}, expected -1 for each element (-3 through reverse_gradient, +2 through x * 2).")
           .format(got=x.grad.tolist()))


def _norms_after_backward(model, x, record_grad_norms=None):
    """The output-gradient norm of every Linear of `model` after one backward of (model(x) ** 2).sum(): the
    learner's dictionary if `record_grad_norms` is given, else the reference, from retain_grad."""
    if record_grad_norms is None:
        outputs, handles = {}, []
        for name, module in model.named_modules():
            if isinstance(module, nn.Linear):
                handles.append(module.register_forward_hook(
                    lambda m, args, out, name=name: (out.retain_grad(), outputs.__setitem__(name, out))[0]))
        (model(x) ** 2).sum().backward()
        for handle in handles:
            handle.remove()
        return {name: out.grad.norm().item() for name, out in outputs.items()}
    norms = record_grad_norms(model)
    expect(norms is not None, _("record_grad_norms returned None: it is still the stub, or it forgot to return."))
    expect(isinstance(norms, dict), _("record_grad_norms returned {type}, expected a dictionary.")
           .format(type=type(norms).__name__))
    (model(x) ** 2).sum().backward()
    return norms


def _compare_norms(got, want, where):
    name, value = next(iter(got.items())) if len(got) == 1 else (None, None)
    if len(want) > 1 and name in want and isinstance(value, float) and abs(value - want[name]) > 1e-4:
        raise Hint(_("{where}: the dictionary holds one name, {names}, for {count} Linear layers: every hook "
                     "wrote under the same name. A lambda in a loop reads the loop variable when it runs, after the "
                     "loop: bind it (name=name) or make each hook in a function of its own.")
                   .format(where=where, names=sorted(got), count=len(want)))
    expect(set(got) == set(want), _("{where}: the dictionary's names are {got}, expected {want} (the names "
                                    "named_modules() gives the Linear layers).")
           .format(where=where, got=sorted(got), want=sorted(want)))
    for name, norm in want.items():
        value = got[name]
        if isinstance(value, torch.Tensor):
            raise Hint(_("{where}: the value for {name} is a tensor: store a number, with .item().")
                       .format(where=where, name=name))
        expect(isinstance(value, float) and abs(value - norm) <= 1e-4 * max(1.0, norm),
               _("{where}: for {name} the dictionary holds {got}, expected {want}, the norm of the gradient of that "
                 "layer's output (grad_output[0]).").format(where=where, name=name, got=value, want=round(norm, 4)))


@check(N_("record_grad_norms keeps, for every Linear, the norm of its output's gradient from the latest backward."))
def check_record_grad_norms(record_grad_norms):
    """`record_grad_norms(model)` returns a dict that backward fills with {Linear name: |grad_output[0]|}."""
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2))
    x = torch.tensor([[1.0, -1.0, 0.5], [0.0, 2.0, -1.0]], requires_grad=True)
    want = _norms_after_backward(model, x)
    got = _norms_after_backward(model, x, record_grad_norms)
    _compare_norms(got, want, _("for Sequential(Linear, Tanh, Linear)"))
