"""Grade one submitted notebook: find the learner's answers, build the plan, turn outcomes into statuses.

The plan follows the teacher's chapter, never the submission: the teacher's own code cells run as they are,
each exercise's stub is replaced by the learner's cells for that exercise (found by the id in their metadata;
failing that, by the names the check needs), and each check cell becomes a call of the trusted check. So a
learner's edited check cell, extra cells printing "✓ correct" and outputs stored in the file count for nothing.
"""
import ast
import importlib.util
import json

import nbformat

from . import chapters, sandbox

MAX_BYTES = 64 << 20


def hidden_tests(module):
    """Return the names of the hidden tests for the check module `module` (minigrad_book/hidden/chNN.py)."""
    spec = importlib.util.find_spec(f"minigrad_book.hidden.{module.rsplit('.', 1)[-1]}")
    if spec is None or not spec.origin:
        return set()
    with open(spec.origin, encoding="utf-8") as source:
        tree = chapters.parse(source.read())
    return {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}


def read_submission(path):
    """Return (notebook, None), or (None, status) if the file cannot be read as a notebook."""
    try:
        if path.stat().st_size > MAX_BYTES:
            return None, "unreadable"
        nb = nbformat.reads(path.read_text(encoding="utf-8"), as_version=4)
        for cell in nb.cells:
            if not (isinstance(cell.get("source"), str) and isinstance(cell.get("metadata", {}), dict)):
                return None, "unreadable"
            cell.setdefault("metadata", {})
        return nb, None
    except Exception:                                    # noqa: BLE001 -- any damage makes it unreadable
        return None, "unreadable"


def _is_other_chapter(nb, chapter, exercises):
    claimed = nb.metadata.get(chapters.KEY, {}).get("chapter") if isinstance(nb.metadata.get(chapters.KEY),
                                                                               dict) else None
    if claimed is not None and claimed != chapter:
        return True
    ids = {chapters.exercise_of(c) for c in nb.cells} - {None}
    return bool(ids) and not ids & {ex.id for ex in exercises}


def _arg_names(exercise):
    return {n.id for call in exercise.checks for a in call.args for n in ast.walk(chapters.parse(a, mode="eval"))
            if isinstance(n, ast.Name)}


def find_answers(nb, exercise):
    """Return the sources of the learner's cells for `exercise`: by id, else by the names its check needs."""
    def is_answer(cell):
        return cell.cell_type == "code" and not {chapters.CHECK, chapters.SOLUTION} & set(chapters.tags(cell))
    by_id = [c.source for c in nb.cells if is_answer(c) and chapters.exercise_of(c) == exercise.id]
    if by_id:
        return by_id
    wanted = _arg_names(exercise)
    return [c.source for c in nb.cells if is_answer(c) and chapters.exercise_of(c) is None
            and wanted & set(chapters.defined_names(c.source))]


def build(teacher, submission, exercises):
    """Return (steps, answer_of, check steps per exercise id, answer step per exercise id)."""
    steps, answer_of, checks_of, answer_step = [], {}, {}, {}
    answers = {ex.id: find_answers(submission, ex) for ex in exercises}
    aliases = chapters.module_aliases(teacher)
    for cell in teacher.cells:
        ident, kind = chapters.exercise_of(cell), set(chapters.tags(cell))
        if cell.cell_type != "code" or chapters.SOLUTION in kind:
            continue
        if ident and chapters.CHECK in kind:
            if ident not in answer_step:
                continue                                 # no answer cells: nothing to check
            call = chapters.parse_check(cell.source, aliases)
            checks_of.setdefault(ident, []).append(len(steps))
            answer_of[len(steps)] = answer_step.get(ident)
            steps.append({"kind": "check", "exercise": ident, "module": call.module, "function": call.function,
                          "args": list(call.args)})
        elif ident:
            if ident not in answer_step and answers.get(ident):
                answer_step[ident] = len(steps)
                steps.append({"kind": "answer", "exercise": ident, "sources": answers[ident]})
        else:
            steps.append({"kind": "setup", "source": cell.source})
    return steps, answer_of, checks_of, answer_step


def status_of(answer, checks):
    """Combine an answer step's outcome and its check steps' outcomes into (status, message, detail)."""
    if answer is None:
        return "not found", "", ""
    if answer["status"] in sandbox.FATAL or answer["status"] == "forbidden":
        return answer["status"], "", answer.get("detail", "")
    message, detail = "", answer.get("detail", "")
    for check in checks:
        status, message = check["status"], check.get("message", message)
        detail = check.get("detail", detail)
        if status in sandbox.FATAL or status == "forbidden":
            return status, message, detail
        if status == "undefined":
            return ("error" if answer["status"] == "error" else "not found"), message, detail
        if status == "error":
            return "error", message, detail
        if status == "not ok":
            return "incorrect", message, detail
        if status == "hidden failed":
            return "failed hidden tests", message, check.get("hidden", "")
    return "correct", message, detail


def grade_notebook(teacher, chapter, path, limits, code_root=sandbox.ROOT):
    """Grade the submission at `path` (or None) against the tagged teacher notebook; return one row each."""
    exercises = chapters.exercises(teacher)

    def rows(status, found=None):
        found = found or {}
        return [{"exercise": ex.id, "max_points": ex.points, **dict(zip(
            ("status", "message", "detail"), found.get(ex.id, (status, "", ""))))} for ex in exercises]

    if path is None:
        return _scored(rows("not submitted"), exercises)
    submission, problem = read_submission(path)
    if problem:
        return _scored(rows(problem), exercises)
    if _is_other_chapter(submission, chapter, exercises):
        return _scored(rows("wrong chapter"), exercises)
    steps, answer_of, checks_of, answer_step = build(teacher, submission, exercises)
    calls = sorted({(s["module"], s["function"]) for s in steps if s["kind"] == "check"})
    hidden = [[m, f, f"minigrad_book.hidden.{m.rsplit('.', 1)[-1]}"] for m, f in calls if f in hidden_tests(m)]
    outcomes = sandbox.run_plan(steps, [list(c) for c in calls], hidden, limits, code_root, answer_of)
    found = {}
    for ex in exercises:
        answer = outcomes.get(answer_step[ex.id]) if ex.id in answer_step else None
        if ex.id in answer_step and answer is None:
            answer = {"status": "crashed", "detail": "the answer cells never ran"}
        checks = [outcomes.get(i, {"status": "crashed", "detail": "the check never ran"})
                  for i in checks_of.get(ex.id, [])]
        found[ex.id] = status_of(answer, checks)
    return _scored(rows(None, found), exercises)


def _scored(rows, exercises):
    for row in rows:
        row["points"] = row["max_points"] if row["status"] == "correct" else 0
    return json.loads(json.dumps(rows))
