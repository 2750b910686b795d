#!/usr/bin/env python3
"""Grade a class-sized folder: N submissions (default 200) across the chapters, and report time and memory.

    .venv/bin/python bench/classroom_load.py             # 200 notebooks, 2 at a time
    .venv/bin/python bench/classroom_load.py -n 40 --jobs 1

A measurement, not a test. Students 0, 1, 2, ... hand in the chapters in turn (with 12 chapters, 200 notebooks
are 17 students, the last with 8: the gradebook also has their "not submitted" rows); a third of the notebooks
are solved, a third untouched, a third half solved.

Measured (2026-12-01, 2 cores shared with other work, load average 4.5): 200 notebooks in 337 s, 1.7 s a
notebook, 2 at a time; peak memory 250 MiB for the whole tree, 106 MiB the largest grading process. Peak memory is the largest
resident size of the whole tree (grader + grading processes) sampled every 0.1 s, and the largest one
grading process (ru_maxrss of the children).
"""
import argparse
import re
import resource
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import nbformat  # noqa: E402

from minigrad_book import chapters, grade, release  # noqa: E402

SOLUTION_CODE = re.compile(r"```python\n(.*?)```", re.S)


def _tree_rss(pid):
    """Resident memory of `pid` and its descendants, in bytes (Linux /proc)."""
    total, children = 0, {}
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            fields = dict(line.split(":", 1) for line in status.read_text().splitlines() if ":" in line)
        except OSError:
            continue
        children.setdefault(int(fields["PPid"]), []).append((int(fields["Pid"]), fields.get("VmRSS", "0 kB")))
    todo = [(pid, None)]
    while todo:
        current, rss = todo.pop()
        if rss is not None:
            total += int(rss.split()[0]) * 1024
        todo += children.get(current, [])
    with open("/proc/self/status") as own:
        total += int(next(line for line in own if line.startswith("VmRSS")).split()[1]) * 1024
    return total


def build(folder, n):
    copy = folder / "release"
    release.release(ROOT, copy, execute=False)
    books = [p for p in chapters.chapter_paths(copy / "book") if not p.stem.startswith("00_")]
    for i in range(n):
        path = books[i % len(books)]
        nb = nbformat.read(path, as_version=4)
        teacher = nbformat.read(ROOT / "book" / path.name, as_version=4)
        chapters.tag(teacher)
        solutions = {ex.id: SOLUTION_CODE.search(ex.solution).group(1) for ex in chapters.exercises(teacher)}
        stubs = [c for c in nb.cells if chapters.EXERCISE in chapters.tags(c)]
        solve = stubs if i % 3 == 0 else [] if i % 3 == 1 else stubs[::2]
        for cell in solve:
            cell.source = solutions[chapters.exercise_of(cell)]
        student = folder / "submissions" / f"student{i // len(books):03d}"
        student.mkdir(parents=True, exist_ok=True)
        nbformat.write(nb, student / path.name)
    return folder / "submissions"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=200, help="submissions (default: %(default)s)")
    parser.add_argument("--jobs", type=int, default=2, help="notebooks graded at once (default: %(default)s)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        submissions = build(Path(folder), args.n)
        peak, done = [0], threading.Event()

        def sample():
            while not done.wait(0.1):
                peak[0] = max(peak[0], _tree_rss(__import__("os").getpid()))
        threading.Thread(target=sample, daemon=True).start()
        start = time.perf_counter()
        summary = grade.grade(ROOT, submissions, Path(folder) / "report", jobs=args.jobs, progress=True)
        elapsed = time.perf_counter() - start
        done.set()
        rows = (Path(folder) / "report" / "gradebook.csv").read_text().splitlines()[1:]
        statuses = {}
        for row in rows:
            statuses[row.rsplit(",", 1)[1]] = statuses.get(row.rsplit(",", 1)[1], 0) + 1
        child = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        print(summary)
        print(f"{args.n} notebooks, {len(rows)} gradebook rows {statuses}")
        print(f"time {elapsed:.0f} s ({elapsed / args.n:.2f} s a notebook, {args.jobs} at a time); "
              f"peak memory {peak[0] / 2**20:.0f} MiB for the whole tree, {child:.0f} MiB the largest grading process")


if __name__ == "__main__":
    main()
