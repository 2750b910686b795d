"""Hidden test cases: one module per chapter (`ch04`), one function per check, named like the check.

The grader runs a hidden test after the visible check passed, with the same arguments; the exercise counts
only if both pass. The student copy (`minigrad-book release`) never contains this folder. A hidden test is a
check like the visible ones (`widgets.exercises.check`): it never raises, and its hint tells the learner what
case failed without giving the answer away.
"""
