"""Hints that the Chinese read-through (issue 15) found half English or unhelpful now name the mistake, in both
languages: labels and lists inside a hint are translated, and a KeyError, a number given to save_for_backward and a
half-migrated legacy Function get a hint instead of a bare exception.

The Chinese expected texts are read from the catalogues with the standard library's gettext (not through
widgets.i18n), and each test fails if the Chinese feedback still holds the English words.
"""
import gettext
from pathlib import Path

import pytest

import minigrad as torch
from minigrad import nn
from minigrad.autograd import Function
from widgets import i18n
from widgets.exercises import ch01, ch02, ch06, ch08, ch11

LOCALE = Path(__file__).resolve().parents[2] / "widgets" / "locale"
LANGUAGES = ["en", "zh"]


def say(language, msgid):
    """`msgid` as a learner reading `language` sees it: English as written, Chinese from the compiled .mo."""
    if language == "en":
        return msgid
    for domain in ("exercises", "widgets"):
        text = gettext.translation(domain, LOCALE, languages=["zh"]).gettext(msgid)
        if text != msgid:
            return text
    raise AssertionError(f"no Chinese translation of {msgid!r}")


def feedback_in(language, check, answer):
    with i18n.using_language(language):
        feedback = check(answer)
        shown = repr(feedback)
    assert not feedback.ok and shown == say(language, "✗ not yet — ") + feedback.message, shown
    return feedback.message


@pytest.mark.parametrize("language", LANGUAGES)
def test_ch01_names_a_tensor_it_does_not_know_in_the_readers_language(language):
    def leaves_of(out):
        return [torch.tensor(1.0)]          # a new tensor, none of the graph's leaves

    message = feedback_in(language, ch01.check_leaves_of, leaves_of)
    want = say(language, "for {text}, you returned {n_got} leaf tensor(s) {names}, expected {n_want}: {want}.")
    assert message == want.format(text="(x * w + c).sum()", n_got=1, names=[say(language, "an unexpected tensor")],
                                  n_want=2, want=["w", "x"]), message


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("wrong_out_features, label", [
    (3, "the first Linear"), (2, "the Linear inside the inner Sequential")])
def test_ch02_names_the_layer_in_the_readers_language(language, wrong_out_features, label):
    def init_constant(module):               # right weights everywhere, a wrong bias on one of the two layers
        if isinstance(module, nn.Linear):
            with torch.no_grad():
                module.weight.fill_(0.5)
                module.bias.fill_(1.0 if module.out_features == wrong_out_features else 0.0)

    message = feedback_in(language, ch02.check_init_constant, init_constant)
    want = say(language, "{label}'s weight is right, but its bias is {bias}; set it to zeros too.")
    assert message == want.format(label=say(language, label), bias=[1.0] * wrong_out_features), message


MY_BACKWARD_WITHOUT_COUNTING = '''
import minigrad as torch

def call_node(node, grad_output):
    with torch.no_grad():
        grads = node.apply(grad_output) if hasattr(node, "apply") else node(grad_output)
    return grads if isinstance(grads, tuple) else (grads,)

def my_backward(loss):
    buffers = {loss.grad_fn: torch.ones_like(loss)}
    ready, order = [loss.grad_fn], []
    while ready:
        node = ready.pop()
        order.append(node)
        grads = call_node(node, buffers.pop(node))
        for (next_node, _), grad in zip(node.next_functions, grads):
            if next_node is None:
                continue
            buffers[next_node] = grad if next_node not in buffers else buffers[next_node] + grad
            ready.append(next_node)             # once per gradient sent: x * x sends two to x's node
    return order
'''


@pytest.mark.parametrize("language", LANGUAGES)
def test_ch06_a_node_run_twice_gets_a_hint_not_a_memory_address(language):
    namespace = {"__name__": "__main__"}
    exec(MY_BACKWARD_WITHOUT_COUNTING, namespace)
    message = feedback_in(language, ch06.check_my_backward, namespace["my_backward"])
    want = say(language, "{where}, for {text}, your code raised KeyError for the node {node}: one of your dicts has "
                         "no entry for it. Usually that node ran twice, or before all its gradients had arrived: "
                         "lower its dependency count for every gradient sent to it, and append it to ready only when "
                         "the count reaches 0.")
    assert message == want.format(where=say(language, "on minigrad"), text="(x * x).sum()",
                                  node="torch::autograd::AccumulateGrad"), message
    assert " at 0x" not in message


class PowerSavingN(Function):
    @staticmethod
    def forward(ctx, x, n):
        ctx.save_for_backward(x, n)          # n is a Python number
        return x ** n

    @staticmethod
    def backward(ctx, grad_output):
        x, n = ctx.saved_tensors
        return n * x ** (n - 1) * grad_output, None


@pytest.mark.parametrize("language", LANGUAGES)
def test_ch08_a_number_given_to_save_for_backward_gets_the_chapters_lesson(language):
    message = feedback_in(language, ch08.check_power, PowerSavingN)
    want = say(language, "{call} raised TypeError: {error}. save_for_backward takes tensors only: keep a number as "
                         "an attribute of ctx instead (for example ctx.n = n) and read it back from ctx in backward.")
    error = "save_for_backward can only save variables, but argument 1 is of type int"     # PyTorch's words
    assert message == want.format(call="Power.apply(x, 2)", error=error), message


class PowerWithoutNoneForN(Function):
    @staticmethod
    def forward(ctx, x, n):
        ctx.n = n
        ctx.save_for_backward(x)
        return x ** n

    @staticmethod
    def backward(ctx, grad_output):
        x, = ctx.saved_tensors
        return ctx.n * x ** (ctx.n - 1) * grad_output        # no None for n


@pytest.mark.parametrize("language", LANGUAGES)
def test_ch08_lists_forwards_inputs_in_the_readers_language(language):
    message = feedback_in(language, ch08.check_power, PowerWithoutNoneForN)
    want = say(language, "backward returned {got} gradient(s), but forward has {n_inputs} inputs ({names}): return "
                         "one per input, None for each non-tensor.")
    names = say(language, ", ").join(["1: " + say(language, "x (a tensor)"), "2: " + say(language, "n (a number)")])
    assert message == want.format(got=1, n_inputs=2, names=names), message


class LeakyReLU(Function):
    """Half migrated: static methods, but forward still expects the slope that __init__ used to take."""

    def __init__(self, slope=0.01):
        super().__init__()
        self.slope = slope

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return torch.where(x > 0, x, x * 0.01)

    @staticmethod
    def backward(ctx, grad_output):
        x, = ctx.saved_tensors
        return torch.where(x > 0, grad_output, grad_output * 0.01)


@pytest.mark.parametrize("language", LANGUAGES)
def test_ch11_a_half_migrated_function_is_told_where_the_slope_goes(language):
    message = feedback_in(language, ch11.check_leaky_relu, LeakyReLU)
    want = say(language, "{fn}.apply{args} passes the slope on to forward, but your forward does not take it "
                         "({error}). apply never calls __init__: take the slope as a parameter, forward(ctx, x, "
                         "slope) (or forward(x, slope) with setup_context), and keep it on ctx (ctx.slope = slope).")
    error = "LeakyReLU.forward() takes 2 positional arguments but 3 were given"              # Python's words
    assert message == want.format(fn="LeakyReLU", args="(x, 0.1)", error=error), message
