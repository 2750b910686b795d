"""The picture area every widget shares: the graph as SVG, its zoom controls, and what a stored notebook shows.

A widget needs a running kernel to be seen. Opened without one (an untrusted notebook in JupyterLab, nbconvert
HTML, a code host's notebook viewer), the notebook shows the next best output it stored: `Stored` adds to the
widget's output a PNG of the picture as it was when the cell ran, and a one-line text saying what it is.
JupyterLab then shows the PNG where it cannot show the widget, and the widget where it can.
"""
import base64

import graphviz
import ipywidgets as w

from ._render import find_dot, svg_or_message
from ._zoom import Zoom, is_wide
from .i18n import _

# every widget displayed in this process, by model id, for the static site's recorder (see `recorded`)
SHOWN = {}


class Picture:
    """The graph area: `box` holds the zoom buttons and the SVG; `show(digraph)` redraws it."""

    def __init__(self, on_layout=None):
        self.zoom = Zoom()
        self.digraph, self.svg = None, ""
        self._on_layout = on_layout

        def button(description, tooltip, action):
            b = w.Button(description=description, tooltip=tooltip, layout=w.Layout(width="auto"))
            b.on_click(lambda _: self._zoomed(action))
            return b
        self.buttons = [button(_("fit"), _("the whole graph, as wide as the output area"), self.zoom.fit),
                        button("100 %", _("actual size; the view follows the current node"), self.zoom.actual),
                        button("+", _("zoom in"), lambda: self.zoom.zoom_in(self.svg)),
                        button("−", _("zoom out"), lambda: self.zoom.zoom_out(self.svg))]
        self.label = w.HTML(layout=w.Layout(margin="0 0 0 6px"))
        self.html = w.HTML(layout=w.Layout(overflow="auto"))
        self.box = w.VBox([w.HBox([w.HTML(_("zoom"), layout=w.Layout(margin="0 6px 0 0")), *self.buttons,
                                   self.label]), self.html])

    def show(self, digraph):
        """Draw `digraph` (its `focus` attribute names the node to keep in view when zoomed)."""
        self.digraph, self.svg = digraph, svg_or_message(digraph)
        self._draw()

    @property
    def wide(self):
        return is_wide(self.svg)

    def _zoomed(self, action):
        action()
        self._draw()

    def _draw(self):
        self.html.value = self.zoom.apply(self.svg, getattr(self.digraph, "focus", None))
        self.label.value = f"<span style='font-size:12px;color:#555'>{self.zoom.label}</span>"
        if self._on_layout is not None:
            self._on_layout()


def picture_row(picture, panel):
    """A row with the picture and the panel beside it; `arrange_row` puts the panel below a wide graph."""
    row = w.Box([picture.box, panel], layout=w.Layout(display="flex", width="100%"))
    picture.box.layout.flex = "3 1 0%"
    picture.box.layout.min_width = "0"
    panel.layout.flex = "2 1 0%"
    return row


def arrange_row(row, picture):
    """Picture and panel side by side, or the panel below when the graph is wide."""
    below = picture.wide
    row.layout.flex_flow = "column" if below else "row"
    row.children[1].layout.padding = "8px 0 0 0" if below else "0 0 0 12px"


def png_base64(digraph):
    """The picture as base64 PNG text, or None when no renderer can make a PNG."""
    if digraph is None or find_dot() is None:
        return None
    try:
        return base64.b64encode(digraph.pipe(format="png")).decode("ascii")
    except (graphviz.ExecutableNotFound, graphviz.CalledProcessError, ValueError):
        return None


class Stored:
    """Mixed into a widget: its output also carries a PNG of its picture and a plain-text description.

    The widget provides `picture` (a `Picture`) and `description()` (one line of text).
    """

    def _repr_mimebundle_(self, **kwargs):
        data = super()._repr_mimebundle_(**kwargs)
        if data is None:
            return None
        data["text/plain"] = self.description()
        png = png_base64(self.picture.digraph)
        if png is not None:
            data["image/png"] = png
        model = data.get("application/vnd.jupyter.widget-view+json", {}).get("model_id")
        if model:
            SHOWN[model] = (self, self.snapshot())
        return data

    def snapshot(self):
        """What the widget looks like now, for the static site (overridden by the steppers)."""
        return {"svg": self.picture.html.value}
