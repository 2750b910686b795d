"""The book as a static site (`make site`, .ci/build_site.py), read from file:// in Chromium, offline.

Every page is opened with the network refused (any http(s) or websocket request is recorded and aborted): each
stepper must play the frames recorded at build time (site_player.js), each GraphView show its picture with its
live-only controls disabled, other widgets come up from the saved state with the JavaScript served from the
site's own static/ folder, the links must lead to pages that exist, and the console must stay clean.
The site is built into a temp dir, or taken from $SITE_DIR (e.g. `SITE_DIR=_site` after `make site`).
Both editions: every Chinese page links to its English counterpart and back, its chapter links stay in zh/, and
its players' texts are the catalogue's Chinese (catalogue.py), drawn in a font that has Chinese.
"""
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest

from .catalogue import assert_drawn_in_cjk_font, cjk_families, say
from .conftest import BOOK, ROOT, VIEWPORT

try:
    from playwright.sync_api import expect
except ImportError:      # then the fixtures fail with what to install (and without --browser nothing runs)
    expect = None

pytestmark = pytest.mark.browser

CHAPTERS = sorted(p.stem for p in BOOK.glob("[0-9][0-9]_*.ipynb"))
ZH_CHAPTERS = sorted(p.stem for p in (BOOK / "zh").glob("[0-9][0-9]_*.ipynb"))
SWITCH = "a.lang-switch"
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


def widget_kinds(notebook):
    """How many outputs of each minigrad widget the executed notebook has."""
    kinds = {"BackwardStepper": 0, "ModuleApplyView": 0, "GraphView": 0}
    for cell in notebook.get("cells", []):
        for output in cell.get("outputs", []):
            text = "".join(output.get("data", {}).get("text/plain", ""))
            kind = text.split(":")[0]
            if kind in kinds and "application/vnd.jupyter.widget-view+json" in output.get("data", {}):
                kinds[kind] += 1
    return kinds


def executed_copy(site, name):
    """The notebook page `name` ("04_x" or "zh/04_x") was made from."""
    folder, _, stem = name.rpartition("/")
    return site / folder / "notebooks" / f"{stem}.ipynb"


@pytest.mark.parametrize("name", ["index"] + CHAPTERS + ["zh/index"] + [f"zh/{c}" for c in ZH_CHAPTERS])
def test_site_page_works_offline(site, offline, artifacts, name):
    saved = json.loads(executed_copy(site, name).read_text()) if not name.endswith("index") else {"metadata": {}}
    page = offline.new_page()
    errors, remote_before = [], len(offline.remote)
    page.on("console", lambda m: m.type == "error" and errors.append(f"console: {m.text}"))
    page.on("pageerror", lambda e: errors.append(f"page error: {e}"))
    page.on("requestfailed", lambda r: errors.append(f"could not load {r.url} ({r.failure})"))
    try:
        page.goto((site / f"{name}.html").as_uri())
        views = page.locator(WIDGET_VIEW)
        shown = widget_kinds(saved)
        assert page.locator(".mg-player").count() == shown["BackwardStepper"] + shown["ModuleApplyView"], \
            f"{name}.html: not every stepper became a player ({shown})"
        assert page.locator(".mg-view").count() == shown["GraphView"], f"{name}.html: a GraphView is missing"
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
        page.screenshot(path=artifacts / f"site-{name.replace('/', '-')}.png")
        if views.count():
            page.locator(".widget-subarea").first.screenshot(path=artifacts / f"site-{name.replace('/', '-')}-widget.png")
    finally:
        page.close()
    assert offline.remote[remote_before:] == [], f"{name}.html asked the network for {offline.remote[remote_before:]}"
    assert errors == [], f"the browser reported errors on {name}.html:\n" + "\n".join(errors)


PLAYER_CHAPTERS = [c for c in CHAPTERS if c.startswith(("02_", "04_", "07_"))] + ["zh/04_function_apply"]
CURRENT_FILL = "#ffb74d"


