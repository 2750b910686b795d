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

from .i18n import N_, _, using_language

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


EDITION_FOLDERS = {"en": "", "zh": "zh/"}     # each edition's folder, on the static site and in the live edition
EDITION_NAMES = {"en": "English", "zh": "中文"}  # each edition's name in its own language: the link to it


def chapter_links(stem, edition="en", site=False):
    """Show the links out of live chapter `stem` of `edition` ("en" or "zh"), in that edition's language.

    One goes to the same chapter in the other edition: a relative link, which JupyterLab opens as a file, in a new
    tab of this live edition. With `site` (the live edition is served as the static site's live/, `make publish`),
    one goes to the chapter's page on the static site. The kernel runs in a web worker whose script lives under
    `<site>/live/extensions/...`: the site is the folder above `live/`, whatever prefix the host serves it under.

    Example (the set-up cell of the live copy of book/zh/04_function_apply.ipynb, from `make publish`):
        >>> widgets.browser.chapter_links("04_function_apply", "zh", site=True)
    """
    from IPython.display import HTML
    other = _other(edition)
    up = "../" * EDITION_FOLDERS[edition].count("/")
    links = [f'<a href="{up}{EDITION_FOLDERS[other]}{html.escape(stem)}.ipynb" hreflang="{other}" lang="{other}">'
             f'{EDITION_NAMES[other]}</a>']
    if site:
        import js                          # Pyodide's view of the worker's JavaScript globals
        url = site_page_url(str(js.location.href), stem, edition)
        with using_language(edition):      # the set-up cell runs before the chapter's own set_language
            text, note = _("The static page of this chapter"), _("(steps recorded, no kernel)")
        links.insert(0, f'<a href="{html.escape(url)}" target="_blank">{html.escape(text)}</a> {html.escape(note)}')
    return HTML(" · ".join(links))


def site_page_url(worker_url, stem, edition="en"):
    """`https://host/prefix/live/extensions/x.js`, "04_a" -> `https://host/prefix/04_a.html`; the Chinese
    edition's pages are in its folder: `https://host/prefix/zh/04_a.html`."""
    live = worker_url.split("/extensions/", 1)[0]
    return live.rsplit("/", 1)[0] + f"/{EDITION_FOLDERS[edition]}{stem}.html"


def _other(edition):
    if edition not in EDITION_FOLDERS:
        raise ValueError(f"chapter_links expected the edition 'en' or 'zh', but got {edition!r}.")
    return "zh" if edition == "en" else "en"
