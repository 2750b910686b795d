"""The chapters' claim "every cell prints the same on PyTorch", checked: their code runs on real torch 2.13.

Each chapter's code cells run in order in one namespace, with the imports swapped (`import minigrad as torch` ->
`import torch`, `from minigrad import autograd` -> `from torch import autograd`); cells that use a widget or
call an exercise check are skipped (widgets read minigrad's graph only). What a cell prints, plus the repr of
its last expression as Jupyter would show it, must equal the output stored in the notebook, which minigrad made.
"""
import ast
import contextlib
import io
import re
from pathlib import Path

import nbformat
import pytest

from tests.torch_reference import import_torch

torch = import_torch()

BOOK = Path(__file__).resolve().parents[2] / "book"
CHAPTERS = ["06_how_backward_runs", "13_gradients_of_gradients"]
IMPORTS = [(re.compile(r"^import minigrad as torch$", re.M), "import torch"),
           (re.compile(r"^from minigrad import (\w+)", re.M), r"from torch import \1"),
           (re.compile(r"^from widgets(\.\w+)? import .*$", re.M), "")]
WIDGETS = re.compile(r"\b(BackwardStepper|draw_graph|GraphView|ModuleApplyView|ch\d\d)\b")
ADDRESS = re.compile(r"\b0x[0-9a-fA-F]{6,16}\b")


def on_torch(source):
    for pattern, replacement in IMPORTS:
        source = pattern.sub(replacement, source)
    return source


def run_cell(source, namespace):
    """Run `source` as Jupyter would; return what it printed and the repr of a final expression."""
    tree = ast.parse(source)
    last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(tree, "<cell>", "exec"), namespace)
        if last is not None:
            value = eval(compile(ast.Expression(last.value), "<cell>", "eval"), namespace)
            if value is not None:
                out.write(repr(value))
    return out.getvalue()


def stored_text(cell):
    parts = []
    for output in cell.get("outputs", []):
        if output.get("output_type") == "stream":
            parts.append(output["text"])
        elif output.get("output_type") == "execute_result":
            parts.append(output["data"].get("text/plain", ""))
    return "".join(parts)


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_chapter_prints_the_same_on_torch(chapter):
    nb = nbformat.read(BOOK / f"{chapter}.ipynb", as_version=4)
    namespace = {"__name__": "__main__"}
    compared = 0
    for index, cell in enumerate(nb.cells):
        source = on_torch(cell.source)
        if cell.cell_type != "code" or WIDGETS.search(source):
            continue
        got = run_cell(source, namespace)
        want = stored_text(cell)
        assert ADDRESS.sub("0xADDRESS", got).rstrip() == ADDRESS.sub("0xADDRESS", want).rstrip(), (
            f"{chapter}, cell {index}: on torch {torch.__version__} it printed\n{got}\nbut minigrad stored\n{want}")
        compared += 1
    assert namespace["torch"] is torch, "the imports were not swapped"
    assert compared >= 10, f"{chapter}: only {compared} cells were compared"
