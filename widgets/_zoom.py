"""How big a graph picture is shown: fitted to the width available (the default), or at a zoom level.

Fitted, the whole graph is in view: a wide (or tall) graph shrinks to the width of the output area and three
quarters of the window's height (it never grows).
Zoomed (100 %, +, −), the picture is a window onto the graph at that scale, centred on the node of interest
(a stepper's current node) and clamped to the graph's edges: after every step the current node is in view
without scrolling, because the window follows it. Everything here is a rewrite of the SVG's size and viewBox;
nothing runs in the browser, so the same picture works in JupyterLab, in a PNG and on the static site.

Example:
    >>> zoom = Zoom()
    >>> zoom.zoom_in(); zoom.label
    '125 %'
"""
import re

from .i18n import _

PX_PER_PT = 96 / 72               # Graphviz sizes SVGs in points
WINDOW_PX = (880, 520)            # the largest zoomed window: about the width of a notebook's output area
WIDE_PX = 520                     # a graph wider than this (at 100 %) gets the panel below it, not beside it
LEVELS = (0.25, 4.0)              # the smallest and largest zoom
STEP = 1.25

_SIZE = re.compile(r'<svg width="([\d.]+)pt" height="([\d.]+)pt"\s+viewBox="([-\d. ]+)"')
_TRANSLATE = re.compile(r'<g id="graph0" class="graph" transform="[^"]*translate\(([-\d.]+) ([-\d.]+)\)')


class Zoom:
    """The zoom state of one picture: `level` is None when fitted, else a scale (1.0 is 100 %)."""

    def __init__(self):
        self.level = None

    @property
    def label(self):
        return _("fit") if self.level is None else f"{round(self.level * 100)} %"

    def fit(self):
        self.level = None

    def actual(self):
        self.level = 1.0

    def zoom_in(self, svg=None):
        self.level = min(self._start(svg) * STEP, LEVELS[1])

    def zoom_out(self, svg=None):
        self.level = max(self._start(svg) / STEP, LEVELS[0])

    def _start(self, svg):
        """The scale to zoom from: the level, or when fitted, the scale at which the graph fits the window."""
        if self.level is not None:
            return self.level
        size = svg_size(svg) if svg else None
        return min(1.0, WINDOW_PX[0] / (size[0] * PX_PER_PT)) if size else 1.0

    def apply(self, svg, focus=None):
        """Return `svg` sized for this zoom, its window centred on the node named `focus` (a DOT name)."""
        size = svg_size(svg)
        if size is None:                          # a message, not a graph
            return svg
        width, height = size
        if self.level is None:
            return _resize(svg, f"{width:.2f}pt", f"{height:.2f}pt", None,
                           style="max-width:100%;max-height:75vh;height:auto")
        scale = self.level * PX_PER_PT            # pixels per graph point
        win_w, win_h = min(width * scale, WINDOW_PX[0]), min(height * scale, WINDOW_PX[1])
        view_w, view_h = win_w / scale, win_h / scale
        cx, cy = node_centre(svg, focus) or (width / 2, view_h / 2)
        x = min(max(cx - view_w / 2, 0.0), width - view_w)
        y = min(max(cy - view_h / 2, 0.0), height - view_h)
        return _resize(svg, f"{win_w:.0f}px", f"{win_h:.0f}px", f"{x:.2f} {y:.2f} {view_w:.2f} {view_h:.2f}",
                       style="max-width:none")


def svg_size(svg):
    """(width, height) of a Graphviz SVG in points, or None if `svg` is not one."""
    match = _SIZE.search(svg or "")
    if match is None:
        return None
    box = [float(v) for v in match.group(3).split()]
    return box[2], box[3]


def is_wide(svg):
    """True if the graph is too wide, at 100 %, to share the row with a panel."""
    size = svg_size(svg)
    return size is not None and size[0] * PX_PER_PT > WIDE_PX


def node_centre(svg, name):
    """The centre of the node whose DOT name is `name`, in viewBox coordinates (or None if not drawn)."""
    if not name:
        return None
    start = svg.find(f"<title>{name}</title>")
    shift = _TRANSLATE.search(svg)
    if start < 0 or shift is None:
        return None
    group = svg[start:svg.find("</g>", start)]
    points = [(float(x), float(y)) for x, y in re.findall(r"(-?[\d.]+),(-?[\d.]+)", group)]
    if not points:
        return None
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return (min(xs) + max(xs)) / 2 + float(shift.group(1)), (min(ys) + max(ys)) / 2 + float(shift.group(2))


def _resize(svg, width, height, view_box, style):
    match = _SIZE.search(svg)
    view = view_box or match.group(3)
    head = f'<svg width="{width}" height="{height}" style="{style}" viewBox="{view}"'
    return svg[:match.start()] + head + svg[match.end():]
