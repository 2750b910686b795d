"""The classroom kit of the minigrad book: `minigrad-book release`, `minigrad-book grade`, `minigrad-book tag`.

    minigrad-book release OUT/                     # student copies: no solutions, checks and hints kept
    minigrad-book grade SUBMISSIONS/ --out REPORT/ # REPORT/gradebook.csv and REPORT/feedback/<student>.html

The teacher's copy is this repository: book/ (chapters with solutions), widgets/exercises/ (the visible checks)
and minigrad_book/hidden/ (hidden test cases, never released). See docs/teachers_guide.md.
"""
