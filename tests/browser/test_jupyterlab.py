"""The book's widgets in a real JupyterLab, clicked in a real browser.

Each chapter that uses the widgets is opened (a temp copy), its stored outputs cleared and every cell run from
the Run menu; then: no cell shows an error, every widget is drawn, every stepper's buttons are usable, and the
browser console stays clean. The chapter's first BackwardStepper, as Run All left it (later cells drive steppers of
their own), is clicked through: Step, Back, Reset, Run to end and Back again, checking the highlighted node (in view
after each step, fitted and zoomed) and the grad_output panel at each step. The ModuleApplyView is stepped through
its visits, and a GraphView's options redraw it. Screenshots go to artifacts/browser/.
"""
import re

import pytest

from .expected import MODULE_EXPECTED, STEPPER_EXPECTED
from .labserver import WIDGET_OUTPUT
from .widget_page import (assert_current_node_in_view, button, chapter_run_in_lab, chapters_calling, check_console_after,
                          check_step, click, expect_panel, highlighted, panel_text, post_order, widget_cell)

try:
    from playwright.sync_api import expect
except ImportError:      # then the fixtures fail with what to install (and without --browser nothing runs)
    expect = None

pytestmark = pytest.mark.browser

WIDGET_CHAPTERS = chapters_calling("from widgets import", "import widgets")
STEPPER_CHAPTERS = chapters_calling("BackwardStepper(")
MODULE_CHAPTERS = chapters_calling("ModuleApplyView(")
GRAPH_CHAPTERS = chapters_calling("GraphView(")


@pytest.fixture(scope="module")
def chapter(request, lab, chromium, artifacts):
    """The chapter `request.param` open in JupyterLab, every cell run; closed (kernel shut down) afterwards."""
    with chapter_run_in_lab(lab, chromium, artifacts, request.param) as notebook:
        yield notebook


@pytest.fixture
def check_console(chapter, request, artifacts):
    """After the test: the browser console reported no error; a screenshot of the page if the test failed."""
    yield from check_console_after(chapter, request, artifacts)


@pytest.mark.parametrize("chapter", WIDGET_CHAPTERS, indirect=True)
def test_chapter_runs_without_errors_and_draws_every_widget(chapter, check_console):
    errors = chapter.error_outputs()
    assert errors == [], "cells show errors:\n" + "\n".join(f"cell {i}: {text}" for i, text in errors)
    page = chapter.notebook
    # a widget the front end cannot show falls back to its text: "<BackwardStepper: step 0 of 3, ...>"
    as_text = [t for t in page.locator('.jp-OutputArea-output[data-mime-type="text/plain"]').all_inner_texts()
               if re.match(r"<?(BackwardStepper|GraphView|ModuleApplyView)\b", t)]
    assert as_text == [], f"widgets shown as text, not drawn (is the widget front end missing?): {as_text}"
    widgets = page.locator(WIDGET_OUTPUT)
    if chapter.name in STEPPER_CHAPTERS + MODULE_CHAPTERS + GRAPH_CHAPTERS:
        assert widgets.count() > 0, f"{chapter.name} makes widgets, but none is on the page"
    for widget in widgets.all():
        box = widget.locator(".lm-Widget").first.bounding_box()
        assert box and box["width"] > 50 and box["height"] > 20, f"a widget is not drawn: {widget.inner_text()!r}"
    for svg in page.locator(".jp-OutputArea-output svg:has(g.node)").all():
        assert svg.bounding_box()["height"] > 20, "a graph (inline SVG) has no size"
    for image in page.locator('.jp-OutputArea-output[data-mime-type="image/svg+xml"] img').all():
        assert image.evaluate("img => img.complete && img.naturalWidth > 0"), "a graph (SVG image) did not load"


