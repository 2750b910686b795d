"""Checks for chapter 1, Tensors and the graph: walking `next_functions`, hooks, and updates without recording.

Example (a book cell):
    >>> ch01.check_sgd_update(sgd_update)
    ✗ not yet — w is unchanged ([1.0, -2.0]): ...
"""
import minigrad as torch

from ..i18n import N_, _
from . import check, expect


def _values(t):
    return [round(v, 4) for v in t.detach().reshape(-1).tolist()]


UNEXPECTED = N_("an unexpected tensor")


def _names(tensors, named):
    return [next((n for n, t in named.items() if t is x), _(UNEXPECTED)) for x in tensors]


@check(N_("leaves_of follows next_functions down to every AccumulateGrad and returns each leaf once."))
def check_leaves_of(leaves_of):
    """Run `leaves_of` on a few small graphs and compare the leaves it returns (by identity) with the truth."""
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    w = torch.tensor(2.0, requires_grad=True)
    c = torch.tensor([10.0, 20.0, 30.0])
    a = torch.tensor(3.0, requires_grad=True)
    cases = [
        ("(x * w + c).sum()", (x * w + c).sum(), {"x": x, "w": w}),
        ("a * a + a", a * a + a, {"a": a}),
        ("x.detach() * w", x.detach() * w, {"w": w}),
    ]
    named = {"x": x, "w": w, "c": c, "a": a}
    for text, out, expected in cases:
        got = leaves_of(out)
        expect(got is not None, _("leaves_of returned None: it should return a list of the leaf tensors."))
        expect(isinstance(got, (list, tuple, set)),
               _("for {text}, leaves_of returned {type}; it should return a list of tensors.")
               .format(text=text, type=type(got).__name__))
        got = list(got)
        nodes = [g for g in got if hasattr(g, "next_functions")]
        expect(not nodes, _("for {text}, you returned a node ({node}); return the leaf tensor instead, which is "
                            "the AccumulateGrad node's `.variable`.")
                          .format(text=text, node=nodes[0].name() if nodes else ''))
        expect(all(isinstance(g, torch.Tensor) for g in got),
               _("for {text}, leaves_of returned something that is not a tensor: return the `.variable` of each "
                 "AccumulateGrad node.")
               .format(text=text))
        ids = [id(g) for g in got]
        expect(len(ids) == len(set(ids)), _("for {text}, a leaf appears {times} times in your list ({names}); "
                                            "return each leaf once, even when it is used several times.")
                                          .format(text=text, times=len(ids) - len(set(ids)) + 1,
                                                  names=_names(got, named)))
        expect(not any(g is c for g in got),
               _("for {text}, you returned the constant c, which does not require grad: it has no AccumulateGrad "
                 "node, its entry in next_functions is (None, 0).")
               .format(text=text))
        want = sorted(expected)
        expect(set(ids) == {id(t) for t in expected.values()},
               _("for {text}, you returned {n_got} leaf tensor(s) {names}, expected {n_want}: {want}.")
               .format(text=text, n_got=len(got), names=sorted(_names(got, named)), n_want=len(want), want=want))


@check(N_("the hook's result replaced the gradient, clipped to [-1, 1], and it flowed on to the leaf."))
def check_clip_hook(clip_hook):
    """Register `clip_hook` on a leaf and on an intermediate tensor; check the gradients that come out."""
    scale = torch.tensor([0.5, -4.0, 2.0])
    a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    a.register_hook(clip_hook)
    (a * scale).sum().backward()
    expect(a.grad is not None, _("a.grad is None after backward: the hook should return a tensor."))
    unchanged = [0.5, -4.0, 2.0]
    expect(_values(a.grad) != unchanged, _("the gradient arrived unchanged ({unchanged}): a hook that returns None "
                                           "leaves the gradient as it is. Return the clipped tensor.")
                                         .format(unchanged=unchanged))
    expect(_values(a.grad) == [0.5, -1.0, 1.0],
           _("with the hook on a leaf whose gradient is {unchanged}, a.grad is {a_grad}; expected [0.5, -1.0, 1.0].")
           .format(unchanged=unchanged, a_grad=_values(a.grad)))
    b = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    h = b * 2
    h.register_hook(clip_hook)
    (h * scale).sum().backward()
    expect(_values(b.grad) == [1.0, -2.0, 2.0],
           _("with the hook on h = b * 2, b.grad is {b_grad}; expected [1.0, -2.0, 2.0]: the gradient at h, [0.5, "
             "-4, 2], is clipped to [0.5, -1, 1], then doubled on its way to b.")
           .format(b_grad=_values(b.grad)))


@check(N_("w moved against its gradient in place, and it is still a leaf that requires grad."))
def check_sgd_update(sgd_update):
    """Call `sgd_update` on a leaf with a known gradient and check its values, leafness and requires_grad."""
    w = torch.tensor([1.0, -2.0], requires_grad=True)
    (w * w).sum().backward()                 # w.grad = 2w = [2, -4]
    try:
        sgd_update(w, 0.1)
    except RuntimeError as error:
        expect("leaf Variable" not in str(error),
               _("your code raised RuntimeError: {error} Do the in-place update inside `with torch.no_grad():`, so "
                 "that autograd does not record it.")
               .format(error=error))
        raise
    expect(w.grad_fn is None, _("w now has grad_fn {grad_fn}: the update was recorded. Do it inside `with "
                                "torch.no_grad():`.")
                              .format(grad_fn=w.grad_fn.name() if w.grad_fn else ''))
    expect(w.requires_grad, _("w no longer requires grad: update its values in place, don't detach it."))
    expect(_values(w) != [1.0, -2.0], _("w is unchanged ([1.0, -2.0]): update it in place (`w -= ...` inside `with "
                                        "torch.no_grad():`); `w = w - ...` only rebinds a local name inside your "
                                        "function."))
    expect(_values(w) == [0.8, -1.6], _("w is {w}; with w = [1, -2], w.grad = [2, -4] and lr = 0.1 expected [0.8, "
                                        "-1.6].")
                                      .format(w=_values(w)))
