#!/usr/bin/env python3
"""Build the book as a static site that works offline and from file:// (`make site`).

    python .ci/build_site.py               # every chapter in book/ and book/zh/ -> _site/ and _site/zh/
    python .ci/build_site.py --out DIR     # somewhere else

What it makes:
    _site/index.html            the table of contents of book/README.md, chapter links pointing at the pages
    _site/NN_name.html          one page per chapter, with previous / contents / next links and a language switch
    _site/zh/index.html, _site/zh/NN_name.html   the same for the Chinese edition (book/zh/), each page linking
                                to its English counterpart and back (see site_pages.py)
    _site/notebooks/*.ipynb     the executed copies the pages come from, with their widget state saved
    _site/static/               require.js, the widget renderer (html-manager's embed-amd.js and fonts), and
                                KaTeX (static/katex/), which draws the chapters' TeX math in the browser

Each chapter is copied with the rest of book/ into _site/notebooks/ and run there in a fresh kernel with
`store_widget_state=True`, so the pages show the widgets as the last cell left them (no kernel: the buttons
do nothing). The notebooks in book/ are never written (they keep storing no widget state: see
execute_notebooks.py).

The widget JavaScript and KaTeX are not vendored: they come from the npm registry at build time (`npm pack`,
pinned versions checked against their sha512), cached in build/site-js/ (or $SITE_JS_CACHE). Once the cache is
filled, building needs no network; the site never does (no CDN: nbconvert's MathJax and Mermaid, which it would
load from one, are left out; KaTeX renders the `$...$` and `$$...$$` of the markdown cells from static/katex/).
"""
import argparse
import base64
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import nbformat
from jinja2 import DictLoader
from nbclient import NotebookClient
from nbconvert import HTMLExporter

import site_player
from site_pages import EDITIONS, build_index, chapter_titles, nav, relink

ROOT = Path(__file__).resolve().parent.parent
BOOK = ROOT / "book"
# html-manager 1.x renders ipywidgets 8 state. Bumping a version means updating its integrity too
# (`npm view PACKAGE@VERSION dist.integrity`).
HTML_MANAGER = "@jupyter-widgets/html-manager@1.0.15"
REQUIREJS = "requirejs@2.3.8"
KATEX = "katex@0.19.1"
WIDGET_JS = {
    HTML_MANAGER: "sha512-5thBIV6ymNgmPVOHvzx+gGy8ZSKmSazhtGw4/c4xJDVzRhG9PTeQsRjF3FUTopvFi//SABeNz1yp47bCrJ3CQA==",
    REQUIREJS: "sha512-7/cTSLOdYkNBNJcDMWf+luFvMriVm7eYxp4BcFCsAX0wF421Vyce5SXP17c+Jd5otXKGNehIonFlyQXSowL6Mw==",
    KATEX: "sha512-jG8uKntjSEcm2EpQOh0XturpPuuC9r3Sq5HLHdsFdWZT27E672SF19QEi+of0/YeOy15lDgRhKvr5614uRrEfA==",
}
REQUIRE = "static/require.js"
RENDERER = "static/widgets/embed-amd.js"
# embed-amd.js injects CSS whose fonts (the buttons' icons) it looks for next to the *require.js module URL*
# of its bundled modules ("@jupyter-widgets/controls", "@jupyter-widgets/html-manager/dist/..."), which are
# resolved against the page. These paths make both resolve to static/widgets/, where the fonts are.
# ({{ root }} is "" on the English pages, "../" on the Chinese ones in zh/.)
REQUIRE_CONFIG = ('require.config({paths: {"@jupyter-widgets": "{{ resources.site_root }}static/widgets", '
                  '"@jupyter-widgets/html-manager/dist": "{{ resources.site_root }}static/widgets"}});')

CSS = """
.site-nav { display: flex; justify-content: space-between; gap: 1em; max-width: 1100px; margin: 0 auto;
  padding: 8px 16px; font-family: var(--jp-ui-font-family, sans-serif); font-size: 14px; }
.site-nav a { text-decoration: none; color: #1565c0; }
.site-nav span { color: #999; }
.site-nav a.lang-switch, .site-lang a { font-weight: bold; }
.jupyter-widgets { font-family: var(--jp-ui-font-family, sans-serif); font-size: var(--jp-ui-font-size1, 13px); }
body.site-index a.anchor-link { display: none; }
body.site-index { font-family: sans-serif; max-width: 1000px; margin: 2em auto; padding: 0 16px; line-height: 1.5; }
body.site-index table { border-collapse: collapse; } body.site-index td, body.site-index th
  { border: 1px solid #ddd; padding: 4px 8px; vertical-align: top; }
"""

