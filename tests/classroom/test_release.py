"""`minigrad-book release`: every chapter, no solution text, stable exercise ids, strict nbval on the copy."""
import os
import re
import subprocess
import sys

import nbformat
import pytest

from minigrad_book import chapters, release

from .conftest import ROOT, SOLUTION_CODE

BOOK = sorted(chapters.chapter_paths(ROOT / "book"))


def _lines(text):
    """Normalised code lines: comments and indentation dropped, blanks skipped."""
    out = []
    for line in text.splitlines():
        line = re.sub(r"\s+", " ", re.sub(r"\s+#.*$", "", line)).strip()
        if line and not line.startswith("#"):
            out.append(line)
    return out


def _book_lines():
    """Every code line the book shows outside its solutions: what a solution may share without leaking."""
    seen = set()
    for path in BOOK:
        for cell in nbformat.read(path, as_version=4).cells:
            if chapters.SOLUTION not in chapters.tags(cell):
                seen.update(_lines(cell.source))
    return seen


def own_lines(shown):
    """Map each exercise id to the lines of its solution that the book shows nowhere else."""
    own = {}
    for path in BOOK:
        for ex in chapters.exercises(_tagged(path)):
            own[ex.id] = [line for line in dict.fromkeys(_lines(SOLUTION_CODE.search(ex.solution).group(1)))
                          if line not in shown]
    return own


def leaks(folder):
    """Return (exercise, file) for each solution of the book more than half of whose own lines are in a file.

    A solution's own lines are those the book shows nowhere else (a `@staticmethod` line is no leak); a file
    is every .py and .ipynb under `folder`.
    """
    shown = _book_lines()
    files = {p: set(_lines(_text(p))) for p in sorted(folder.rglob("*"))
             if p.suffix in (".py", ".ipynb") and "__pycache__" not in p.parts}
    found = []
    for ex, own in own_lines(shown).items():
        for file, lines in files.items():
            hits = sum(line in lines for line in own)
            if own and hits > len(own) / 2:
                found.append((ex, str(file.relative_to(folder))))
    return found


def _text(path):
    if path.suffix == ".ipynb":
        return "\n".join(cell.source for cell in nbformat.read(path, as_version=4).cells)
    return path.read_text(encoding="utf-8")


def test_the_release_has_every_chapter_and_nothing_of_the_kit(student_copy):
    assert sorted(p.name for p in chapters.chapter_paths(student_copy / "book")) == [p.name for p in BOOK]
    assert not (student_copy / "minigrad_book").exists(), "the grader and its hidden tests must not ship"
    pyproject = (student_copy / "pyproject.toml").read_text()
    assert "[project.scripts]" not in pyproject and "minigrad_book" not in pyproject
    assert 'include = ["minigrad*", "widgets*"]' in pyproject


def test_no_solution_text_reaches_the_release(student_copy):
    assert leaks(student_copy) == []


def test_the_leak_detector_finds_the_solutions_in_the_teachers_copy():
    found = leaks(ROOT / "book")
    visible = {ex for ex, own in own_lines(_book_lines()).items() if own}
    assert len(visible) >= 30, f"only {len(visible)} solutions have lines of their own: the detector is blind"
    assert {ex for ex, _ in found} == visible, "every solution sits in its own chapter notebook"
    in_modules = {ex for ex, file in leaks(ROOT / "widgets")}
    # the check modules' own reference code repeats solutions of chapters 12 and 14 (marked, left out of releases)
    assert "ch12.which" in in_modules and any(ex.startswith("ch14.") for ex in in_modules), in_modules


def _tagged(path):
    nb = nbformat.read(path, as_version=4)
    chapters.tag(nb)
    return nb


