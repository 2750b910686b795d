"""GraphView through its handlers, finding a renderer (dot or graphviz-pure), and the import boundary."""
import ast
import sys
from pathlib import Path

import graphviz
import numpy as np
import pytest
import widget_helpers as h
from graphviz.backend import dot_command

import minigrad
from widgets import NO_DOT_MESSAGE, GraphView, InputTypeError, InputValueError, draw_graph
from widgets import _render

WIDGETS = Path(__file__).resolve().parents[2] / "widgets"


def test_graph_view_shows_the_graph_and_its_source():
    y, names = h.custom()
    view = GraphView(y, names=names)
    assert view.dot == draw_graph(y, names=names).source
    assert isinstance(view.digraph, graphviz.Digraph)
    assert repr(view) == "<GraphView of 1 tensor>"


def test_graph_view_names_the_parameters_of_a_model():
    net, loss = h.two_layer_net()
    view = GraphView(loss, model=net)
    assert view.dot == draw_graph(loss, model=net).source
    assert {"fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias"} <= set(h.titles(view.dot))


def test_refresh_after_backward_shows_grads():
    y, names = h.custom()
    view = GraphView(y, **names)
    assert "grad: None" in view.dot
    y.backward()
    html_before = view.html.value
    view.on_refresh(None)
    assert "grad: [7.5, -2.5]" in view.dot and "saved tensors freed" in view.dot
    if _render.find_dot() is not None:
        assert view.html.value != html_before and "7.5" in view.html.value


def test_checkboxes_redraw_with_options():
    y, names = h.diamond()
    view = GraphView(y, names=names)
    assert "saved" in view.dot and "44.3343" in view.dot
    view.saved_box.value = False            # the observer calls on_option
    view.values_box.value = False
    assert "saved" not in view.dot and "44.3343" not in view.dot
    if _render.find_dot() is not None:
        assert "44.3343" not in view.html.value


def test_graph_view_bad_input():
    with pytest.raises(InputTypeError, match="GraphView expected a minigrad Tensor as argument 0"):
        GraphView(np.zeros(2))
    with pytest.raises(InputValueError, match="does not require grad"):
        GraphView(minigrad.ones(2))
    with pytest.raises(InputTypeError, match="at least one"):
        GraphView()


@h.needs_dot
def test_svg_is_inline_and_starts_at_the_svg_element():
    y, names = h.diamond()
    svg = GraphView(y, names=names).html.value
    assert svg.startswith("<svg") and "<?xml" not in svg and "<!DOCTYPE" not in svg
    assert svg.count('class="node"') == len(h.parse_dot(draw_graph(y, names=names).source)[0])


@pytest.fixture
def no_system_dot(monkeypatch, tmp_path):
    """A machine with no `dot` on PATH; the scripts folder is an empty temporary one."""
    monkeypatch.setattr(dot_command, "DOT_BINARY", Path("dot"))
    monkeypatch.setattr(_render.shutil, "which", lambda name: name if Path(name).is_absolute() and Path(
        name).exists() else None)
    monkeypatch.setattr(_render.sysconfig, "get_path", lambda name: str(tmp_path))
    return tmp_path


def test_graphviz_pure_is_used_when_there_is_no_dot(no_system_dot):
    pure = no_system_dot / "graphviz-pure"
    pure.write_text("#!/bin/sh\n")
    assert _render.find_dot() == pure
    assert dot_command.DOT_BINARY == pure


def test_no_renderer_gives_a_message_not_a_traceback(no_system_dot):
    assert _render.find_dot() is None
    y, names = h.diamond()
    view = GraphView(y, names=names)
    assert "minigrad-message" in view.html.value and "make dot" in view.html.value
    assert view.dot.startswith("digraph")             # the source is still there
    bundle = draw_graph(y)._repr_mimebundle_()
    assert bundle["text/plain"] == NO_DOT_MESSAGE
    assert "graphviz-pure" in NO_DOT_MESSAGE


def test_a_system_dot_is_preferred(monkeypatch, tmp_path):
    monkeypatch.setattr(dot_command, "DOT_BINARY", Path("dot"))
    monkeypatch.setattr(_render.shutil, "which", lambda name: "/usr/bin/dot")
    monkeypatch.setattr(_render.sysconfig, "get_path", lambda name: str(tmp_path))
    (tmp_path / "graphviz-pure").write_text("")
    assert _render.find_dot() == Path("dot") and dot_command.DOT_BINARY == Path("dot")


def imported_modules(path):
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("path", sorted(WIDGETS.glob("*.py")), ids=lambda p: p.name)
def test_widgets_import_only_minigrad_ipywidgets_graphviz_numpy_and_stdlib(path):
    # IPython comes with ipywidgets; pyodide and js exist only in the browser kernel (widgets/browser.py)
    allowed = {"minigrad", "ipywidgets", "graphviz", "numpy", "IPython", "pyodide", "js"} | set(sys.stdlib_module_names)
    assert imported_modules(path) <= allowed, path.name
    assert len(path.read_text().splitlines()) <= 300, f"{path.name} is over 300 lines"


def test_minigrad_does_not_import_widgets():
    for path in (WIDGETS.parent / "minigrad").rglob("*.py"):
        assert "widgets" not in imported_modules(path), path
