"""The live edition (`make lite`, lite/build.py): JupyterLite on Pyodide, served from a sub-path, run in Chromium
with every other host unresolvable.

The folder is built into a temp dir (or taken from $LITE_DIR, e.g. `LITE_DIR=_lite` after `make lite`) and
served by `python -m http.server` under /book/live/. Chromium resolves no host but 127.0.0.1 (host-resolver
rules: intercepting requests in Playwright would break JupyterLite's service worker). Every chapter is checked
in the folder and runs live (LITE_CHAPTERS=some runs three of them): each cell runs without an
error, every widget and graph is drawn, nothing is fetched from anywhere else. In chapter 4 a stepper is
stepped, an exercise check says "not yet" and then "✓ correct" once its solution is typed in, and numpy's
32-bit integers (Pyodide is wasm32) get minigrad's int dtypes, with argmax in int64 as in torch. The folder is
built as `make publish` builds it, and chapter 4 links back to its static page. One Chinese chapter, zh/04, runs
live too: its stepper and an exercise speak Chinese (the catalogue's msgstr, catalogue.py) in a font that has
Chinese, it links back to its page in the site's zh/, and its language switch opens the English copy.
"""
import json
import os
import re
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from .catalogue import StepperTexts, assert_drawn_in_cjk_font, cjk_families, feedback, say
from .conftest import BOOK, CHROMIUM_FLAGS, ROOT, VIEWPORT, chromium_path, failed
from .expected import STEPPER_EXPECTED
from .labserver import WIDGET_OUTPUT, NotebookPage, free_port
from .widget_page import button, check_step, click, expect_panel, type_into, widget_cell

try:
    from playwright.sync_api import expect
except ImportError:      # then the fixtures fail with what to install (and without --browser nothing runs)
    expect = None

pytestmark = pytest.mark.browser

CHAPTERS = sorted(p.stem for p in BOOK.glob("[0-9][0-9]_*.ipynb"))
# the ModuleApplyView; the stepper, a GraphView and exercises; matplotlib and a training loop
REPRESENTATIVE = ["02_module_apply", "04_function_apply", "12_function_vs_module"]
# every chapter runs live; LITE_CHAPTERS=some runs only the representative ones (a quicker local check)
LIVE = [c for c in REPRESENTATIVE if c in CHAPTERS] if os.environ.get("LITE_CHAPTERS") == "some" else CHAPTERS
ZH_CHAPTERS = sorted(f"zh/{p.stem}" for p in (BOOK / "zh").glob("[0-9][0-9]_*.ipynb"))
ZH_LIVE = ["zh/04_function_apply"]          # one Chinese chapter runs live (not all 16: ~30 s each)
STEPPED = ["04_function_apply"] + ZH_LIVE   # the stepper, an exercise and the link back, in each language
SQUARE_SOLVED = "Square.apply records a SquareBackward node and its backward gives 2 * x * grad_output."
PREFIX = "book/live"                        # served under a sub-path, never at the server root
OFFLINE = "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"
KERNEL_IDLE = "Python (Pyodide) | Idle"
# what JupyterLite's service worker answers itself (it never reaches the server: see `asked_the_server`)
HEARTBEAT = "/api/service-worker-heartbeat"
# matplotlib's own notice (on stderr) the first time it is imported in a fresh browser kernel, as on a new machine
FONT_CACHE = "Matplotlib is building the font cache; this may take a moment."


@pytest.fixture(scope="session")
def lite_dir(tmp_path_factory):
    if os.environ.get("LITE_DIR"):
        path = Path(os.environ["LITE_DIR"]).resolve()
        assert (path / "jupyter-lite.json").exists(), f"LITE_DIR={path} is no live edition: run `make lite` first"
        return path
    out = tmp_path_factory.mktemp("lite") / "_lite"
    # as `make publish` builds it: inside the static site, each chapter linking back to its page there
    built = subprocess.run([sys.executable, "-m", "lite.build", "--out", str(out), "--site-pages"], cwd=ROOT,
                           capture_output=True, text=True, timeout=1800)
    assert built.returncode == 0, f"building the live edition failed:\n{built.stdout[-3000:]}\n{built.stderr[-5000:]}"
    return out