# KaTeX draws the math of the markdown cells once the page is read. Its scripts come before require.js: with
# an AMD loader on the page they would register as modules instead of defining `katex` and
# `renderMathInElement`.
KATEX_HEAD = """<link rel="stylesheet" href="{{ resources.site_root }}static/katex/katex.min.css">
<script src="{{ resources.site_root }}static/katex/katex.min.js"></script>
<script src="{{ resources.site_root }}static/katex/contrib/auto-render.min.js"></script>
<script>document.addEventListener("DOMContentLoaded", () => document.querySelectorAll(".jp-MarkdownOutput")
  .forEach(cell => renderMathInElement(cell, {throwOnError: false, delimiters: [
    {left: "$$", right: "$$", display: true}, {left: "$", right: "$", display: false}]})));</script>"""

# The lab template, with navigation around the page and without the two scripts it loads from a CDN.
PAGE = """{%- extends 'lab/index.html.j2' -%}
{%- block extra_css -%}<style type="text/css">""" + CSS + site_player.CSS + """</style>
{%- endblock extra_css -%}
{%- block html_head_js_requirejs -%}""" + KATEX_HEAD + """{{ super() }}<script>""" + REQUIRE_CONFIG + """</script>
{%- endblock html_head_js_requirejs -%}
{%- block html_head_js_mathjax -%}{%- endblock html_head_js_mathjax -%}
{%- block html_head_js_mermaidjs -%}{%- endblock html_head_js_mermaidjs -%}
{%- block body_header -%}{{ super() }}{{ resources.site_nav }}{%- endblock body_header -%}
{%- block body_footer -%}{{ resources.site_nav }}<script src="{{ resources.site_root }}static/site_player.js"></script>{{ super() }}
{%- endblock body_footer -%}
"""


def fetch_widget_js(cache):
    """Return {package spec: path of its npm tarball in `cache`}, fetching missing ones with `npm pack`."""
    cache.mkdir(parents=True, exist_ok=True)
    tarballs = {}
    for spec, integrity in WIDGET_JS.items():
        name, version = spec.rsplit("@", 1)
        path = cache / f"{name.lstrip('@').replace('/', '-')}-{version}.tgz"
        if not path.exists():
            if shutil.which("npm") is None:
                sys.exit(f"error: {path} is missing and npm is not installed to fetch it: install Node.js/npm, "
                         f"or put the tarball of {spec} there (`npm pack {spec}` on another machine).")
            subprocess.run(["npm", "pack", spec, "--pack-destination", str(cache), "--loglevel=error"], check=True,
                           stdout=subprocess.DEVNULL)
        digest = "sha512-" + base64.b64encode(hashlib.sha512(path.read_bytes()).digest()).decode()
        if digest != integrity:
            path.unlink()
            sys.exit(f"error: {path.name} has checksum {digest}, expected {integrity}; it was deleted, run again.")
        tarballs[spec] = path
    return tarballs


def install_widget_js(tarballs, static):
    """Unpack require.js, html-manager's dist/ (embed-amd.js and the fonts it loads) and KaTeX into `static`."""
    manager = static / "widgets"
    manager.mkdir(parents=True, exist_ok=True)
    with tarfile.open(tarballs[REQUIREJS]) as tar:
        (static / "require.js").write_bytes(tar.extractfile("package/require.js").read())
    with tarfile.open(tarballs[HTML_MANAGER]) as tar:
        for member in tar.getmembers():
            name = member.name.removeprefix("package/dist/")
            if member.isfile() and name != member.name and not name.endswith((".map", "embed.js")):
                (manager / name).write_bytes(tar.extractfile(member).read())
    katex = static / "katex"
    with tarfile.open(tarballs[KATEX]) as tar:       # the minified script, its CSS, its fonts, auto-render
        for member in tar.getmembers():
            name = member.name.removeprefix("package/dist/")
            if member.isfile() and name != member.name and (
                    name in ("katex.min.js", "katex.min.css", "contrib/auto-render.min.js")
                    or name.startswith("fonts/") and name.endswith(".woff2")):
                (katex / name).parent.mkdir(parents=True, exist_ok=True)
                (katex / name).write_bytes(tar.extractfile(member).read())


