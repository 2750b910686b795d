"""`minigrad-book grade SUBMISSIONS/ --out REPORT/`: a gradebook and a feedback page for a folder of notebooks.

SUBMISSIONS/<student>/<chapter file>.ipynb, as nbgrader collects them. Every student gets a row for every
exercise of every chapter that anyone handed in ("not submitted" where they did not), and a file that is no
chapter gets an "unknown file" row: nothing is dropped. Each graded notebook is cached in REPORT/.cache/ under
the hash of the submission and of everything that grades it (the teacher's chapter, checks, hidden tests, this
kit, the limits), so an interrupted run resumes where it stopped and a re-run writes the same gradebook.
"""
import csv
import hashlib
import json
import os
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import asdict
from pathlib import Path

import nbformat

from . import chapters, feedback, plan
from .sandbox import Limits

COLUMNS = ["student", "chapter", "exercise", "points", "max_points", "status"]
KIT = Path(__file__).resolve().parent

__all__ = ["Limits", "grade"]


def _teacher_chapters(root):
    book = {}
    for path in chapters.chapter_paths(Path(root) / "book"):
        nb = nbformat.read(path, as_version=4)
        chapters.tag(nb)
        if chapters.exercises(nb):
            book[path.stem] = nb
    return book


def _fingerprint(root, chapter, nb, limits):
    digest = hashlib.sha256(json.dumps(nb, sort_keys=True).encode())
    modules = {call.module for ex in chapters.exercises(nb) for call in ex.checks}
    for module in sorted(modules):
        relative = Path(*module.split(".")).with_suffix(".py")
        hidden = KIT / "hidden" / relative.name
        for path in (Path(root) / relative, hidden):
            digest.update(path.read_bytes() if path.exists() else b"-")
    for path in sorted(KIT.glob("*.py")):
        digest.update(path.read_bytes())
    digest.update(json.dumps(asdict(limits), sort_keys=True).encode())
    return digest.hexdigest()


def _tasks(submissions, book):
    """Return (student, chapter, path or None) to grade, and the rows of files that are no chapter."""
    students = sorted(p for p in Path(submissions).iterdir() if p.is_dir() and not p.name.startswith("."))
    handed_in = {p.stem for s in students for p in s.glob("*.ipynb")}
    graded = [c for c in book if c in handed_in]
    tasks, strays = [], []
    for student in students:
        for chapter in graded:
            path = student / f"{chapter}.ipynb"
            tasks.append((student.name, chapter, path if path.exists() else None))
        for path in sorted(student.glob("*.ipynb")):
            if path.stem not in book:
                strays.append({"student": student.name, "chapter": path.stem, "exercise": "", "points": 0,
                               "max_points": 0, "status": "unknown file", "message": "", "detail": ""})
    return tasks, strays


def _cached(cache, key):
    try:
        stored = json.loads(cache.read_text())
        return stored["rows"] if stored.get("key") == key else None
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _grade_one(root, book, student, chapter, path, limits, report, fingerprints):
    content = path.read_bytes() if path is not None else b"not submitted"
    key = hashlib.sha256(content).hexdigest() + fingerprints[chapter]
    cache = report / ".cache" / student / f"{chapter}.json"
    rows = _cached(cache, key)
    resumed = rows is not None
    if rows is None:
        try:
            rows = plan.grade_notebook(book[chapter], chapter, path, limits, Path(root))
        except Exception as error:                       # noqa: BLE001 -- a bug of ours must not stop the class
            detail = f"the grader failed on this notebook ({type(error).__name__}: {error}); grade again"
            rows = [{"exercise": ex.id, "max_points": ex.points, "points": 0, "status": "crashed",
                     "message": "", "detail": detail} for ex in chapters.exercises(book[chapter])]
            return [{"student": student, "chapter": chapter, **row} for row in rows], False   # not cached
        cache.parent.mkdir(parents=True, exist_ok=True)
        temporary = cache.with_suffix(".tmp")
        temporary.write_text(json.dumps({"key": key, "rows": rows}))
        os.replace(temporary, cache)                   # a killed run leaves no half-written cache entry
    return [{"student": student, "chapter": chapter, **row} for row in rows], resumed


def _progress(total, enabled):
    try:
        from tqdm import tqdm
    except ImportError:
        tqdm = None
    if enabled and tqdm is not None:
        return tqdm(total=total, unit="notebook", desc="grading")

    class Quiet:
        def update(self, n=1):
            pass

        def close(self):
            pass
    return Quiet()


def grade(root, submissions, report, limits=Limits(), jobs=None, progress=True):
    """Grade every notebook under `submissions`; write REPORT/gradebook.csv and REPORT/feedback/; return a summary."""
    if not Path(submissions).is_dir():
        raise FileNotFoundError(f"{submissions} is not a folder of SUBMISSIONS/<student>/<chapter>.ipynb")
    report = Path(report)
    book = _teacher_chapters(root)
    fingerprints = {chapter: _fingerprint(root, chapter, nb, limits) for chapter, nb in book.items()}
    tasks, rows = _tasks(submissions, book)
    bar, resumed = _progress(len(tasks), progress), 0
    with ThreadPoolExecutor(max_workers=jobs or os.cpu_count() or 1) as pool:
        futures = [pool.submit(_grade_one, root, book, *task, limits, report, fingerprints) for task in tasks]
        for future in as_completed(futures):
            graded, from_cache = future.result()
            rows += graded
            resumed += from_cache
            bar.update()
    bar.close()
    order = {chapter: i for i, chapter in enumerate(book)}
    exercise_order = {ex.id: i for nb in book.values() for i, ex in enumerate(chapters.exercises(nb))}
    rows.sort(key=lambda r: (r["student"], order.get(r["chapter"], len(order)), r["chapter"],
                             exercise_order.get(r["exercise"], 0)))
    report.mkdir(parents=True, exist_ok=True)
    with open(report / "gradebook.csv", "w", newline="", encoding="utf-8") as out:
        writer = csv.DictWriter(out, COLUMNS, extrasaction="ignore", lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    feedback.write_pages(rows, report / "feedback")
    students = len({r["student"] for r in rows})
    return (f"graded {len(tasks)} notebooks of {students} students ({resumed} from the previous run): "
            f"{report / 'gradebook.csv'}, {report / 'feedback'}/")
