"""Checks for chapter 2, `Module.apply`: an initialiser, the visiting order, and `apply` written by hand.

Example (a book cell):
    >>> ch02.check_visit_order(["Sequential", "Linear", "Sequential", "Linear", "ReLU", "Tanh"])
    ✗ not yet — that is parent-first order (as named_modules() lists them); apply visits the children first ...
"""
import minigrad as torch
from minigrad import nn

from ..i18n import N_, _
from . import check, expect


def _model():
    return nn.Sequential(nn.Linear(3, 3), nn.Sequential(nn.Linear(3, 2), nn.ReLU()), nn.Tanh())


def _post_order(module):
    """The visiting order of the real Module.apply, as a list of modules."""
    visited = []
    module.apply(visited.append)
    return visited


def _is_constant(t, value):
    return torch.equal(t.detach(), torch.full_like(t.detach(), value))


@check(N_("every Linear now has weights 0.5 and biases 0, the same Parameter objects, still requiring grad."))
def check_init_constant(init_constant):
    """Apply `init_constant` to a small model; check each Linear's parameters and that nothing else broke."""
    model = _model()
    params = [(name, p) for name, p in model.named_parameters()]
    first_weight = model[0].weight.detach().clone()
    try:
        model.apply(init_constant)
    except RuntimeError as error:
        expect("leaf Variable" not in str(error),
               _("your code raised RuntimeError: {error} Parameters are leaves that require grad: change them "
                 "under torch.no_grad() (or through .data).")
               .format(error=error))
        raise
    for (name, before), (_name, after) in zip(params, model.named_parameters()):
        expect(after is before, _("{name} is a new object: change the existing parameter in place (fill_, zero_, "
                                  "or nn.init.constant_) instead of assigning a new one.")
                                .format(name=name))
        expect(after.requires_grad and after.is_leaf,
               _("{name} no longer is a leaf that requires grad: change its values in place under torch.no_grad() "
                 "(or through .data).")
               .format(name=name))
    expect(not torch.equal(model[0].weight.detach(), first_weight),
           _("the first Linear's weight did not change: for every nn.Linear, fill its weight with 0.5 and its bias "
             "with zeros."))
    layers = [(N_("the first Linear"), model[0]), (N_("the Linear inside the inner Sequential"), model[1][0])]
    for label, layer in layers:
        expect(_is_constant(layer.weight, 0.5),
               _("{label}'s weight is not all 0.5 (first row now {row}); fill it with 0.5.")
               .format(label=_(label), row=[round(v, 4) for v in layer.weight[0].tolist()]))
        expect(_is_constant(layer.bias, 0.0),
               _("{label}'s weight is right, but its bias is {bias}; set it to zeros too.")
               .format(label=_(label), bias=[round(v, 4) for v in layer.bias.tolist()]))


ORDER = ["Linear", "Linear", "ReLU", "Sequential", "Tanh", "Sequential"]
PRE_ORDER = ["Sequential", "Linear", "Sequential", "Linear", "ReLU", "Tanh"]


@check(N_("children first, each subtree finished before the next child, and the outer Sequential last."))
def check_visit_order(answer):
    """Compare the learner's predicted order (class names) with what apply really does on the model."""
    expect(isinstance(answer, (list, tuple)),
           _('answer is {type}; write a list of class names such as ["Linear", "ReLU"].')
           .format(type=type(answer).__name__))
    got = [a if isinstance(a, str) else getattr(a, "__name__", str(a)) for a in answer]
    expect(got != PRE_ORDER, _("that is parent-first order (as named_modules() lists them); apply visits the "
                               "children first and a module only after everything below it."))
    expect(len(got) == 6, _("your list has {n_got} names, but apply calls fn 6 times: once for each of the 4 "
                            "layers and once for each of the 2 containers, the outer one included.")
                          .format(n_got=len(got)))
    expect(got[-1] == "Sequential", _("your last name is {got!r}; the last module visited is the one apply was "
                                      "called on, the outer Sequential.")
                                    .format(got=got[-1]))
    expect(got == ORDER, _("{got} is not the order; apply finishes the inner Sequential's whole subtree (its "
                           "children, then itself) before it moves on to the next child.")
                         .format(got=got))


@check(N_("my_apply visits children first, the module last, in the same order as Module.apply, and returns it."))
def check_my_apply(my_apply):
    """Compare `my_apply`'s visits (by identity) with the real Module.apply on a nested model."""
    model = _model()
    expected = _post_order(model)
    visited, used_apply = [], []
    real_apply = nn.Module.apply
    nn.Module.apply = lambda self, fn: used_apply.append(self) or real_apply(self, fn)
    try:
        result = my_apply(model, visited.append)
    finally:
        nn.Module.apply = real_apply
    expect(not used_apply, _("my_apply called Module.apply; write the recursion yourself: loop over "
                             "module.children() and call my_apply on each child."))
    expect(visited, _("my_apply never called fn: it must call fn on every module, the root included."))
    names = [type(m).__name__ for m in visited]
    expect(len(visited) == len(expected), _("my_apply called fn {n_visited} times ({names}); Module.apply calls it "
                                            "{n_expected} times. Recurse into every child, and call fn on the "
                                            "module itself too.")
                                          .format(n_visited=len(visited), names=names, n_expected=len(expected)))
    expect(visited[0] is not model, _("the root was visited first; call fn(module) after the loop over the "
                                      "children."))
    expect(all(a is b for a, b in zip(visited, expected)),
           _("my_apply visited {names}, Module.apply visits {expected}.")
           .format(names=names, expected=[type(m).__name__ for m in expected]))
    expect(result is model, _("my_apply returned {type}; Module.apply returns the module it was called on (return "
                              "module).")
                            .format(type='None' if result is None else type(result).__name__))
