"""The parity harness's texts: how printed output and messages of torch and of another library are compared.

Part of tests/parity_harness.py (which compares stdout with ``compare_printed``); tests/book uses it alone to
compare what a chapter prints on torch with what minigrad stored.
"""
import math
import re

# torch appends the C++ source location to messages raised or warned from C++, e.g.
# " (Triggered internally at /__w/pytorch/pytorch/build/aten/src/ATen/core/TensorBody.h:493.)".
# It is cut off from torch's text before comparing: minigrad has no C++ source to point at.
_CPP_LOCATION = re.compile(r" \(Triggered internally at [^)]*\)\s*$")
# Memory addresses in reprs (`<MulBackward0 object at 0x7f...>`) differ from run to run.
_ADDRESS = re.compile(r"\b0x[0-9a-fA-F]+\b")
_FLOAT = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+)(?:[eE][-+]?\d+)?|[-+]?\d+[eE][-+]?\d+")
SHOWN_IN_FULL = 20  # printed texts up to this many lines are shown whole in a failure message


def clean_text(text):
    """Return ``text`` without torch's C++ source location and with memory addresses blanked."""
    return _ADDRESS.sub("0xADDRESS", _CPP_LOCATION.sub("", text))


def first_difference(a, b):
    """Point at the first character where two long texts differ ('' for short or equal texts)."""
    a, b = str(a), str(b)
    if a == b or max(len(a), len(b)) < 60:
        return ""
    i = next((k for k, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    around = slice(max(0, i - 20), i + 20)
    return f"\n(first difference at character {i}: torch ...{a[around]!r}, other ...{b[around]!r})"


def same_line(a, b, tolerance=None):
    """True if two printed lines agree: the same text, or, with ``tolerance`` (rtol, atol), the same text around
    their floats and each float within the tolerance of the other's."""
    if a == b:
        return True
    if a is None or b is None or tolerance is None:
        return False
    fa, fb = _FLOAT.findall(a), _FLOAT.findall(b)
    if len(fa) != len(fb) or _FLOAT.sub("#", a) != _FLOAT.sub("#", b):
        return False
    rtol, atol = tolerance
    return all(math.isclose(float(x), float(y), rel_tol=rtol, abs_tol=atol) for x, y in zip(fa, fb))


def first_differing_line(expected, received, tolerance=None):
    """Return (index, expected_line, received_line) of the first line that differs (see `same_line`), or None.

    A missing line is returned as None, so a run that stopped early shows where it stopped.
    """
    want, got = expected.splitlines(), received.splitlines()
    for i in range(max(len(want), len(got))):
        a = want[i] if i < len(want) else None
        b = got[i] if i < len(got) else None
        if not same_line(a, b, tolerance):
            return i, a, b
    return None


def compare_printed(expected, received, label="minigrad", tolerance=None, reference="torch"):
    """Assert that ``received`` (what ``label`` printed) agrees with ``expected`` (what ``reference`` printed):
    the identical text, or with ``tolerance`` (rtol, atol) the same lines up to their floats (see `same_line`).

    The failure message names the first line that differs, with both versions and the equal lines before it.
    """
    if expected == received:
        return
    diff = first_differing_line(expected, received, tolerance)
    if diff is None and tolerance is not None:
        return
    width = max(len(reference), len(label)) + 1
    parts = ["printed text differs"]
    if diff is None:
        parts.append("(in line endings or a final newline only)")
    else:
        i, want, got = diff
        parts.append(f"first differing stdout line: {i + 1}")
        for name, line in ((reference, want), (label, got)):
            parts.append(f"  {name + ':':<{width}} {'<no line: output ended>' if line is None else repr(line)}")
        context = expected.splitlines()[max(0, i - 3):i]
        if context:
            parts.append("the lines before it (equal in both):\n" + "\n".join("    " + line for line in context))
    if max(expected.count("\n"), received.count("\n")) <= SHOWN_IN_FULL:
        parts.append(f"{reference} printed:\n{expected}\n{label} printed:\n{received}")
    raise AssertionError("\n".join(parts))
