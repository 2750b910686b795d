"""BackwardStepper: driven through its handlers and its programmatic API, compared with the engine itself."""
import numpy as np
import pytest
import widget_helpers as h
from widget_helpers import direct, grads, same_arrays

import minigrad
from minigrad.autograd.graph import FREED_MESSAGE
from widgets import BackwardStepper, InputTypeError, InputValueError

GRAPHS = sorted(h.GRAPHS)


def same_records(a, b):
    return len(a) == len(b) and all(
        r.index == s.index and r.name == s.name and same_arrays(r.grad_outputs, s.grad_outputs)
        and same_arrays(r.grad_inputs, s.grad_inputs) for r, s in zip(a, b))


@pytest.mark.parametrize("name", GRAPHS)
def test_each_step_is_the_engines_next_step(name):
    make = h.GRAPHS[name]
    expected, _ = direct(make)
    y, leaves = make()
    stepper = BackwardStepper(y, names=leaves)
    assert stepper.total == len(expected)
    for k in range(len(expected)):
        record = stepper.step()
        assert record is stepper.current and record.name == expected[k].name
        assert same_records(stepper.steps, expected[:k + 1]), f"after {k + 1} steps"
        assert stepper.position == k + 1


@pytest.mark.parametrize("name", GRAPHS)
@pytest.mark.parametrize("retain", [False, True])
def test_run_to_end_gives_the_grads_of_backward(name, retain):
    make = h.GRAPHS[name]
    y, leaves = make()
    y.backward()
    y2, leaves2 = make()
    stepper = BackwardStepper(y2, retain_graph=retain)
    stepper.step()
    stepper.run_to_end()
    assert stepper.finished and stepper.freed == (not retain)
    assert grads(leaves2) == grads(leaves)
    assert same_records(stepper.steps, direct(make)[0])


def test_back_is_reset_and_replay():
    make = h.mlp
    y, leaves = make()
    stepper = BackwardStepper(y, names=leaves)
    for _ in range(9):
        stepper.step()
    stepper.back()
    assert stepper.position == 8
    expected, expected_leaves = direct(make, 8, retain_graph=True)
    assert same_records(stepper.steps, expected)
    assert grads(leaves) == grads(expected_leaves)      # the .grad filled by the 9th step is undone
    stepper.run_to_end()
    y2, leaves2 = make()
    y2.backward()
    assert grads(leaves) == grads(leaves2)            # replays did not add twice


def test_reset_restores_the_grads_the_leaves_had():
    y, leaves = h.custom()
    leaves["x"].grad = minigrad.tensor([10.0, 20.0])
    stepper = BackwardStepper(y, retain_graph=True)
    stepper.run_to_end()
    assert leaves["x"].grad.tolist() == [17.5, 17.5]          # gradients accumulate into the old .grad
    assert leaves["w"].grad.tolist() == [2.5, 5.0]
    stepper.reset()
    assert stepper.position == 0 and stepper.steps == [] and stepper.current is None
    assert leaves["x"].grad.tolist() == [10.0, 20.0] and leaves["w"].grad is None
    stepper.run_to_end()
    assert leaves["x"].grad.tolist() == [17.5, 17.5]


def test_reset_restores_retained_non_leaf_grads_too():
    def make():
        x = h.leaf([1.0, -2.0])
        hidden = x * 3.0
        hidden.retain_grad()
        return (hidden * hidden).sum(), x, hidden
    y, x, hidden = make()
    y.backward()
    y2, x2, hidden2 = make()
    stepper = BackwardStepper(y2, retain_graph=True, x=x2, hidden=hidden2)
    stepper.run_to_end()
    stepper.back()
    stepper.back()
    stepper.run_to_end()
    assert hidden2.grad.tolist() == hidden.grad.tolist() == [6.0, -12.0]
    assert x2.grad.tolist() == x.grad.tolist()
    assert "hidden.grad = <code>[6., -12.]</code> (retain_grad)" in stepper.panel_html.value
    stepper.reset()
    assert hidden2.grad is None


