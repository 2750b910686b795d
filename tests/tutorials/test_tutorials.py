"""Public PyTorch programs (tutorials, docs, a book chapter, a training script), run unchanged on torch and on
minigrad posing as `torch`; every printed line must be the same.

The programs are in ``programs/``, one file each, with the URL they come from and every change made to them
in their header. The harness (``_harness.py``) runs each in two fresh interpreters and compares their stdout.
"""
import os

import pytest

from _harness import check_program, programs

if os.environ.get("CI") != "true":  # CI installs torch==2.13.0: there, a missing torch is an error, never a skip
    pytest.importorskip("torch")

PROGRAMS = programs()


def test_the_programs_are_there():
    names = {p.stem for p in PROGRAMS}
    assert {"double_backward_tutorial", "extending_autograd", "third_derivative", "hessian_vector_product",
            "wgan_gp_step", "d2l_autograd"} <= names, f"programs found: {sorted(names)}"


@pytest.mark.parametrize("program", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_program_prints_what_torch_prints(program):
    check_program(program)