def test_exercise_ids_are_stored_in_the_book_and_kept_by_the_release(student_copy):
    for path in BOOK:
        stored = nbformat.read(path, as_version=4)
        ids = [chapters.exercise_of(c) for c in stored.cells if chapters.EXERCISE in chapters.tags(c)]
        assert None not in ids, f"{path.name} is not tagged: run `python -m minigrad_book tag`"
        assert chapters.tag(stored) is False, f"tagging {path.name} again changed it"
        copy = nbformat.read(student_copy / "book" / path.name, as_version=4)
        assert [chapters.exercise_of(c) for c in copy.cells if chapters.EXERCISE in chapters.tags(c)] == ids
        assert copy.metadata["minigrad"] == {"chapter": path.stem}
        assert not [c for c in copy.cells if chapters.SOLUTION in chapters.tags(c)]


def test_tagging_keeps_ids_and_points_a_teacher_set():
    nb = _tagged(BOOK[4])
    first = chapters.exercise_of(next(c for c in nb.cells if chapters.EXERCISE in chapters.tags(c)))
    for c in nb.cells:
        if chapters.exercise_of(c) == first:
            c.metadata["minigrad"] = {"exercise": "my.own.id", "points": 5}
    assert chapters.tag(nb) is False
    assert chapters.exercises(nb)[0].id == "my.own.id" and chapters.exercises(nb)[0].points == 5


@pytest.mark.parametrize("source, problem", [
    ("# begin solution\nX = 1\n", "never closed"),
    ("X = 1\n# end solution\n", "without a '# begin solution'"),
    ("# begin solution\n# begin solution\n", "inside another"),
    ("# begin solution\nprint(1)\n# end solution\n", "must define a name"),
])
def test_a_broken_solution_region_is_an_error(source, problem):
    with pytest.raises(ValueError, match=problem):
        release.strip_module(source)


@pytest.fixture(scope="module")
def executed_copy(tmp_path_factory):
    out = tmp_path_factory.mktemp("executed") / "class"
    release.release(ROOT, out, execute=True)
    return out


def test_the_release_passes_strict_nbval(executed_copy):
    """Chapters whose checks lost a reference, and chapter 4, re-run against the student copy's code."""
    changed = [p for p in BOOK if _outputs(p) != _outputs(executed_copy / "book" / p.name)]
    assert changed, "no chapter's stored output changed: the stand-ins were not exercised"
    names = sorted({p.name for p in changed} | {"04_function_apply.ipynb"})
    env = {**os.environ, "PYTHONPATH": str(executed_copy)}
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--nbval", "--nbval-current-env", "--nbval-kernel-startup-timeout", "300",
         "--nbval-sanitize-with", str(ROOT / "tests" / "nbval_sanitize.cfg"), "-o", "addopts=",
         *[str(executed_copy / "book" / n) for n in names]],
        cwd=executed_copy, env=env, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0 and " passed" in result.stdout, result.stdout[-3000:] + result.stderr[-2000:]


def test_only_chapters_whose_checks_lost_a_reference_changed(executed_copy):
    """The others keep the book's code cells and outputs, so the book's own strict nbval run covers them."""
    stripped = {".".join(p.relative_to(ROOT).with_suffix("").parts) for p in (ROOT / "widgets").rglob("*.py")
                if release.BEGIN.search(p.read_text()) or re.search(r"(?m)^# begin solution", p.read_text())}
    expected = {p.name for p in BOOK if set(chapters.module_aliases(_tagged(p)).values()) & stripped}
    changed = {p.name for p in BOOK if _outputs(p) != _outputs(executed_copy / "book" / p.name)}
    assert changed <= expected, f"{sorted(changed - expected)} changed, but their checks lost nothing"


def test_a_check_that_needs_the_reference_says_it_runs_when_graded(executed_copy):
    code = ("from widgets.exercises import ch12\n"
            "print(ch12.check_which({'a': 'Function'}))\n")
    out = subprocess.run([sys.executable, "-c", code], env={**os.environ, "PYTHONPATH": str(executed_copy)},
                         cwd=executed_copy, capture_output=True, text=True, timeout=120)
    assert out.stdout.startswith("✗ not yet — this check compares your answer with the reference solution"), \
        out.stdout + out.stderr


def _outputs(path):
    nb = nbformat.read(path, as_version=4)
    return [(c.source, [{k: v for k, v in o.items() if k != "execution_count"} for o in c.outputs])
            for c in nb.cells if c.cell_type == "code"]
