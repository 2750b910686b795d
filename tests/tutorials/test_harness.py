"""The tutorial harness itself: minigrad answers every `import torch...`, and a run fails when it should."""
import textwrap

import pytest
from parity_printed import first_differing_line
from torch_reference import import_torch

from _child import LEAK_EXIT
from _harness import FLOAT_ATOL, FLOAT_RTOL, check_program, run_program, tolerances

import_torch()   # real PyTorch runs every program first; skips only without it, never in CI

DEFAULTS = (FLOAT_RTOL, FLOAT_ATOL)   # what a program that declares no tolerances gets


def write(tmp_path, source, name="program.py"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(source))
    return path


def test_minigrad_answers_torch_and_its_submodules(tmp_path):
    program = write(tmp_path, """
        import sys
        import torch
        import torch.nn as nn
        import torch.nn.functional as F
        import torch.optim
        from torch.autograd import Function
        from torch import autograd
        print(torch.__name__, nn.__name__, F.__name__, torch.optim.__name__, autograd.__name__)
        print(Function.__module__.split(".")[0], torch.nn is sys.modules["torch.nn"], torch.nn is sys.modules["minigrad.nn"])
        print(torch.autograd.__spec__.name)
    """)
    run = run_program(program, "minigrad")
    assert run.exit_status == 0 and run.raised is None, run.stderr
    assert run.stdout.splitlines() == [
        "minigrad minigrad.nn minigrad.nn.functional minigrad.optim minigrad.autograd",
        "minigrad True True",
        "minigrad.autograd",
    ]


def test_a_torch_module_minigrad_lacks_is_an_import_error_naming_it(tmp_path):
    program = write(tmp_path, "import torch.no_such_module\n")
    run = run_program(program, "minigrad")
    assert run.exit_status == 1
    assert "ModuleNotFoundError: No module named 'torch.no_such_module'" in run.stderr
    assert run.raised.type == "ModuleNotFoundError", run.raised
    # Python's own words first, then why: minigrad stands in for torch and has no such module
    assert run.raised.message == ("No module named 'torch.no_such_module' (`torch` is minigrad here, and minigrad "
                                  "has no 'minigrad.no_such_module')"), run.raised


def test_loading_real_torch_in_the_minigrad_run_is_caught(tmp_path):
    program = write(tmp_path, """
        import sys
        import torch
        sys.meta_path.pop(0)  # take away the harness's finder, then load the real thing
        for name in [n for n in sys.modules if n == "torch" or n.startswith("torch.")]:
            del sys.modules[name]
        import torch
        print("loaded")
    """)
    run = run_program(program, "minigrad")
    assert run.exit_status == LEAK_EXIT, run.stderr
    assert "real torch was imported during the minigrad run" in run.stderr
    assert run.raised.type == f"exit status {LEAK_EXIT}", run.raised


def test_an_exception_in_the_minigrad_run_fails_even_with_equal_output(tmp_path):
    program = write(tmp_path, """
        import torch
        print("same on both")
        if torch.__name__ == "minigrad":
            raise RuntimeError("only minigrad fails")
    """)
    with pytest.raises(AssertionError, match=r"(?s)torch ran to the end\nminigrad raised RuntimeError: "
                                             r"'only minigrad fails'.*stderr.*only minigrad fails"):
        check_program(program)


def test_a_differing_line_is_named_with_both_versions(tmp_path):
    program = write(tmp_path, """
        import torch
        print("line one")
        print(torch.__name__)
    """)
    with pytest.raises(AssertionError) as info:
        check_program(program)
    message = str(info.value)
    assert "first differing stdout line: 2" in message
    assert "torch:    'torch'" in message and "minigrad: 'minigrad'" in message


def test_a_program_that_fails_on_torch_is_reported_as_wrong(tmp_path):
    program = write(tmp_path, "import torch\nraise ValueError('bad program')\n")
    with pytest.raises(AssertionError, match="fails on real torch"):
        check_program(program)


@pytest.mark.parametrize("expected, received, difference", [
    ("a\nb\n", "a\nb\n", None),
    ("a\nb\n", "a\nc\n", (1, "b", "c")),
    ("a\nb\n", "a\n", (1, "b", None)),
    ("a\n", "a\nextra\n", (1, None, "extra")),
])
def test_first_difference(expected, received, difference):
    assert first_differing_line(expected, received, DEFAULTS) == difference
    assert first_differing_line(expected, received) == difference


def test_printed_floats_agree_to_a_relative_tolerance_and_nothing_else_may_differ():
    assert first_differing_line("99 3238.300537109375\n", "99 3238.30029296875\n", DEFAULTS) is None
    assert first_differing_line("loss 1.5e-3\n", "loss 1.50001e-3\n", DEFAULTS) is None
    assert first_differing_line("loss 1.5e-3\n", "loss 1.50001e-3\n") == (0, "loss 1.5e-3", "loss 1.50001e-3")
    for torch_line, minigrad_line in [("99 3238.3", "98 3238.3"),            # an integer differs
                                      ("99 3238.3", "99 3238.4"),            # a float beyond 1e-5
                                      ("exact: False", "exact: True"),       # a word
                                      ("tensor([1., 2.])", "tensor([1., 2., 3.])")]:
        assert first_differing_line(torch_line, minigrad_line, DEFAULTS) == (0, torch_line, minigrad_line)


def test_a_program_declares_looser_tolerances_only_with_a_reason(tmp_path):
    declared = write(tmp_path, "# harness: rtol=2e-2 atol=1e-3 (why)\nprint(1)\n")
    undeclared = write(tmp_path, "# harness: rtol=2e-2\nprint(1)\n", "no_reason.py")
    assert tolerances(declared) == (2e-2, 1e-3)
    assert tolerances(undeclared) == (FLOAT_RTOL, FLOAT_ATOL)
    assert first_differing_line("loss 10.1", "loss 10.2", (2e-2, FLOAT_ATOL)) is None
    assert first_differing_line("loss 10.1", "loss 10.2", DEFAULTS) == (0, "loss 10.1", "loss 10.2")
