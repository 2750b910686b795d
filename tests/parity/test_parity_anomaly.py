"""Anomaly mode (`torch.autograd.detect_anomaly`, `set_detect_anomaly`) on both libraries: the same switches, the
same NaN error naming the node and the gradient, and the same warning with the forward call's traceback."""
import re
import warnings

import pytest

HERE = __file__


def reported(run):
    """Run `run()` and return what it raised and warned, the tracebacks cut to this file's frames: above the
    example they are the test harness's, which calls the two libraries from different lines; and torch's
    traceback for a custom Function also shows its `Function.apply` in torch/autograd/function.py."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            run()
            error = None
        except Exception as e:
            error = (type(e).__name__, str(e))
    texts = []
    for w in caught:
        head, _, stack = str(w.message).partition("\n")
        head = re.sub(r" \(Triggered internally at .*\)$", "", head)     # torch's C++ source line
        frames = stack.split("  File ")
        texts.append((head, [f for f in frames if f.startswith(f'"{HERE}"')]))
    return error, texts


def nan_from_a_division(lib):
    """0/0 in DivBackward0's second gradient: the error names it, the warning shows `y = x / x`."""
    def run():
        x = lib.tensor([0.0, 1.0], requires_grad=True)
        with lib.autograd.detect_anomaly():
            y = x / x
            y.sum().backward()
    return reported(run)


def nan_from_a_forward_outside_anomaly_mode(lib):
    """The forward ran before anomaly mode was on: its node has no traceback, and the warning says so."""
    x = lib.tensor([0.0, 1.0], requires_grad=True)
    z = (x.sqrt() * 0).sum()

    def run():
        with lib.autograd.detect_anomaly():
            z.backward()
    return reported(run)


def nan_check_off(lib):
    x = lib.tensor([0.0, 1.0], requires_grad=True)
    with lib.autograd.detect_anomaly(check_nan=False):
        flags = lib.is_anomaly_enabled(), lib.is_anomaly_check_nan_enabled()
        (x / x).sum().backward()
    return flags, lib.is_anomaly_enabled(), x.grad.isnan().tolist()


def nan_in_a_custom_backward(lib):
    class Sqrt(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x.sqrt()

        @staticmethod
        def backward(ctx, grad):
            (x,) = ctx.saved_tensors
            return grad / (2 * x.sqrt()) * 0 / 0
    def run():
        x = lib.tensor([4.0], requires_grad=True)
        with lib.autograd.set_detect_anomaly(True):
            Sqrt.apply(x).backward()
    return reported(run)


def error_in_a_custom_backward(lib):
    """Any error in a node's backward comes after the warning with that node's forward traceback."""
    class Broken(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, grad):
            raise ValueError("a broken backward")
    def run():
        x = lib.tensor([1.0], requires_grad=True)
        lib.autograd.set_detect_anomaly(True)
        try:
            out = (Broken.apply(x) * 3).sum()
            out.backward()
        finally:
            lib.autograd.set_detect_anomaly(False)
    return reported(run)


def no_anomaly_no_check(lib):
    """Outside anomaly mode a NaN gradient is just a value, and nodes keep no traceback."""
    x = lib.tensor([0.0, 1.0], requires_grad=True)
    y = x / x
    y.sum().backward()
    return x.grad.isnan().tolist(), "traceback_" in y.grad_fn.metadata, lib.is_anomaly_enabled()


def set_detect_anomaly_as_a_call_and_a_context(lib):
    seen = []
    lib.autograd.set_detect_anomaly(True)
    seen.append(lib.is_anomaly_enabled())
    with lib.autograd.set_detect_anomaly(False):
        seen.append(lib.is_anomaly_enabled())
    seen.append(lib.is_anomaly_enabled())
    lib.autograd.set_detect_anomaly(False)
    lib.set_anomaly_enabled(True, check_nan=False)
    seen += [lib.is_anomaly_enabled(), lib.is_anomaly_check_nan_enabled()]
    lib.set_anomaly_enabled(False)
    return seen + [lib.is_anomaly_enabled(), lib.is_anomaly_check_nan_enabled()]


def traceback_kept_on_the_node(lib):
    """The node keeps the forward traceback in its metadata, as a list of formatted frames; the last is the line
    of the op."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with lib.autograd.detect_anomaly():
            x = lib.tensor([1.0], requires_grad=True)
            y = x.exp()
    frames = y.grad_fn.metadata["traceback_"]
    return type(frames).__name__, frames[-1].splitlines()[-1].strip()


CASES = [nan_from_a_division, nan_from_a_forward_outside_anomaly_mode, nan_check_off, nan_in_a_custom_backward, error_in_a_custom_backward,
         no_anomaly_no_check, set_detect_anomaly_as_a_call_and_a_context, traceback_kept_on_the_node]


@pytest.mark.parametrize("example", CASES, ids=[c.__name__ for c in CASES])
def test_anomaly_mode(parity, example):
    parity(example)
