"""The live edition's copies of the chapters: book/ stays the single source, the copies get what the browser needs.

Each copy gets, after its title cell, one short code cell that loads Graphviz (WebAssembly) before the first
graph is drawn, and the Pyodide kernel in its metadata. Stored widget views are dropped from the outputs (no
kernel has made their models yet): the PNG and the text stored beside them show until the cell runs again.
Everything else is the chapter as it is in book/.
"""
import json
import shutil
from pathlib import Path

CHAPTER = "[0-9][0-9]_*.ipynb"        # book/NN_name.ipynb; a new chapter is picked up by the glob
SETUP_TAG = "live-edition-setup"
SETUP_SOURCE = ("# Live edition only: this Python runs in your browser, where the graphs are drawn by Graphviz\n"
                "# compiled to WebAssembly. This line waits until it has loaded (a second or two, once).\n"
                "import widgets.browser\n"
                "await widgets.browser.ready()")
KERNELSPEC = {"name": "python", "display_name": "Python (Pyodide)", "language": "python"}
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def chapters(book):
    return sorted(Path(book).glob(CHAPTER))


def copy_book(book, out, link_back=False):
    """Copy every chapter of `book` (and the files they show: images/, README.md) to `out`, made live; with
    `link_back`, each set-up cell also shows a link to the chapter's page on the static site around it."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    names = []
    for path in chapters(book):
        notebook = live_copy(json.loads(path.read_text(encoding="utf-8")), path.stem if link_back else None)
        (out / path.name).write_text(json.dumps(notebook, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        names.append(path.stem)
    for extra in ("images", "README.md"):
        source = Path(book) / extra
        if source.is_dir():
            shutil.copytree(source, out / extra, dirs_exist_ok=True)
        elif source.exists():
            shutil.copy(source, out / extra)
    return names


def live_copy(notebook, page=None):
    """Return `notebook` as the live edition serves it (the argument is changed too); `page` is the stem of the
    chapter's static page to link back to, if the edition lives inside the static site."""
    cells = notebook["cells"]
    at = 1 if cells and cells[0]["cell_type"] == "markdown" else 0
    cells.insert(at, setup_cell(page))
    for cell in cells:
        for output in cell.get("outputs", []):
            output.get("data", {}).pop(WIDGET_VIEW, None)
        cell["outputs"] = [o for o in cell.get("outputs", []) if o.get("data", True)]
    notebook["metadata"]["kernelspec"] = dict(KERNELSPEC)
    notebook["metadata"].pop("widgets", None)
    return notebook


def setup_cell(page=None):
    source = SETUP_SOURCE + (f"\nwidgets.browser.static_page({page!r})   # a link back to this chapter's page"
                             if page else "")
    return {"cell_type": "code", "execution_count": None, "id": SETUP_TAG, "outputs": [],
            "metadata": {"tags": [SETUP_TAG]}, "source": source.splitlines(keepends=True)}


def is_setup_cell(cell):
    return SETUP_TAG in cell.get("metadata", {}).get("tags", [])

