"""The Chinese edition in a real JupyterLab: one chapter of book/zh/, run end to end in Chromium.

Chapter 5 (a BackwardStepper and three exercises) is opened from zh/ in the lab's copy of book/, its stored
outputs cleared and every cell run: no cell shows an error; the stepper, whose buttons and panel speak Chinese,
is stepped to its end and reset; an exercise's check answers a wrong answer typed into its cell with "✗ 还不对——"
and its hint, then the right one with "✓ 正确——"; and the Chinese is drawn by a font that has Chinese
characters. Every Chinese text expected is the catalogue's msgstr (catalogue.py), not a copy of the widget's.
"""
import json
import re

import pytest

from .catalogue import ZH, assert_drawn_in_cjk_font, cjk_families, feedback, zh
from .expected import STEPPER_EXPECTED
from .labserver import WIDGET_OUTPUT
from .widget_page import (button, chapter_run_in_lab, check_console_after, check_step, click, expect_panel, panel,
                          type_into, widget_cell)

try:
    from playwright.sync_api import expect
except ImportError:      # then the fixtures fail with what to install (and without --browser nothing runs)
    expect = None

pytestmark = pytest.mark.browser

NAME = "05_backward_and_grad_output"
EXERCISE = "ch05.check_weights("
WRONG = "v = torch.tensor([[2.0, -1.0]])"        # a row vector, shape (1, 2): y has shape (2,)
SHAPE_HINT = ("v has shape {v_shape}, but y has shape (2,): the gradient must have y's shape (otherwise backward "
              "raises 'Mismatch in shape').")
SOLVED = "y.backward(v) with v = [2, -1] gives the gradient of 2 * y[0] - y[1]."
STUB_HINT = "this is still the stub: replace the `...` with your code, then run the cell again."


@pytest.fixture(scope="module")
def chapter(lab, chromium, artifacts):
    """book/zh/05 open in JupyterLab, every cell run; closed (kernel shut down) afterwards."""
    with chapter_run_in_lab(lab, chromium, artifacts, f"zh/{NAME}") as notebook:
        yield notebook


@pytest.fixture
def check_console(chapter, request, artifacts):
    """After the test: the browser console reported no error; a screenshot of the page if the test failed."""
    yield from check_console_after(chapter, request, artifacts)


def stepper_cell(chapter):
    return chapter.cell(widget_cell(chapter, "BackwardStepper(", ZH.button("Reset")))


def test_the_chinese_chapter_runs_without_errors(chapter, check_console):
    errors = chapter.error_outputs()
    assert errors == [], "cells show errors:\n" + "\n".join(f"cell {i}: {text}" for i, text in errors)
    prompts = chapter.page.locator(".jp-CodeCell .jp-InputPrompt").all_inner_texts()
    assert all(re.fullmatch(r"\[\d+\]:", p.strip()) for p in prompts), f"cells that did not run: {prompts}"
    assert chapter.notebook.locator(WIDGET_OUTPUT).count() > 0, "the chapter's stepper is not on the page"


def test_the_stepper_speaks_chinese_and_steps_to_the_end(chapter, check_console, artifacts):
    cell = stepper_cell(chapter)
    for label in ("Step", "Back", "Run to end", "Reset"):
        expect(button(cell, ZH.button(label))).to_have_count(1)
    english = cell.locator("button.widget-button").filter(has_text=re.compile(r"^(Step|Back|Run to end|Reset)$"))
    expect(english).to_have_count(0)
    if ZH.start not in panel(cell).inner_text():       # a later cell drove it: start over
        click(cell, ZH.button("Reset"))
    total = ZH.start_total(expect_panel(cell, ZH.start))
    expected = STEPPER_EXPECTED[NAME]          # the same graph as the English chapter: the same steps
    assert total == len(expected["steps"]), f"the stepper has {total} steps, expected {len(expected['steps'])}"
    for k in range(1, total + 1):
        click(cell, ZH.button("Step"))
        check_step(cell, k, total, expected, ZH)
        if k == 1:
            cell.screenshot(path=artifacts / f"zh-{NAME}-stepper-step1.png")
    text = expect_panel(cell, ZH.finished)
    for leaf in map(ZH.leaf, expected["leaves"]):
        assert leaf in text, f"after the last step the panel should show {leaf!r}; it shows:\n{text}"
    expect(button(cell, ZH.button("Step"))).to_be_disabled()
    expect(button(cell, ZH.button("Run to end"))).to_be_disabled()
    click(cell, ZH.button("Back"))
    check_step(cell, total - 1, total, expected, ZH)
    click(cell, ZH.button("Reset"))
    check_step(cell, 0, total, expected, ZH)


def answer(chapter, stub, check, code):
    """Type `code` into the exercise cell `stub`, run it and its check; return the check's output area."""
    type_into(chapter, stub, code)
    chapter.page.keyboard.press("Shift+Enter")        # runs the answer, then selects the check
    chapter.page.keyboard.press("Shift+Enter")        # runs the check
    return chapter.cell(check).locator(".jp-OutputArea-output")


def test_an_exercise_says_not_yet_then_correct_in_chinese(chapter, check_console):
    cells = json.loads(chapter.file.read_text())["cells"]
    check = next(i for i, c in enumerate(cells) if EXERCISE in "".join(c["source"]))
    stub = max(i for i in range(check) if cells[i]["cell_type"] == "code")
    solution = re.search(r"```python\n(.*?)```", "".join(cells[check + 1]["source"]), re.S).group(1)
    output = chapter.cell(check).locator(".jp-OutputArea-output")
    expect(output).to_have_text(feedback("zh", False, zh(STUB_HINT)))              # as Run All left it
    wrong = feedback("zh", False, zh(SHAPE_HINT, "exercises").format(v_shape=(1, 2)))
    expect(answer(chapter, stub, check, WRONG)).to_have_text(wrong, timeout=30_000)
    right = feedback("zh", True, zh(SOLVED, "exercises"))
    expect(answer(chapter, stub, check, solution)).to_have_text(right, timeout=30_000)


def test_the_chinese_is_drawn_with_a_font_that_has_chinese(chapter, check_console):
    families = cjk_families()
    cell = stepper_cell(chapter)
    assert_drawn_in_cjk_font(chapter.page, button(cell, ZH.button("Step")), families)
    assert_drawn_in_cjk_font(chapter.page, panel(cell).locator("b").first, families)
    assert_drawn_in_cjk_font(chapter.page, chapter.notebook.locator(".jp-MarkdownOutput h1").first, families)