@pytest.fixture(scope="session")
def served(lite_dir, tmp_path_factory, artifacts):
    """http://127.0.0.1:PORT/book/live/ : the folder, from `python -m http.server`, stopped whatever happens."""
    root = tmp_path_factory.mktemp("www")
    (root / PREFIX).parent.mkdir(parents=True)
    (root / PREFIX).symlink_to(lite_dir, target_is_directory=True)
    (root / "favicon.ico").write_bytes(b"")      # what Chromium asks the server root for, outside the edition
    port = free_port()
    log = open(artifacts / "lite-http.log", "w")
    server = subprocess.Popen([sys.executable, "-m", "http.server", "--bind", "127.0.0.1", str(port)], cwd=root,
                              stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}/{PREFIX}/"
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(base + "jupyter-lite.json", timeout=2).close()
                break
            except OSError:
                time.sleep(0.1)
        yield base
    finally:
        server.terminate()
        server.wait(timeout=10)
        log.close()


@pytest.fixture(scope="session")
def offline_chromium(chromium):
    """A second Chromium (same Playwright) that can resolve no host but 127.0.0.1."""
    browser = chromium.browser_type.launch(executable_path=chromium_path(), args=CHROMIUM_FLAGS + [OFFLINE])
    yield browser
    browser.close()


class LitePage(NotebookPage):
    """A chapter open in the live edition; `elsewhere` lists requests to anything but the edition's own folder."""

    def __init__(self, page, base, name, file):
        self.page, self.name, self.file, self.base = page, name, file, base
        self.console_errors, self.elsewhere = [], []
        page.on("console", lambda m: m.type == "error" and self.console_errors.append(f"console: {m.text}"))
        page.on("pageerror", lambda e: self.console_errors.append(f"page error: {e}"))
        page.on("request", self._request)
        started = time.monotonic()
        page.goto(f"{base}lab/index.html?path={name}.ipynb")
        self.kernel_idle().wait_for(timeout=180_000)
        self.kernel_seconds = time.monotonic() - started

    def _request(self, request):
        url = request.url
        origin = self.base.split("/" + PREFIX)[0]
        if not (url.startswith(self.base) or url.startswith(("data:", "blob:"))
                or url in (origin + HEARTBEAT, origin + "/favicon.ico")):
            self.elsewhere.append(url)

    def kernel_idle(self):
        return self.page.get_by_role("button", name=KERNEL_IDLE)

    def close(self):
        self.page.close()


@pytest.fixture(scope="module")
def chapter(request, served, offline_chromium, lite_dir, artifacts):
    """The chapter `request.param` open live, every cell run; `run_seconds` says how long that took."""
    context = offline_chromium.new_context(viewport=VIEWPORT)
    try:
        page = LitePage(context.new_page(), served, request.param, lite_dir / "files" / f"{request.param}.ipynb")
        started = time.monotonic()
        page.run_all(timeout=300_000)
        page.run_seconds = time.monotonic() - started
        print(f"{request.param}: kernel idle after {page.kernel_seconds:.0f} s, all cells in {page.run_seconds:.0f} s")
        yield page
        page.page.screenshot(path=artifacts / f"lite-{request.param.replace('/', '-')}.png")
    finally:
        context.close()


@pytest.fixture
def clean(chapter, request, artifacts):
    """After the test: no console error, no request elsewhere; a screenshot if the test failed."""
    yield
    if failed(request):
        chapter.page.screenshot(path=artifacts / f"FAILED-lite-{request.node.name.replace('/', '-')}.png")
    errors, elsewhere = list(chapter.console_errors), list(chapter.elsewhere)
    chapter.console_errors.clear()
    assert elsewhere == [], f"{chapter.name} asked other hosts or paths for {elsewhere}"
    outside = [line for line in (artifacts / "lite-http.log").read_text().splitlines()
               if '"GET ' in line and f'"GET /{PREFIX}/' not in line and '"GET /favicon.ico' not in line]
    assert outside == [], f"the server was asked for files outside the edition: {outside}"
    assert errors == [], f"the browser console reported errors in {chapter.name}:\n" + "\n".join(
        e.splitlines()[0] for e in errors)


