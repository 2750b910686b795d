"""ModuleApplyView: the visiting order is Module.apply's own, and fn's effects are reported per module."""
import pytest
import widget_helpers as h

import minigrad

nn = pytest.importorskip("minigrad.nn", reason="minigrad.nn is not written yet")

from widgets import InputTypeError, ModuleApplyView  # noqa: E402


class Net(nn.Module):
    """CONCEPTS.md §1: enc = Sequential(Linear, ReLU), head = Linear."""

    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(3, 2), nn.ReLU())
        self.head = nn.Linear(2, 1)

    def forward(self, x):
        return self.head(self.enc(x))


def zero_linear_weights(m):
    if isinstance(m, nn.Linear):
        m.weight.data.fill_(0.0)
        print("zeroed", type(m).__name__)


def apply_order(module):
    """What the real Module.apply visits, as qualified names (named_modules gives the names)."""
    names = {id(m): name for name, m in module.named_modules()}
    visited = []
    module.apply(lambda m: visited.append(names[id(m)]))
    return visited


def test_order_is_module_apply_order():
    net = Net()
    view = ModuleApplyView(net)
    assert view.order == apply_order(Net()) == ["enc.0", "enc.1", "enc", "head", ""]
    assert [type(v.module).__name__ for v in view.visits] == ["Linear", "ReLU", "Sequential", "Linear", "Net"]


def test_deeper_tree_order():
    model = nn.Sequential(nn.Sequential(nn.Linear(2, 2), nn.Sequential(nn.ReLU(), nn.Linear(2, 2))),
                          nn.Linear(2, 1), nn.Sequential())
    assert ModuleApplyView(model).order == apply_order(model)


def test_fn_is_really_applied_and_its_effects_reported():
    net = Net()
    view = ModuleApplyView(net, zero_linear_weights)
    assert net.enc[0].weight.abs().sum().item() == 0.0 and net.head.weight.abs().sum().item() == 0.0
    first = view.visits[0]
    assert first.name == "enc.0" and first.printed == "zeroed Linear\n"
    assert len(first.changes) == 1 and first.changes[0].startswith("weight: ")
    assert first.changes[0].endswith("→ (2, 3), all 0")
    assert view.visits[1].changes == [] and view.visits[4].changes == []
    view.go_to(1)
    assert "zeroed Linear" in view.panel_html.value and "all 0" in view.panel_html.value


def test_without_fn_nothing_changes():
    net = Net()
    before = [p.detach().clone().tolist() for p in net.parameters()]
    view = ModuleApplyView(net)
    assert [p.tolist() for p in net.parameters()] == before
    view.run_to_end()
    assert "no fn: order only" in view.panel_html.value


def test_stepping_through_handlers_and_the_picture():
    view = ModuleApplyView(Net(), zero_linear_weights)
    assert view.position == 0 and view.current is None and "visit 1" not in view.dot
    view.on_step(None)
    view.controls.step.click()
    assert view.position == 2 and view.current.name == "enc.1"
    current = [line for line in view.dot.splitlines() if "penwidth=2.5" in line]
    assert len(current) == 1 and "<B>enc.1</B>" in current[0] and "visit 2" in current[0]
    view.on_back(None)
    assert view.current.name == "enc.0"
    view.on_slider({"new": 4})
    assert view.current.name == "head" and view.controls.play.value == 4
    view.on_run(None)
    assert view.position == 5 and view.current.name == "" and "<B>(root)</B>" in view.dot
    assert view.controls.step.disabled and "returned the module itself" in view.panel_html.value
    view.on_reset(None)
    assert view.position == 0 and not view.controls.step.disabled


def test_the_view_is_never_dead_at_the_end():
    net = Net()
    view = ModuleApplyView(net, zero_linear_weights)
    view.on_slider({"new": view.total})
    c = view.controls
    assert c.step.disabled and c.run.disabled and c.play.disabled and not c.play.playing
    assert not c.back.disabled and not c.reset.disabled, "Back and Reset must keep working at the end"
    view.on_back(None)
    assert view.position == view.total - 1 and not c.play.disabled and not c.step.disabled
    view.on_reset(None)
    assert view.position == 0 and c.back.disabled and not c.reset.disabled
    assert "Back and Reset replay this record" in view.panel_html.value
    assert all(p.tolist() == [[0.0] * 3] * 2 for n, p in net.named_parameters() if n.endswith("0.weight"))


def test_tree_edges_follow_named_children():
    dot = ModuleApplyView(Net()).dot
    edges = h.titled_edges(dot)
    assert edges == sorted([("(root)", "enc"), ("(root)", "head"), ("enc", "enc.0"), ("enc", "enc.1")])
    assert "weight (2, 3), bias (2,)" in dot


def test_state_is_deterministic():
    a, b = ModuleApplyView(Net(), zero_linear_weights), ModuleApplyView(Net(), zero_linear_weights)
    for _ in range(6):
        assert a.dot == b.dot and repr(a) == repr(b)
        a.step()
        b.step()
    assert "0x" not in a.dot + repr(a)


def test_hostile_module_names_are_escaped():
    net = nn.Module()
    hostile = 'x"] ; <script>alert(1)</script> {'
    setattr(net, hostile, nn.Linear(1, 1))
    view = ModuleApplyView(net, zero_linear_weights)
    assert view.order == [hostile, ""]
    assert "<script>" not in view.dot and "&lt;script&gt;" in view.dot
    view.step()
    assert "<script>" not in view.panel_html.value
    assert h.titles(view.dot) == sorted(["(root)", hostile])


def test_bad_inputs():
    with pytest.raises(InputTypeError, match="expected a minigrad nn.Module, but got a minigrad.Tensor"):
        ModuleApplyView(minigrad.ones(2))
    with pytest.raises(InputTypeError, match="expected fn to be a function"):
        ModuleApplyView(Net(), fn=3)
