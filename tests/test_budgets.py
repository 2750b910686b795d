"""Budgets from STYLE.md: a file under minigrad/ or widgets/ stays within about two screens (300 lines)."""
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
LIMIT = 300


def line_counts(*folders):
    return {p.relative_to(ROOT).as_posix(): len(p.read_text().splitlines())
            for folder in folders for p in sorted((ROOT / folder).rglob("*.py"))}


def over_budget(counts, limit=LIMIT):
    return sorted(f"{path}: {n} lines" for path, n in counts.items() if n > limit)


def test_every_file_stays_within_300_lines():
    counts = line_counts("minigrad", "widgets")
    assert len(counts) > 50, f"received only {len(counts)} files, expected all of minigrad/ and widgets/"
    found = over_budget(counts)
    assert not found, (f"received files over {LIMIT} lines (STYLE.md: if one grows past that, it is two ideas; "
                       "split it by idea):\n" + "\n".join(found))


@pytest.mark.parametrize("counts, expected", [
    ({"a.py": 300, "b.py": 301}, ["b.py: 301 lines"]),
    ({"a.py": 12}, []),
])
def test_the_budget_check_can_fail(counts, expected):
    assert over_budget(counts) == expected