@pytest.mark.parametrize("name", PLAYER_CHAPTERS)
def test_site_steppers_play_the_recorded_steps(site, offline, artifacts, name):
    page = offline.new_page()
    remote_before = len(offline.remote)
    try:
        page.goto((site / f"{name}.html").as_uri())
        player = page.locator(".mg-player").first
        player.scroll_into_view_if_needed()
        def state():
            current = player.locator(f'g.node:has([fill="{CURRENT_FILL}"]) > title').all_text_contents()
            return player.locator(".mg-panel").inner_text(), current[:1]
        button = lambda act: player.locator(f"button[data-act={act}]")
        button("reset").click()          # the page starts where the chapter's cell left the stepper
        panel_before, current_before = state()
        assert current_before == [], "before the first step no node should be highlighted"
        assert button("back").is_disabled() and button("step").is_enabled()
        seen = [state()]
        while button("step").is_enabled():
            button("step").click()
            seen.append(state())
            assert seen[-1][0] != seen[-2][0] and seen[-1][1] != seen[-2][1], \
                f"step {len(seen) - 1}: the panel or the highlighted node did not change"
        assert button("run").is_disabled() and button("play").is_disabled() and button("back").is_enabled()
        button("back").click()
        assert state() == seen[-2], "Back did not show the previous step again"
        button("reset").click()
        assert state() == seen[0]
        button("play").click()
        page.wait_for_function("p => p.querySelector('button[data-act=step]').disabled", arg=player.element_handle(),
                               timeout=len(seen) * 1500)
        assert state() == seen[-1], "Play did not end at the last step"
        player.screenshot(path=artifacts / f"site-{name.replace('/', '-')}-player.png")
    finally:
        page.close()
    assert offline.remote[remote_before:] == []


def test_site_graph_views_say_their_options_need_a_kernel(site, offline):
    page = offline.new_page()
    try:
        page.goto((site / "01_tensors_and_the_graph.html").as_uri())
        view = page.locator(".mg-view").first
        assert view.locator("svg g.node").count() > 0
        assert all(box.is_disabled() for box in view.locator("input, button").all())
        assert "need a running notebook" in view.locator(".mg-note").inner_text()
    finally:
        page.close()


@pytest.mark.parametrize("name", ["14_capstone", "zh/14_capstone"])
def test_site_draws_the_math(site, offline, name):
    """The TeX of the markdown cells is drawn by the site's own KaTeX (static/katex/), offline: no `$$` or
    `\\frac` is left as text, and the formulas have KaTeX's fonts."""
    page = offline.new_page()
    try:
        page.goto((site / f"{name}.html").as_uri())
        page.wait_for_function("() => document.querySelectorAll('.jp-MarkdownOutput .katex').length > 0",
                               timeout=10_000)
        assert page.locator(".jp-MarkdownOutput .katex-display").count() >= 2, f"{name}: display math missing"
        text = page.locator(".jp-MarkdownOutput").all_inner_texts()
        raw = [t for t in text if "$$" in t or "\\frac" in t or "\\begin" in t]
        assert raw == [], f"{name}: TeX left as text: {raw[0][:200]}"
        font = page.evaluate("() => getComputedStyle(document.querySelector('.katex .mord')).fontFamily")
        assert "KaTeX" in font, font
        assert page.evaluate("() => document.fonts.check('20px KaTeX_Main')"), "KaTeX's font did not load"
    finally:
        page.close()


def test_site_has_both_editions_each_page_linking_to_its_counterpart(site):
    assert sorted(p.stem for p in (site / "zh").glob("[0-9][0-9]_*.html")) == ZH_CHAPTERS == CHAPTERS, \
        "the Chinese edition should have a page for every chapter of the English one"
    def switches(page):
        return [re.search(r'href="([^"]+)"', a)[1] for a in re.findall(r'<a [^>]*class="lang-switch"[^>]*>', page)]
    for name in ["index"] + CHAPTERS:
        english, chinese = (site / f"{name}.html").read_text(), (site / "zh" / f"{name}.html").read_text()
        assert switches(english) and set(switches(english)) == {f"zh/{name}.html"}, f"{name}.html: {switches(english)}"
        assert switches(chinese) and set(switches(chinese)) == {f"../{name}.html"}, f"zh/{name}.html: {switches(chinese)}"
        assert '<html lang="zh">' in chinese, f"zh/{name}.html is not marked as Chinese"


def nav_links(page):
    """The hrefs of a page's first navigation bar: previous, contents, [live,] language switch, next."""
    return re.findall(r'href="([^"]+)"', re.search(r'<nav class="site-nav">(.*?)</nav>', page, re.S).group(1))


