"""BackwardStepper after a retain_graph=False pass (a replay of the records), and what its picture and panel say."""
import numpy as np
import pytest
import widget_helpers as h
from widget_helpers import direct, grads

from minigrad.autograd.graph import FREED_MESSAGE
from widgets import BackwardStepper
from widgets.stepper import FREED_NOTE

GRAPHS = sorted(h.GRAPHS)


def grads_after(make, n):
    """The leaves' .grad after the engine's first n steps, on a fresh copy of the graph."""
    return grads(make()[1] if n == 0 else direct(make, n, retain_graph=True)[1])


@pytest.mark.parametrize("name", GRAPHS)
def test_after_the_graph_is_freed_back_reset_and_the_slider_replay_the_recorded_steps(name):
    make = h.GRAPHS[name]
    y, leaves = make()
    stepper = BackwardStepper(y, names=leaves)
    stepper.run_to_end()
    records, total = list(stepper.steps), stepper.total
    for n in [total - 1, 0, total // 2, total, 1]:
        stepper.go_to(n)
        assert stepper.steps == records[:n], f"after go_to({n}) the steps are not the recorded ones"
        assert grads(leaves) == grads_after(make, n), f"after go_to({n}): received {grads(leaves)}"
        assert stepper.freed and stepper.finished == (n == total)
    with pytest.raises(RuntimeError) as info:          # the replays never ran the engine on the freed graph
        y.backward()
    assert str(info.value) == FREED_MESSAGE


def test_replay_buttons_step_back_and_forth_after_the_end():
    make = h.mlp
    y, leaves = make()
    stepper = BackwardStepper(y, names=leaves)
    stepper.on_run(None)
    total, c = stepper.total, stepper.controls
    assert stepper.error is None
    assert c.step.disabled and c.run.disabled and c.play.disabled, "Step, Run to end and Play work no more"
    assert not c.back.disabled and not c.reset.disabled, "Back and Reset must keep working after the end"
    stepper.on_back(None)
    assert stepper.position == total - 1 and stepper.error is None
    assert not (c.step.disabled or c.run.disabled or c.play.disabled), "after Back, Step and Play work again"
    assert grads(leaves) == grads_after(make, total - 1)
    assert f"Step {total - 1} of {total}" in stepper.panel_html.value and FREED_NOTE[:20] in stepper.panel_html.value
    stepper.on_step(None)
    assert stepper.finished and grads(leaves) == grads_after(make, total)
    stepper.on_reset(None)
    assert stepper.position == 0 and stepper.current is None and grads(leaves) == grads_after(make, 0)
    assert c.back.disabled and not c.play.disabled
    stepper.on_play({"new": 3})
    assert stepper.position == 3 and c.slider.value == 3
    stepper.on_slider({"new": total})
    assert stepper.finished and c.play.disabled and not c.back.disabled
    stepper.on_run(None)
    y2, leaves2 = make()
    y2.backward()
    assert grads(leaves) == grads(leaves2), "replays added into .grad twice"


def test_a_replay_restores_copies_so_the_records_cannot_be_changed():
    y, leaves = h.custom()
    stepper = BackwardStepper(y, names=leaves)
    stepper.run_to_end()
    leaves["x"].grad.mul_(0.0)                # the learner changes .grad in place ...
    stepper.back()
    stepper.step()
    assert leaves["x"].grad.tolist() == [7.5, -2.5]
    leaves["x"].grad.mul_(0.0)                # ... also a .grad that a replay put there
    stepper.back()
    stepper.step()
    assert leaves["x"].grad.tolist() == [7.5, -2.5]


def test_a_replay_shows_what_backward_printed():
    y, leaves = h.loud()
    stepper = BackwardStepper(y, names=leaves)
    stepper.run_to_end()
    stepper.go_to(2)
    assert stepper.current.name == "LoudBackward" and "Loud.backward got [1.0, 1.0]" in stepper.panel_html.value


def test_reaching_the_last_step_of_a_fresh_stepper_keeps_back_and_reset():
    y, leaves = h.diamond()
    stepper = BackwardStepper(y, names=leaves)
    stepper.on_slider({"new": stepper.total})
    c = stepper.controls
    assert stepper.finished and not c.back.disabled and not c.reset.disabled
    assert c.play.disabled and not c.play.playing


# ---- names, the one values-or-shape rule, and which way the gradient arrows point ---------------------
def test_a_model_names_its_parameters_in_the_picture_and_the_panel():
    net, loss = h.two_layer_net()
    stepper = BackwardStepper(loss, model=net)
    assert {"fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias"} <= set(h.titles(stepper.dot))
    stepper.run_to_end()
    panel = stepper.panel_html.value
    for name in ("fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias"):
        assert f"{name}.grad = " in panel, f"the summary should list {name}.grad; received:\n{panel}"
    assert "the leaf of shape" not in panel


def test_edges_and_panel_follow_one_rule_for_values_or_shape():
    x = h.leaf([1.0, 2.0, 3.0, 4.0])
    big = h.leaf(np.ones((3, 3)).tolist())
    stepper = BackwardStepper((x * 2.0).sum() + (big * 1.0).sum(), x=x, big=big)
    stepper.run_to_end()
    edges = [attrs for _, _, attrs in h.parse_dot(stepper.dot)[1] if "e65100" in attrs]
    assert any("[2., 2., 2., 2.]" in a for a in edges), f"4 elements show their values on the edge: {edges}"
    assert any("a tensor of shape (3, 3)" in a for a in edges), f"9 elements show their shape: {edges}"
    panels = ""
    for n in range(1, stepper.total + 1):
        stepper.go_to(n)
        panels += stepper.panel_html.value
    assert "[2., 2., 2., 2.]" in panels and "a tensor of shape (3, 3)" in panels


def test_gradient_edges_of_the_stepper_point_backwards_with_a_legend():
    y, leaves = h.mlp()
    stepper = BackwardStepper(y, names=leaves)
    stepper.go_to(5)
    gradient_edges = [attrs for _, _, attrs in h.parse_dot(stepper.dot)[1] if "e65100" in attrs]
    assert gradient_edges and all("dir=back" in a for a in gradient_edges), f"received {gradient_edges}"
    assert "orange arrows: the gradient each step sent back" in stepper.dot


def test_panel_text_wraps_between_words_only():
    y, leaves = h.loud()
    stepper = BackwardStepper(y, names=leaves)
    stepper.go_to(2)
    panel = stepper.panel_html.value
    assert panel.count("word-break:normal") == 2, "the panel and its <pre> must override break-all"
    assert "white-space:pre-wrap" in panel