def test_retain_graph_false_frees_the_graph_at_the_end_like_backward():
    y, leaves = h.diamond()
    stepper = BackwardStepper(y)
    stepper.run_to_end()
    with pytest.raises(RuntimeError) as info:
        y.backward()
    assert str(info.value) == FREED_MESSAGE
    assert stepper.freed and stepper.finished
    assert "The graph was freed" in stepper.panel_html.value and "replay the steps recorded" in stepper.panel_html.value


def test_retain_graph_false_frees_only_at_the_very_end():
    y, _ = h.diamond()
    stepper = BackwardStepper(y)
    stepper.go_to(stepper.total - 1)
    assert "saved tensors freed" not in stepper.dot and not stepper.freed
    stepper.back()                                     # still possible: nothing freed yet
    stepper.step()
    stepper.step()
    assert stepper.freed and stepper.dot.count("saved tensors freed") == 3


def test_retain_graph_true_keeps_the_graph():
    y, leaves = h.diamond()
    stepper = BackwardStepper(y, retain_graph=True)
    stepper.run_to_end()
    assert stepper.step() is None                      # the engine has nothing more
    assert not stepper.controls.back.disabled and stepper.controls.play.disabled
    stepper.back()
    assert not stepper.controls.play.disabled
    stepper.run_to_end()
    y.backward()                                      # the graph is still there
    y2, leaves2 = h.diamond()
    y2.backward()
    assert leaves["x"].grad.item() == pytest.approx(2 * leaves2["x"].grad.item())


def test_non_scalar_output_with_gradient():
    def make():
        x = h.leaf([1.0, 2.0, 3.0])
        return x * x, {"x": x}
    y, leaves = make()
    y.backward(minigrad.tensor([1.0, 0.5, -1.0]))
    y2, leaves2 = make()
    stepper = BackwardStepper(y2, gradient=minigrad.tensor([1.0, 0.5, -1.0]))
    stepper.run_to_end()
    assert grads(leaves2) == grads(leaves)
    assert "grad [1., 0.5, -1.]" in stepper.dot


def test_what_backward_printed_is_captured(capsys):
    y, leaves = h.loud()
    stepper = BackwardStepper(y, names=leaves)
    stepper.step()
    stepper.step()
    assert stepper.current.name == "LoudBackward"
    assert stepper.printed == ["", "Loud.backward got [1.0, 1.0]\n"]
    assert "Loud.backward got [1.0, 1.0]" in stepper.panel_html.value
    assert capsys.readouterr().out == ""


def test_unmaterialized_gradient_arrives_as_none():
    y, leaves = h.two_outputs()
    stepper = BackwardStepper(y, names=leaves)
    while stepper.current is None or stepper.current.name != "TwoOutputsBackward":
        stepper.step()
    record = stepper.current
    assert record.grad_outputs[0] is None and record.grad_outputs[1].tolist() == [6.0, -6.0]
    assert "[0] <code>None</code>" in stepper.panel_html.value
    assert "needs_input_grad: <code>(True,)</code>" in stepper.panel_html.value


def test_panel_shows_ctx_saved_destinations_and_leaf_grads():
    y, leaves = h.custom()
    stepper = BackwardStepper(y, names=leaves)
    stepper.go_to(4)
    assert stepper.current.name == "MulConstantBackward"
    panel = stepper.panel_html.value
    assert "ctx.constant = <code>2.5</code>" in panel
    assert "saved tensors<br>&nbsp;&nbsp;[0] <code>[1., 2.]</code>" in panel
    assert "→ torch::autograd::AccumulateGrad of x" in panel
    stepper.step()
    assert "adds it into x.grad: <code>None</code> → <code>[7.5, -2.5]</code>" in stepper.panel_html.value


def test_picture_highlights_current_node_and_labels_gradient_edges():
    y, leaves = h.reused()
    stepper = BackwardStepper(y, names=leaves)
    assert "label=<grad 1>" in stepper.dot and "penwidth=2.5" not in stepper.dot
    stepper.step()
    stepper.step()
    current = [line for line in stepper.dot.splitlines() if "penwidth=2.5" in line and "[label=<<B>" in line]
    assert len(current) == 1 and "MulBackward0" in current[0] and "step 2" in current[0]
    assert stepper.dot.count("label=<[2., -4., 6.]") == 0      # not yet: the accumulate step has not run
    assert stepper.dot.count("label=<[1., -2., 3.]") == 2     # both edges of x * x carried x's values


