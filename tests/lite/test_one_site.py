"""One site (`make publish`): each static page, English or Chinese, links to its chapter in the live edition under
live/ (the Chinese chapters in live/'s zh/), and each live chapter links back to its static page in its own
edition, wherever the host serves the folder, and to the same chapter in the other edition's live copy."""
import importlib.util
import sys
import types
from pathlib import Path

import pytest
from babel.messages import pofile

from lite import notebooks
from widgets import browser
from widgets.browser import site_page_url

ROOT = Path(__file__).resolve().parents[2]
WORKER = "https://example.org/courses/book/live/extensions/@jupyterlite/pyodide-kernel-extension/static/w.js"


def load_site_pages():
    spec = importlib.util.spec_from_file_location("site_pages", ROOT / ".ci" / "site_pages.py")
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(ROOT / ".ci"))
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(ROOT / ".ci"))
    return module


def chinese(msgid):
    """The msgstr of `msgid` in widgets.po (the test's own reading of the catalogue, not the widget's)."""
    with open(ROOT / "widgets" / "locale" / "zh" / "LC_MESSAGES" / "widgets.po", "rb") as f:
        message = pofile.read_po(f, locale="zh").get(msgid)
    assert message is not None and message.string, f"widgets.po has no Chinese for {msgid!r}"
    return message.string


def test_static_pages_link_to_the_live_chapter_only_when_it_is_there():
    pages = load_site_pages()
    chapters = ["00_start_here", "04_function_apply", "05_backward"]
    english = pages.nav(pages.EDITIONS["en"], chapters, 1, {}, live=True)
    assert 'href="live/lab/index.html?path=04_function_apply.ipynb">Open live in your browser</a>' in english
    assert "live/" not in pages.nav(pages.EDITIONS["en"], chapters, 1, {})


def test_chinese_pages_link_to_the_chinese_live_chapter():
    pages = load_site_pages()
    chapters = ["00_start_here", "04_function_apply", "05_backward"]
    chinese_page = pages.nav(pages.EDITIONS["zh"], chapters, 1, {}, live=True)
    # the page is zh/04_function_apply.html: live/ is one folder up, the Chinese copy in its zh/
    assert 'href="../live/lab/index.html?path=zh/04_function_apply.ipynb">在浏览器中运行</a>' in chinese_page
    assert "live/" not in pages.nav(pages.EDITIONS["zh"], chapters, 1, {})


@pytest.mark.parametrize("edition, call", [
    ("en", "widgets.browser.chapter_links('04_function_apply', site=True)"),
    ("zh", "widgets.browser.chapter_links('04_function_apply', 'zh', site=True)")])
def test_a_live_copy_made_for_the_site_links_back_to_its_page(edition, call):
    book = {"cells": [{"cell_type": "markdown", "source": "# 4", "metadata": {}}], "metadata": {}}
    linked = notebooks.live_copy({**book, "cells": list(book["cells"])}, "04_function_apply", edition, site=True)
    assert call in "".join(linked["cells"][1]["source"])
    plain = notebooks.live_copy({**book, "cells": list(book["cells"])}, "04_function_apply", edition)
    assert call.replace(", site=True", "") in "".join(plain["cells"][1]["source"])
    assert "site=True" not in "".join(plain["cells"][1]["source"])


def test_the_link_back_follows_whatever_prefix_the_site_is_served_under():
    assert site_page_url(WORKER, "04_a") == "https://example.org/courses/book/04_a.html"
    assert site_page_url(WORKER, "04_a", "zh") == "https://example.org/courses/book/zh/04_a.html"
    assert site_page_url("http://127.0.0.1:8000/live/extensions/x.js", "00_b") == "http://127.0.0.1:8000/00_b.html"


def test_each_live_chapter_links_to_its_counterpart_in_the_other_edition():
    # relative to the notebook: JupyterLab opens it as a file of the live edition
    assert browser.chapter_links("04_a").data == '<a href="zh/04_a.ipynb" hreflang="zh" lang="zh">中文</a>'
    assert browser.chapter_links("04_a", "zh").data == '<a href="../04_a.ipynb" hreflang="en" lang="en">English</a>'
    with pytest.raises(ValueError, match="expected the edition 'en' or 'zh', but got 'fr'"):
        browser.chapter_links("04_a", "fr")


def test_a_chinese_live_chapter_links_back_in_chinese_before_the_chapter_sets_its_language(monkeypatch):
    monkeypatch.setitem(sys.modules, "js", types.SimpleNamespace(location=types.SimpleNamespace(href=WORKER)))
    assert widgets_language() == "en"            # the set-up cell runs before the chapter's set_language("zh")
    links = browser.chapter_links("04_a", "zh", site=True).data
    assert (f'<a href="https://example.org/courses/book/zh/04_a.html" target="_blank">'
            f'{chinese("The static page of this chapter")}</a> {chinese("(steps recorded, no kernel)")}') in links
    assert links.endswith('<a href="../04_a.ipynb" hreflang="en" lang="en">English</a>')
    assert widgets_language() == "en", "chapter_links must leave the language as it found it"
    english = browser.chapter_links("04_a", site=True).data
    assert '<a href="https://example.org/courses/book/04_a.html" target="_blank">The static page' in english


def widgets_language():
    from widgets import get_language
    return get_language()


def load_site_player():
    spec = importlib.util.spec_from_file_location("site_player", ROOT / ".ci" / "site_player.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("language", ["en", "zh"])
def test_the_site_players_texts_are_the_catalogues_in_the_pages_language(language):
    from widgets._record import PLAYER_TEXTS
    player = load_site_player()
    stepper = {"kind": "BackwardStepper", "start": 0, "unit": "step", "frames": [{"svg": "", "panel": "", "focus": ""}]}
    pages = player.player_html(stepper, "04_a.ipynb", language) + player.player_html({"svg": "<svg/>"}, "04_a.ipynb",
                                                                                     language)
    say = (lambda msgid: msgid) if language == "en" else chinese
    for key, msgid in PLAYER_TEXTS.items():
        if key in ("position_visit", "unit_visit"):      # a ModuleApplyView's, not a stepper's
            continue
        text = say(msgid)
        if key == "download":
            text = text.replace("{notebook}", "notebooks/04_a.ipynb")
        assert html_escaped(text, key) in pages, f"{language}: the player should show {key} = {text!r}"
    if language == "zh":
        assert ">Step<" not in pages and "Play" not in pages and "kernel needed" not in pages, "English left"


def html_escaped(text, key):
    """`text` as the page holds it: the download sentence is HTML already, the rest is escaped by the template."""
    from markupsafe import escape
    return text if key == "download" else str(escape(text))


@pytest.mark.parametrize("edition, instead", [
    ("en", "Read it here, or run it with <code>make lab</code> from the repository root."),
    ("zh", "可以直接在这里阅读本书，也可以在仓库根目录用 <code>make lab</code> 打开并运行它。")])
def test_each_index_says_the_book_can_be_read_where_it_is(edition, instead, tmp_path):
    # the README's "open it with make lab" sentence, rewritten on the site's index (the zh one wraps in Markdown)
    pages = load_site_pages()
    pages.build_index(pages.EDITIONS[edition], tmp_path, [], "")
    index = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert instead in index, index[:1500]
    assert "Open the book with" not in index and "打开本书。" not in index
