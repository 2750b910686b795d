"""Every concept the book must teach is mapped to chapters that exist and really use its terms."""
import re
from pathlib import Path

import nbformat
import pytest

BOOK = Path(__file__).resolve().parents[2] / "book"
ROW = re.compile(r"^\| (\d+)\. .*? \| ([\d, ]+) \| (.+) \|$")


def concept_rows():
    rows = [ROW.match(line) for line in (BOOK / "README.md").read_text().splitlines()]
    return [(int(m[1]), [c.strip() for c in m[2].split(",")], re.findall(r"`([^`]+)`", m[3])) for m in rows if m]


def chapter_text(number):
    (path,) = BOOK.glob(f"{number}_*.ipynb")
    nb = nbformat.read(path, as_version=4)
    return "\n".join(cell.source for cell in nb.cells)


def test_every_concept_is_mapped():
    # 1-22: the concept list the book was written from; 23: the engine's own algorithm (chapter 6)
    assert [n for n, _, _ in concept_rows()] == list(range(1, 24))


@pytest.mark.parametrize("number, chapters, terms", concept_rows(), ids=lambda v: str(v))
def test_concept_is_taught_where_the_map_says(number, chapters, terms):
    texts = [chapter_text(c) for c in chapters]
    assert terms, f"concept {number} lists no terms"
    missing = [t for t in terms if not any(t in text for text in texts)]
    assert not missing, f"concept {number}: chapters {chapters} never mention {missing}"
