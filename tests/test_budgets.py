"""One idea per file (STYLE.md 7): no line budget drew a file's edge, so no name says "the file was full".

A file that reads top to bottom may run to about 400 lines; past that it states in its docstring why it is one
idea. No `_more`/`_extra`/`_params` names, and a file inside a private package (`minigrad/_tensor/`) has no
leading underscore of its own: the package already says it is private.
"""
import ast
import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
LIMIT = 400
BUDGET_NAMES = re.compile(r"_(more|extra|params)\b|_from_")
REASON = re.compile(r"(past|over) 400 lines", re.IGNORECASE)


def sources(*folders):
    return [p for folder in folders for p in sorted((ROOT / folder).rglob("*.py"))]


def long_without_reason(paths, limit=LIMIT):
    found = []
    for path in paths:
        text = path.read_text()
        n = len(text.splitlines())
        if n > limit and not REASON.search(ast.get_docstring(ast.parse(text)) or ""):
            found.append(f"{path.name}: {n} lines")
    return found


def budget_names(paths):
    found = []
    for path in paths:
        rel = path.relative_to(ROOT)
        private_package = any(part.startswith("_") and not part.startswith("__") for part in rel.parts[:-1])
        if BUDGET_NAMES.search(path.stem) or (private_package and path.stem.startswith("_")
                                              and path.name != "__init__.py"):
            found.append(rel.as_posix())
    return found


def test_a_file_past_400_lines_says_why_it_is_one_idea():
    paths = sources("minigrad", "widgets")
    assert len(paths) > 50, f"received only {len(paths)} files, expected all of minigrad/ and widgets/"
    found = long_without_reason(paths)
    assert not found, (f"received files over {LIMIT} lines (by file name) whose docstring does not say why (STYLE.md 7: split a "
                       "file when it holds two ideas; if it is one, say so, e.g. 'past 400 lines because ...'):\n"
                       + "\n".join(found))


def test_no_file_is_named_for_a_budget():
    found = budget_names(sources("minigrad", "widgets"))
    assert not found, ("received names that say a budget drew the line (_more, _extra, _params) or a private "
                       "module inside a private package:\n" + "\n".join(found))


@pytest.mark.parametrize("lines, docstring, expected", [
    (401, "One thing.", True),
    (401, "One thing (past 400 lines because it is one table).", False),
    (400, "One thing.", False),
])
def test_the_length_check_can_fail(tmp_path, lines, docstring, expected):
    path = tmp_path / "probe.py"
    path.write_text(f'"""{docstring}"""\n' + "x = 1\n" * (lines - 1))
    assert bool(long_without_reason([path])) is expected


def test_the_name_check_can_fail(tmp_path):
    for rel in ("minigrad/ops/reduce_more.py", "minigrad/_tensor/_shape.py", "minigrad/nn/_init_extra.py"):
        path = ROOT / rel
        assert budget_names([path]) == [rel], rel
    assert budget_names([ROOT / "minigrad/_tensor/shape.py", ROOT / "minigrad/nn/_checks.py"]) == []
