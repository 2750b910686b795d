"""What the notebooks store for a reader without a kernel: a picture for every graph and widget, no memory
addresses, and outputs that `make book` reproduces byte for byte."""
import base64
import importlib.util
import json
import re
import shutil
from pathlib import Path

import pytest

BOOK = Path(__file__).resolve().parents[2] / "book"
CHAPTERS = sorted(BOOK.glob("[0-9][0-9]_*.ipynb"))
PICTURES = ("GraphView:", "BackwardStepper:", "ModuleApplyView:", "<autograd graph", "<module tree")
ADDRESS = re.compile(r"<[\w.]+( object)? at 0x[0-9a-fA-F]+>")


def outputs(path):
    for i, cell in enumerate(json.loads(path.read_text())["cells"]):
        for output in cell.get("outputs", []):
            yield i, output


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_no_stored_output_is_an_object_address(path):
    for i, output in outputs(path):
        text = "".join(output.get("data", {}).get("text/plain", "")) + "".join(output.get("text", ""))
        assert not ADDRESS.search(text), f"cell {i} of {path.name} stores {ADDRESS.search(text)[0]}"


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_every_stored_graph_and_widget_carries_a_png(path):
    for i, output in outputs(path):
        data = output.get("data", {})
        text = "".join(data.get("text/plain", ""))
        if text.startswith(PICTURES):
            assert "image/png" in data, f"cell {i} of {path.name} shows {text[:40]!r} with no picture"
            png = base64.b64decode("".join(data["image/png"]))
            assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 1000, f"cell {i} of {path.name}: not a PNG"


def load_executor():
    spec = importlib.util.spec_from_file_location("execute_notebooks", BOOK.parent / ".ci" / "execute_notebooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("name", ["03_tensor_apply_", "04_function_apply"])
def test_make_book_leaves_an_unchanged_chapter_byte_identical(name, tmp_path):
    """03 times `apply_` (its output must not depend on the machine); 04 stores widgets and their PNGs."""
    stored = BOOK / f"{name}.ipynb"
    copy = tmp_path / stored.name
    shutil.copy(stored, copy)
    load_executor().execute(copy)
    assert copy.read_bytes() == stored.read_bytes(), \
        f"re-running {stored.name} changed it: run `make book NB={stored.relative_to(BOOK.parent)}` and see the diff"
