"""The pages around the chapters of the static site: navigation, the language switch, links, the index.

Two editions: English at the site's root (`NN_name.html`, `index.html`) and Chinese under `zh/`. Every page
links to its counterpart in the other edition (`Edition.switch`), so a reader can change language anywhere.
"""
import html
import re
from dataclasses import dataclass
from pathlib import Path

from nbconvert.filters.markdown_mistune import markdown2html_mistune

BOOK = Path(__file__).resolve().parent.parent / "book"


@dataclass(frozen=True)
class Edition:
    """One language of the book: where its notebooks are, where its pages go, and how its pages speak."""
    lang: str            # the page's lang attribute
    source: Path         # the folder of its notebooks and README.md
    prefix: str          # its folder in the site: "" or "zh/"
    root: str            # from its pages to the site's root: "" or "../"
    contents: str        # the word for the table of contents
    title: str           # the book's name in this language
    switch_label: str    # the link to the *other* edition, in that edition's language
    live_label: str      # the link to the chapter's copy in the live edition (`make publish`)
    lab_sentence: tuple  # (the README's "open the book with make lab" words, what the site's index says instead)

    def switch(self, page):
        """The language switch of `page` (e.g. "04_x.html", "index.html"): a link to the same page in the other
        edition."""
        other = EDITIONS["zh" if self.lang == "en" else "en"]
        href = f"{self.root}{other.prefix}{page}"
        return (f'<a class="lang-switch" hreflang="{other.lang}" lang="{other.lang}" href="{href}">'
                f'{self.switch_label}</a>')


EDITIONS = {
    "en": Edition("en", BOOK, "", "", "Contents", "the minigrad book", "中文", "Open live in your browser",
                  ("Open the book with <code>make lab</code>", "Read it here, or run it with <code>make lab</code>")),
    "zh": Edition("zh", BOOK / "zh", "zh/", "../", "目录", "minigrad 之书", "English", "在浏览器中运行",
                  ("在仓库根目录用 <code>make lab</code> 打开本书",
                   "可以直接在这里阅读本书，也可以在仓库根目录用 <code>make lab</code> 打开并运行它")),
}


def chapter_titles(edition):
    """{"04_function_apply": "`Function.apply`", ...} from the table of contents in the edition's README.md."""
    readme = (edition.source / "README.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\|\s*\d+\s*\|\s*\[(.+?)\]\((\d\d_[^)]+)\.ipynb\)", readme, re.M)
    return {stem: title for title, stem in rows}


def nav(edition, chapters, i, titles, live=False):
    """The previous / contents / next links of chapter `i` (a list of stems) as HTML, with the language switch;
    with `live`, also a link to the same chapter in the live edition, which `make publish` puts into live/
    (the Chinese chapters are in its zh/ folder, as on the site)."""
    def link(j, arrow_before, arrow_after):
        if not 0 <= j < len(chapters):
            return "<span></span>"
        title = html.escape(titles.get(chapters[j], chapters[j]).replace("`", ""))
        return f'<a href="{chapters[j]}.html">{arrow_before}{title}{arrow_after}</a>'
    live_href = f"{edition.root}live/lab/index.html?path={edition.prefix}{chapters[i]}.ipynb"
    live_link = f'<a class="live" href="{live_href}">{edition.live_label}</a>' if live else ""
    return (f'<nav class="site-nav">{link(i - 1, "← ", "")}<a href="index.html">{edition.contents}</a>{live_link}'
            f'{edition.switch(chapters[i] + ".html")}{link(i + 1, "", " →")}</nav>')


def relink(text, chapters):
    """Point links at chapters (`04_x.ipynb`) and at the table of contents (`README.md`) to their pages;
    links to chapters not written yet become text."""
    def page(match):
        folder, stem = match.group(2), match.group(3)
        if stem in chapters:
            return f'<a href="{folder}{stem}.html{match.group(4) or ""}"'
        return "<a"
    # a link may go to the other edition's folder: zh/04_x.ipynb from English, ../04_x.ipynb from Chinese
    text = re.sub(r'<a href=(["\'])((?:\.\./|zh/)?)(\d\d_[^"\'#/]+?)\.ipynb(#[^"\']*)?\1', page, text)
    text = re.sub(r'<a href=(["\'])((?:\.\./|zh/)?)README\.md(#[^"\']*)?\1', r'<a href="\2index.html\3"', text)
    return re.sub(r'<a>(.*?)</a>', r'<span class="missing" title="not written yet">\1</span>', text)


def read_it_here(edition, body):
    """The README says to open the book with `make lab`; on the site it can also be read where it is.
    (A space in the README's words may be a line break in its Markdown, or nothing where Chinese meets code.)"""
    words, instead = edition.lab_sentence
    return re.sub(r"\s*".join(map(re.escape, words.split(" "))), lambda _: instead, body)


def build_index(edition, out, chapters, css):
    """Write the edition's index.html from its README.md, with the language switch on top."""
    body = relink(markdown2html_mistune((edition.source / "README.md").read_text(encoding="utf-8")), chapters)
    body = read_it_here(edition, body)
    switch = f'<p class="site-lang">{edition.switch("index.html")}</p>'
    (out / "index.html").write_text(
        f'<!DOCTYPE html>\n<html lang="{edition.lang}"><head><meta charset="utf-8"><title>{edition.title}</title>'
        f'<style>{css}</style></head>\n<body class="site-index">{switch}{body}</body></html>\n', encoding="utf-8")
