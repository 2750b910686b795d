"""One grading process: run a chapter's plan and report each step's outcome to the grader.

    python -m minigrad_book.runner FD < plan.json

The plan (built by `minigrad_book.sandbox`) lists the steps in the chapter's order: the teacher's own code
cells ("setup"), the learner's answer cells for each exercise ("answer"), and each check call ("check"). The
process first imports the trusted code and keeps its own references to the check functions and hidden tests;
then it hands the learner's cells a fresh copy of each check module (what the student copy has), arms the
guards (minigrad_book.guard) and runs the steps in an IPython shell. A check step evaluates only the call's
arguments in the learner's namespace (`Square`), calls the trusted check and hidden test with them, and
reads the verdict from the `Feedback` object itself: nothing a cell prints is ever read.

Each outcome goes to the grader as one JSON line on the file descriptor FD, with the plan's token.
"""
import importlib
import importlib.util
import io
import json
import os
import shutil
import signal
import sys
import types

OUTPUT_LIMIT = 1 << 20


class CappedSink(io.TextIOBase):
    """Where the cells' output goes: the first OUTPUT_LIMIT characters are kept, the rest is dropped."""

    def __init__(self):
        self.kept, self.size = [], 0

    def writable(self):
        return True

    def write(self, text):
        if self.size < OUTPUT_LIMIT:
            self.kept.append(text[: OUTPUT_LIMIT - self.size])
        self.size += len(text)
        return len(text)


def _student_view(name):
    """A fresh copy of the check module `name`, as the student copy has it (solution regions replaced)."""
    from .release import strip_module
    spec = importlib.util.find_spec(name)
    with open(spec.origin, encoding="utf-8") as source:
        code = compile(strip_module(source.read(), spec.origin), spec.origin, "exec")
    module = types.ModuleType(name)
    module.__file__, module.__package__, module.__spec__ = spec.origin, name.rpartition(".")[0], spec
    exec(code, module.__dict__)
    return module


class Runner:
    def __init__(self, plan, events):
        self.plan, self.events = plan, events
        from IPython.core.interactiveshell import InteractiveShell
        from traitlets.config import Config
        from widgets.exercises import Feedback
        from .guard import Fence, Snapshot
        self.Feedback = Feedback
        self.checks = {}
        for module, function in plan["checks"]:
            self.checks[module, function] = getattr(importlib.import_module(module), function)
        self.hidden = {}
        for module, function, hidden_module in plan["hidden"]:
            self.hidden[module, function] = getattr(importlib.import_module(hidden_module), function)
        for name in {module for module, _ in plan["checks"]}:
            view = _student_view(name)
            sys.modules[name] = view
            setattr(sys.modules[view.__package__], name.rpartition(".")[2], view)
        config = Config()
        config.HistoryManager.enabled = False
        self.shell = InteractiveShell.instance(config=config)
        self.sink = CappedSink()
        sys.stdout = sys.stderr = self.sink
        self.snapshot = Snapshot()
        dot = shutil.which("dot")
        self.fence = Fence(os.getcwd(), allow_exec=[dot] if dot else [], secret=plan["secret"])
        self.fence.install()

    def send(self, **message):
        self.events.write(json.dumps({"token": self.plan["token"], **message}) + "\n")
        self.events.flush()

    def run(self):
        skip = set(self.plan["skip"])
        for index, step in enumerate(self.plan["steps"]):
            if index in skip:
                continue
            self.send(step=index, event="start")
            seen = len(self.fence.violations)
            self.fence.trusted = step["kind"] == "setup"
            outcome = getattr(self, "_" + step["kind"])(step)
            self.fence.trusted = False
            if len(self.fence.violations) > seen:
                outcome = {"status": "forbidden", "detail": "; ".join(self.fence.violations[seen:])}
            tampered = self.snapshot.changes()
            if tampered:
                outcome = {"status": "tampered", "detail": "changed " + ", ".join(tampered[:5])}
            self.send(step=index, event="done", outcome=outcome)
            if tampered:
                return                                  # this process can no longer be trusted
        self.send(event="end")

    def _cell(self, source):
        """Run one cell; return None, or (status, detail) if it raised."""
        result = self.shell.run_cell(source, store_history=False, silent=True)
        error = result.error_before_exec or result.error_in_exec
        if error is None:
            return None
        return _kind(error), f"{type(error).__name__}: {error}"[:500]

    def _setup(self, step):
        failed = self._cell(step["source"])
        return {"status": "ok"} if failed is None else {"status": failed[0], "detail": failed[1]}

    def _answer(self, step):
        for source in step["sources"]:
            failed = self._cell(source)
            if failed is not None:
                return {"status": failed[0], "detail": failed[1]}
        return {"status": "ok"}

    def _check(self, step):
        try:
            args = [eval(compile(a, "<check>", "eval"), self.shell.user_ns) for a in step["args"]]
        except NameError as error:
            return {"status": "undefined", "detail": str(error)}
        except BaseException as error:                   # noqa: B036 -- the learner's code may raise anything
            return {"status": _kind(error), "detail": f"{type(error).__name__}: {error}"[:500]}
        key = (step["module"], step["function"])
        visible = self._verdict(self.checks[key], args)
        if visible["status"] != "ok" or key not in self.hidden:
            return visible
        hidden = self._verdict(self.hidden[key], args)
        if hidden["status"] == "ok":
            return visible
        if hidden["status"] == "not ok":
            return {"status": "hidden failed", "message": visible["message"], "hidden": hidden["message"]}
        return hidden                                   # the learner's code crashed inside a hidden test

    def _verdict(self, check, args):
        try:
            feedback = check(*args)
        except BaseException as error:                   # noqa: B036 -- sys.exit() in the learner's code
            return {"status": _kind(error), "detail": f"{type(error).__name__}: {error}"[:500]}
        if type(feedback) is not self.Feedback:
            return {"status": "error", "detail": f"the check returned {type(feedback).__name__}, not Feedback"}
        message = feedback.message if type(feedback.message) is str else ""
        if feedback.ok is True:
            return {"status": "ok", "message": message}
        if "raised MemoryError" in message:
            return {"status": "memory", "message": message}
        return {"status": "not ok", "message": message}


def _kind(error):
    return "memory" if isinstance(error, MemoryError) else "exited" if isinstance(error, SystemExit) else "error"


def main():
    events = os.fdopen(int(sys.argv[1]), "w", buffering=1)
    plan = json.loads(sys.stdin.read())
    sys.stdin.close()
    sys.dont_write_bytecode = True
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)       # a huge output file fails to grow instead of killing
    Runner(plan, events).run()
    events.close()
    os._exit(0)                                          # no atexit handlers a cell may have registered


if __name__ == "__main__":
    main()
