"""`python -m minigrad.run script.py` and `import minigrad.as_torch`: every `torch` import resolves to minigrad.

Each case runs a fresh interpreter (the alias changes how the whole process imports `torch`), with this checkout's
minigrad first on the path.
"""
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from parity_printed import compare_printed

REPO = Path(__file__).resolve().parents[1]
TUTORIAL = REPO / "tests" / "tutorials" / "programs" / "examples_nn_custom_module.py"


def python(*args, cwd=None):
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", PYTHONIOENCODING="utf-8",
               PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])))
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, env=env, cwd=cwd or REPO,
                          timeout=120)


def script(tmp_path, source, name="program.py"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(source))
    return path


EVERY_KIND_OF_IMPORT = """
    import sys
    import minigrad
    import torch
    import torch.nn as nn
    import torch.nn.functional as F
    from torch import optim
    from torch.utils.data import DataLoader, TensorDataset
    from torch.autograd import Function

    same = [torch is minigrad, nn is minigrad.nn, F is minigrad.nn.functional, optim is minigrad.optim,
            DataLoader is minigrad.utils.data.DataLoader, Function is minigrad.autograd.Function]
    print("same objects:", same)
    print("specs:", torch.__spec__.name, nn.__spec__.name)
    print("main:", __name__, sys.argv)
    torch.manual_seed(0)
    net = nn.Linear(3, 1)
    step = optim.SGD(net.parameters(), lr=0.1)
    for x, y in DataLoader(TensorDataset(torch.randn(8, 3), torch.randn(8, 1)), batch_size=4):
        step.zero_grad()
        loss = F.mse_loss(net(x), y)
        loss.backward()
        step.step()
    print("loss:", round(loss.item(), 4))
    print("real torch loaded:", sorted(m for m, v in sys.modules.items()
                                       if m.split(".")[0] == "torch" and not v.__name__.startswith("minigrad")))
"""


def test_run_resolves_every_torch_import_to_minigrad(tmp_path):
    done = python("-m", "minigrad.run", str(script(tmp_path, EVERY_KIND_OF_IMPORT)), "--epochs", "2")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "same objects: [True, True, True, True, True, True]", done.stdout
    # the modules keep their own spec: `torch` is another name for them, not another module
    assert lines[1] == "specs: minigrad minigrad.nn", done.stdout
    assert lines[2] == f"main: __main__ [{str(tmp_path / 'program.py')!r}, '--epochs', '2']", done.stdout
    assert lines[-1] == "real torch loaded: []", done.stdout


def test_run_prints_what_torch_prints(tmp_path, torch):
    program = script(tmp_path, EVERY_KIND_OF_IMPORT)
    on_minigrad = python("-m", "minigrad.run", str(program))
    on_torch = python(str(program))
    assert on_torch.returncode == 0 and on_minigrad.returncode == 0, on_torch.stderr + on_minigrad.stderr
    loss = [line for line in on_minigrad.stdout.splitlines() if line.startswith("loss:")]
    assert loss and loss == [line for line in on_torch.stdout.splitlines() if line.startswith("loss:")], \
        f"minigrad printed {on_minigrad.stdout!r}, torch printed {on_torch.stdout!r}"


def test_run_a_pytorch_tutorial_unchanged(torch):
    """One of the tutorial programs (tests/tutorials), run by the user's command, prints what torch prints."""
    on_minigrad = python("-m", "minigrad.run", str(TUTORIAL))
    on_torch = python(str(TUTORIAL))
    assert on_torch.returncode == 0 and on_minigrad.returncode == 0, on_torch.stderr + on_minigrad.stderr
    # floats to the tutorial runner's tolerance: ATen's float32 kernels sum in another order than numpy
    compare_printed(on_torch.stdout, on_minigrad.stdout, tolerance=(1e-5, 0.0))


