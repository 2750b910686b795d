"""Checks for chapter 4: custom Functions in the combined style, and what `Function.apply` records.

Example (a book cell):
    >>> from widgets.exercises import ch04
    >>> ch04.check_square(Square)
    ✗ not yet — Square.apply(x) returned None: forward is still the stub. Compute x * x and return it ...
"""
import minigrad as torch

from ..i18n import N_, _
from . import Hint, check, expect


def _values(t):
    return [round(v, 4) for v in t.tolist()] if isinstance(t, torch.Tensor) else repr(t)


def _apply(fn, x, what):
    """Run `fn.apply(x)` and say clearly what came back if it is not a tensor."""
    out = fn.apply(x)
    expect(out is not None, _("{fn}.apply(x) returned None: forward is still the stub. Compute {what} and return "
                              "it (and save x with ctx.save_for_backward(x)).")
                            .format(fn=fn.__name__, what=what))
    expect(isinstance(out, torch.Tensor), _("forward returned {type}, expected a tensor.")
                                          .format(type=type(out).__name__))
    return out


def _backward(out, x, gradient):
    """Run backward and turn the engine's errors into hints about the learner's `backward`."""
    try:
        out.backward(gradient)
    except ValueError as error:
        if "unpack" in str(error):
            raise Hint(_("backward could not unpack ctx.saved_tensors ({error}): did forward call "
                         "ctx.save_for_backward(x)?")
                       .format(error=error)) from None
        raise Hint(_("out.backward(...) raised ValueError: {error}")
                   .format(error=error)) from None
    except Exception as error:
        raise Hint(_("out.backward(...) raised {type}: {error}")
                   .format(type=type(error).__name__, error=error)) from None
    expect(x.grad is not None, _("x.grad is None after backward: backward returned None instead of a gradient."))


def _check_node(fn, out):
    name = out.grad_fn.name() if out.grad_fn is not None else None
    expect(name == fn.__name__ + "Backward",
           _("out.grad_fn is {name}, expected {fn}Backward: call {fn}.apply(x), not forward.")
           .format(name=name, fn=fn.__name__))


@check(N_("Square.apply records a SquareBackward node and its backward gives 2 * x * grad_output."))
def check_square(fn):
    """`fn.apply(x)` is x * x; its backward multiplies grad_output by 2x."""
    data = [-2.0, 0.5, 3.0]
    x = torch.tensor(data, requires_grad=True)
    out = _apply(fn, x, "x * x")
    expect(out.tolist() == [v * v for v in data],
           _("Square.apply({data}) gave {out}, expected {want}.")
           .format(data=data, out=_values(out), want=[v * v for v in data]))
    _check_node(fn, out)
    grad_output = torch.tensor([1.0, 10.0, 100.0])
    _backward(out, x, grad_output)
    want = [2 * v * g for v, g in zip(data, grad_output.tolist())]
    if x.grad.tolist() == [2 * v for v in data]:
        raise Hint(_("with grad_output {grad_output}, x.grad is {x_grad}: backward ignored grad_output. Multiply "
                     "by it (chain rule): grad_output * 2 * x.")
                   .format(grad_output=grad_output.tolist(), x_grad=_values(x.grad)))
    expect(torch.allclose(x.grad, torch.tensor(want)),
           _("with grad_output {grad_output}, x.grad is {x_grad}, expected {want} (d(x*x)/dx = 2x, times "
             "grad_output).")
           .format(grad_output=grad_output.tolist(), x_grad=_values(x.grad), want=want))
    y1, y2 = fn.apply(x), fn.apply(x)
    expect(y1.grad_fn is not y2.grad_fn, _("two calls of apply shared one node; each call should make its own."))


