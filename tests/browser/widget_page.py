"""Reading and clicking the book's widgets on a JupyterLab page (used by test_jupyterlab.py)."""
import contextlib
import itertools
import json
import re

import pytest

from .catalogue import EN
from .conftest import BOOK, VIEWPORT, failed
from .labserver import NotebookPage

try:
    from playwright.sync_api import expect
except ImportError:      # then the fixtures fail with what to install (and without --browser nothing runs)
    expect = None

CURRENT_FILL = "#ffb74d"        # widgets/graph.py COLORS["current"]: the node the stepper (or explorer) is at


def code_cells(path):
    """[(index among all cells, source)] of a notebook's code cells; the index is the cell's place on the page."""
    cells = json.loads(path.read_text())["cells"]
    return [(i, "".join(c["source"])) for i, c in enumerate(cells) if c["cell_type"] == "code"]


def chapters_calling(*calls):
    return [p.stem for p in sorted(BOOK.glob("[0-9][0-9]_*.ipynb"))
            if any(call in source for _, source in code_cells(p) for call in calls)]


def widget_cell(chapter, call, shows):
    """The index of the first code cell that calls `call` and whose output shows a widget with text `shows`.

    Cells are read from the copy JupyterLab serves (book/ may have moved on since), after the chapter ran.
    """
    for i, source in code_cells(chapter.file):
        if call in source and shows in chapter.cell(i).locator(".jp-OutputArea").inner_text():
            return i
    pytest.fail(f"{chapter.name}: no cell calling {call} shows {shows!r}")


def panel(cell):
    return cell.locator(".minigrad-panel").first


def panel_text(cell):
    return panel(cell).inner_text().replace("\xa0", " ")


def button(cell, label):
    return cell.locator("button.widget-button").filter(has_text=re.compile(f"^{re.escape(label)}$"))


def click(cell, label):
    """Click the widget's button `label`; fail saying which buttons there are if it is missing or disabled."""
    target = button(cell, label)
    try:
        expect(target).to_be_enabled(timeout=10_000)
    except AssertionError:
        buttons = cell.locator("button.widget-button").evaluate_all(
            "bs => bs.map(b => b.textContent + (b.disabled ? ' (disabled)' : ''))")
        raise AssertionError(f"no enabled {label!r} button in the widget; its buttons are {buttons}") from None
    target.click()


def highlighted(cell):
    """The titles (first label line) of the graph nodes drawn in the 'current' colour."""
    nodes = cell.locator("svg g.node").filter(has=cell.page.locator(f'[fill="{CURRENT_FILL}"]'))
    return [n.locator("text").first.text_content() for n in nodes.all()]


def expect_panel(cell, text):
    expect(panel(cell)).to_contain_text(text)
    return panel_text(cell)


def check_step(cell, k, total, expected, texts=EN):
    """Check the panel and the picture after `k` steps; return the panel text. `texts`: the panel's language."""
    if k == 0:
        text = expect_panel(cell, texts.start)
        assert highlighted(cell) == []
        return text
    heading = texts.heading(k, total)
    text = expect_panel(cell, heading)
    name = re.search(re.escape(heading) + "(.+)", text).group(1).strip()
    assert highlighted(cell) == [name], f"step {k} is at {name}, but the graph highlights {highlighted(cell)}"
    assert texts.received in text, f"step {k}: no {texts.received!r} (grad_output) in the panel:\n{text}"
    if expected:
        node = expected["steps"][k - 1][0]
        assert name == node, f"step {k} ran {name}, expected {node}"
        # nodes of the same name that are ready together (two leaves' AccumulateGrad) may run in either order
        allowed = [received for same, received in expected["steps"] if same == name]
        assert received_lines(text, texts) in allowed, \
            f"step {k} ({node}) should show a grad_output among {allowed}; the panel shows:\n{text}"
    return text