@pytest.mark.parametrize("chapter", STEPPER_CHAPTERS, indirect=True)
def test_stepper_steps_back_resets_and_runs_to_end(chapter, check_console, artifacts):
    # after Run All, the displayed stepper is as its cell made it: later cells drive steppers of their own
    cell = chapter.cell(widget_cell(chapter, "BackwardStepper(", "Step "))
    if "Step 0 of " not in expect_panel(cell, "Step "):     # the cell itself took some steps: start over
        click(cell, "Reset")
    text = expect_panel(cell, "Step 0 of ")
    total = int(re.search(r"Step 0 of (\d+)", text).group(1))
    assert highlighted(cell) == [], "before the first step no node should be highlighted"
    expected = STEPPER_EXPECTED.get(chapter.name)
    if expected:
        assert total == len(expected["steps"]), f"the stepper has {total} steps, expected {len(expected['steps'])}"

    seen = {}
    # every step but the last: with retain_graph=False the last one frees the graph, and Back is refused
    for k in range(1, total):
        click(cell, "Step")
        seen[k] = check_step(cell, k, total, expected)
        assert_current_node_in_view(cell, f"step {k}")
        assert seen[k] != seen.get(k - 1), f"step {k} left the panel as it was"
        cell.screenshot(path=artifacts / f"{chapter.name}-stepper-step{k}.png")
    if total >= 2:
        click(cell, "Back")
        assert check_step(cell, total - 2, total, expected) == seen.get(total - 2, panel_text(cell)), \
            "Back did not return to the previous step's panel"
    click(cell, "Reset")
    expect_panel(cell, "Step 0 of ")
    assert highlighted(cell) == []
    click(cell, "Step")
    assert check_step(cell, 1, total, expected) == seen.get(1, panel_text(cell))

    click(cell, "Run to end")
    text = expect_panel(cell, "Backward finished")
    assert f"Step {total} of {total}" in text
    for leaf in expected["leaves"] if expected else []:
        assert leaf in text, f"after Run to end the panel should show {leaf!r}; it shows:\n{text}"
    if not expected:
        assert ".grad = " in text, f"after Run to end the panel should list the leaves' .grad:\n{text}"
    for label in ("Step", "Run to end"):       # finished: nothing left to run (Play: see the widget unit tests)
        expect(button(cell, label)).to_be_disabled()
    cell.screenshot(path=artifacts / f"{chapter.name}-stepper-end.png")
    if total >= 2:      # never dead: the graph is freed, but Back and Reset replay the recorded steps
        click(cell, "Back")
        text = check_step(cell, total - 1, total, expected)
        assert "graph was freed" in text, f"after the end, Back should replay and say the graph was freed:\n{text}"
        expect(button(cell, "Step")).to_be_enabled()
    click(cell, "Reset")
    expect_panel(cell, "Step 0 of ")


@pytest.mark.parametrize("chapter", MODULE_CHAPTERS, indirect=True)
def test_module_apply_view_visits_children_first_and_the_root_last(chapter, check_console, artifacts):
    cell = chapter.cell(widget_cell(chapter, "ModuleApplyView(", "Visit "))
    click(cell, "Reset")        # the chapter's own cells have stepped it already
    text = expect_panel(cell, "Visit 0 of ")
    total = int(re.search(r"Visit 0 of (\d+)", text).group(1))
    order = post_order(cell)
    assert len(order) == total, f"the tree drawn has {len(order)} modules to visit, the panel says {total}"
    if chapter.name in MODULE_EXPECTED:
        assert order == MODULE_EXPECTED[chapter.name]
    for k, name in enumerate(order, 1):
        click(cell, "Step")
        text = expect_panel(cell, f"Visit {k} of {total}: {name} (")
        assert highlighted(cell) == [name], f"visit {k} is {name}, but the tree highlights {highlighted(cell)}"
        if k == 2:
            cell.screenshot(path=artifacts / f"{chapter.name}-module-apply-visit2.png")
    so_far = ", ".join(f"{k}. {name}" for k, name in enumerate(order, 1))
    assert f"order so far: {so_far}" in text, f"expected the order {so_far!r}; the panel shows:\n{text}"
    assert "Module.apply then returned the module itself." in text
    expect(button(cell, "Step")).to_be_disabled()
    expect(button(cell, "Run to end")).to_be_disabled()
    click(cell, "Back")
    expect_panel(cell, f"Visit {total - 1} of {total}: ")
    click(cell, "Run to end")
    expect_panel(cell, f"Visit {total} of {total}: {order[-1]} (")


