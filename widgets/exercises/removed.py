"""Stand-ins, in the student copy, for reference solutions that the release leaves out of the check modules.

A check module marks code that would give an exercise away (a reference implementation, the answers of a
prediction exercise) between `# begin solution` and `# end solution`. `minigrad-book release` replaces each
name defined there with `removed(name)`: using it in any way (calling it, subclassing and calling that,
iterating over it, looking a key up) raises a `Hint`, so the check answers "✗ not yet" with the sentence
below instead of crashing. The teacher's grader has the real code and runs the whole check.

Example (in a released check module):
    >>> WHICH = removed("WHICH")
    >>> list(WHICH)
    Traceback (most recent call last):
    widgets.exercises.Hint: this check compares your answer with the reference solution, ...
"""
from ..i18n import N_, _
from . import Hint

GRADED_ONLY = N_("this check compares your answer with the reference solution, which the student copy leaves "
               "out: it runs in full when your teacher grades the notebook.")


class _Removed(type):
    """The metaclass of a stand-in: every use of the class itself raises the hint."""

    def _refuse(cls, *args, **kwargs):
        raise Hint(_(GRADED_ONLY))

    def __getattr__(cls, name):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)          # let copy, pickle and inspect probe for protocols
        raise Hint(_(GRADED_ONLY))

    __call__ = __iter__ = __len__ = __contains__ = __getitem__ = __eq__ = __ne__ = __bool__ = _refuse
    __hash__ = type.__hash__


def removed(name):
    """Return a stand-in called `name` for a definition the student copy leaves out."""
    return _Removed(name, (), {"__doc__": f"{name}: {GRADED_ONLY}"})
