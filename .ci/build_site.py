#!/usr/bin/env python3
"""Build the book as a static site that works offline and from file:// (`make site`).

    python .ci/build_site.py               # every chapter in book/ -> _site/
    python .ci/build_site.py --out DIR     # somewhere else

What it makes:
    _site/index.html            the table of contents of book/README.md, chapter links pointing at the pages
    _site/NN_name.html          one page per chapter, with previous / contents / next links
    _site/notebooks/*.ipynb     the executed copies the pages come from, with their widget state saved
    _site/static/               require.js and the widget renderer (html-manager's embed-amd.js and fonts)

Each chapter is copied with the rest of book/ into _site/notebooks/ and run there in a fresh kernel with
`store_widget_state=True`, so the pages show the widgets as the last cell left them (no kernel: the buttons
do nothing). The notebooks in book/ are never written (they keep storing no widget state: see
execute_notebooks.py).

The widget JavaScript is not vendored: it comes from the npm registry at build time (`npm pack`, pinned
versions checked against their sha512), cached in build/site-js/ (or $SITE_JS_CACHE). Once the cache is
filled, building needs no network; the site never does (no CDN: MathJax and Mermaid, which nbconvert would
load from one, are left out; the book has no math and no diagrams of that kind).
"""
import argparse
import base64
import hashlib
import html
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
from nbconvert.filters.markdown_mistune import markdown2html_mistune

import site_player

ROOT = Path(__file__).resolve().parent.parent
BOOK = ROOT / "book"
# html-manager 1.x renders ipywidgets 8 state. Bumping a version means updating its integrity too
# (`npm view PACKAGE@VERSION dist.integrity`).
HTML_MANAGER = "@jupyter-widgets/html-manager@1.0.15"
REQUIREJS = "requirejs@2.3.8"
WIDGET_JS = {
    HTML_MANAGER: "sha512-5thBIV6ymNgmPVOHvzx+gGy8ZSKmSazhtGw4/c4xJDVzRhG9PTeQsRjF3FUTopvFi//SABeNz1yp47bCrJ3CQA==",
    REQUIREJS: "sha512-7/cTSLOdYkNBNJcDMWf+luFvMriVm7eYxp4BcFCsAX0wF421Vyce5SXP17c+Jd5otXKGNehIonFlyQXSowL6Mw==",
}
REQUIRE = "static/require.js"
RENDERER = "static/widgets/embed-amd.js"
# embed-amd.js injects CSS whose fonts (the buttons' icons) it looks for next to the *require.js module URL*
# of its bundled modules ("@jupyter-widgets/controls", "@jupyter-widgets/html-manager/dist/..."), which are
# resolved against the page. These paths make both resolve to static/widgets/, where the fonts are.
REQUIRE_CONFIG = ('require.config({paths: {"@jupyter-widgets": "static/widgets", '
                  '"@jupyter-widgets/html-manager/dist": "static/widgets"}});')

CSS = """
.site-nav { display: flex; justify-content: space-between; gap: 1em; max-width: 1100px; margin: 0 auto;
  padding: 8px 16px; font-family: var(--jp-ui-font-family, sans-serif); font-size: 14px; }
.site-nav a { text-decoration: none; color: #1565c0; }
.site-nav span { color: #999; }
.jupyter-widgets { font-family: var(--jp-ui-font-family, sans-serif); font-size: var(--jp-ui-font-size1, 13px); }
body.site-index a.anchor-link { display: none; }
body.site-index { font-family: sans-serif; max-width: 1000px; margin: 2em auto; padding: 0 16px; line-height: 1.5; }
body.site-index table { border-collapse: collapse; } body.site-index td, body.site-index th
  { border: 1px solid #ddd; padding: 4px 8px; vertical-align: top; }
"""

# The lab template, with navigation around the page and without the two scripts it loads from a CDN.
PAGE = """{%- extends 'lab/index.html.j2' -%}
{%- block extra_css -%}<style type="text/css">""" + CSS + site_player.CSS + """</style>
{%- endblock extra_css -%}
{%- block html_head_js_requirejs -%}{{ super() }}<script>""" + REQUIRE_CONFIG + """</script>
{%- endblock html_head_js_requirejs -%}
{%- block html_head_js_mathjax -%}{%- endblock html_head_js_mathjax -%}
{%- block html_head_js_mermaidjs -%}{%- endblock html_head_js_mermaidjs -%}
{%- block body_header -%}{{ super() }}{{ resources.site_nav }}{%- endblock body_header -%}
{%- block body_footer -%}{{ resources.site_nav }}<script src="static/site_player.js"></script>{{ super() }}
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
    """Unpack require.js and html-manager's dist/ (embed-amd.js and the fonts it loads) into `static`."""
    manager = static / "widgets"
    manager.mkdir(parents=True, exist_ok=True)
    with tarfile.open(tarballs[REQUIREJS]) as tar:
        (static / "require.js").write_bytes(tar.extractfile("package/require.js").read())
    with tarfile.open(tarballs[HTML_MANAGER]) as tar:
        for member in tar.getmembers():
            name = member.name.removeprefix("package/dist/")
            if member.isfile() and name != member.name and not name.endswith((".map", "embed.js")):
                (manager / name).write_bytes(tar.extractfile(member).read())


