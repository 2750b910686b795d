"""The book as a static site (`make site`, .ci/build_site.py), read from file:// in Chromium, offline.

Every page is opened with the network refused (any http(s) or websocket request is recorded and aborted): the
widgets must come up from the state saved in the page, with the JavaScript served from the site's own static/
folder, the graphs must be visible, the links must lead to pages that exist, and the console must stay clean.
The site is built into a temp dir, or taken from $SITE_DIR (e.g. `SITE_DIR=_site` after `make site`).
"""
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest

from .conftest import BOOK, ROOT, VIEWPORT

try:
    from playwright.sync_api import expect
except ImportError:      # then the fixtures fail with what to install (and without --browser nothing runs)
    expect = None

pytestmark = pytest.mark.browser

CHAPTERS = sorted(p.stem for p in BOOK.glob("[0-9][0-9]_*.ipynb"))
WIDGET_VIEW = 'script[type="application/vnd.jupyter.widget-view+json"]'


@pytest.fixture(scope="session")
def site(tmp_path_factory):
    """The folder of the built site."""
    if os.environ.get("SITE_DIR"):
        path = Path(os.environ["SITE_DIR"]).resolve()
        assert (path / "index.html").exists(), f"SITE_DIR={path} has no index.html: run `make site` first"
        return path
    out = tmp_path_factory.mktemp("site") / "_site"
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
    run = subprocess.run([sys.executable, str(ROOT / ".ci" / "build_site.py"), "--out", str(out)], env=env,
                         cwd=ROOT, capture_output=True, text=True, timeout=1200)
    assert run.returncode == 0, f"building the site failed:\n{run.stdout[-3000:]}\n{run.stderr[-5000:]}"
    return out


@pytest.fixture(scope="module")
def offline(chromium):
    """A browser context in which only file:// works; `offline.remote` lists what tried to go out."""
    context = chromium.new_context(viewport=VIEWPORT)
    context.remote = []

    def refuse(route):
        context.remote.append(route.request.url)
        route.abort()
    context.route(re.compile(r"^(https?|wss?)://"), refuse)
    yield context
    context.close()


def test_site_has_a_page_per_chapter_and_book_keeps_no_widget_state(site):
    index = (site / "index.html").read_text()
    for chapter in CHAPTERS:
        assert (site / f"{chapter}.html").exists(), f"no page for {chapter}"
        assert f'href="{chapter}.html"' in index, f"the index does not link to {chapter}.html"
        executed = json.loads((site / "notebooks" / f"{chapter}.ipynb").read_text())
        assert all(c.get("execution_count") for c in executed["cells"]
                   if c["cell_type"] == "code" and "".join(c["source"]).strip()), \
            f"notebooks/{chapter}.ipynb was not executed"
        stored = json.loads((BOOK / f"{chapter}.ipynb").read_text())
        assert "widgets" not in stored["metadata"], f"book/{chapter}.ipynb stores widget state; it must not"
    assert (site / "static" / "require.js").exists() and (site / "static" / "widgets" / "embed-amd.js").exists()


@pytest.mark.parametrize("name", ["index"] + CHAPTERS)
def test_site_page_works_offline(site, offline, artifacts, name):
    saved = json.loads((site / "notebooks" / f"{name}.ipynb").read_text()) if name != "index" else {"metadata": {}}
    page = offline.new_page()
    errors, remote_before = [], len(offline.remote)
    page.on("console", lambda m: m.type == "error" and errors.append(f"console: {m.text}"))
    page.on("pageerror", lambda e: errors.append(f"page error: {e}"))
    page.on("requestfailed", lambda r: errors.append(f"could not load {r.url} ({r.failure})"))
    try:
        page.goto((site / f"{name}.html").as_uri())
        views = page.locator(WIDGET_VIEW)
        if "widgets" in saved["metadata"]:
            assert views.count() > 0, f"{name}.html has saved widget state but no widget on the page"
        # every widget view in the page is drawn, from the saved state, next to its <script>
        undrawn = """sel => [...document.querySelectorAll(sel)]
                            .filter(s => !s.parentElement.querySelector('.widget-subarea .lm-Widget')).length"""
        try:
            page.wait_for_function(f"sel => ({undrawn})(sel) === 0", arg=WIDGET_VIEW, timeout=30_000)
            drawn = True
        except Exception:      # playwright's TimeoutError: say what is missing instead
            drawn = False
        assert drawn, (f"{name}.html: {page.evaluate(undrawn, WIDGET_VIEW)} of {views.count()} widgets were not "
                       f"drawn within 30 s; requests refused: {offline.remote[remote_before:]}; errors: {errors}")
        for svg in page.locator(".jp-OutputArea-output svg:has(g.node)").all():
            expect(svg).to_be_visible()
            assert svg.bounding_box()["height"] > 20, "a graph (inline SVG) has no size"
        for image in page.locator(".jp-OutputArea-output img").all():
            assert image.evaluate("img => img.complete && img.naturalWidth > 0"), "an image did not load"
        assert page.locator(".jupyter-widgets-error-widget").count() == 0, f"{name}.html has a broken widget"
        assert page.locator(".jp-OutputArea-output").filter(has_text="Error displaying widget").count() == 0
        for href in page.locator("a[href]").evaluate_all("links => links.map(a => a.href)"):
            url = urlparse(href)
            if url.scheme == "file":
                assert Path(unquote(url.path)).exists(), f"{name}.html links to a missing file: {href}"
        page.wait_for_timeout(500)      # late font or script loads report themselves in the console
        page.screenshot(path=artifacts / f"site-{name}.png")
        if views.count():
            page.locator(".widget-subarea").first.screenshot(path=artifacts / f"site-{name}-widget.png")
    finally:
        page.close()
    assert offline.remote[remote_before:] == [], f"{name}.html asked the network for {offline.remote[remote_before:]}"
    assert errors == [], f"the browser reported errors on {name}.html:\n" + "\n".join(errors)