def execute(path):
    """Run the notebook at `path` in place (its folder as working directory), storing the widget state."""
    nb = nbformat.read(path, as_version=4)
    nb.metadata["kernelspec"] = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
    # one more cell at the end records every step of each widget the chapter showed (see site_player.py)
    nb.cells.append(nbformat.v4.new_code_cell(site_player.record_cell(frames_file(path))))
    client = NotebookClient(nb, timeout=600, startup_timeout=300, kernel_name="python3", store_widget_state=True,
                            resources={"metadata": {"path": str(path.parent)}})
    with tempfile.TemporaryFile("w+") as log:   # the kernel's own chatter, shown only if the run fails
        try:
            client.execute(stderr=log)
        except Exception:
            log.seek(0)
            sys.stderr.write(f"--- {path.name}: kernel log\n{log.read()}")
            raise
    nb.cells.pop()
    nbformat.write(nb, path)
    return path.name


def frames_file(path):
    return path.with_suffix(".frames.json")


def build(out, cache, jobs, live=False):
    started = time.perf_counter()
    if out.exists():
        if any(out.iterdir()) and not (out / REQUIRE).exists():
            sys.exit(f"error: {out} exists and is not a site built before; refusing to delete it.")
        shutil.rmtree(out)
    # the rest of book/ (images, data) comes along, so relative links and paths work in the pages and runs;
    # the Chinese edition's notebooks go to zh/notebooks/, and its `../images/...` resolve to the same images
    shutil.copytree(BOOK, out / "notebooks", ignore=shutil.ignore_patterns(".ipynb_checkpoints", "README.md", "zh"))
    for extra in (out / "notebooks").iterdir():
        if extra.is_dir():
            shutil.copytree(extra, out / extra.name)
    shutil.copytree(BOOK / "zh", out / "zh" / "notebooks", ignore=shutil.ignore_patterns(".ipynb_checkpoints", "README.md"))
    install_widget_js(fetch_widget_js(cache), out / "static")
    shutil.copy(site_player.PLAYER_JS, out / "static")
    print(f"{'widget JavaScript':45s} {time.perf_counter() - started:6.1f} s")

    editions = {lang: sorted(p.stem for p in e.source.glob("[0-9][0-9]_*.ipynb")) for lang, e in EDITIONS.items()}
    runs = [out / e.prefix / "notebooks" / f"{c}.ipynb" for lang, e in EDITIONS.items() for c in editions[lang]]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for name, took in pool.map(_timed_execute, runs):
            print(f"{name:45s} {took:6.1f} s")
    for lang, chapters in editions.items():
        build_pages(EDITIONS[lang], out / EDITIONS[lang].prefix, chapters, live)
    total = sum(map(len, editions.values()))
    print(f"{'all (' + str(total) + ' chapters) -> ' + str(out):45s} {time.perf_counter() - started:6.1f} s")


def build_pages(edition, out, chapters, live):
    """Write the edition's chapter pages and index into `out` (the site's root, or its zh/)."""
    titles = chapter_titles(edition)
    exporter = HTMLExporter(template_name="lab", extra_loaders=[DictLoader({"site.html.j2": PAGE})],
                            template_file="site.html.j2", require_js_url=edition.root + REQUIRE,
                            widget_renderer_url=edition.root + RENDERER, language_code=edition.lang)
    for i, stem in enumerate(chapters):
        nb = nbformat.read(out / "notebooks" / f"{stem}.ipynb", as_version=4)
        frames = frames_file(out / "notebooks" / f"{stem}.ipynb")
        site_player.replace_widgets(nb, json.loads(frames.read_text()), f"{stem}.ipynb", edition.lang)
        frames.unlink()
        title = f"{int(stem[:2])}. {titles.get(stem, stem).replace('`', '')} — {edition.title}"
        page, _ = exporter.from_notebook_node(nb, resources={"metadata": {"name": title}, "site_root": edition.root,
                                                             "site_nav": nav(edition, chapters, i, titles, live)})
        (out / f"{stem}.html").write_text(relink(page, chapters), encoding="utf-8")
    build_index(edition, out, chapters, CSS)


def _timed_execute(path):
    start = time.perf_counter()
    name = execute(path)
    return name, time.perf_counter() - start


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "_site", help="output folder (default: _site)")
    parser.add_argument("--cache", type=Path, default=None,
                        help="where the npm tarballs are kept (default: $SITE_JS_CACHE or build/site-js)")
    parser.add_argument("--jobs", type=int, default=4, help="notebooks run at the same time (default: 4)")
    parser.add_argument("--live-links", action="store_true",
                        help="link each page to the live edition in OUT/live/ (`make publish` builds it there)")
    args = parser.parse_args(argv)
    cache = args.cache or Path(os.environ.get("SITE_JS_CACHE", ROOT / "build" / "site-js"))
    build(args.out.resolve(), cache, args.jobs, args.live_links)


if __name__ == "__main__":
    main()