@pytest.mark.parametrize("chapter", ["14_capstone"], indirect=True)
def test_the_math_is_drawn(chapter, clean):
    """JupyterLab draws the TeX of the markdown cells with the MathJax bundled in the app (nothing is fetched:
    `clean` checks it); the two display formulas of the chapter and its inline ones."""
    notebook = chapter.notebook
    for cell in notebook.locator(".jp-MarkdownCell").filter(has_text="swish").all()[:1] + \
            notebook.locator(".jp-MarkdownCell").filter(has_text="ELU").all()[:1]:
        cell.scroll_into_view_if_needed()
    display = notebook.locator('.jp-MarkdownOutput mjx-container[display="true"]')
    expect(display.first).to_be_visible(timeout=20_000)
    assert display.count() >= 2, f"{display.count()} display formulas drawn"
    assert notebook.locator(".jp-MarkdownOutput").filter(has_text="\\begin{cases}").count() == 0


def language_of(name):
    return "zh" if name.startswith("zh/") else "en"


def test_the_folder_has_every_chapter_and_only_local_pyodide(lite_dir):
    from lite import check, notebooks
    check.site(lite_dir, CHAPTERS + ZH_CHAPTERS)          # raises saying what is wrong
    assert [c.removeprefix("zh/") for c in ZH_CHAPTERS] == CHAPTERS, "the Chinese edition has every chapter"
    for name in CHAPTERS + ZH_CHAPTERS:
        live = json.loads((lite_dir / "files" / f"{name}.ipynb").read_text())
        book = json.loads((BOOK / f"{name}.ipynb").read_text())
        sources = [c["source"] for c in live["cells"] if not notebooks.is_setup_cell(c)]
        assert sources == [c["source"] for c in book["cells"]], f"{name}: the live copy differs from book/"
        assert sum(map(notebooks.is_setup_cell, live["cells"])) == 1, f"{name}: one set-up cell expected"


@pytest.mark.parametrize("chapter", LIVE + ZH_LIVE, indirect=True)
def test_chapter_runs_live_and_draws_every_widget(chapter, clean):
    errors = [(i, text) for i, text in chapter.error_outputs() if text.strip() != FONT_CACHE]
    assert errors == [], "cells show errors:\n" + "\n".join(f"cell {i}: {text}" for i, text in errors)
    prompts = chapter.page.locator(".jp-CodeCell .jp-InputPrompt").all_inner_texts()
    assert all(re.fullmatch(r"\[\d+\]:", p.strip()) for p in prompts), f"cells that did not run: {prompts}"
    widgets = chapter.notebook.locator(WIDGET_OUTPUT)
    sources = "".join("".join(c["source"]) for c in json.loads(chapter.file.read_text())["cells"]
                      if c["cell_type"] == "code")
    if re.search(r"(BackwardStepper|GraphView|ModuleApplyView)\(", sources):
        assert widgets.count() > 0, f"{chapter.name} makes widgets, but none is on the page"
        assert chapter.notebook.locator(".jp-OutputArea-output svg:has(g.node)").count() > 0, "no graph drawn"
    for widget in widgets.all():
        box = widget.locator(".lm-Widget").first.bounding_box()
        assert box and box["width"] > 50 and box["height"] > 20, f"a widget is not drawn: {widget.inner_text()!r}"
    for svg in chapter.notebook.locator(".jp-OutputArea-output svg:has(g.node)").all():
        assert svg.bounding_box()["height"] > 20, "a graph (inline SVG) has no size"
    for image in chapter.notebook.locator(".jp-OutputArea-output img").all():
        assert image.evaluate("img => img.complete && img.naturalWidth > 0"), "an image (graph or plot) did not load"


@pytest.mark.parametrize("chapter", STEPPED, indirect=True)
def test_a_stepper_steps_live(chapter, clean):
    texts = StepperTexts(language_of(chapter.name))
    cell = chapter.cell(widget_cell(chapter, "BackwardStepper(", texts.button("Reset")))
    click(cell, texts.button("Reset"))      # the chapter's later cells drove it to the end: replay from the start
    total = texts.start_total(expect_panel(cell, texts.start))
    expected = STEPPER_EXPECTED[chapter.name.removeprefix("zh/")]
    assert total == len(expected["steps"])
    for k in range(1, total + 1):
        click(cell, texts.button("Step"))
        check_step(cell, k, total, expected, texts)