def test_chinese_pages_link_to_chinese_pages(site):
    index = (site / "zh" / "index.html").read_text()
    for i, chapter in enumerate(ZH_CHAPTERS):
        assert f'href="{chapter}.html"' in index, f"zh/index.html does not link to zh/{chapter}.html"
        links = nav_links((site / "zh" / f"{chapter}.html").read_text())
        # the neighbours and the contents are the Chinese ones, next to the page; only the switch leaves zh/
        expected = ([f"{ZH_CHAPTERS[i - 1]}.html"] if i > 0 else []) + ["index.html", f"../{chapter}.html"] + \
                   ([f"{ZH_CHAPTERS[i + 1]}.html"] if i + 1 < len(ZH_CHAPTERS) else [])
        assert links == expected, f"zh/{chapter}.html: its navigation links to {links}, expected {expected}"


PLAYER_BUTTONS = {"step": "Step", "back": "Back", "run": "Run to end", "reset": "Reset"}


@pytest.mark.parametrize("name", ["04_function_apply", "zh/04_function_apply"])
def test_site_players_speak_the_pages_language(site, offline, name):
    language = "zh" if name.startswith("zh/") else "en"
    page = offline.new_page()
    try:
        page.goto((site / f"{name}.html").as_uri())
        player = page.locator(".mg-player").first
        for act, msgid in PLAYER_BUTTONS.items():      # the widget's own button labels, from the same catalogue
            expect(player.locator(f"button[data-act={act}]")).to_have_text(say(language, msgid))
        play = player.locator("button[data-act=play]")
        expect(play).to_have_text("▶ " + say(language, "Play"))
        assert play.get_attribute("title") == say(language, "play / pause")
        player.locator("button[data-act=reset]").click()
        total = int(player.locator("input.mg-slider").get_attribute("max"))
        position = say(language, "step {n} of {total}")
        expect(player.locator(".mg-position")).to_have_text(position.format(n=0, total=total))
        play.click()
        expect(play).to_have_text("❚❚ " + say(language, "Pause"))
        expect(play).to_have_text("▶ " + say(language, "Play"), timeout=total * 1500)     # paused at the end
        expect(player.locator(".mg-position")).to_have_text(position.format(n=total, total=total))
        player.locator("button[data-act=reset]").click()
        player.locator("button[data-act=step]").click()
        expect(player.locator(".mg-position")).to_have_text(position.format(n=1, total=total))
        expect(player.locator("[data-zoom=fit]")).to_have_text(say(language, "fit"))
        note = player.locator(".mg-note")
        expect(note).to_contain_text(say(language, "These steps were recorded when this page was built: the buttons "
                                                   "replay them, no kernel needed."))
        download = say(language, '<a href="{notebook}">Download the notebook</a>, or open it live with '
                                 '<code>make lab</code>.')
        link_text = re.search(r"<a [^>]*>(.*?)</a>", download).group(1)
        expect(note.locator("a")).to_have_text(link_text)
        assert note.locator("a").get_attribute("href") == "notebooks/04_function_apply.ipynb"
        view = page.locator(".mg-view").first             # chapter 4 shows a GraphView too
        for msgid in ("values", "saved tensors", "Refresh"):
            expect(view.locator(".mg-controls")).to_contain_text(say(language, msgid))
        if language == "zh":
            families = cjk_families()
            assert_drawn_in_cjk_font(page, player.locator("button[data-act=step]"), families)
            assert_drawn_in_cjk_font(page, player.locator(".mg-position"), families)
            assert_drawn_in_cjk_font(page, page.locator("nav.site-nav a[href='index.html']").first, families)
    finally:
        page.close()


def test_site_language_switch_goes_to_the_counterpart_and_back(site, offline):
    page = offline.new_page()
    try:
        page.goto((site / "zh" / "04_function_apply.html").as_uri())
        expect(page.locator("h1").first).to_contain_text("Function.apply")
        assert page.locator("html").get_attribute("lang") == "zh"
        page.locator(SWITCH).first.click()
        page.wait_for_load_state()
        assert page.url.endswith("/04_function_apply.html") and "/zh/" not in page.url, page.url
        expect(page.locator(SWITCH).first).to_have_text("中文")
        page.locator(SWITCH).first.click()
        page.wait_for_load_state()
        assert page.url.endswith("/zh/04_function_apply.html"), page.url
        page.goto((site / "index.html").as_uri())
        page.locator(SWITCH).first.click()
        page.wait_for_load_state()
        assert page.url.endswith("/zh/index.html"), page.url
        expect(page.locator("body")).to_contain_text("目录")
    finally:
        page.close()
