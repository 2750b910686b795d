#!/usr/bin/env python3
"""Keep the message catalogues in step with the code, and compile them (.po -> .mo) for gettext.

    python .ci/compile_messages.py          # add new msgids to the .po (empty msgstr), drop unused ones, write .mo
    python .ci/compile_messages.py --check  # change nothing; exit 1 if a .po or .mo is not up to date

The messages are the strings given to `_`, `N_`, `gettext` or `ngettext` in widgets/ (see widgets/i18n.py):
widgets/exercises/chNN.py go to exercises.po, the rest of widgets/ to widgets.po. Babel is used here, at
development time only; at run time the standard library's gettext reads the .mo.
"""
import argparse
import datetime
import io
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_file
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
WIDGETS = ROOT / "widgets"
LOCALE_DIR = WIDGETS / "locale"
TRANSLATED = ("zh",)
# a fixed date, so that an unchanged catalogue compiles to the same bytes
EPOCH = datetime.datetime(2025, 1, 1, tzinfo=datetime.timezone.utc)


def domain_of(path):
    """Which catalogue the messages of `path` belong to: the hints of a chapter, or the widgets' own texts."""
    return "exercises" if path.parent.name == "exercises" and path.name.startswith("ch") else "widgets"


def sources(domain):
    return [p for p in sorted(WIDGETS.rglob("*.py")) if domain_of(p) == domain]


def template(domain):
    """A catalogue of the msgids the code of `domain` uses, in the order they appear."""
    catalog = Catalog(domain=domain, project="minigrad-book", creation_date=EPOCH, revision_date=EPOCH)
    for path in sources(domain):
        for _lineno, message, _comments, _context in extract_from_file("python", path, DEFAULT_KEYWORDS):
            catalog.add(message, locations=[(path.relative_to(ROOT).as_posix(), None)])
    return catalog


def po_path(language, domain):
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{domain}.po"


def updated_po(language, domain):
    """The text of the .po for `language` after taking in the code's msgids (translations kept, unused dropped)."""
    path = po_path(language, domain)
    if path.exists():
        with path.open("rb") as f:
            catalog = read_po(f, locale=language, domain=domain)
    else:
        catalog = Catalog(locale=language, domain=domain, project="minigrad-book", creation_date=EPOCH)
    catalog.update(template(domain), no_fuzzy_matching=True, update_creation_date=True)
    catalog.revision_date = catalog.creation_date = EPOCH
    catalog.fuzzy = False
    out = io.BytesIO()
    write_po(out, catalog, width=116, include_lineno=False, ignore_obsolete=True, omit_header=False)
    return out.getvalue()


def compiled_mo(po_bytes, language, domain):
    """The .mo bytes gettext reads, compiled from the text of a .po (fuzzy entries left out)."""
    catalog = read_po(io.BytesIO(po_bytes), locale=language, domain=domain)
    out = io.BytesIO()
    write_mo(out, catalog, use_fuzzy=False)
    return out.getvalue()


def expected_files():
    """{path: the bytes it should hold} for every .po and .mo."""
    files = {}
    for language in TRANSLATED:
        for domain in ("widgets", "exercises"):
            po = updated_po(language, domain)
            files[po_path(language, domain)] = po
            files[po_path(language, domain).with_suffix(".mo")] = compiled_mo(po, language, domain)
    return files


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 if a file is out of date")
    args = parser.parse_args(argv)
    stale = []
    for path, content in expected_files().items():
        if path.exists() and path.read_bytes() == content:
            continue
        stale.append(path.relative_to(ROOT))
        if not args.check:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(content)
    for path in stale:
        print(f"{'out of date' if args.check else 'wrote'}: {path}")
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
