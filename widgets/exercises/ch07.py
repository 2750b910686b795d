"""Checks for chapter 7: Functions in the recommended style, `needs_input_grad`, and `gradcheck`.

Example (a book cell):
    >>> from widgets.exercises import ch07
    >>> ch07.check_mul(Mul)
    ✗ not yet — Mul.apply(x, y) returned None: forward is still the stub. ...
"""
import inspect
import warnings

import minigrad as torch
from minigrad.autograd import Function, gradcheck

from ..i18n import N_, _
from . import Hint, check, expect


def _values(t):
    return [round(v, 4) for v in t.reshape(-1).tolist()] if isinstance(t, torch.Tensor) else repr(t)


def _recommended_style(fn, n_inputs, example):
    """The forward takes no ctx, and setup_context is the Function's own."""
    params = list(inspect.signature(fn.forward).parameters)
    expect(not params or params[0] != "ctx",
           _("{fn}.forward takes ctx: that is the combined style of chapter 4. Here write forward({example}) "
             "without ctx, and save what backward needs in setup_context.")
           .format(fn=fn.__name__, example=example))
    expect(len(params) == n_inputs, _("{fn}.forward has parameters {params}, expected {n_inputs}: "
                                      "forward({example}).")
                                    .format(fn=fn.__name__, params=params, n_inputs=n_inputs, example=example))
    expect(fn.setup_context is not Function.setup_context,
           _("{fn} has no setup_context: write setup_context(ctx, inputs, output) and save there.")
           .format(fn=fn.__name__))


def _probe(fn):
    """Subclass the learner's Function so that we can see what its backward returns."""
    returned = []

    def backward(ctx, *grads):
        result = fn.backward(ctx, *grads)
        returned.append(result)
        return result
    # the same class name, so that error messages name the learner's node (MulBackward)
    return type(fn.__name__, (fn,), {"backward": staticmethod(backward)}), returned


def _backward(loss, what):
    try:
        loss.backward()
    except Exception as error:
        raise Hint(_("{what}: backward raised {type}: {error}")
                   .format(what=what, type=type(error).__name__, error=error)) from None


@check(N_("Mul computes x * y, returns both gradients, and skips the one that is not needed."))
def check_mul(fn):
    """`fn.apply(x, y)` is x * y in the recommended style; backward returns None where not needed."""
    _recommended_style(fn, 2, "x, y")
    probe, returned = _probe(fn)
    xs, ys = [1.0, -2.0, 3.0], [4.0, 5.0, -6.0]
    x, y = torch.tensor(xs, requires_grad=True), torch.tensor(ys, requires_grad=True)
    out = probe.apply(x, y)
    expect(out is not None, _("Mul.apply(x, y) returned None: forward is still the stub. Return x * y."))
    expect(isinstance(out, torch.Tensor) and out.tolist() == [a * b for a, b in zip(xs, ys)],
           _("Mul.apply(x, y) gave {out}, expected {want}.")
           .format(out=_values(out), want=[a * b for a, b in zip(xs, ys)]))
    _backward(out.sum(), _("with x and y both requiring grad"))
    expect(x.grad is not None and y.grad is not None,
           _("x.grad is {x_grad} and y.grad is {y_grad}: when both require grad, return both gradients "
             "(grad_output * y, grad_output * x).")
           .format(x_grad=_values(x.grad), y_grad=_values(y.grad)))
    expect(x.grad.tolist() == ys and y.grad.tolist() == xs,
           _("x.grad is {x_grad}, y.grad is {y_grad}; expected x.grad = y = {ys} and y.grad = x = {xs} (for "
             "out.sum(), grad_output is all ones).")
           .format(x_grad=_values(x.grad), y_grad=_values(y.grad), ys=ys, xs=xs))
    x = torch.tensor(xs, requires_grad=True)
    _backward(probe.apply(x, torch.tensor(ys)).sum(), _("with only x requiring grad"))
    result = returned[-1]
    expect(isinstance(result, tuple) and len(result) == 2,
           _("backward returned {type}, expected a tuple of two gradients (one per input).")
           .format(type=type(result).__name__))
    expect(result[1] is None,
           _("with y not requiring grad, ctx.needs_input_grad is (True, False), but backward still computed a "
             "gradient for y. That is not an error, but the exercise asks you to skip it: return None there."))
    expect(x.grad is not None and x.grad.tolist() == ys,
           _("with only x requiring grad, x.grad is {x_grad}, expected {ys}.")
           .format(x_grad=_values(x.grad), ys=ys))
    y = torch.tensor(ys, requires_grad=True)
    _backward(probe.apply(torch.tensor(xs), y).sum(), _("with only y requiring grad"))
    result = returned[-1]
    expect(isinstance(result, tuple) and len(result) == 2 and result[0] is None,
           _("with x not requiring grad, ctx.needs_input_grad is (False, True), but backward still computed a "
             "gradient for x: check ctx.needs_input_grad[0] too, and return None there."))
    expect(y.grad is not None and y.grad.tolist() == xs,
           _("with only y requiring grad, y.grad is {y_grad}, expected {xs}.")
           .format(y_grad=_values(y.grad), xs=xs))


