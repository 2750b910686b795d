"""The grader against a class of ordinary and hostile submissions (tests/classroom/corpus.py)."""
import csv
import time
from pathlib import Path

from minigrad_book import grade

from .conftest import LIMITS, ROOT

EXPECTED = Path(__file__).with_name("expected_gradebook.csv")


def read(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def test_every_submission_gets_the_expected_status(graded_class):
    got, want = read(graded_class["report"] / "gradebook.csv"), read(EXPECTED)
    assert list(got[0]) == ["student", "chapter", "exercise", "points", "max_points", "status"]
    got_by_key = {(r["student"], r["chapter"], r["exercise"]): r for r in got}
    wrong = [f"{key}: got {got_by_key.get(key, {}).get('status', 'no row')}, expected {r['status']}"
             for r in want if (key := (r["student"], r["chapter"], r["exercise"])) and got_by_key.get(key) != r]
    assert not wrong, "\n".join(wrong)
    assert len(got) == len(want), f"{len(got)} rows, expected {len(want)}"


def test_nothing_was_written_outside_the_temp_dir(graded_class):
    assert not graded_class["evil"].exists(), f"a submission wrote {graded_class['evil']}"


def test_a_rerun_resumes_from_the_cache_and_writes_the_same_gradebook(graded_class, tmp_path):
    report = graded_class["report"]
    first = (report / "gradebook.csv").read_text()
    (report / ".cache" / "half" / "04_function_apply.json").unlink()   # as if the run had stopped there
    start = time.perf_counter()
    summary = grade.grade(ROOT, graded_class["submissions"], report, limits=LIMITS, jobs=2, progress=False)
    assert "(19 from the previous run)" in summary, summary
    assert (report / "gradebook.csv").read_text() == first
    assert time.perf_counter() - start < 30


def test_each_student_gets_a_feedback_page_with_the_hint(graded_class):
    pages = graded_class["report"] / "feedback"
    half = (pages / "half.html").read_text()
    assert "Total: 1 of 3 points" in half
    assert "LeakyReLU.apply" in half, "the check's hint for the wrong slope is missing"
    loops = (pages / "loops.html").read_text()
    assert "timeout" in loops and "a loop that never ends" in loops
    assert len(list(pages.glob("*.html"))) == len(read(EXPECTED)) // 3


def test_the_feedback_page_escapes_what_a_submission_controls(graded_class):
    page = (graded_class["report"] / "feedback" / "exits.html").read_text()
    assert "<script" not in page


def test_a_failure_of_the_grader_itself_costs_one_notebook_not_the_class(tmp_path, monkeypatch):
    from minigrad_book import plan
    for student in ("ada", "grace"):
        (tmp_path / "in" / student).mkdir(parents=True)
        (tmp_path / "in" / student / "04_function_apply.ipynb").write_text("{}")

    def grade_notebook(teacher, chapter, path, *args):
        if path.parent.name == "ada":
            raise SystemError("AST constructor recursion depth mismatch")
        return [{"exercise": "ch04.square", "max_points": 1, "points": 0, "status": "unreadable",
                 "message": "", "detail": ""}]
    monkeypatch.setattr(plan, "grade_notebook", grade_notebook)
    grade.grade(ROOT, tmp_path / "in", tmp_path / "out", limits=LIMITS, jobs=2, progress=False)
    rows = read(tmp_path / "out" / "gradebook.csv")
    assert {(r["student"], r["status"]) for r in rows if r["exercise"] == "ch04.square"} == \
        {("ada", "crashed"), ("grace", "unreadable")}
    assert not (tmp_path / "out" / ".cache" / "ada").exists(), "a grader failure must be graded again next run"