def test_handlers_drive_the_stepper():
    y, leaves = h.mlp()
    stepper = BackwardStepper(y, names=leaves)
    stepper.on_step(None)
    stepper.controls.step.click()                      # the button is wired to the handler
    assert stepper.position == 2
    stepper.on_slider({"new": 6})
    assert stepper.position == 6 and stepper.controls.play.value == 6
    stepper.on_play({"new": 7})
    assert stepper.position == 7 and stepper.controls.slider.value == 7
    stepper.on_back(None)
    assert stepper.position == 6
    stepper.on_speed({"new": 300})
    assert stepper.controls.play.interval == 300
    stepper.on_run(None)
    assert stepper.finished and stepper.controls.slider.value == stepper.total
    assert stepper.controls.step.disabled and not stepper.controls.play.playing


def test_widget_state_is_the_same_for_identical_graphs():
    (y1, l1), (y2, l2) = h.mlp(), h.mlp()
    s1, s2 = BackwardStepper(y1, names=l1), BackwardStepper(y2, names=l2)
    for _ in range(s1.total):
        assert s1.dot == s2.dot and s1.panel_html.value == s2.panel_html.value and repr(s1) == repr(s2)
        s1.step()
        s2.step()
    assert "0x" not in repr(s1) and repr(s1).startswith("<BackwardStepper: step")


@h.needs_dot
def test_svg_is_shown():
    y, leaves = h.diamond()
    stepper = BackwardStepper(y, names=leaves)
    assert stepper.graph_html.value.startswith("<svg")


def test_an_error_in_backward_is_shown_not_lost():
    class WrongCount(minigrad.autograd.Function):
        @staticmethod
        def forward(x, y):
            return x * y

        @staticmethod
        def setup_context(ctx, inputs, output):
            pass

        @staticmethod
        def backward(ctx, g):
            return g                                      # forgot the second gradient
    x, w = h.leaf(1.0), h.leaf(2.0)
    stepper = BackwardStepper(WrongCount.apply(x, w))
    stepper.on_step(None)
    assert stepper.error == ("RuntimeError: function WrongCountBackward returned an incorrect number of gradients "
                             "(expected 2, got 1)")
    assert "incorrect number of gradients" in stepper.panel_html.value
    assert stepper.position == 0 and stepper.total == 3
    with pytest.raises(RuntimeError, match="incorrect number"):
        stepper.step()
    assert stepper.position == 0 and x.grad is None


def test_an_error_midway_keeps_the_steps_before_it():
    def hook(g):
        raise ValueError("hook says no")
    y, leaves = h.mlp()
    leaves["b1"].register_hook(hook)
    stepper = BackwardStepper(y, names=leaves, retain_graph=True)
    stepper.on_run(None)
    assert stepper.error == "ValueError: hook says no" and not stepper.finished
    assert 0 < stepper.position < stepper.total
    expected = direct(h.mlp, stepper.position)[0]
    assert same_records(stepper.steps, expected)


def test_a_leaf_as_output():
    x = h.leaf(3.0)
    stepper = BackwardStepper(x)
    stepper.run_to_end()
    assert x.grad.item() == 1.0 and [r.name for r in stepper.steps] == ["torch::autograd::AccumulateGrad"]


