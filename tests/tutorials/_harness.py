"""Run a tutorial program once on real PyTorch and once on minigrad posing as `torch`; compare what each did.

Each run is a fresh interpreter (``_child.py``) with ``OPENBLAS_NUM_THREADS=1`` and a timeout, read back as the
parity harness's Outcome (tests/parity_harness.py: ``program_outcome``). Torch is the reference: its run must
succeed and print something. The harness's ``compare_outcomes`` then decides: minigrad's run must raise nothing
(the child reports an exception, and exits with LEAK_EXIT if real torch got loaded) and print the same lines, floats
to the program's tolerances. A failure names the first line that differs, shows both versions and minigrad's stderr.
"""
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from parity_harness import compare_outcomes, program_outcome

from _child import REPORT_ENV

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
PROGRAMS = HERE / "programs"
CHILD = HERE / "_child.py"
TIMEOUT = 300  # seconds per run; every program takes a few seconds on torch
STDERR_TAIL = 40  # lines of stderr shown in a failure message


def run_program(program, lib):
    """Run ``program`` (a path) in a fresh interpreter on ``lib`` ("torch" or "minigrad"); return its Outcome."""
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", PYTHONHASHSEED="0", PYTHONIOENCODING="utf-8")
    # the minigrad under test is this checkout's, whatever is installed
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    with tempfile.TemporaryDirectory() as scratch:
        env[REPORT_ENV] = report = os.path.join(scratch, "raised.json")
        try:
            done = subprocess.run([sys.executable, str(CHILD), lib, str(program)], capture_output=True, text=True,
                                  env=env, cwd=str(REPO), timeout=TIMEOUT)
            stdout, stderr, status = done.stdout, done.stderr, done.returncode
        except subprocess.TimeoutExpired as exc:
            stdout, stderr, status = _text(exc.stdout), _text(exc.stderr) + f"\n[timed out after {TIMEOUT} s]", -1
        return program_outcome(lib, stdout, stderr, status, report)


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


def check_program(program):
    """Assert that ``program`` does on minigrad what it does on torch (see the module docstring)."""
    program = Path(program)
    name = program.name
    reference = run_program(program, "torch")
    assert reference.raised is None, (
        f"{name}: the program fails on real torch (status {reference.exit_status}), so it is wrong, not minigrad.\n"
        f"torch's stderr:\n{tail(reference.stderr)}")
    assert reference.stdout.strip(), f"{name}: prints nothing on torch, so there is nothing to compare"
    run = run_program(program, "minigrad")
    try:
        compare_outcomes(reference, run, printed=tolerances(program))
    except AssertionError as failure:
        raise AssertionError(f"{name}: minigrad does not do what torch does.\n{failure}\n"
                             f"minigrad's stderr:\n{tail(run.stderr) or '<empty>'}") from None


def programs():
    """Return the tutorial programs, sorted by file name."""
    return sorted(PROGRAMS.glob("*.py"))