@check(N_("LeakyReLU keeps positives, scales negatives by 0.1, and so does its gradient."))
def check_leaky_relu(fn):
    """`fn.apply(x)` is x where x >= 0 and 0.1 * x where x < 0; the gradient is 1 or 0.1 accordingly."""
    data = [-2.0, -0.5, 0.0, 1.5]
    want = [-0.2, -0.05, 0.0, 1.5]
    x = torch.tensor(data, requires_grad=True)
    out = _apply(fn, x, _("x for x >= 0 and 0.1 * x for x < 0"))
    expect(torch.allclose(out, torch.tensor(want)),
           _("LeakyReLU.apply({data}) gave {out}, expected {want}.")
           .format(data=data, out=_values(out), want=want))
    _check_node(fn, out)
    grad_output = torch.tensor([1.0, 10.0, 100.0, 1000.0])
    _backward(out, x, grad_output)
    # at x = 0 there is no derivative: slope 1 (this chapter's x < 0 mask) and slope 0.1 (F.leaky_relu's x > 0
    # mask) are both right
    want_grad, torch_convention = [0.1, 1.0, 100.0, 1000.0], [0.1, 1.0, 10.0, 1000.0]
    got = _values(x.grad)
    expect(got[:2] != [0.0, 0.0],
           _("x.grad is {got}: the negative entries got 0, as in ReLU. Multiply them by 0.1 instead.")
           .format(got=got))
    expect(torch.allclose(x.grad, torch.tensor(want_grad)) or torch.allclose(x.grad, torch.tensor(torch_convention)),
           _("with grad_output {grad_output}, x.grad is {got}, expected {want_grad} (grad_output where x > 0, 0.1 "
             "* grad_output where x < 0; at x = 0 either slope is accepted, so {torch_convention} too).")
           .format(grad_output=grad_output.tolist(), got=got, want_grad=want_grad, torch_convention=torch_convention))
    expect(grad_output.tolist() == [1.0, 10.0, 100.0, 1000.0],
           _("backward changed grad_output in place: clone it first (grad_input = grad_output.clone())."))


class CustomReLUFunction(torch.autograd.Function):
    """The chapter's ReLU, so that the checks can build graphs of their own."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.clamp(min=0)

    @staticmethod
    def backward(ctx, grad_output):
        x, = ctx.saved_tensors
        grad_input = grad_output.clone()
        grad_input[x < 0] = 0
        return grad_input


@check(N_("count_nodes counts every node once: one per apply call, however many edges lead to it."))
def check_count_nodes(fn):
    """`fn(t, name)` returns how many distinct nodes called `name` the graph behind `t` holds."""
    relu = CustomReLUFunction.apply
    a = torch.tensor([-1.0, 2.0], requires_grad=True)
    three = relu(relu(a)) + relu(a)
    got = fn(three, "CustomReLUFunctionBackward")
    expect(got is not None and got is not ...,
           _("count_nodes returned None: it is still the stub."))
    expect(got == 3, _("for z = relu(relu(a)) + relu(a), count_nodes(z, 'CustomReLUFunctionBackward') gave "
                       "{got!r}, expected 3 (three calls of apply, three nodes): follow grad_fn.next_functions all "
                       "the way down to the leaves.")
                     .format(got=got))
    y = relu(a)
    twice = y * y
    got = fn(twice, "CustomReLUFunctionBackward")
    expect(got == 1, _("for y = relu(a); z = y * y, count_nodes gave {got!r}, expected 1: MulBackward0 has two "
                       "edges to the same node (y was made by one call). Remember the nodes you have seen (a set "
                       "of id(node)) and count each one once.")
                     .format(got=got))
    got = fn(three, "torch::autograd::AccumulateGrad")
    expect(got == 1, _("count_nodes(z, 'torch::autograd::AccumulateGrad') gave {got!r}, expected 1: the one leaf a "
                       "has one AccumulateGrad node, however many paths lead to it.")
                     .format(got=got))
    got = fn(three, "MulBackward0")
    expect(got == 0, _("count_nodes(z, 'MulBackward0') gave {got!r}, expected 0 (there is no multiplication).")
                     .format(got=got))
