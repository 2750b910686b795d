"""Corners of backward where minigrad gave another answer than torch 2.13 (found in issue 25's review): each
example runs on both libraries and must print, return and raise the same."""
import pytest


def retain_grad_then_in_place(lib):
    """retain_grad() follows the tensor into its new history: a.grad is d(loss)/d(new a) = 1, not 2."""
    x = lib.tensor(1.0, requires_grad=True)
    a = x * 1
    a.retain_grad()
    a.mul_(2)
    a.mul_(2)
    a.backward()
    return a.grad.item(), x.grad.item(), a.retains_grad


def retain_grad_then_in_place_through_a_view(lib):
    base = lib.tensor([1.0, 2.0], requires_grad=True) * 1
    view = base[:1]
    base.retain_grad()
    view.retain_grad()
    view.mul_(3)
    (base * lib.tensor([5.0, 7.0])).sum().backward()
    return base.grad.tolist(), view.grad.tolist()


def hook_on_an_output_that_gets_nothing(lib):
    """A multi-output node runs when any output got a gradient; the others' hooks are called with None."""
    v = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    p, q, r = v.unbind()
    seen = []
    p.register_hook(lambda g: seen.append(g))
    r.register_hook(lambda g: seen.append(None if g is None else g.item()))
    (q * 2).backward()
    return seen, v.grad.tolist()


def hook_on_a_leaf_given_none(lib):
    class NoGrad(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return None
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    seen = []
    x.register_hook(lambda g: seen.append(g))
    NoGrad.apply(x).sum().backward()
    return seen, x.grad


def saved_output_is_a_new_tensor(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    y = x.exp()
    saved = y.grad_fn._saved_result
    return saved is y, saved.tolist(), saved.grad_fn is y.grad_fn, saved.requires_grad


def saved_output_of_a_custom_function(lib):
    seen = []

    class Exp(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            y = x.exp()
            ctx.save_for_backward(y)
            return y

        @staticmethod
        def backward(ctx, g):
            (y,) = ctx.saved_tensors
            seen.append(y is out)
            return g * y
    x = lib.tensor([0.0, 1.0], requires_grad=True)
    out = Exp.apply(x)
    out.sum().backward()
    return seen, out.grad_fn.saved_tensors[0] is out, [round(v, 4) for v in x.grad.tolist()]


def non_differentiable_grads_not_materialized(lib):
    seen = []

    class F(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx._materialize_non_diff_grads = False
            index = lib.tensor([1, 2])
            ctx.mark_non_differentiable(index)
            return x * 2, index

        @staticmethod
        def backward(ctx, g, g_index):
            seen.append(g_index)
            return g * 2
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    out, _ = F.apply(x)
    out.sum().backward()
    return seen, x.grad.tolist()


def non_tensor_outputs_among_tensors(lib):
    """Forward returns numbers, None, a bool and a string between tensors: backward gets None for those, zeros
    for the tensor outputs that got no gradient (the example of torch's own test_autograd)."""
    seen = []

    class G(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return 2.0, x * 3, None, True, x * 4, "bar", x * 5

        @staticmethod
        def backward(ctx, *grads):
            seen.append([None if g is None else g.tolist() for g in grads])
            return grads[1] * 3 + grads[4] * 4
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    out = G.apply(x)
    out[1].sum().backward()
    return seen, x.grad.tolist(), [type(o).__name__ for o in out]


CASES = [retain_grad_then_in_place, retain_grad_then_in_place_through_a_view, hook_on_an_output_that_gets_nothing,
         hook_on_a_leaf_given_none, saved_output_is_a_new_tensor, saved_output_of_a_custom_function,
         non_differentiable_grads_not_materialized, non_tensor_outputs_among_tensors]


@pytest.mark.parametrize("example", CASES, ids=[c.__name__ for c in CASES])
def test_backward_corner(parity, example):
    parity(example)
