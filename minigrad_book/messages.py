"""What each gradebook status means, in the words the feedback pages show (one place, ready for a catalogue)."""

STATUS = {
    "correct": "every check passed.",
    "incorrect": "the check answered \"not yet\": read its hint.",
    "failed hidden tests": "the check in the notebook passed, but the teacher's further test cases did not.",
    "not found": "no answer was found: no cell carries this exercise's id, and no cell defines the names "
                 "its check needs (was the function renamed or the cell deleted?).",
    "error": "the answer cell raised an error before the check could run.",
    "timeout": "the code ran past the time limit: look for a loop that never ends.",
    "memory": "the code used more memory than the grader allows.",
    "crashed": "the grading process crashed while running this code.",
    "exited": "the code called sys.exit() or os._exit(), which ends the notebook.",
    "forbidden": "the code tried something the grader does not allow: writing outside its own folder, the "
                 "network, starting a process.",
    "tampered": "the code changed the checks or the library they rely on, so its result cannot count.",
    "unreadable": "the file is not a readable notebook (truncated, damaged or not JSON).",
    "wrong chapter": "this file holds another chapter's notebook.",
    "not submitted": "no notebook was handed in for this chapter.",
    "unknown file": "this file is not one of the book's chapters (keep the chapter's file name).",
}
