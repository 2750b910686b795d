"""The book's exercises: stored notebooks show "not yet" on every untouched stub, and the solutions pass.

Conventions (see book/README.md): an exercise is a code cell tagged `exercise` (the stub), a code cell tagged
`check` (calls a check from `widgets.exercises`), and a markdown cell tagged `solution` holding the solution
in a ```python block inside <details>. The n-th solution of a notebook belongs to its n-th exercise.
"""
import re
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

BOOK = Path(__file__).resolve().parents[2] / "book"
CHAPTERS = sorted(BOOK.glob("[0-9][0-9]_*.ipynb"))
SOLUTION_CODE = re.compile(r"```python\n(.*?)```", re.S)


def tagged(nb, tag):
    return [c for c in nb.cells if tag in c.get("metadata", {}).get("tags", [])]


def output_text(cell):
    parts = []
    for out in cell.get("outputs", []):
        if out.get("output_type") == "stream":
            parts.append(out["text"])
        elif "data" in out:
            parts.append(out["data"].get("text/plain", ""))
    return "".join(parts)


def test_the_book_has_chapters():
    assert len(CHAPTERS) >= 13, f"expected chapters 0..12 in {BOOK}, found {[p.name for p in CHAPTERS]}"


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_exercises_are_well_formed_and_stored_as_not_yet(path):
    nb = nbformat.read(path, as_version=4)
    exercises, checks, solutions = tagged(nb, "exercise"), tagged(nb, "check"), tagged(nb, "solution")
    if path.stem.startswith(("00_", "19_glossary")):
        return                                   # the start page and the glossary have no exercises
    assert 2 <= len(exercises) <= 4, f"{path.name}: {len(exercises)} exercises, expected 2 to 4"
    assert len(solutions) == len(exercises), f"{path.name}: {len(exercises)} exercises but {len(solutions)} solutions"
    assert len(checks) >= len(exercises), f"{path.name}: every exercise needs a check cell"
    for cell in solutions:
        assert cell.cell_type == "markdown" and "<details>" in cell.source, f"{path.name}: solution must be hidden"
        assert SOLUTION_CODE.search(cell.source), f"{path.name}: solution has no ```python block"
    for cell in checks:
        text = output_text(cell)
        assert "✗ not yet" in text and "✓ correct" not in text, (
            f"{path.name}: the stored output of an untouched check should say 'not yet', got: {text!r}")


@pytest.mark.parametrize("path", [p for p in CHAPTERS if not p.stem.startswith("00_")], ids=lambda p: p.stem)
def test_solutions_pass_every_check(path, tmp_path):
    nb = nbformat.read(path, as_version=4)
    for stub, solution in zip(tagged(nb, "exercise"), tagged(nb, "solution")):
        stub.source = SOLUTION_CODE.search(solution.source).group(1)
    NotebookClient(nb, timeout=300, startup_timeout=300, kernel_name="python3", resources={"metadata": {"path": str(BOOK)}}).execute()
    for cell in tagged(nb, "check"):
        text = output_text(cell)
        assert "✓ correct" in text and "✗ not yet" not in text, (
            f"{path.name}: with the solutions filled in, a check printed {text!r}\nfor:\n{cell.source}")
