"""Run a tutorial program once on real PyTorch and once on minigrad posing as `torch`; compare what each printed.

Each run is a fresh interpreter (``_child.py``) with ``OPENBLAS_NUM_THREADS=1`` and a timeout. Torch is the
reference: its run must succeed, and minigrad's must then exit cleanly, never load real torch, and print the same
lines. A failure names the first line that differs, shows both versions and minigrad's stderr.
"""
import math
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
PROGRAMS = HERE / "programs"
CHILD = HERE / "_child.py"
TIMEOUT = 300  # seconds per run; every program takes a few seconds on torch
STDERR_TAIL = 40  # lines of stderr shown in a failure message


@dataclass
class Run:
    """What one interpreter did with one program."""
    lib: str
    returncode: int
    stdout: str
    stderr: str


def run_program(program, lib):
    """Run ``program`` (a path) in a fresh interpreter on ``lib`` ("torch" or "minigrad") and return a Run."""
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", PYTHONHASHSEED="0", PYTHONIOENCODING="utf-8")
    # the minigrad under test is this checkout's, whatever is installed
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    try:
        done = subprocess.run([sys.executable, str(CHILD), lib, str(program)], capture_output=True, text=True,
                              env=env, cwd=str(REPO), timeout=TIMEOUT)
    except subprocess.TimeoutExpired as exc:
        return Run(lib, -1, _text(exc.stdout), _text(exc.stderr) + f"\n[timed out after {TIMEOUT} s]")
    return Run(lib, done.returncode, done.stdout, done.stderr)


def _text(data):
    return data.decode("utf-8", "replace") if isinstance(data, bytes) else (data or "")


def tail(text, lines=STDERR_TAIL):
    """Return the last ``lines`` lines of ``text``, saying how many were cut."""
    kept = text.rstrip("\n").splitlines()
    cut = len(kept) - lines
    return ("[... %d lines cut ...]\n" % cut if cut > 0 else "") + "\n".join(kept[-lines:])


# Printed floats may differ in their last digits: ATen's float32 kernels add in another order than numpy
# (sums), use other SIMD approximations (sin, exp) and block matrix products differently, so a loss printed
# with all 17 digits after 2000 float32 steps agrees to about 1e-7, not bit for bit. A float in a line is
# therefore compared to this relative tolerance; everything else in the line (words, integers, shapes, the
# number of digits printed) must be identical.
FLOAT_RTOL = 1e-5
FLOAT_ATOL = 1e-8      # round-off around zero (a fitted coefficient of 1e-10, a gradient check's maxdiff)
# A program may declare looser tolerances, with the reason, in a header line such as
#   # harness: rtol=1e-2 (RMSprop divides by a running RMS: float32 round-off grows over 2000 steps)
_TOLERANCE = re.compile(r"^# harness: ((?:[ra]tol=[0-9.e-]+ )+)\(.+\)$", re.MULTILINE)


def tolerances(program):
    """The (rtol, atol) a program declares in its header, or the defaults."""
    declared = _TOLERANCE.search(Path(program).read_text())
    found = dict(item.split("=") for item in declared.group(1).split()) if declared else {}
    return float(found.get("rtol", FLOAT_RTOL)), float(found.get("atol", FLOAT_ATOL))
_FLOAT = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+)(?:[eE][-+]?\d+)?|[-+]?\d+[eE][-+]?\d+")


def same_line(a, b, rtol=FLOAT_RTOL, atol=FLOAT_ATOL):
    """True if two printed lines agree: equal text, floats within `rtol` (or FLOAT_ATOL) of each other."""
    if a == b:
        return True
    if a is None or b is None:
        return False
    fa, fb = _FLOAT.findall(a), _FLOAT.findall(b)
    if len(fa) != len(fb) or _FLOAT.sub("#", a) != _FLOAT.sub("#", b):
        return False
    return all(math.isclose(float(x), float(y), rel_tol=rtol, abs_tol=atol) for x, y in zip(fa, fb))


def first_difference(expected, received, rtol=FLOAT_RTOL, atol=FLOAT_ATOL):
    """Return (index, expected_line, received_line) of the first line that differs (see `same_line`), or None.

    A missing line is returned as None, so a run that stopped early shows where it stopped.
    """
    want, got = expected.splitlines(), received.splitlines()
    for i in range(max(len(want), len(got))):
        a = want[i] if i < len(want) else None
        b = got[i] if i < len(got) else None
        if not same_line(a, b, rtol, atol):
            return i, a, b
    return None


def describe_failure(name, reference, run, rtol=FLOAT_RTOL, atol=FLOAT_ATOL):
    """Explain, for a person, how ``run`` (minigrad) differs from ``reference`` (torch)."""
    diff = first_difference(reference.stdout, run.stdout, rtol, atol)
    parts = [f"{name}: minigrad does not do what torch does."]
    if diff is not None:
        i, want, got = diff
        parts.append(f"first differing stdout line: {i + 1}")
        parts.append(f"  torch:    {'<no line: output ended>' if want is None else repr(want)}")
        parts.append(f"  minigrad: {'<no line: output ended>' if got is None else repr(got)}")
        context = reference.stdout.splitlines()[max(0, i - 3):i]
        if context:
            parts.append("the lines before it (equal in both):\n" + "\n".join("    " + line for line in context))
    if run.returncode != 0:
        parts.append(f"minigrad's run exited with status {run.returncode}")
    parts.append("minigrad's stderr:\n" + (tail(run.stderr) or "<empty>"))
    return "\n".join(parts)


def check_program(program):
    """Assert that ``program`` prints the same lines on minigrad as on torch, and that both runs succeed."""
    program = Path(program)
    name = program.name
    reference = run_program(program, "torch")
    assert reference.returncode == 0, (
        f"{name}: the program fails on real torch (status {reference.returncode}), so it is wrong, not minigrad.\n"
        f"torch's stderr:\n{tail(reference.stderr)}")
    assert reference.stdout.strip(), f"{name}: prints nothing on torch, so there is nothing to compare"
    run = run_program(program, "minigrad")
    rtol, atol = tolerances(program)
    ok = run.returncode == 0 and first_difference(reference.stdout, run.stdout, rtol, atol) is None
    assert ok, describe_failure(name, reference, run, rtol, atol)


def programs():
    """Return the tutorial programs, sorted by file name."""
    return sorted(PROGRAMS.glob("*.py"))