def execute(path):
    """Run the notebook at `path` in place (its folder as working directory), storing the widget state."""
    nb = nbformat.read(path, as_version=4)
    nb.metadata["kernelspec"] = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
    # one more cell at the end records every step of each widget the chapter showed (see site_player.py)
    nb.cells.append(nbformat.v4.new_code_cell(site_player.record_cell(frames_file(path))))
    client = NotebookClient(nb, timeout=600, kernel_name="python3", store_widget_state=True,
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


def chapter_titles():
    """{"04_function_apply": "`Function.apply`", ...} from the table of contents in book/README.md."""
    rows = re.findall(r"^\|\s*\d+\s*\|\s*\[(.+?)\]\((\d\d_[^)]+)\.ipynb\)", (BOOK / "README.md").read_text(), re.M)
    return {stem: title for title, stem in rows}


def nav(chapters, i, titles, live=False):
    """The previous / contents / next links of chapter `i` (a list of stems) as HTML; with `live`, also a link
    to the same chapter in the live edition, which `make publish` puts into live/."""
    def link(j, arrow_before, arrow_after):
        if not 0 <= j < len(chapters):
            return "<span></span>"
        title = html.escape(titles.get(chapters[j], chapters[j]).replace("`", ""))
        return f'<a href="{chapters[j]}.html">{arrow_before}{title}{arrow_after}</a>'
    live_link = (f'<a class="live" href="live/lab/index.html?path={chapters[i]}.ipynb">Open live in your browser</a>'
                 if live else "")
    return (f'<nav class="site-nav">{link(i - 1, "← ", "")}<a href="index.html">Contents</a>{live_link}'
            f'{link(i + 1, "", " →")}</nav>')


def relink(text, chapters):
    """Point links at chapters (`04_x.ipynb`) and at the table of contents (`README.md`) to their pages;
    links to chapters not written yet become text."""
    def page(match):
        stem = match.group(2)
        if stem in chapters:
            return f'<a href="{stem}.html{match.group(3) or ""}"'
        return "<a"
    text = re.sub(r'<a href=(["\'])(\d\d_[^"\'#]+?)\.ipynb(#[^"\']*)?\1', page, text)
    text = re.sub(r'<a href=(["\'])README\.md(#[^"\']*)?\1', r'<a href="index.html\2"', text)
    return re.sub(r'<a>(.*?)</a>', r'<span class="missing" title="not written yet">\1</span>', text)


def warn_about_math(stem, nb):
    """The pages load no MathJax (it would come from a CDN): say so if a chapter starts using TeX."""
    for cell in nb.cells:
        if cell.cell_type == "markdown" and re.search(r"\$[^$\n]+\$", cell.source):
            print(f"warning: {stem} has TeX math ($...$), which the site shows as text: it loads no MathJax "
                  "(add a local copy, e.g. `npm pack mathjax@3`, to .ci/build_site.py)", file=sys.stderr)
            return


def build_index(out, chapters):
    body = relink(markdown2html_mistune((BOOK / "README.md").read_text()), chapters)
    body = body.replace("Open the book with <code>make lab</code>",
                        "Read it here, or run it with <code>make lab</code>")
    (out / "index.html").write_text(
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>The minigrad book</title>'
        f'<style>{CSS}</style></head>\n<body class="site-index">{body}</body></html>\n', encoding="utf-8")


def build(out, cache, jobs, live=False):
    started = time.perf_counter()
    chapters = sorted(p.stem for p in BOOK.glob("[0-9][0-9]_*.ipynb"))
    if out.exists():
        if any(out.iterdir()) and not (out / REQUIRE).exists():
            sys.exit(f"error: {out} exists and is not a site built before; refusing to delete it.")
        shutil.rmtree(out)
    # the rest of book/ (images, data) comes along, so relative links and paths work in the pages and runs
    shutil.copytree(BOOK, out / "notebooks", ignore=shutil.ignore_patterns(".ipynb_checkpoints", "README.md"))
    for extra in (out / "notebooks").iterdir():
        if extra.is_dir():
            shutil.copytree(extra, out / extra.name)
    install_widget_js(fetch_widget_js(cache), out / "static")
    shutil.copy(site_player.PLAYER_JS, out / "static")
    print(f"{'widget JavaScript':45s} {time.perf_counter() - started:6.1f} s")

    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for name, took in pool.map(_timed_execute, [out / "notebooks" / f"{c}.ipynb" for c in chapters]):
            print(f"{name:45s} {took:6.1f} s")

    titles = chapter_titles()
    exporter = HTMLExporter(template_name="lab", extra_loaders=[DictLoader({"site.html.j2": PAGE})],
                            template_file="site.html.j2", require_js_url=REQUIRE, widget_renderer_url=RENDERER)
    for i, stem in enumerate(chapters):
        nb = nbformat.read(out / "notebooks" / f"{stem}.ipynb", as_version=4)
        frames = frames_file(out / "notebooks" / f"{stem}.ipynb")
        site_player.replace_widgets(nb, json.loads(frames.read_text()), f"{stem}.ipynb")
        frames.unlink()
        warn_about_math(stem, nb)
        title = f"{int(stem[:2])}. {titles.get(stem, stem).replace('`', '')} — the minigrad book"
        page, _ = exporter.from_notebook_node(nb, resources={"metadata": {"name": title},
                                                             "site_nav": nav(chapters, i, titles, live)})
        (out / f"{stem}.html").write_text(relink(page, chapters), encoding="utf-8")
    build_index(out, chapters)
    print(f"{'all (' + str(len(chapters)) + ' chapters) -> ' + str(out):45s} {time.perf_counter() - started:6.1f} s")


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