def received_lines(text, texts=EN):
    """The panel's "received (grad_output)" entries, e.g. ["[0] [1., 1.]", "[1] None"]."""
    lines = text.split(texts.received, 1)[1].splitlines()[1:]
    return [line.strip() for line in itertools.takewhile(lambda line: line.startswith("  ["), lines)]


def type_into(notebook, index, text):
    """Replace the source of cell `index` with `text`, typed into its editor (left in edit mode)."""
    editor = notebook.cell(index).locator(".cm-content")
    editor.click()
    notebook.page.keyboard.press("Control+a")
    notebook.page.keyboard.insert_text(text)


def post_order(cell):
    """The visiting order Module.apply must follow, read off the tree as drawn: children (in order) first."""
    nodes = {n.locator("title").text_content(): n.locator("text").first.text_content()
             for n in cell.locator("svg g.node").all()}
    children = {}
    for edge in cell.locator("svg g.edge title").all_text_contents():
        parent, child = edge.split("->")
        children.setdefault(parent, []).append(child)
    roots = [n for n in nodes if not any(n in kids for kids in children.values())]
    assert len(roots) == 1, f"expected one root in the module tree, found {roots}"
    order, stack = [], [(roots[0], False)]
    while stack:
        node, expanded = stack.pop()
        if expanded:
            order.append(nodes[node])
        else:
            stack.append((node, True))
            stack.extend((kid, False) for kid in reversed(children.get(node, [])))
    return order



def assert_current_node_in_view(cell, when):
    """The highlighted node lies inside the graph's visible box and inside the browser window.

    One JavaScript call reads it all, so a redraw between two calls cannot hand us a detached node."""
    found = cell.evaluate("""(cell, fill) => {
        const node = [...cell.querySelectorAll('svg g.node')].find(g => g.querySelector(`[fill="${fill}"]`));
        if (!node) return null;
        const graph = node.closest('.widget-html');
        graph.scrollIntoView({block: 'nearest'});  // the learner scrolls the page; only the widget moves the view
        const box = node.getBoundingClientRect(), area = graph.getBoundingClientRect();
        return {x: box.x + box.width / 2, y: box.y + box.height / 2,
                area: [area.x, area.y, area.x + area.width, area.y + area.height]};
    }""", CURRENT_FILL)
    assert found is not None, f"{when}: no node is highlighted"
    window = cell.page.viewport_size
    x, y, (left, top, right, bottom) = found["x"], found["y"], found["area"]
    assert left <= x <= right and top <= y <= bottom, \
        f"{when}: the current node (centre {x:.0f}, {y:.0f}) is outside the graph's visible box {found['area']}"
    assert 0 <= x <= window["width"] and 0 <= y <= window["height"], \
        f"{when}: the current node (centre {x:.0f}, {y:.0f}) is outside the browser window {window}"


@contextlib.contextmanager
def chapter_run_in_lab(lab, chromium, artifacts, name):
    """Chapter `name` ("05_x", or "zh/05_x" for the Chinese edition) open in JupyterLab with every cell run;
    closed (kernel shut down) afterwards, with a screenshot of how it ended."""
    context = chromium.new_context(viewport=VIEWPORT)
    try:
        notebook = NotebookPage(context.new_page(), lab, f"{name}.ipynb")
        notebook.name, notebook.file = name, lab.root / f"{name}.ipynb"
        try:
            notebook.run_all()
            yield notebook
        finally:
            notebook.page.screenshot(path=artifacts / f"{name.replace('/', '-')}.png")
            notebook.close()
    finally:
        context.close()


def check_console_after(chapter, request, artifacts):
    """For a fixture to yield from: after the test, a screenshot if it failed, and no browser console error
    (each test reports what happened during, or before, it, once)."""
    yield
    if failed(request):
        chapter.page.screenshot(path=artifacts / f"FAILED-{request.node.name}.png")
    errors = list(chapter.console_errors)
    chapter.console_errors.clear()
    assert errors == [], f"the browser console reported errors in {chapter.name}:\n" + "\n".join(
        error.splitlines()[0] for error in errors)
