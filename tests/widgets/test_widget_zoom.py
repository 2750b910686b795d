"""Graphs fit: fitted to the width by default, zoom levels as windows that follow the current node, the panel
below a wide graph, and the pictures a notebook stores for readers without a kernel."""
import base64
import re

import pytest
import widget_helpers as h

import minigrad as torch
from minigrad import nn
from widgets import BackwardStepper, GraphView, ModuleApplyView, draw_graph
from widgets._zoom import WINDOW_PX, Zoom

PX_PER_PT = 96 / 72


def svg_box(svg):
    """(width, height, viewBox) as the SVG element's attributes say them."""
    head = re.search(r'<svg width="([\d.]+)(pt|px)" height="([\d.]+)(pt|px)"[^>]*viewBox="([-\d. ]+)"', svg)
    return float(head[1]), float(head[3]), [float(v) for v in head[5].split()]


def text_positions(svg, name):
    """Where Graphviz wrote the text of node `name`, in viewBox coordinates (its own translate applied)."""
    shift = re.search(r'class="graph" transform="[^"]*translate\(([-\d.]+) ([-\d.]+)\)', svg)
    group = svg[svg.index(f"<title>{name}</title>"):]
    group = group[:group.index("</g>")]
    return [(float(x) + float(shift[1]), float(y) + float(shift[2]))
            for x, y in re.findall(r'<text[^>]* x="(-?[\d.]+)" y="(-?[\d.]+)"', group)]


def wide_net():
    torch.manual_seed(0)
    net = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 4), nn.ReLU(), nn.Linear(4, 1))
    x = torch.randn(5, 3)
    return net, ((net(x) - 1) ** 2).mean()


def test_a_graph_is_fitted_to_the_width_by_default_and_keeps_its_proportions():
    net, loss = wide_net()
    view = GraphView(loss, model=net)
    raw = view.picture.svg
    width, height, box = svg_box(view.html.value)
    assert view.picture.zoom.label == "fit" and 'style="max-width:100%;max-height:75vh;height:auto"' in view.html.value
    assert (width, height) == pytest.approx(svg_box(raw)[:2], abs=0.01) and box == svg_box(raw)[2]


def test_zoom_buttons_change_the_level_and_fit_comes_back():
    zoom = Zoom()
    zoom.actual()
    assert zoom.label == "100 %"
    zoom.zoom_in()
    zoom.zoom_in()
    assert zoom.level == pytest.approx(1.5625)
    for _ in range(20):
        zoom.zoom_out()
    assert zoom.label == "25 %"                  # the smallest level, not zero or negative
    zoom.fit()
    assert zoom.level is None


def test_zooming_in_from_fit_starts_from_the_scale_that_fits_the_window():
    net, loss = wide_net()
    view = GraphView(loss, model=net)
    natural_px = svg_box(view.picture.svg)[2][2] * PX_PER_PT
    view.picture.buttons[2].click()              # "+"
    assert view.picture.zoom.level == pytest.approx(min(1.0, WINDOW_PX[0] / natural_px) * 1.25)


@pytest.mark.parametrize("level", [1.0, 2.0, 4.0])
def test_after_every_step_the_current_node_is_inside_the_zoomed_window(level):
    net, loss = wide_net()
    stepper = BackwardStepper(loss, model=net)
    stepper.picture.zoom.level = level
    while not stepper.finished:
        stepper.step()
        svg, focus = stepper.graph_html.value, stepper.picture.digraph.focus
        width_px, height_px, (x, y, w, h) = svg_box(svg)
        assert width_px <= WINDOW_PX[0] and height_px <= WINDOW_PX[1]
        assert w / h == pytest.approx(width_px / height_px, rel=0.01), "the window is not distorted"
        full = svg_box(stepper.picture.svg)[2]
        assert x >= 0 and y >= 0 and x + w <= full[2] + 0.01 and y + h <= full[3] + 0.01, "window off the graph"
        inside = [x <= tx <= x + w and y <= ty <= y + h for tx, ty in text_positions(svg, focus)]
        # every line of the node's text is in view; at 400 % a node can be wider than the window: most of it is
        assert all(inside) if level < 4 else sum(inside) >= len(inside) / 2, f"step {stepper.position}: {focus}"


def test_the_panel_goes_below_a_wide_graph_and_beside_a_narrow_one():
    net, loss = wide_net()
    wide = BackwardStepper(loss, model=net)
    a = torch.tensor(2.0, requires_grad=True)
    narrow = BackwardStepper(a * a)
    assert wide._row.layout.flex_flow == "column" and narrow._row.layout.flex_flow == "row"


def is_png(text):
    return base64.b64decode(text)[:8] == b"\x89PNG\r\n\x1a\n"


def test_every_widget_output_carries_a_png_and_a_text_that_says_what_it_is():
    net, loss = wide_net()
    outputs = {"GraphView": GraphView(loss, model=net), "BackwardStepper": BackwardStepper(loss, model=net),
               "ModuleApplyView": ModuleApplyView(net)}
    for kind, widget in outputs.items():
        data = widget._repr_mimebundle_()
        assert "application/vnd.jupyter.widget-view+json" in data and is_png(data["image/png"]), kind
        assert data["text/plain"].startswith(kind) and " at 0x" not in data["text/plain"], data["text/plain"]
    assert "LinearBackward" not in outputs["ModuleApplyView"]._repr_mimebundle_()["text/plain"]
    assert "AddmmBackward0" in outputs["GraphView"]._repr_mimebundle_()["text/plain"]


def test_draw_graph_shows_svg_and_png_and_a_readable_text_not_an_address():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    data = draw_graph((a * a).sum(), a=a)._repr_mimebundle_()
    assert set(data) == {"text/plain", "image/svg+xml", "image/png"} and is_png(data["image/png"])
    assert data["text/plain"] == ("<autograd graph of 3 nodes: SumBackward0, MulBackward0, "
                                  "torch::autograd::AccumulateGrad>")
