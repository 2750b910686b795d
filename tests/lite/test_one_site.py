"""One site (`make publish`): each static page links to its chapter in the live edition under live/, and each
live chapter links back to its static page, wherever the host serves the folder."""
import importlib.util
from pathlib import Path

from lite import notebooks
from widgets.browser import site_page_url

ROOT = Path(__file__).resolve().parents[2]


def load_build_site():
    spec = importlib.util.spec_from_file_location("site_pages", ROOT / ".ci" / "site_pages.py")
    module = importlib.util.module_from_spec(spec)
    import sys
    sys.path.insert(0, str(ROOT / ".ci"))        # build_site imports site_player next to it
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(ROOT / ".ci"))
    return module


def test_static_pages_link_to_the_live_chapter_only_when_it_is_there():
    pages = load_build_site()
    english = pages.EDITIONS["en"]
    chapters = ["00_start_here", "04_function_apply", "05_backward"]
    with_live = pages.nav(english, chapters, 1, {}, live=True)
    assert 'href="live/lab/index.html?path=04_function_apply.ipynb">Open live in your browser</a>' in with_live
    assert "live/" not in pages.nav(english, chapters, 1, {})


def test_a_live_copy_made_for_the_site_links_back_to_its_page():
    book = {"cells": [{"cell_type": "markdown", "source": "# 4", "metadata": {}}], "metadata": {}}
    linked = notebooks.live_copy({**book, "cells": list(book["cells"])}, "04_function_apply")
    setup = "".join(linked["cells"][1]["source"])
    assert "widgets.browser.static_page('04_function_apply')" in setup
    plain = notebooks.live_copy({**book, "cells": list(book["cells"])})
    assert "static_page" not in "".join(plain["cells"][1]["source"])


def test_the_link_back_follows_whatever_prefix_the_site_is_served_under():
    worker = "https://example.org/courses/book/live/extensions/@jupyterlite/pyodide-kernel-extension/static/w.js"
    assert site_page_url(worker, "04_a") == "https://example.org/courses/book/04_a.html"
    assert site_page_url("http://127.0.0.1:8000/live/extensions/x.js", "00_b") == "http://127.0.0.1:8000/00_b.html"
