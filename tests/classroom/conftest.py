"""Fixtures for the classroom kit: one student copy and one graded class per test session."""
import re
import shutil
from pathlib import Path

import nbformat
import pytest

from minigrad_book import chapters, grade, release
from minigrad_book.sandbox import Limits

from . import corpus

ROOT = Path(__file__).resolve().parents[2]
SOLUTION_CODE = re.compile(r"```python\n(.*?)```", re.S)
# small limits, so that the hostile cases finish quickly: the loops, the memory hog. 10 s, not less: with the
# grader's two jobs beside `make test`'s other worker on two cores, the memory hog has run past 4 s and been
# graded "timeout" instead of "memory"
LIMITS = Limits(exercise=10, notebook=90, memory_mib=768, startup=60)


@pytest.fixture(scope="session")
def student_copy(tmp_path_factory):
    out = tmp_path_factory.mktemp("release") / "class"
    release.release(ROOT, out, execute=False)
    return out


def solutions(chapter):
    nb = nbformat.read(ROOT / "book" / f"{chapter}.ipynb", as_version=4)
    chapters.tag(nb)
    return {ex.id: SOLUTION_CODE.search(ex.solution).group(1) for ex in chapters.exercises(nb)}


def write_class(student_copy, folder, evil_path):
    released = nbformat.read(student_copy / "book" / f"{corpus.CHAPTER}.ipynb", as_version=4)
    other = nbformat.read(student_copy / "book" / "05_backward_and_grad_output.ipynb", as_version=4)
    extra = {"outside": {"evil_path": evil_path}, "other_chapter": {"other": other}}
    for student, make in corpus.CLASS.items():
        made = make(_fresh(released), solutions(corpus.CHAPTER), **extra.get(student, {}))
        files = made if isinstance(made, dict) and "cells" not in made else {f"{corpus.CHAPTER}.ipynb": made}
        (folder / student).mkdir(parents=True)
        for name, content in files.items():
            path = folder / student / name
            if isinstance(content, bytes):
                path.write_bytes(content)
            else:
                nbformat.write(content, path)


def _fresh(nb):
    return nbformat.reads(nbformat.writes(nb), as_version=4)


@pytest.fixture(scope="session")
def graded_class(student_copy, tmp_path_factory):
    base = tmp_path_factory.mktemp("grading")
    evil = base / "outside" / "evil.txt"
    evil.parent.mkdir()
    submissions, report = base / "submissions", base / "report"
    write_class(student_copy, submissions, evil)
    summary = grade.grade(ROOT, submissions, report, limits=LIMITS, jobs=2, progress=False)
    return {"submissions": submissions, "report": report, "summary": summary, "evil": evil}