def test_bad_inputs():
    with pytest.raises(InputTypeError, match="BackwardStepper expected a minigrad Tensor, but got a numpy.ndarray"):
        BackwardStepper(np.ones(3))
    with pytest.raises(InputValueError, match="does not require grad"):
        BackwardStepper(minigrad.tensor(1.0))
    x = h.leaf([1.0, 2.0])
    with pytest.raises(RuntimeError) as from_backward:
        (x * 2.0).backward()
    with pytest.raises(InputValueError) as info:
        BackwardStepper(x * 2.0)
    assert str(info.value).startswith(str(from_backward.value) + " (")
    with pytest.raises(RuntimeError) as from_backward:
        (x * 2.0).backward(minigrad.tensor([1.0, 2.0, 3.0]))
    with pytest.raises(InputValueError) as info:
        BackwardStepper(x * 2.0, gradient=minigrad.tensor([1.0, 2.0, 3.0]))
    assert str(info.value) == str(from_backward.value)
    with pytest.raises(TypeError) as from_backward:
        (x * 2.0).backward([1.0, 1.0])
    with pytest.raises(InputTypeError) as info:
        BackwardStepper(x * 2.0, gradient=[1.0, 1.0])
    assert str(info.value) == str(from_backward.value)
    y, _ = h.diamond()
    y.backward()
    with pytest.raises(InputValueError, match="already used by a backward pass that freed it"):
        BackwardStepper(y)


def test_a_ctx_attribute_called_name_does_not_confuse_the_stepper():
    class Named(minigrad.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.name = "not the node name"
            return x * 2.0

        @staticmethod
        def backward(ctx, g):
            return g * 2.0
    x = h.leaf(1.0)
    stepper = BackwardStepper(Named.apply(x), x=x)
    stepper.step()
    assert stepper.current.name == "NamedBackward"
    assert "<B>NamedBackward</B>" in stepper.dot
    assert "ctx.name = <code>&#39;not the node name&#39;</code>" in stepper.panel_html.value


# ---- a create_graph=True pass -------------------------------------------------------------------------
def test_a_create_graph_pass_records_gradients_that_can_be_differentiated_again():
    x = minigrad.tensor(2.0, dtype=minigrad.float64, requires_grad=True)
    stepper = BackwardStepper(x ** 3, create_graph=True, x=x)
    stepper.run_to_end()
    assert x.grad is not None and x.grad.item() == 12.0, f"received x.grad {x.grad}, expected 3 * 2**2 = 12"
    assert x.grad.grad_fn is not None, "received a gradient without grad_fn from a create_graph=True pass"
    (second,) = minigrad.autograd.grad(x.grad, x)
    assert second.item() == 12.0, f"received d2/dx2 {second.item()}, expected 6 * 2 = 12"
    assert "grad_fn=" in stepper.panel_html.value + stepper.dot, "the panel and picture never name a grad_fn"
    stepper.back()          # create_graph implies retain_graph: stepping back still works
    assert stepper.position == stepper.total - 1


@pytest.mark.parametrize("retain", [False, True])
def test_grads_before_are_the_steppers_own_copies(retain):
    """The engine copies no `.grad` for views: the stepper keeps, per AccumulateGrad step, the leaf's `.grad`
    before that step (None on a first backward; the first gradient on a second one), also in the replays."""
    x = minigrad.tensor([1.0, 2.0, 3.0], requires_grad=True)
    w = minigrad.tensor([0.5, -1.0, 2.0], requires_grad=True)
    y = (x * w).sum()
    first = BackwardStepper(y, retain_graph=True, x=x, w=w)
    first.run_to_end()
    accumulated = [r for r in first.steps if r.variable is not None]
    assert len(accumulated) == 2, f"received {[r.name for r in first.steps]}"
    assert all(r.grad_before is None for r in accumulated), (
        f"received {[r.grad_before for r in accumulated]}, expected None before the first backward's AccumulateGrad steps")
    second = BackwardStepper(y, retain_graph=retain, x=x, w=w)
    second.run_to_end()
    for _ in range(2):              # the pass itself, then (retain_graph=False) a replay of it after Reset
        for record in (r for r in second.steps if r.variable is not None):
            other = w if record.variable is x else x
            before = record.grad_before
            assert before.tolist() == other.tolist(), f"received {before}, expected {other}"
            assert record.grad_after.tolist() == (2 * other).tolist(), (
                f"received {record.grad_after}, expected {2 * other}")
            assert f"{before}" != f"{record.grad_after}"
        second.reset()
        second.run_to_end()
    panel = second.panel_html.value     # the last step adds x (the gradient for w) into w.grad, which held x
    assert "adds it into w.grad: <code>[1., 2., 3.]</code> → <code>[2., 4., 6.]</code>" in panel, panel
