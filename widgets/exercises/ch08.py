"""Checks for chapter 8: non-tensor arguments, `None` gradients, and the counting rules of backward.

Example (a book cell):
    >>> from widgets.exercises import ch08
    >>> ch08.check_power(Power)
    ✗ not yet — Power.apply(x, 2) returned None: forward is still the stub. ...
"""
import minigrad as torch

from ..i18n import N_, _
from . import Hint, check, expect


def _values(t):
    return [round(v, 4) for v in t.reshape(-1).tolist()] if isinstance(t, torch.Tensor) else repr(t)


def _apply(fn, args, call, what):
    try:
        out = fn.apply(*args)
    except TypeError as error:
        # the chapter's lesson: a number goes on ctx, not through save_for_backward
        expect("save_for_backward can only save variables" not in str(error),
               _("{call} raised TypeError: {error}. save_for_backward takes tensors only: keep a number as an "
                 "attribute of ctx instead (for example ctx.n = n) and read it back from ctx in backward.")
               .format(call=call, error=error))
        raise
    expect(out is not None, _("{call} returned None: forward is still the stub. Return {what}.")
                            .format(call=call, what=what))
    expect(isinstance(out, torch.Tensor), _("{call} returned {type}, expected a tensor.")
                                          .format(call=call, type=type(out).__name__))
    return out


def _backward(out, gradient, inputs):
    """Run backward; explain the engine's counting errors in terms of this Function's inputs."""
    try:
        out.backward(gradient)
    except RuntimeError as error:
        text = str(error)
        names = _(", ").join(f"{i + 1}: {name}" for i, name in enumerate(inputs))    # a list separator (zh: 、)
        if "incorrect number of gradients" in text:
            got = text.rsplit("got ", 1)[-1].rstrip(")")
            raise Hint(_("backward returned {got} gradient(s), but forward has {n_inputs} inputs ({names}): return "
                         "one per input, None for each non-tensor.")
                       .format(got=got, n_inputs=len(inputs), names=names)) from None
        if "different than None at position" in text:
            pos = int(text.split("position ")[1].split(",")[0])
            raise Hint(_("backward returned a tensor at position {pos} (counting from 1), which is {input}, a "
                         "non-tensor: its gradient must be None.")
                       .format(pos=pos, input=inputs[pos - 1])) from None
        if "invalid gradient at index" in text:
            raise Hint(_("a gradient has the wrong shape: {text} (index counts from 0). Each gradient has the "
                         "shape of its input.")
                       .format(text=text)) from None
        raise Hint(_("backward raised RuntimeError: {text}")
                   .format(text=text)) from None


@check(N_("Power returns x ** n, n * x ** (n - 1) * grad_output for x, and None for the number n."))
def check_power(fn):
    """`fn.apply(x, n)` is x ** n for a Python number n."""
    data = [1.0, -2.0, 3.0]
    grad_output = torch.tensor([1.0, 10.0, 100.0])
    for n in (2, 3):
        x = torch.tensor(data, requires_grad=True)
        out = _apply(fn, (x, n), f"Power.apply(x, {n})", _("x ** n (and keep n on ctx, e.g. ctx.n = n)"))
        want = [v ** n for v in data]
        expect(torch.allclose(out, torch.tensor(want)),
               _("Power.apply({data}, {n}) gave {out}, expected {want}.")
               .format(data=data, n=n, out=_values(out), want=want))
        _backward(out, grad_output, [_("x (a tensor)"), _("n (a number)")])
        want_grad = [n * v ** (n - 1) * g for v, g in zip(data, grad_output.tolist())]
        expect(x.grad is not None, _("x.grad is None: backward returned None for x."))
        expect(torch.allclose(x.grad, torch.tensor(want_grad)),
               _("for n = {n} and grad_output {grad_output}, x.grad is {x_grad}, expected {want_grad} (n * x ** (n "
                 "- 1) * grad_output).")
               .format(n=n, grad_output=grad_output.tolist(), x_grad=_values(x.grad), want_grad=want_grad))


@check(N_("Clamp lets the gradient through inside [low, high], blocks it outside, and returns None for the bounds."))
def check_clamp(fn):
    """`fn.apply(x, low, high)` is x.clamp(low, high); the gradient is zero where x was clamped."""
    data = [-2.0, -0.5, 0.5, 2.0]
    x = torch.tensor(data, requires_grad=True)
    out = _apply(fn, (x, -1.0, 1.0), "Clamp.apply(x, -1.0, 1.0)", "x.clamp(low, high)")
    want = [-1.0, -0.5, 0.5, 1.0]
    expect(out.tolist() == want, _("Clamp.apply({data}, -1.0, 1.0) gave {out}, expected {want}.")
                                 .format(data=data, out=_values(out), want=want))
    grad_output = torch.tensor([1.0, 10.0, 100.0, 1000.0])
    _backward(out, grad_output, [_("x (a tensor)"), _("low (a number)"), _("high (a number)")])
    expect(x.grad is not None, _("x.grad is None: backward returned None for x."))
    want_grad = [0.0, 10.0, 100.0, 0.0]
    expect(x.grad.tolist() == want_grad,
           _("with grad_output {grad_output}, x.grad is {x_grad}, expected {want_grad}: the gradient passes where "
             "low <= x <= high and is 0 where x was clamped.")
           .format(grad_output=grad_output.tolist(), x_grad=_values(x.grad), want_grad=want_grad))
    expect(grad_output.tolist() == [1.0, 10.0, 100.0, 1000.0],
           _("backward changed grad_output in place: clone it first."))


@check(N_("Affine returns scale * grad_output for x, None for the number scale, and grad_output for b."))
def check_affine(fn):
    """`fn.apply(x, scale, b)` is x * scale + b, with x and b tensors of the same shape and scale a number."""
    xs, bs = [1.0, -2.0, 3.0], [0.5, 0.5, -1.0]
    x, b = torch.tensor(xs, requires_grad=True), torch.tensor(bs, requires_grad=True)
    out = _apply(fn, (x, 2.0, b), "Affine.apply(x, 2.0, b)", "x * scale + b")
    want = [2.0 * v + c for v, c in zip(xs, bs)]
    expect(out.tolist() == want, _("Affine.apply(x, 2.0, b) gave {out}, expected {want}.")
                                 .format(out=_values(out), want=want))
    grad_output = torch.tensor([1.0, 10.0, 100.0])
    _backward(out, grad_output, [_("x (a tensor)"), _("scale (a number)"), _("b (a tensor)")])
    expect(x.grad is not None and b.grad is not None,
           _("x.grad is {x_grad} and b.grad is {b_grad}: return a gradient for both tensors.")
           .format(x_grad=_values(x.grad), b_grad=_values(b.grad)))
    if x.grad.tolist() == grad_output.tolist() and b.grad.tolist() == [2 * g for g in grad_output.tolist()]:
        raise Hint(_("the gradients of x and b are swapped: return them in the order of forward's inputs, (grad "
                     "for x, None for scale, grad for b)."))
    expect(x.grad.tolist() == [2 * g for g in grad_output.tolist()],
           _("x.grad is {x_grad}, expected {want} (scale * grad_output).")
           .format(x_grad=_values(x.grad), want=[2 * g for g in grad_output.tolist()]))
    expect(b.grad.tolist() == grad_output.tolist(),
           _("b.grad is {b_grad}, expected {grad_output} (grad_output itself).")
           .format(b_grad=_values(b.grad), grad_output=grad_output.tolist()))
