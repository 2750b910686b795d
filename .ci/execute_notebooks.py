#!/usr/bin/env python3
"""Re-run book notebooks in place and store their real outputs, ready for nbval (`make book`).

    python .ci/execute_notebooks.py                    # every chapter of both editions: book/ and book/zh/
    python .ci/execute_notebooks.py book/zh/04_*.ipynb # some chapters

Each notebook runs top to bottom in a fresh kernel with its own folder (book/ or book/zh/) as working directory. Then what cannot be
stored reproducibly is dropped: the widget state (`metadata.widgets`, random model ids) and the widget-view
part of widget outputs, whose text/plain summary and PNG picture stay (nbval compares the text), and
per-cell timings.
Consecutive pieces of one stream are merged, so re-running an unchanged chapter leaves its file unchanged.
"""
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

from minigrad_book.stored import store_like_the_book

BOOK = Path(__file__).resolve().parent.parent / "book"
EDITIONS = (BOOK, BOOK / "zh")


def execute(path):
    nb = nbformat.read(path, as_version=4)
    nb.metadata["kernelspec"] = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
    NotebookClient(nb, timeout=600, startup_timeout=300, kernel_name="python3", record_timing=False, resources={"metadata": {"path": str(path.resolve().parent)}}).execute()
    store_like_the_book(nb)
    nbformat.write(nb, path)


def _shown(path):
    """book/zh/04_x.ipynb shows as zh/04_x.ipynb, book/04_x.ipynb as 04_x.ipynb."""
    return path.name if path.resolve().parent == BOOK else f"{path.resolve().parent.name}/{path.name}"


def main(paths):
    paths = [Path(p) for p in paths] or [p for folder in EDITIONS for p in sorted(folder.glob("[0-9][0-9]_*.ipynb"))]
    total = time.perf_counter()
    for path in paths:
        start = time.perf_counter()
        execute(path)
        print(f"{_shown(path):45s} {time.perf_counter() - start:6.1f} s")
    print(f"{'all':45s} {time.perf_counter() - total:6.1f} s")


if __name__ == "__main__":
    main(sys.argv[1:])
