"""The Chinese edition (book/zh/) keeps in step with the English one (book/), chapter by chapter and cell by cell.

For every chapter both files exist; they have the same cells in the same order (type, id, metadata); the code
cells are identical except comments and the two lines that open the first code cell of a zh chapter; the stored
outputs are equal once the zh output's texts from the message catalogue (widget texts, exercise feedback) are
read back in English. A picture is compared by its structure: the SVG's nodes and edges (their Graphviz titles, fill
colours and texts, the zh texts read back in English), not its geometry, since Chinese labels have other widths;
a PNG, the only picture of a widget's stored output, is checked to be there in both editions (what it shows is
compared through the widget's text/plain line, which names the graph's nodes or the stepper's position). A chapter
missing in one edition fails: it is never skipped.
"""
import configparser
import io
import json
import re
import string
import tokenize
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from babel.messages import pofile

ROOT = Path(__file__).resolve().parents[2]
BOOK, ZH = ROOT / "book", ROOT / "book" / "zh"
CHAPTERS = sorted({p.name for p in BOOK.glob("[0-9][0-9]_*.ipynb")} | {p.name for p in ZH.glob("[0-9][0-9]_*.ipynb")})
OPENING = ['import widgets\n', 'widgets.set_language("zh")  # 控件和练习反馈使用中文\n']
LOCALE = ROOT / "widgets" / "locale" / "zh" / "LC_MESSAGES"
IGNORED_OUTPUT_KEYS = {"execution_count", "metadata", "transient"}


def read(path):
    assert path.exists(), f"{path.relative_to(ROOT)} is missing: every chapter must exist in both editions"
    return json.loads(path.read_text(encoding="utf-8"))


def source(cell):
    return "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]


def without_comments(code):
    """The code with its comments removed; a line that held only a comment goes, trailing spaces go."""
    lines = code.splitlines()
    try:
        comments = [t.start for t in tokenize.generate_tokens(io.StringIO(code).readline) if t.type == tokenize.COMMENT]
    except (tokenize.TokenError, IndentationError, SyntaxError):  # IPython syntax: fall back to a plain `#` cut
        comments = [(i + 1, line.index("#")) for i, line in enumerate(lines) if "#" in line and "'" not in line
                    and '"' not in line]
    for row, col in comments:
        lines[row - 1] = lines[row - 1][:col] + ("\0" if not lines[row - 1][:col].strip() else "")
    return "\n".join(line.rstrip() for line in lines if line != "\0")


def _pattern(text):
    """A regex for a msgstr: its literal text, each {field} a lazy capture (a repeated field must repeat)."""
    parts, seen = [], set()
    for literal, field, _spec, _conv in string.Formatter().parse(text):
        parts.append(re.escape(literal))
        if field is not None:
            parts.append(f"(?P={field})" if field in seen else f"(?P<{field}>.*?)")
            seen.add(field)
    # a msgstr that starts with a Chinese character does not start in the middle of a Chinese word
    # ("有 {n} 个答案..." must not match the 有 of "还没有")
    start = "(?<![\u4e00-\u9fff])" if text[:1] and "\u4e00" <= text[0] <= "\u9fff" else ""
    return re.compile(start + "".join(parts))


def _translations():
    """(msgstr pattern, its longest literal, msgid) for every translated message, longest msgstr first (so a
    longer one wins). A message with plural forms has one Chinese form (nplurals=1) and its English pair of
    msgids (singular, plural), chosen by the count {n} when read back."""
    pairs = []
    for po in sorted(LOCALE.glob("*.po")):
        with po.open("rb") as f:
            for m in pofile.read_po(f, locale="zh"):
                if m.id and isinstance(m.id, str) and m.string:
                    pairs.append((m.string, m.id))
                elif m.id and not isinstance(m.id, str) and m.string and m.string[0]:
                    pairs.append((m.string[0], tuple(m.id)))
    return [(_pattern(zh), _longest_literal(zh), en) for zh, en in sorted(pairs, key=lambda p: -len(p[0]))]


def _longest_literal(text):
    return max((literal for literal, *_ in string.Formatter().parse(text)), key=len)


TRANSLATIONS = _translations()


def in_english(text):
    """Read a zh output's catalogue texts back in English, filling each msgid with what the msgstr held."""
    if text.isascii():
        return text
    for pattern, literal, msgid in TRANSLATIONS:
        if literal in text:          # (a quick test first: most messages are not in most outputs)
            text = pattern.sub(lambda m, msgid=msgid: _english(msgid, m.groupdict()).format(**m.groupdict()), text)
    return text


def _english(msgid, fields):
    """The msgid itself, or of a (singular, plural) pair the one English uses for the count {n}."""
    if isinstance(msgid, str):
        return msgid
    singular, plural = msgid
    return singular if fields["n"] == "1" else plural


def _sanitizers():
    config = configparser.ConfigParser()
    config.read(ROOT / "tests" / "nbval_sanitize.cfg")
    return [(re.compile(config[s]["regex"]), config[s]["replace"]) for s in config.sections()]


SANITIZE = _sanitizers()


SVG = "{http://www.w3.org/2000/svg}"


def svg_structure(svg, translate):
    """What a Graphviz SVG shows, without where: the graph's own label (the stepper's legend), then for each node
    and edge (in drawing order) its class, its title ("n0", "n1->n0"), its fill colours and its texts (the lines
    of a label joined, so a two-line message reads back as one; read back in English when `translate`)."""
    def texts(elements):
        lines = "\n".join(t.text or "" for t in elements)
        return in_english(lines) if translate else lines
    graph = ET.fromstring(svg.encode("utf-8")).find(f"{SVG}g")
    parts = [("graph", texts(graph.findall(f"{SVG}text")))]
    for group in graph.findall(f"{SVG}g"):
        fills = [e.get("fill") for e in group if e.tag in (f"{SVG}path", f"{SVG}polygon", f"{SVG}ellipse")]
        parts.append((group.get("class"), group.findtext(f"{SVG}title"), fills, texts(group.iter(f"{SVG}text"))))
    return parts