def test_run_a_module_with_m(tmp_path):
    package = tmp_path / "lesson"
    package.mkdir()
    (package / "__init__.py").write_text("")
    script(package, "import sys, torch\nprint(torch.__name__, __name__, sys.argv[1:])\n", name="train.py")
    done = python("-m", "minigrad.run", "-m", "lesson.train", "x", cwd=tmp_path)
    assert (done.returncode, done.stdout) == (0, "minigrad __main__ ['x']\n"), done.stderr


def test_a_torch_module_minigrad_lacks_fails_at_its_import_naming_it(tmp_path):
    program = script(tmp_path, "import torch\nprint('before')\nimport torch.distributed\n")
    done = python("-m", "minigrad.run", str(program))
    assert done.returncode == 1 and done.stdout == "before\n", (done.stdout, done.stderr)
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("ModuleNotFoundError: No module named 'torch.distributed'"), done.stderr
    # the traceback starts at the program, as `python program.py` would show it: no runner or runpy frames
    assert "runpy" not in done.stderr and "minigrad/run.py" not in done.stderr, done.stderr
    assert f'File "{program}", line 3' in done.stderr, done.stderr


def test_the_program_exit_status_passes_through(tmp_path):
    assert python("-m", "minigrad.run", str(script(tmp_path, "raise SystemExit(4)\n"))).returncode == 4
    failing = python("-m", "minigrad.run", str(script(tmp_path, "import torch\ntorch.ones(2) @ torch.ones(3)\n")))
    assert failing.returncode == 1 and failing.stderr.strip().splitlines()[-1].startswith("RuntimeError:"), \
        failing.stderr


def test_run_without_a_program_says_how_to_use_it(tmp_path):
    done = python("-m", "minigrad.run")
    assert done.returncode == 2 and "usage: python -m minigrad.run" in done.stderr, done.stderr
    missing = python("-m", "minigrad.run", str(tmp_path / "nowhere.py"))
    assert missing.returncode == 2 and f"can't open file '{tmp_path / 'nowhere.py'}'" in missing.stderr, \
        missing.stderr


def test_as_torch_in_a_notebook_style_session():
    done = python("-c", "import minigrad.as_torch\nimport torch.nn as nn\nprint(nn.Linear(2, 1))")
    assert (done.returncode, done.stdout) == (0, "Linear(in_features=2, out_features=1, bias=True)\n"), done.stderr


@pytest.mark.parametrize("first", [
    "import sys, types; sys.modules['torch'] = types.ModuleType('torch')",   # any torch that is not minigrad
    "import sys, types; sys.modules['torch.nn'] = types.ModuleType('torch.nn')",
])
def test_as_torch_refuses_when_another_torch_is_imported(first):
    done = python("-c", f"{first}\nimport minigrad.as_torch")
    assert done.returncode == 1, done.stdout
    assert "ImportError: real PyTorch is already imported in this process" in done.stderr, done.stderr


def test_as_torch_refuses_after_real_torch(torch):
    done = python("-c", "import torch\nimport minigrad.as_torch")
    assert "ImportError: real PyTorch is already imported in this process (torch" in done.stderr, done.stderr


MIXED = """
import minigrad as torch
import torch.nn as nn          # still real PyTorch: the mix the runner exists for
model = nn.Linear(2, 1)
torch.optim.SGD(model.parameters(), lr=0.1)
"""


def test_mixing_real_torch_in_is_named_and_the_runner_fixes_it(tmp_path, torch):
    program = script(tmp_path, MIXED)
    mixed = python(str(program))
    last = mixed.stderr.strip().splitlines()[-1]
    assert last.startswith("TypeError: optimizer can only optimize Tensors, but one of the params is "
                           "torch.nn.parameter.Parameter. It is real PyTorch's"), mixed.stderr
    assert "python -m minigrad.run" in last, last
    fixed = python("-m", "minigrad.run", str(program))
    assert fixed.returncode == 0, fixed.stderr
