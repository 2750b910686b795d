"""Run one tutorial program in this fresh interpreter, on real PyTorch or on minigrad posing as `torch`.

Usage: ``python _child.py torch|minigrad PROGRAM.py``. Started by ``_harness.py``, one interpreter per run, so
neither library leaks into the other. With ``minigrad``, ``import minigrad.as_torch`` (what ``python -m
minigrad.run`` does for a user) answers every ``import torch`` and ``import torch.X`` with ``minigrad`` and
``minigrad.X`` (the same module objects), so ``import torch.nn as nn`` and ``from torch.autograd import Function``
work; a ``torch.X`` that minigrad lacks fails with ``No module named 'torch.X'``. An exception of the program is
printed as Python prints it and reported to the parity harness (``report``). After the program, the child checks that real torch never got
loaded and exits with ``LEAK_EXIT`` if it did.
"""
import importlib.machinery
import os
import runpy
import sys
import traceback

LEAK_EXIT = 3  # the exit code that says "real torch was imported during the minigrad run"
REPORT_ENV = "PARITY_REPORT"  # where the harness wants the program's exception (tests/parity_harness.py)
TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def real_torch_dir():
    """Return the folder of the installed PyTorch package, found without importing it (None if absent)."""
    spec = importlib.machinery.PathFinder.find_spec("torch")
    return None if spec is None or spec.origin is None else os.path.dirname(spec.origin)


def real_torch_modules(torch_dir):
    """Return the names of loaded modules whose file lies inside real PyTorch's folder."""
    if torch_dir is None:
        return []
    prefix = torch_dir + os.sep
    return sorted(name for name, module in list(sys.modules.items())
                  if (getattr(module, "__file__", None) or "").startswith(prefix))


def check_no_real_torch(torch_dir):
    """Exit with LEAK_EXIT if `torch` is not minigrad or any module of real PyTorch got loaded."""
    torch_module = sys.modules.get("torch")
    leaked = real_torch_modules(torch_dir)
    if torch_module is not None and torch_module.__name__ != "minigrad":
        leaked.insert(0, f"sys.modules['torch'] is {torch_module.__name__!r} ({getattr(torch_module, '__file__', '')})")
    if leaked:
        sys.stdout.flush()
        print("real torch was imported during the minigrad run: " + ", ".join(leaked), file=sys.stderr)
        sys.exit(LEAK_EXIT)


def print_program_traceback(program):
    """Print the current exception's traceback from the program's first frame on (no harness or runpy frames)."""
    exc_type, exc, tb = sys.exc_info()
    start = tb
    while start is not None and start.tb_frame.f_code.co_filename != program:
        start = start.tb_next
    traceback.print_exception(exc_type, exc, start or tb)


def report(exc):
    """Tell the parity harness what the program raised: the file named by $PARITY_REPORT gets its JSON."""
    path = os.environ.get(REPORT_ENV)
    if path:
        sys.path.insert(0, TESTS)   # the program has finished: the harness may now be imported
        from parity_harness import report_error
        report_error(exc, sys.modules.get("torch"), path)


def main(lib, program):
    torch_dir = real_torch_dir()
    if lib == "minigrad":
        import minigrad.as_torch  # noqa: F401 - from here on, `torch` is minigrad
    sys.argv = [program]
    status = 0
    try:
        runpy.run_path(program, run_name="__main__")
    except Exception as exc:  # noqa: BLE001  shown as Python would, reported to the harness, then the run fails
        print_program_traceback(program)
        report(exc)
        status = 1
    if lib == "minigrad":
        check_no_real_torch(torch_dir)  # also after a failure: a leak is the more important news
    sys.exit(status)


if __name__ == "__main__":
    main(*sys.argv[1:])