@check(N_("Sigmoid computes 1 / (1 + exp(-x)) and passes gradcheck."))
def check_sigmoid(fn):
    """`fn.apply(x)` is 1 / (1 + exp(-x)); backward is grad_output * s * (1 - s)."""
    _recommended_style(fn, 1, "x")
    data = [-2.0, 0.0, 0.5, 3.0]
    x = torch.tensor(data, dtype=torch.float64, requires_grad=True)
    out = fn.apply(x)
    expect(out is not None, _("Sigmoid.apply(x) returned None: forward is still the stub. Return 1 / (1 + "
                              "(-x).exp())."))
    want = 1 / (1 + (-x.detach()).exp())
    expect(isinstance(out, torch.Tensor) and torch.allclose(out, want),
           _("Sigmoid.apply({data}) gave {out}, expected {want}.")
           .format(data=data, out=_values(out), want=_values(want)))
    name = out.grad_fn.name() if out.grad_fn is not None else None
    expect(name == fn.__name__ + "Backward",
           _("out.grad_fn is {name}, expected {fn}Backward.")
           .format(name=name, fn=fn.__name__))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            ok = gradcheck(fn.apply, (x,), eps=1e-6, atol=1e-5, raise_exception=False)
        except Exception as error:
            raise Hint(_("gradcheck(Sigmoid.apply, (x,)) raised {type}: {error}")
                       .format(type=type(error).__name__, error=error)) from None
    expect(ok, _("gradcheck(Sigmoid.apply, (x,)) returned False: backward does not match the finite differences. "
                 "The derivative is s * (1 - s) with s = sigmoid(x), times grad_output."))


@check(N_("gradcheck names input 1: the gradient with respect to y is the wrong one."))
def check_bad_input(message, bad_input):
    """`message` is the first line of gradcheck's error, `bad_input` the index of the input it names."""
    expect(isinstance(message, str), _("message should be the first line of the GradcheckError's text (a str), got "
                                       "{type}: catch the error and keep str(error).splitlines()[0].")
                                     .format(type=type(message).__name__))
    expect(message.strip() == "Jacobian mismatch for output 0 with respect to input 1,",
           _("message is {message!r}, which is not the first line gradcheck prints for ScaledExp: run "
             "gradcheck(ScaledExp.apply, (p, q)), catch the GradcheckError, keep str(error).splitlines()[0].")
           .format(message=message.strip()))
    # bool is a subclass of int: True would pass as 1
    expect(type(bad_input) is int, _("bad_input should be an int (0 or 1), got {type}.")
                                   .format(type=type(bad_input).__name__))
    expect(bad_input in (0, 1), _("bad_input is {bad_input}, but the Function has two inputs: 0 (x) and 1 (y).")
                                .format(bad_input=bad_input))
    expect(bad_input == 1, _("input 0 (x) has a correct gradient: gradcheck reports 'with respect to input 1'. Run "
                             "it with both x and y requiring grad and read the message."))
