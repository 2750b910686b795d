"""Self-checked exercises for the book: one module per chapter (`ch04`, ...), each a set of check functions.

A check never raises: it answers with a `Feedback` that prints "✓ correct" or "✗ not yet" and a specific
hint, whether the learner's code is still the stub, is wrong, or crashes.

Example (a book cell):
    >>> from widgets.exercises import ch04
    >>> ch04.check_relu_backward(MyReLU)
    ✗ not yet — backward returned None; it should return one gradient per input of forward.
"""
import contextlib
import functools
import io
import traceback

from ..i18n import N_, _


class Feedback:
    """The result of a check: `ok` (bool) and a one-line `message`. Prints as the learner should read it."""

    def __init__(self, ok, message):
        self.ok, self.message = ok, message

    def __bool__(self):
        return self.ok

    def __repr__(self):
        return (_("✓ correct — ") if self.ok else _("✗ not yet — ")) + self.message


class Hint(Exception):
    """Raised inside a check to say what is still wrong."""


def expect(condition, hint):
    """Fail the check with `hint` unless `condition` holds."""
    if not condition:
        raise Hint(hint)


STUB_HINT = N_("this is still the stub: replace the `...` with your code, then run the cell again.")


def check(success_message):
    """Turn a function that raises `Hint` on a problem into a check that returns `Feedback`.

    The learner's own exceptions become hints that name the exception and the line of their code, not
    tracebacks; a stub (returning None / Ellipsis, or raising NotImplementedError) gets a "not yet".
    """
    def decorate(fn):
        @functools.wraps(fn)
        def run(*args, **kwargs):
            if any(a is None or a is Ellipsis for a in args):
                return Feedback(False, _(STUB_HINT))
            try:
                with contextlib.redirect_stdout(io.StringIO()):
                    fn(*args, **kwargs)
            except Hint as hint:
                return Feedback(False, str(hint))
            except NotImplementedError:
                return Feedback(False, _(STUB_HINT))
            except Exception as error:  # the learner's code crashed: say where, briefly
                return Feedback(False, _("your code raised {name}: {error}{where}").format(
                    name=type(error).__name__, error=error, where=_where(error)))
            return Feedback(True, _(success_message))
        return run
    return decorate


def _where(error):
    frames = [f for f in traceback.extract_tb(error.__traceback__) if f.filename.startswith("<ipython-input")
              or "/ipykernel_" in f.filename]
    return _(" (in your line: `{line}`)").format(line=frames[-1].line) if frames and frames[-1].line else ""
