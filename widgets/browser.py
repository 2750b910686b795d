"""Draw graphs in the browser (the book's live edition: JupyterLite on Pyodide), where there is no `dot` program.

There, Graphviz compiled to WebAssembly (@viz-js/viz, MIT) turns the same DOT source into the same kind of SVG
that `dot` makes on a machine. Its script ships inside this package (`_vendor/viz-global.js`, put into the
wheel by lite/build.py) and runs in the kernel's own worker: it loads from the package, not from a web server.
Compiling the WebAssembly is asynchronous, so it starts when `widgets` is imported and the live edition's
chapters begin with `await widgets.browser.ready()`; each drawing after that is synchronous, like `dot`.

Which renderer draws is decided by the platform (`sys.platform == "emscripten"` in Pyodide), never by a flag.
"""
import asyncio
import html
import sys
from importlib import resources

import graphviz

from .i18n import N_, _

SCRIPT = ("_vendor", "viz-global.js")
NOT_READY = N_("Graphviz (compiled to WebAssembly) is not loaded yet in this browser kernel, so the graph cannot be "
             "drawn: run `import widgets.browser; await widgets.browser.ready()` in a cell, then draw again.")

_render = None        # once loaded: a function DOT source -> SVG text
_loading = None       # the task that loads it


def in_browser():
    """Return True in a browser kernel (Pyodide), where graphs are drawn by Graphviz as WebAssembly."""
    return sys.platform == "emscripten"


async def ready():
    """Wait until Graphviz (WebAssembly) is loaded into this kernel; at once outside the browser.

    Example:
        >>> import widgets.browser
        >>> await widgets.browser.ready()
    """
    if in_browser():
        await start()


def start():
    """Begin loading Graphviz (WebAssembly), once; return the task that does it."""
    global _loading
    if _loading is None:
        _loading = asyncio.ensure_future(_load())
    return _loading


async def _load():
    global _render
    from pyodide.code import run_js        # the platform's own module: only in Pyodide

    script = resources.files("widgets").joinpath(*SCRIPT).read_bytes().decode("utf-8")   # byte for byte
    run_js(script)                         # a plain script: it defines globalThis.Viz
    viz = await run_js("globalThis.Viz.instance()")
    draw = run_js("(viz, dot) => viz.renderString(dot, {format: 'svg'})")
    _render = lambda source: draw(viz, source)     # noqa: E731


def render_svg(source):
    """Return the SVG text of the DOT `source`, drawn by Graphviz (WebAssembly).

    Raises:
        RuntimeError if Graphviz is not loaded yet (see `ready`);
        graphviz.CalledProcessError if Graphviz cannot draw the source, as when `dot` fails.
    """
    if _render is None:
        raise RuntimeError(_(NOT_READY))
    try:
        svg = _render(source)
    except Exception as error:             # pyodide.ffi.JsException: viz.js's Error, e.g. a syntax error
        raise graphviz.CalledProcessError(1, ["viz.js", "-Tsvg"], stderr=str(error)) from error
    start_at = svg.find("<svg")
    return svg[start_at:] if start_at >= 0 else svg


if in_browser():
    start()      # load while the learner reads: the first drawing usually finds it ready


def static_page(stem):
    """Show a link to chapter `stem`'s page on the static site, when the live edition is served as its live/.

    The kernel runs in a web worker whose script lives under `<site>/live/extensions/...`: the site is the folder
    above `live/`, whatever prefix the host serves it under.
    """
    from IPython.display import HTML
    import js                              # Pyodide's view of the worker's JavaScript globals
    url = site_page_url(str(js.location.href), stem)
    text, note = _("The static page of this chapter"), _("(steps recorded, no kernel)")
    return HTML(f'<a href="{html.escape(url)}" target="_blank">{html.escape(text)}</a> {html.escape(note)}')


def site_page_url(worker_url, stem):
    """`https://host/prefix/live/extensions/x.js`, "04_a" -> `https://host/prefix/04_a.html`."""
    live = worker_url.split("/extensions/", 1)[0]
    return live.rsplit("/", 1)[0] + f"/{stem}.html"