@pytest.mark.parametrize("chapter", STEPPED, indirect=True)
def test_an_exercise_says_not_yet_then_correct_once_solved(chapter, clean):
    language = language_of(chapter.name)
    cells = json.loads(chapter.file.read_text())["cells"]
    check = next(i for i, c in enumerate(cells) if "ch04.check_square(" in "".join(c["source"]))
    stub = max(i for i in range(check) if cells[i]["cell_type"] == "code")
    solution = re.search(r"```python\n(.*?)```", "".join(cells[check + 1]["source"]), re.S).group(1)
    output = chapter.cell(check).locator(".jp-OutputArea-output")
    not_yet = feedback(language, False, "")
    assert output.inner_text().startswith(not_yet), f"the stub should get {not_yet!r}: {output.inner_text()!r}"
    type_into(chapter, stub, solution)
    chapter.page.keyboard.press("Shift+Enter")        # runs the solution, then selects the check
    chapter.page.keyboard.press("Shift+Enter")        # runs the check
    expect(output).to_have_text(feedback(language, True, say(language, SQUARE_SOLVED, "exercises")), timeout=30_000)


@pytest.mark.parametrize("chapter", ["04_function_apply"], indirect=True)
def test_numpy_32_bit_integers_get_minigrad_dtypes(chapter, clean):
    """Pyodide is wasm32: numpy's default integer is int32 there; indices come back int64, as in torch."""
    code = ("import numpy as np\nwidths = ['int8', 'int16', 'int32', 'int64', 'uint8']\n"
            "print(np.arange(3).dtype, torch.tensor(np.arange(3)).dtype, torch.tensor([3., 1., 2.]).argmax().dtype,"
            " [str(torch.tensor(np.zeros(2, w)).dtype) for w in widths])")
    last = chapter.cells.count() - 1
    chapter.cell(last).locator(".jp-InputPrompt").click()
    chapter.page.keyboard.press("b")                  # a new cell below (command mode)
    type_into(chapter, last + 1, code)
    chapter.page.keyboard.press("Shift+Enter")
    output = chapter.cell(last + 1).locator(".jp-OutputArea-output")
    output.first.wait_for(timeout=30_000)
    assert output.first.inner_text().strip() == ("int32 torch.int32 torch.int64 ['torch.int8', 'torch.int16', "
                                                 "'torch.int32', 'torch.int64', 'torch.uint8']")


@pytest.mark.parametrize("chapter", STEPPED, indirect=True)
def test_the_chapter_links_back_to_its_static_page(chapter, clean, served):
    text = say(language_of(chapter.name), "The static page of this chapter")
    link = chapter.notebook.locator(".jp-OutputArea-output a").filter(has_text=text)
    expect(link).to_have_count(1)
    # served under /book/live/: the static site is /book/, as `make publish` lays it out; the Chinese pages in zh/
    assert link.get_attribute("href") == served.removesuffix("live/") + chapter.name + ".html"


@pytest.mark.parametrize("chapter", ZH_LIVE, indirect=True)
def test_the_chinese_is_drawn_with_a_font_that_has_chinese(chapter, clean):
    families = cjk_families()
    cell = chapter.cell(widget_cell(chapter, "BackwardStepper(", StepperTexts("zh").button("Reset")))
    assert_drawn_in_cjk_font(chapter.page, button(cell, StepperTexts("zh").button("Step")), families)
    assert_drawn_in_cjk_font(chapter.page, chapter.notebook.locator(".jp-MarkdownOutput h1").first, families)


# last for its chapter: it opens a second notebook on top of it
@pytest.mark.parametrize("chapter", ZH_LIVE, indirect=True)
def test_the_language_switch_opens_the_other_edition_here(chapter, clean):
    english = chapter.name.removeprefix("zh/")
    setup = chapter.cell(1).locator(".jp-OutputArea-output")
    setup.locator("a").filter(has_text="English").click()
    # JupyterLab opens a relative link as a file of the same live edition: the English copy, in a new tab
    tabs = chapter.page.locator(".lm-TabBar-tab").filter(has_text=f"{english}.ipynb")
    expect(tabs).to_have_count(2)
    title = json.loads((BOOK / f"{english}.ipynb").read_text())["cells"][0]["source"][0]
    heading = chapter.notebook.locator(".jp-MarkdownOutput h1").first      # the notebook in the tab on top
    expect(heading).to_contain_text(title.removeprefix("# ").strip().replace("`", ""))