@pytest.mark.parametrize("chapter", GRAPH_CHAPTERS, indirect=True)
def test_graph_view_options_redraw_the_graph(chapter, check_console):
    cell = chapter.cell(widget_cell(chapter, "GraphView(", "Refresh"))
    graph = cell.locator("svg:has(g.node)").first
    expect(graph).to_be_visible()
    nodes, drawn = graph.locator("g.node").count(), graph.text_content()
    values = cell.locator(".widget-checkbox").filter(has_text="values").locator("input")
    # each option redraws from the tensors as they are now (the chapter's later cells may have changed them)
    values.uncheck()
    expect(graph).not_to_have_text(drawn)
    without_values = graph.text_content()
    values.check()
    expect(graph).not_to_have_text(without_values)
    with_values = graph.text_content()
    click(cell, "Refresh")
    expect(graph).to_have_text(with_values)
    expect(graph.locator("g.node")).to_have_count(nodes)
    values.uncheck()
    expect(graph).to_have_text(without_values)


@pytest.mark.parametrize("chapter", STEPPER_CHAPTERS + MODULE_CHAPTERS, indirect=True)
def test_after_run_all_every_stepper_is_usable(chapter, check_console):
    steppers = chapter.notebook.locator(WIDGET_OUTPUT).filter(has=chapter.page.locator(".minigrad-panel"))
    assert steppers.count() > 0
    for i, widget in enumerate(steppers.all()):
        expect(button(widget, "Reset")).to_be_enabled()
        text = panel_text(widget)
        at_end = "Backward finished" in text or "returned the module itself" in text
        expect(button(widget, "Back" if at_end else "Step")).to_be_enabled()
        assert not (at_end and "Click Step" in text), f"stepper {i} is at its end but says to click Step"


@pytest.mark.parametrize("chapter", [c for c in STEPPER_CHAPTERS if c.startswith("07_")], indirect=True)
def test_zoomed_in_the_current_node_stays_in_view(chapter, check_console, artifacts):
    cell = chapter.cell(widget_cell(chapter, "BackwardStepper(", "Step "))
    click(cell, "Reset")
    click(cell, "100 %")
    for _ in range(5):          # 305 %: the graph is larger than the window, which must follow the current node
        click(cell, "+")
    expect(cell.locator(".widget-html").filter(has_text="305 %")).to_have_count(1)
    k = 0
    while button(cell, "Step").is_enabled():
        k += 1
        click(cell, "Step")
        expect_panel(cell, f"Step {k} of ")
        assert_current_node_in_view(cell, f"zoomed, step {k}")
    cell.screenshot(path=artifacts / f"{chapter.name}-stepper-zoomed.png")
    click(cell, "fit")


@pytest.mark.parametrize("chapter", [c for c in GRAPH_CHAPTERS if c.startswith("12_")], indirect=True)
def test_a_wide_graph_is_fitted_into_its_output_area(chapter, check_console):
    for graph in chapter.notebook.locator(WIDGET_OUTPUT + " svg:has(g.node)").all():
        box, area = graph.bounding_box(), graph.locator("xpath=ancestor::div[contains(@class, 'jp-OutputArea-output')]").bounding_box()
        assert box["x"] >= area["x"] - 1 and box["x"] + box["width"] <= area["x"] + area["width"] + 1, \
            f"a graph {box['width']:.0f} px wide sticks out of its {area['width']:.0f} px output area"
