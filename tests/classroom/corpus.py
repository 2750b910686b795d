"""A class of crafted submissions for chapter 4, ordinary and hostile, built from the current student copy.

Each entry of CLASS is a student: a function that gets the released notebook (a fresh copy) and the book's
solutions by exercise id, and returns the notebook to hand in, or the bytes of a damaged file, or a dict
{file name: notebook or bytes}. expected_gradebook.csv, written by hand from these cases, is what the
grader must produce for them.
"""
import copy
import json

import nbformat

CHAPTER = "04_function_apply"
SQUARE, LEAKY, COUNT = "ch04.square", "ch04.leaky_relu", "ch04.count_nodes"


def answer_cell(nb, exercise):
    return next(c for c in nb.cells if c.metadata.get("minigrad", {}).get("exercise") == exercise
                and "exercise" in c.metadata.get("tags", []))


def answer(nb, exercise, source):
    answer_cell(nb, exercise).source = source
    return nb


def solved(nb, solutions, *exercises):
    for exercise in exercises:
        answer(nb, exercise, solutions[exercise])
    return nb


def correct(nb, s):
    return solved(nb, s, SQUARE, LEAKY, COUNT)


def half(nb, s):
    solved(nb, s, SQUARE)
    return answer(nb, LEAKY, s[LEAKY].replace("0.1", "0.2"))       # the slope is wrong


def untouched(nb, s):
    return nb


def hardcoded(nb, s):
    """Square's backward returns the visible check's expected gradient: the hidden test catches it."""
    solved(nb, s, LEAKY, COUNT)
    return answer(nb, SQUARE, s[SQUARE].replace("return grad_output * 2 * x",
                                                "return torch.tensor([-4.0, 10.0, 600.0])"))


def cheater(nb, s):
    """Prints the success line, edits the check cells into prints, and adds a cell claiming success."""
    answer(nb, SQUARE, s[SQUARE].replace("2 * x", "3 * x") + '\nprint("✓ correct — Square.apply records ...")')
    for cell in nb.cells:
        if "check" in cell.metadata.get("tags", []):
            cell.source = 'print("✓ correct — well done")'
            cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text="✓ correct — well done\n")]
    nb.cells.append(nbformat.v4.new_code_cell('print("✓ correct")'))
    return nb


def tamper(nb, s):
    """Redefines a check, patches the library, and forges the grader's channel."""
    answer(nb, SQUARE, "from widgets.exercises import Feedback\nch04.check_square = lambda fn: Feedback(True, 'ok')\n"
                       "class Square:\n    pass")
    answer(nb, LEAKY, "import minigrad\nminigrad.allclose = lambda *a, **k: True\n"
                      + s[LEAKY].replace("0.1", "0.5"))
    return answer(nb, COUNT, "import os\nfor fd in range(3, 64):\n    try:\n"
                             "        os.write(fd, b'{\"token\": \"guess\", \"event\": \"end\"}\\n')\n"
                             "    except OSError:\n        pass\n" + s[COUNT])


def loops(nb, s):
    solved(nb, s, COUNT)
    answer(nb, SQUARE, s[SQUARE].replace("return grad_output * 2 * x", "while True:\n            pass"))
    return answer(nb, LEAKY, "while True:\n    pass")


def exits(nb, s):
    solved(nb, s, COUNT)
    answer(nb, SQUARE, "import sys\nsys.exit()")
    return answer(nb, LEAKY, "import os\nos._exit(3)")


def memory(nb, s):
    solved(nb, s, COUNT)
    answer(nb, SQUARE, "hoard = bytearray(8 << 30)")
    return answer(nb, LEAKY, s[LEAKY].replace("ctx.save_for_backward(x)",
                                              "ctx.save_for_backward(x)\n        hoard = [bytearray(1 << 26) "
                                              "for _ in range(1000)]"))


def outside(nb, s, evil_path):
    answer(nb, SQUARE, f"open({str(evil_path)!r}, 'w').write('graded?')\n" + s[SQUARE])
    answer(nb, LEAKY, "import socket\nsocket.create_connection(('127.0.0.1', 9), timeout=1)\n" + s[LEAKY])
    return answer(nb, COUNT, "import subprocess\nsubprocess.run(['true'])\n" + s[COUNT])


def snoop(nb, s):
    """Reads the hidden tests, to put them in an error message that the feedback page would show."""
    return answer(nb, SQUARE, "import minigrad_book.hidden.ch04 as hidden\n"
                              "raise ValueError(open(hidden.__file__).read())")


def crash(nb, s):
    solved(nb, s, LEAKY, COUNT)
    return answer(nb, SQUARE, "import os, signal\nos.kill(os.getpid(), signal.SIGSEGV)")


def huge_output(nb, s):
    correct(nb, s)
    answer_cell(nb, SQUARE).source += "\nfor _ in range(50):\n    print('x' * (1 << 20))"
    return nb


def moved(nb, s):
    """Square's cell moved to the end, after a copy of its stub (same id: the later one wins); leaky's answer in
    a new cell without metadata; count_nodes renamed."""
    correct(nb, s)
    cell = answer_cell(nb, SQUARE)
    nb.cells.remove(cell)
    stale = copy.deepcopy(cell)
    stale.id, stale.source = "copy-of-square", "class Square(autograd.Function):\n    pass"
    nb.cells += [stale, cell]
    leaky = answer_cell(nb, LEAKY)
    nb.cells.insert(nb.cells.index(leaky) + 1, nbformat.v4.new_code_cell(leaky.source))
    leaky.source = "# my answer is in the next cell"
    leaky.metadata.pop("minigrad")
    leaky.metadata["tags"] = []
    answer_cell(nb, COUNT).source = s[COUNT].replace("def count_nodes(", "def count_my_nodes(")
    return nb


def missing(nb, s):
    solved(nb, s, LEAKY)
    nb.cells.remove(answer_cell(nb, SQUARE))
    return nb


def truncated(nb, s):
    text = nbformat.writes(correct(nb, s))
    return text.encode()[: len(text) // 2]


def garbage(nb, s):
    return b"\x00\xff this is not a notebook"


def not_a_notebook(nb, s):
    return json.dumps({"cells": "nope", "nbformat": 4}).encode()


def other_chapter(nb, s, other):
    return copy.deepcopy(other)


def stray(nb, s):
    return {"notes.ipynb": nbformat.v4.new_notebook()}


CLASS = {name: fn for name, fn in globals().items() if callable(fn) and fn.__module__ == __name__
         and name not in ("answer_cell", "answer", "solved")}
