"""The live edition's copies of the chapters: book/ stays the single source, the copies get what the browser needs.

Both editions go in: book/NN_*.ipynb as NN_*.ipynb, book/zh/NN_*.ipynb as zh/NN_*.ipynb (as on the static site).
Each copy gets, after its title cell, one short code cell that loads Graphviz (WebAssembly) before the first
graph is drawn and links to the same chapter in the other edition (and, inside the static site, to the chapter's
page there); its comments are in the edition's language. The copy's metadata names the Pyodide kernel. Stored
widget views are dropped from the outputs (no kernel has made their models yet): the PNG and the text stored
beside them show until the cell runs again. Everything else is the chapter as it is in book/.
"""
import json
import shutil
from pathlib import Path

from widgets.browser import EDITION_FOLDERS as EDITIONS   # each edition's folder: in book/ and files/ alike

CHAPTER = "[0-9][0-9]_*.ipynb"        # book/NN_name.ipynb; a new chapter is picked up by the glob
SETUP_TAG = "live-edition-setup"
SETUP_SOURCE = {
    "en": ("# Live edition only: this Python runs in your browser, where the graphs are drawn by Graphviz\n"
           "# compiled to WebAssembly. This line waits until it has loaded (a second or two, once).\n"),
    "zh": ("# 仅在线版有这个单元格：这里的 Python 在你的浏览器中运行，计算图由编译成 WebAssembly 的 Graphviz 绘制。\n"
           "# `await` 这一行等它加载完毕（只需一两秒，且只在第一次）。\n"),
}
SETUP_CODE = "import widgets.browser\nawait widgets.browser.ready()\n"
# what the set-up cell's last line shows, said in its comment: (without the static site, with it)
LINKS_COMMENT = {"en": ("# this chapter in Chinese", "# this chapter in Chinese, and its page on the static site"),
                 "zh": ("# 本章的英文版", "# 本章的英文版，以及本章在静态网站上的页面")}
KERNELSPEC = {"name": "python", "display_name": "Python (Pyodide)", "language": "python"}
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def chapters(book):
    return sorted(Path(book).glob(CHAPTER))


def copy_editions(book, out, link_back=False):
    """Copy both editions of `book` into `out` (the Chinese one into `out`/zh/); return the copies' names,
    e.g. "04_function_apply" and "zh/04_function_apply"."""
    names = []
    for edition, folder in EDITIONS.items():
        copied = copy_book(Path(book) / folder, Path(out) / folder, link_back, edition)
        names += [folder + name for name in copied]
    return names


def copy_book(book, out, link_back=False, edition="en"):
    """Copy every chapter of one edition's folder `book` (and the files they show: images/, README.md) to `out`,
    made live; with `link_back`, each set-up cell also shows a link to the chapter's page on the static site."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    names = []
    for path in chapters(book):
        notebook = live_copy(json.loads(path.read_text(encoding="utf-8")), path.stem, edition, link_back)
        (out / path.name).write_text(json.dumps(notebook, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        names.append(path.stem)
    for extra in ("images", "README.md"):
        source = Path(book) / extra
        if source.is_dir():
            shutil.copytree(source, out / extra, dirs_exist_ok=True)
        elif source.exists():
            shutil.copy(source, out / extra)
    return names


def live_copy(notebook, stem=None, edition="en", site=False):
    """Return `notebook` as the live edition serves it (the argument is changed too). With `stem` (the chapter's
    name), its set-up cell links to the chapter in the other edition, and with `site` to its static page too."""
    cells = notebook["cells"]
    at = 1 if cells and cells[0]["cell_type"] == "markdown" else 0
    cells.insert(at, setup_cell(stem, edition, site))
    for cell in cells:
        for output in cell.get("outputs", []):
            output.get("data", {}).pop(WIDGET_VIEW, None)
        cell["outputs"] = [o for o in cell.get("outputs", []) if o.get("data", True)]
    notebook["metadata"]["kernelspec"] = dict(KERNELSPEC)
    notebook["metadata"].pop("widgets", None)
    return notebook


def setup_cell(stem=None, edition="en", site=False):
    source = SETUP_SOURCE[edition] + SETUP_CODE
    if stem:
        arguments = [repr(stem)] + ([repr(edition)] if edition != "en" else []) + (["site=True"] if site else [])
        source += f"widgets.browser.chapter_links({', '.join(arguments)})   {LINKS_COMMENT[edition][site]}"
    return {"cell_type": "code", "execution_count": None, "id": SETUP_TAG, "outputs": [],
            "metadata": {"tags": [SETUP_TAG]}, "source": source.rstrip("\n").splitlines(keepends=True)}


def is_setup_cell(cell):
    return SETUP_TAG in cell.get("metadata", {}).get("tags", [])
