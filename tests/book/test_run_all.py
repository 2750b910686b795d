"""The chapters cooperate with Run All: a widget a cell displays is never driven or redrawn by a later cell (the
picture would no longer match the prose under it, or the stepper would be at its end before a learner clicks),
and no later cell rebinds a name that a widget cell reads (re-running the widget cell would then fail)."""
import json
import re
from pathlib import Path

import pytest

BOOK = Path(__file__).resolve().parents[2] / "book"
CHAPTERS = sorted(BOOK.glob("[0-9][0-9]_*.ipynb"))
WIDGET = re.compile(r"^(\w+) = (BackwardStepper|GraphView|ModuleApplyView)\((.*)\)\s*$", re.M)
DRIVE = r"\b{}\.(step|back|reset|run_to_end|go_to|refresh)\("


def code_cells(path):
    cells = json.loads(path.read_text())["cells"]
    return [(i, "".join(c["source"])) for i, c in enumerate(cells) if c["cell_type"] == "code"]


def assigned(source):
    """The names a piece of code assigns at the start of a line (`a = ...`, `a, b = ...`)."""
    return {name.strip() for target in re.findall(r"^(\w[\w, ]*?) = ", source, re.M) for name in target.split(",")}


def displayed_widgets(path):
    """[(cell index, widget name, the names its constructor call reads)] for widgets a cell displays."""
    found = []
    for i, source in code_cells(path):
        last = source.strip().splitlines()[-1].strip() if source.strip() else ""
        for match in WIDGET.finditer(source):
            if match.group(1) == last:
                reads = set(re.findall(r"\b([a-z_]\w*)\b(?!\s*=)", match.group(3))) - {"torch", "True", "False"}
                reads -= assigned(source[:match.start()])      # made in the same cell: re-running remakes them
                found.append((i, match.group(1), reads))
    return found


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_no_later_cell_drives_a_displayed_widget(path):
    cells = code_cells(path)
    for i, name, _ in displayed_widgets(path):
        rebound = min([j for j, source in cells if j > i and name in assigned(source)], default=len(cells) * 2)
        later = [j for j, source in cells if i < j <= rebound and re.search(DRIVE.format(re.escape(name)), source)
                 and not (j == rebound and source.index(f"{name} = ") < re.search(DRIVE.format(name), source).start())]
        assert later == [], (f"{path.name}: cell {i} displays {name}, and cell {later[0]} drives it: after Run All "
                             "the picture is not what the text under it describes. Drive a second instance.")


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_no_later_cell_rebinds_a_name_a_widget_cell_reads(path):
    cells = code_cells(path)
    for i, name, reads in displayed_widgets(path):
        for j, source in cells:
            if j <= i:
                continue
            rebound = reads & assigned(source)
            assert not rebound, (f"{path.name}: cell {j} rebinds {sorted(rebound)}, which the widget cell {i} "
                                 "reads: re-running that cell after Run All would use the new value")
