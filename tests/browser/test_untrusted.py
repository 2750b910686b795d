"""A chapter opened in JupyterLab without running it (untrusted, as a downloaded notebook is): every stored graph
and widget shows as a picture, not as a line of text."""
import json
import shutil

import pytest

from .conftest import BOOK, VIEWPORT
from .labserver import NotebookPage

pytestmark = pytest.mark.browser

CHAPTERS = ["00_start_here", "02_module_apply", "05_backward_and_grad_output", "12_function_vs_module"]
PICTURE_TEXT = r"/^<?(BackwardStepper|GraphView|ModuleApplyView|autograd graph|module tree)\b/"


def stored_pngs(path):
    cells = json.loads(path.read_text())["cells"]
    return sum("image/png" in o.get("data", {}) for c in cells for o in c.get("outputs", []))


@pytest.mark.parametrize("name", CHAPTERS)
def test_an_unexecuted_untrusted_chapter_shows_every_stored_picture(name, lab, chromium, artifacts):
    copy = f"untrusted_{name}.ipynb"        # never run or saved by another test, so never trusted
    shutil.copy(BOOK / f"{name}.ipynb", lab.root / copy)
    expected = stored_pngs(BOOK / f"{name}.ipynb")
    assert expected > 0, f"{name} stores no picture"
    context = chromium.new_context(viewport=VIEWPORT)
    try:
        notebook = NotebookPage(context.new_page(), lab, copy)
        try:
            images = notebook.notebook.locator('.jp-OutputArea-output[data-mime-type="image/png"] img')
            images.nth(expected - 1).wait_for(timeout=30_000)
            assert images.count() == expected
            for image in images.all():
                image.scroll_into_view_if_needed()
                assert image.evaluate("img => img.complete && img.naturalWidth > 50"), "a stored picture is empty"
            as_text = notebook.notebook.locator(".jp-OutputArea-output").evaluate_all(
                f"outs => outs.map(o => o.innerText).filter(t => {PICTURE_TEXT}.test(t))")
            assert as_text == [], f"graphs shown as text instead of a picture: {as_text}"
            notebook.page.screenshot(path=artifacts / f"untrusted-{name}.png")
        finally:
            notebook.close()
    finally:
        context.close()
