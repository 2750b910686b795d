"""`minigrad-book release --nbgrader`: nbgrader's documented cell metadata, and its own validator if installed."""
import re

import nbformat
import pytest

from minigrad_book import chapters, nbgrader

from .conftest import ROOT

# nbgrader's documented cell types (docs: "Developer documentation > Metadata"), schema version 3
KINDS = {  # (solution, grade, locked)
    "autograded answer": (True, False, False),
    "autograder tests": (False, True, True),
}


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    out = tmp_path_factory.mktemp("nbgrader") / "course"
    names = nbgrader.export(ROOT, out)
    return out, names


def _graded_cells(nb):
    return [c for c in nb.cells if "nbgrader" in c.metadata]


def test_one_assignment_per_chapter_with_exercises(course):
    out, names = course
    # chapter 0 (the tour) and the glossary have no exercises
    with_exercises = [p.stem for p in chapters.chapter_paths(ROOT / "book") if p.stem[:2] != "00"
                      and not p.stem.endswith("_glossary")]
    assert names == with_exercises
    assert (out / "nbgrader_config.py").exists()
    for name in names:
        assert (out / "source" / name / f"{name}.ipynb").exists()


def test_cells_follow_nbgraders_schema(course):
    out, names = course
    for name in names:
        nb = nbformat.read(out / "source" / name / f"{name}.ipynb", as_version=4)
        ids = []
        for cell in _graded_cells(nb):
            meta = cell.metadata["nbgrader"]
            assert meta["schema_version"] == 3 and meta["task"] is False
            assert set(meta) >= {"grade", "grade_id", "locked", "schema_version", "solution", "task"}
            kind = (meta["solution"], meta["grade"], meta["locked"])
            assert kind in KINDS.values(), f"{name}: {meta} is none of nbgrader's cell types"
            assert re.fullmatch(r"[A-Za-z0-9_-]+", meta["grade_id"]), meta["grade_id"]
            ids.append(meta["grade_id"])
            if meta["grade"]:
                assert meta["points"] > 0
            assert cell.cell_type == "code"
        assert len(ids) == len(set(ids)), f"{name}: grade_ids repeat"


def test_answers_hold_the_solution_between_markers_and_tests_the_check(course):
    out, _ = course
    nb = nbformat.read(out / "source" / "04_function_apply" / "04_function_apply.ipynb", as_version=4)
    cells = {c.metadata["nbgrader"]["grade_id"]: c.source for c in _graded_cells(nb)}
    answer = cells["ch04-square-answer"]
    assert answer.index("class Square") < answer.index("### BEGIN SOLUTION") < answer.index("### END SOLUTION")
    assert "return grad_output * 2 * x" in answer.split("### BEGIN SOLUTION")[1]
    tests = cells["ch04-square-tests"]
    assert tests.startswith("feedback = ch04.check_square(Square)\n")
    hidden = tests.split("### BEGIN HIDDEN TESTS")[1].split("### END HIDDEN TESTS")[0]
    assert "hidden_ch04.check_square(Square)" in hidden
    assert not [c for c in nb.cells if chapters.SOLUTION in chapters.tags(c)], "solution cells are dropped"


def test_nbgraders_own_validator_accepts_the_notebooks(course):
    pytest.importorskip("nbgrader", reason="nbgrader is not installed here; the documented format is tested above")
    from nbgrader.nbgraderformat import MetadataValidator, read
    out, names = course
    for name in names:
        with open(out / "source" / name / f"{name}.ipynb", encoding="utf-8") as f:
            nb = read(f, as_version=nbformat.NO_CONVERT)          # read() validates too
        MetadataValidator().validate_nb(nb)
        assert sum("nbgrader" in c.metadata for c in nb.cells) >= 4