def _pictures(data, translate):
    """An output's data with its pictures replaced by what the sync test compares of them."""
    data = dict(data)
    svg = data.pop("image/svg+xml", None)
    if svg is not None:
        data.pop("image/png", None)      # drawn from the same DOT source as the SVG beside it
        data["image/svg+xml"] = svg_structure("".join(svg) if isinstance(svg, list) else svg, translate)
    elif "image/png" in data:
        png = "".join(data["image/png"]) if isinstance(data["image/png"], list) else data["image/png"]
        data["image/png"] = "a PNG" if png.startswith("iVBORw0KGgo") else png    # base64 of the PNG signature
    return data


def comparable(output, translate):
    """An output as the sync test compares it: strings joined, nbval's sanitizing applied, zh texts in English,
    pictures by their structure."""
    if "data" in output:
        output = {**output, "data": _pictures(output["data"], translate)}

    def clean(value, key=""):
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            value = "".join(value)
        if isinstance(value, str):
            value = in_english(value) if translate and not key.startswith("image/") else value
            for regex, replace in SANITIZE:
                value = regex.sub(replace, value)
            return value
        if isinstance(value, dict):
            return {k: clean(v, k) for k, v in value.items()}
        if isinstance(value, list):
            return [clean(v) for v in value]
        return value
    return clean({k: v for k, v in output.items() if k not in IGNORED_OUTPUT_KEYS})


@pytest.mark.parametrize("name", CHAPTERS)
def test_chapter_exists_in_both_editions(name):
    missing = [str(folder.relative_to(ROOT)) for folder in (BOOK, ZH) if not (folder / name).exists()]
    assert not missing, f"{name} is missing from {' and '.join(missing)}: every chapter must exist in both editions"


@pytest.mark.parametrize("name", CHAPTERS)
def test_same_cells_in_the_same_order(name):
    en, zh = read(BOOK / name)["cells"], read(ZH / name)["cells"]
    shape = [(c["cell_type"], c.get("id"), c.get("metadata", {})) for c in en]
    zh_shape = [(c["cell_type"], c.get("id"), c.get("metadata", {})) for c in zh]
    for i, (a, b) in enumerate(zip(shape, zh_shape)):
        assert a == b, f"{name}, cell {i}: English has {a}, Chinese has {b}"
    assert len(en) == len(zh), f"{name}: English has {len(en)} cells, Chinese {len(zh)}"


@pytest.mark.parametrize("name", CHAPTERS)
def test_code_cells_identical_but_comments_and_the_opening_lines(name):
    en, zh = read(BOOK / name)["cells"], read(ZH / name)["cells"]
    first = True
    for i, (a, b) in enumerate(zip(en, zh)):
        if a["cell_type"] != "code" or b["cell_type"] != "code":
            continue
        zh_source = source(b)
        if first:
            opening = "".join(OPENING)
            assert zh_source.startswith(opening), (
                f"{name}, cell {i}: the first code cell of a zh chapter must start with\n{opening}"
                f"but starts with\n{zh_source[:120]}")
            zh_source, first = zh_source[len(opening):], False
        assert without_comments(zh_source) == without_comments(source(a)), (
            f"{name}, cell {i} ({a.get('id')}): the code differs (not only in comments):\n"
            f"English:\n{source(a)}\nChinese:\n{zh_source}")


@pytest.mark.parametrize("name", CHAPTERS)
def test_stored_outputs_equal_but_for_the_readers_language(name):
    en, zh = read(BOOK / name)["cells"], read(ZH / name)["cells"]
    for i, (a, b) in enumerate(zip(en, zh)):
        if a["cell_type"] != "code" or b["cell_type"] != "code":
            continue
        want = [comparable(o, translate=False) for o in a.get("outputs", [])]
        got = [comparable(o, translate=True) for o in b.get("outputs", [])]
        assert got == want, (f"{name}, cell {i} ({a.get('id')}): the stored outputs differ (read back in "
                             f"English, the zh ones are shown first); re-run `make book NB=book/zh/{name}`:\n"
                             f"{json.dumps(got, ensure_ascii=False)[:1500]}\n{json.dumps(want)[:1500]}")


def test_reading_back_in_english_undoes_the_catalogue():
    # the tool the output test relies on: a Chinese widget text and feedback come back as the English ones
    assert in_english("✗ 还不对——x") == "✗ not yet — x"
    assert (in_english("BackwardStepper: 第 0 步，共 3 步，还没有运行任何节点（这是一个控件：在 Jupyter 中运行这个单元格，就能一步一步地看）")
            == "BackwardStepper: step 0 of 3, nothing run yet (a widget: run the cell in Jupyter to step through it)")
    assert in_english("something else") == "something else"


def test_reading_back_in_english_picks_the_plural_form_by_the_count():
    # ngettext messages have one Chinese form; the count says which English msgid it came from
    assert (in_english("<计算图，共 3 个节点：SumBackward0, MulBackward0>")
            == "<autograd graph of 3 nodes: SumBackward0, MulBackward0>")
    assert in_english("<计算图，共 1 个节点：SumBackward0>") == "<autograd graph of 1 node: SumBackward0>"
    assert (in_english("GraphView: 计算图，共 2 个节点：CubeBackward, torch::autograd::AccumulateGrad")
            == "GraphView: the autograd graph of 2 nodes: CubeBackward, torch::autograd::AccumulateGrad")
