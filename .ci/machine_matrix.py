#!/usr/bin/env python3
"""Re-run chapters under other machines' floating-point settings, with strict nbval (`make matrix`).

A stored output must come out again on any CPU, yet float32 sums depend on the order they are added in: the BLAS
kernel (OpenBLAS picks one per CPU), its thread count, and numpy's SIMD loops (exp, log, pairwise sums) all change
it, and a training loop magnifies the last bits into the printed digits. This runs strict nbval on the chapters
under each setting below that this CPU can run, so a chapter that prints the machine instead of the lesson fails
here and not on a learner's laptop:

    OpenBLAS with 1, 2 and 4 threads, its Haswell, Sandybridge, Prescott and (with AVX-512) SkylakeX kernels,
    and numpy without its AVX-512 loops and with none of its dispatched SIMD loops (NPY_DISABLE_CPU_FEATURES).

    python .ci/machine_matrix.py                  # the chapters that train, both editions
    python .ci/machine_matrix.py book/*.ipynb     # any chapters
    python .ci/machine_matrix.py --list           # the settings this CPU can run

Each setting's pytest output goes to artifacts/matrix/<setting>.log; a table of the closing lines follows, and the
exit status is 1 if any setting failed.
"""
import argparse
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import nbformat
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
BOOK = ROOT / "book"
LOGS = ROOT / "artifacts" / "matrix"
NBVAL = ["-m", "pytest", "--nbval", "--nbval-current-env", "--nbval-kernel-startup-timeout", "300", "--nbval-sanitize-with", "tests/nbval_sanitize.cfg",
         "-p", "no:cacheprovider", "-q", "-n", "0"]
TRAINS = re.compile(r"\boptim\.\w+\(")      # a chapter that trains makes an optimizer


def cpu_features():
    """numpy's view of this CPU: {feature: available}, and the SIMD targets it dispatches to at run time."""
    try:
        from numpy._core import _multiarray_umath as umath      # numpy 2
    except ImportError:                                         # pragma: no cover - numpy 1
        from numpy.core import _multiarray_umath as umath
    return umath.__cpu_features__, [f for f in umath.__cpu_dispatch__ if umath.__cpu_features__.get(f)]


def settings():
    """Return [(name, environment changes)] for every setting this CPU can run (a kernel needs its instructions)."""
    features, dispatched = cpu_features()
    found = [(f"{n} thread{'s' * (n > 1)}", {"OPENBLAS_NUM_THREADS": str(n)}) for n in (1, 2, 4)]
    kernels = {"Haswell": ("AVX2", "FMA3"), "Sandybridge": ("AVX",), "Prescott": ("SSE3",),
               "SkylakeX": ("AVX512F", "AVX512BW", "AVX512VL", "AVX512DQ")}
    for kernel, needs in kernels.items():
        if all(features.get(f) for f in needs):
            found.append((kernel, {"OPENBLAS_NUM_THREADS": "1", "OPENBLAS_CORETYPE": kernel}))
    wide = [f for f in dispatched if "512" in f or f == "X86_V4"]
    if wide:
        found.append(("numpy without AVX-512", {"OPENBLAS_NUM_THREADS": "1", "NPY_DISABLE_CPU_FEATURES": " ".join(wide)}))
    if dispatched:
        found.append(("numpy baseline SIMD", {"OPENBLAS_NUM_THREADS": "1",
                                              "NPY_DISABLE_CPU_FEATURES": " ".join(dispatched)}))
    return found


def training_chapters():
    """The chapters of both editions whose code makes an optimizer: their printed losses are the fragile ones."""
    found = []
    for path in sorted(BOOK.glob("[0-9][0-9]_*.ipynb")) + sorted((BOOK / "zh").glob("[0-9][0-9]_*.ipynb")):
        cells = nbformat.read(path, as_version=4).cells
        if any(c.cell_type == "code" and TRAINS.search(c.source) for c in cells):
            found.append(path)
    return found


def closing_line(output):
    lines = [line for line in output.strip().splitlines() if line.strip()]
    return re.sub(r"\x1b\[[0-9;]*m", "", lines[-1]).strip("= ") if lines else "(no output)"


def run(name, changes, notebooks):
    env = dict(os.environ, **changes)
    start = time.monotonic()
    done = subprocess.run([sys.executable, *NBVAL, *map(str, notebooks)], cwd=ROOT, env=env, capture_output=True,
                          text=True, stdin=subprocess.DEVNULL)
    LOGS.mkdir(parents=True, exist_ok=True)
    log = LOGS / (re.sub(r"\W+", "-", name).strip("-").lower() + ".log")
    log.write_text(f"{' '.join(f'{k}={v}' for k, v in changes.items())}\n{done.stdout}{done.stderr}")
    return done.returncode, closing_line(done.stdout), time.monotonic() - start, log


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("notebooks", nargs="*", type=Path, help="chapters to run (default: the chapters that train)")
    parser.add_argument("--list", action="store_true", help="print the settings this CPU can run, and stop")
    options = parser.parse_args(argv)
    matrix = settings()
    if options.list:
        for name, changes in matrix:
            print(f"{name:24} {' '.join(f'{k}={v}' for k, v in changes.items())}")
        return 0
    notebooks = options.notebooks or training_chapters()
    if not notebooks:
        parser.error("no chapters to run")
    print(f"{len(notebooks)} chapters under {len(matrix)} settings (numpy {np.__version__}): "
          + ", ".join(p.relative_to(ROOT).as_posix() if p.is_absolute() else str(p) for p in notebooks), flush=True)
    failed = 0
    for name, changes in matrix:
        status, last, seconds, log = run(name, changes, notebooks)
        failed += status != 0
        print(f"  {'ok  ' if status == 0 else 'FAIL'} {name:24} {seconds:5.0f} s   {last}"
              + ("" if status == 0 else f"   (see {log.relative_to(ROOT)})"), flush=True)
    print(f"matrix: {len(matrix) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
