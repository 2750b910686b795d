"""Run a PyTorch program on minigrad, unchanged: `python -m minigrad.run script.py [args ...]`.

Every `torch` import in the program (`import torch`, `import torch.nn as nn`, `from torch.utils.data import
...`) resolves to minigrad (see `minigrad.as_torch`); the script runs as `__main__` with its own arguments in
`sys.argv`, as `python script.py` would run it. `-m module` runs a module instead of a file.

Example:
    $ python -m minigrad.run examples/train.py --epochs 2
"""
import argparse
import os
import runpy
import sys
import traceback

import minigrad.as_torch  # noqa: F401 - from here on, `torch` is minigrad


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m minigrad.run", usage="python -m minigrad.run [-h] (script.py | -m module) [args ...]",
        description="Run a PyTorch program with every `torch` import resolved to minigrad.")
    parser.add_argument("-m", dest="module", metavar="module", help="run a module, as `python -m module` would")
    parser.add_argument("program", nargs=argparse.REMAINDER, metavar="script.py [args ...]",
                        help="the Python file to run, as `python script.py` would, and its own arguments")
    options = parser.parse_args(argv)
    if options.module is None and not options.program:
        parser.error("name a script to run (or -m module)")
    if options.module is None and not os.path.isfile(options.program[0]):
        parser.error(f"can't open file {os.path.abspath(options.program[0])!r}: no such file")

    try:
        if options.module is not None:
            sys.argv = [options.module, *options.program]
            runpy.run_module(options.module, run_name="__main__", alter_sys=True)
        else:
            sys.argv = list(options.program)
            sys.path.insert(0, os.path.dirname(os.path.abspath(sys.argv[0])))   # as `python script.py` does
            runpy.run_path(sys.argv[0], run_name="__main__")
    except Exception:  # noqa: BLE001 - shown as `python script.py` shows it, then exit 1 as it does
        print_program_traceback()
        sys.exit(1)


def print_program_traceback():
    """Print the current exception's traceback without this runner's and runpy's frames."""
    exc_type, exc, tb = sys.exc_info()
    while tb is not None and (tb.tb_frame.f_code.co_filename == __file__
                              or tb.tb_frame.f_code.co_filename.startswith("<frozen runpy")):
        tb = tb.tb_next
    traceback.print_exception(exc_type, exc, tb)


if __name__ == "__main__":
    main()
