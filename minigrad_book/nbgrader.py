"""`minigrad-book release --nbgrader OUT/`: the book as an nbgrader course, one assignment per chapter.

    OUT/nbgrader_config.py
    OUT/source/<chapter>/<chapter>.ipynb

The notebooks are nbgrader's *source* version (what `nbgrader generate_assignment` turns into the student
version): each exercise's answer cell holds the stub and then the solution between `### BEGIN SOLUTION` and
`### END SOLUTION` (an "autograded answer": solution, not graded, not locked); each check cell becomes an
"autograder tests" cell (graded, locked, with the exercise's points) that asserts the check's verdict and
ends with the hidden test cases between `### BEGIN HIDDEN TESTS` and `### END HIDDEN TESTS`. The markdown
solution cells are dropped. Cell metadata follows nbgrader's schema version 3:

    {"nbgrader": {"grade": bool, "grade_id": str, "locked": bool, "points": n, "schema_version": 3,
                  "solution": bool, "task": false}}

nbgrader's own autograder then runs the hidden tests, which need this kit (minigrad_book) importable where it
grades; the students need the student copy of minigrad and widgets (`minigrad-book release`).
"""
import copy
import re
from pathlib import Path

import nbformat

from . import chapters, plan

SCHEMA_VERSION = 3
SOLUTION_CODE = re.compile(r"```python\n(.*?)```", re.S)
CONFIG = '''"""nbgrader configuration written by `minigrad-book release --nbgrader`."""
c = get_config()  # noqa: F821 -- nbgrader provides it
c.CourseDirectory.root = "."
# the stub stays in the student version, above this line, instead of `raise NotImplementedError()`
c.ClearSolutions.code_stub = {"python": "# your answer: complete the stub above (it may be redefined here)"}
'''


def metadata(grade_id, solution=False, grade=False, locked=False, points=None):
    """Return the `nbgrader` cell metadata, as nbgrader's schema version 3 has it."""
    meta = {"grade": grade, "grade_id": grade_id, "locked": locked, "schema_version": SCHEMA_VERSION,
            "solution": solution, "task": False}
    if grade:
        meta["points"] = points
    return meta


def grade_id(exercise, part):
    return re.sub(r"[^A-Za-z0-9_-]", "-", exercise) + "-" + part


def _test_source(call, hidden):
    feedback = f"{call.module.rsplit('.', 1)[-1]}.{call.function}({', '.join(call.args)})"
    lines = [f"feedback = {feedback}", "print(feedback)", "assert feedback, feedback.message"]
    if call.function in hidden:
        module = call.module.rsplit(".", 1)[-1]
        lines += ["### BEGIN HIDDEN TESTS", f"from minigrad_book.hidden import {module} as hidden_{module}",
                  f"hidden = hidden_{module}.{call.function}({', '.join(call.args)})",
                  "assert hidden, hidden.message", "### END HIDDEN TESTS"]
    return "\n".join(lines)


def source_notebook(nb):
    """Return the nbgrader source version of the tagged chapter `nb`."""
    nb = copy.deepcopy(nb)
    chapters.tag(nb)
    exercises = {ex.id: ex for ex in chapters.exercises(nb)}
    aliases = chapters.module_aliases(nb)
    cells = []
    for cell in nb.cells:
        ident, tags = chapters.exercise_of(cell), chapters.tags(cell)
        if chapters.SOLUTION in tags:
            continue
        if ident and chapters.CHECK in tags:
            call = chapters.parse_check(cell.source, aliases)
            cell.source = _test_source(call, plan.hidden_tests(call.module))
            cell.outputs, cell.execution_count = [], None
            cell.metadata["nbgrader"] = metadata(grade_id(ident, "tests"), grade=True, locked=True,
                                                 points=exercises[ident].points)
        elif ident:
            solution = SOLUTION_CODE.search(exercises[ident].solution).group(1).rstrip("\n")
            cell.source = f"{cell.source.rstrip()}\n### BEGIN SOLUTION\n{solution}\n### END SOLUTION"
            cell.outputs, cell.execution_count = [], None
            cell.metadata["nbgrader"] = metadata(grade_id(ident, "answer"), solution=True)
        cells.append(cell)
    nb.cells = cells
    return nb


def export(root, out):
    """Write the nbgrader course folder for the book at `root` into `out`; return the chapter names."""
    root, out = Path(root), Path(out)
    if out.exists() and any(out.iterdir()):
        raise FileExistsError(f"{out} is not empty: release writes a new folder (remove it or name another)")
    out.mkdir(parents=True, exist_ok=True)
    (out / "nbgrader_config.py").write_text(CONFIG)
    names = []
    for path in chapters.chapter_paths(root / "book"):
        nb = nbformat.read(path, as_version=4)
        chapters.tag(nb)
        if not chapters.exercises(nb):
            continue
        folder = out / "source" / path.stem
        folder.mkdir(parents=True)
        nbformat.write(source_notebook(nb), folder / path.name)
        names.append(path.stem)
    return names
