"""Warnings PyTorch gives once per process (TORCH_WARN_ONCE), compared in fresh interpreters: the parity
harness leaves them out, because within one test process whether they show depends on what ran before."""
import json
import subprocess
import sys

import pytest

from torch_reference import TORCH_MISSING, import_torch

SCRIPT = """
import json, warnings
import {lib} as torch
counts = []
for _ in range(3):
    x = torch.tensor(2.0, requires_grad=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        (x * x).backward(create_graph=True)
    counts.append([str(w.message)[:60] for w in caught])
print(json.dumps(counts))
"""


CROSS_SCRIPT = """
import json, warnings
import {lib} as torch
counts = []
for _ in range(3):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        torch.cross(torch.eye(3), torch.ones(3, 3))
    counts.append([str(w.message).split(" (Triggered")[0] for w in caught])
print(json.dumps(counts))
"""


def warnings_in_a_fresh_process(lib, script=SCRIPT):
    run = subprocess.run([sys.executable, "-c", script.format(lib=lib)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    return json.loads(run.stdout.strip().splitlines()[-1])


def test_backward_create_graph_warns_once_per_process_as_torch():
    if import_torch() is None:
        pytest.skip(TORCH_MISSING)
    torch_counts = warnings_in_a_fresh_process("torch")
    assert [len(c) for c in torch_counts] == [1, 0, 0], torch_counts
    assert warnings_in_a_fresh_process("minigrad") == torch_counts


def test_cross_without_dim_warns_once_per_process_as_torch():
    if import_torch() is None:
        pytest.skip(TORCH_MISSING)
    torch_counts = warnings_in_a_fresh_process("torch", CROSS_SCRIPT)
    assert [len(c) for c in torch_counts] == [1, 0, 0], torch_counts
    assert warnings_in_a_fresh_process("minigrad", CROSS_SCRIPT) == torch_counts
