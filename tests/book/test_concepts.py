"""Every concept the book must teach is mapped to chapters that exist and really use its terms, in both editions
(book/README.md for book/, book/zh/README.md for book/zh/: the same table, the same chapters)."""
import re
from pathlib import Path

import nbformat
import pytest

BOOK = Path(__file__).resolve().parents[2] / "book"
EDITIONS = {"en": BOOK, "zh": BOOK / "zh"}
ROW = re.compile(r"^\| (\d+)\. .*? \| ([\d, ]+) \| (.+) \|$")


def concept_rows(folder=BOOK):
    rows = [ROW.match(line) for line in (folder / "README.md").read_text(encoding="utf-8").splitlines()]
    return [(int(m[1]), [c.strip() for c in m[2].split(",")], re.findall(r"`([^`]+)`", m[3])) for m in rows if m]


def chapter_text(folder, number):
    paths = sorted(folder.glob(f"{number}_*.ipynb"))
    assert len(paths) == 1, f"expected one chapter {number}_*.ipynb in {folder.relative_to(BOOK.parent)}, found {paths}"
    nb = nbformat.read(paths[0], as_version=4)
    return "\n".join(cell.source for cell in nb.cells)


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_concept_is_mapped(edition):
    # 1-22: the concept list the book was written from; 23: the engine's own algorithm (chapter 6); 24: forward
    # mode (chapter 15); 25: torch.func (chapter 16); 26: saved
    # tensors and memory (chapter 17); 27: hooks (chapter 18)
    assert [n for n, _, _ in concept_rows(EDITIONS[edition])] == list(range(1, 28))


def test_the_chinese_map_names_the_same_chapters():
    # the terms may differ: where the English edition's term is a prose word ("accumulate"), the Chinese one
    # names the Chinese term its chapter uses (累加); API names and error messages stay as they are
    chapters = {edition: [(n, c) for n, c, _ in concept_rows(folder)] for edition, folder in EDITIONS.items()}
    assert chapters["zh"] == chapters["en"]


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("number", [n for n, _, _ in concept_rows()])
def test_concept_is_taught_where_the_map_says(edition, number):
    folder = EDITIONS[edition]
    rows = {n: (c, t) for n, c, t in concept_rows(folder)}
    assert number in rows, f"{folder.relative_to(BOOK.parent)}/README.md does not map concept {number}"
    chapters, terms = rows[number]
    texts = [chapter_text(folder, c) for c in chapters]
    assert terms, f"concept {number} lists no terms"
    missing = [t for t in terms if not any(t in text for text in texts)]
    assert not missing, (f"concept {number}: chapters {chapters} of {folder.relative_to(BOOK.parent)} never mention "
                         f"{missing} (the terms listed in its README.md)")
