"""Run a grading plan in separate, limited processes, and come back with an outcome for every step.

Each process (minigrad_book.runner) starts fresh: its own temp dir as working dir and HOME, a scrubbed
environment, no network where the OS allows a new network namespace (`unshare`), and resource limits: address
space (memory), CPU seconds, file size, no core dumps. The grader watches it from outside: a step that runs
past the exercise's time limit, a process that dies (a crash, `os._exit`, a signal) or that writes something
other than the plan's token to the grader's channel is killed, its step gets "timeout", "crashed", "exited" or
"tampered", and a new process takes over from the next step (replaying the setup and answer cells before it,
which is why nothing else in the notebook is lost). The notebook's own time limit bounds the whole.
"""
import json
import os
import secrets
import selectors
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FATAL = {"timeout", "crashed", "exited", "memory", "tampered"}     # the process, not the answer, failed


@dataclass(frozen=True)
class Limits:
    exercise: float = 30.0          # seconds for one step (an exercise's cells, or its check)
    notebook: float = 300.0         # seconds for the whole notebook, restarts included
    memory_mib: int = 2048          # RLIMIT_AS of a grading process
    startup: float = 60.0           # seconds to import the trusted code before the first step
    file_mib: int = 64              # RLIMIT_FSIZE: the largest file a cell may write in its temp dir


def _network_isolation():
    """The command prefix that puts a process in a new, empty network namespace, if this OS allows it."""
    unshare = shutil.which("unshare")
    for prefix in ([unshare, "-n"], [unshare, "-rn"]) if unshare else ():
        if subprocess.run([*prefix, "true"], capture_output=True).returncode == 0:
            return prefix
    return []


_NETWORK = None


def network_prefix():
    global _NETWORK
    if _NETWORK is None:
        _NETWORK = _network_isolation()
    return _NETWORK


def _limit(limits):
    def apply():
        import resource
        memory = limits.memory_mib << 20
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
        cpu = int(limits.notebook) + 5
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 5))
        size = limits.file_mib << 20
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    return apply


def _environment(home, code_root):
    """The whole environment of a grading process: the book's code first on the path, then this kit's."""
    dot = shutil.which("dot")
    python_path = os.pathsep.join(dict.fromkeys([str(Path(code_root).resolve()), str(ROOT)]))
    path = os.pathsep.join(dict.fromkeys(([os.path.dirname(dot)] if dot else []) + ["/usr/bin", "/bin"]))
    return {"PATH": path, "HOME": home, "TMPDIR": home, "IPYTHONDIR": os.path.join(home, ".ipython"),
            "MPLCONFIGDIR": home, "MPLBACKEND": "Agg", "PYTHONPATH": python_path, "PYTHONHASHSEED": "0",
            "PYTHONDONTWRITEBYTECODE": "1", "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1",
            "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
            "MINIGRAD_BOOK_GRADING": "1"}       # checks that would compare with real torch skip that half


def run_plan(steps, checks, hidden, limits=Limits(), code_root=ROOT, answer_of=None):
    """Run `steps` (dicts with a "kind") until each answer and check step has an outcome; return them by index.

    `checks` and `hidden` list the (module, function) pairs the runner must import and call; `answer_of`
    maps a check step's index to its answer step's, so that a check whose answer failed is not run.
    """
    answer_of = answer_of or {}
    outcomes, dead = {}, set()
    deadline = time.monotonic() + limits.notebook
    while True:
        need = [i for i, s in enumerate(steps) if s["kind"] != "setup" and i not in outcomes and i not in dead
                and answer_of.get(i) not in dead]
        if not need:
            return outcomes
        if time.monotonic() >= deadline:
            outcomes.update({i: {"status": "timeout", "detail": "the notebook's time limit ran out"} for i in need})
            return outcomes
        skip = dead | {i for i in outcomes if steps[i]["kind"] == "check"} | \
            {i for i, a in answer_of.items() if a in dead}
        before = (len(outcomes), len(dead))
        _one_process(steps[: max(need) + 1], sorted(skip), checks, hidden, limits, code_root, deadline,
                     outcomes, dead)
        if (len(outcomes), len(dead)) == before:        # the process could not even start: say so and stop
            outcomes.update({i: {"status": "crashed", "detail": "the grading process did not start"} for i in need})
            return outcomes


def _one_process(steps, skip, checks, hidden, limits, code_root, deadline, outcomes, dead):
    token = secrets.token_hex(16)
    root = Path(code_root).resolve()
    secret = [str(root / "book"), str(root / "widgets" / "exercises"), str(ROOT / "minigrad_book" / "hidden")]
    plan = {"token": token, "steps": steps, "skip": skip, "checks": checks, "hidden": hidden, "secret": secret}
    with tempfile.TemporaryDirectory(prefix="minigrad-grade-") as home:
        read_fd, write_fd = os.pipe()
        with open(os.path.join(home, ".stderr"), "wb") as stderr:
            process = subprocess.Popen(
                [*network_prefix(), sys.executable, "-s", "-m", "minigrad_book.runner", str(write_fd)],
                stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=stderr, pass_fds=(write_fd,), cwd=home,
                env=_environment(home, code_root), preexec_fn=_limit(limits), start_new_session=True)
        os.close(write_fd)
        try:
            process.stdin.write(json.dumps(plan).encode())
            process.stdin.close()
        except BrokenPipeError:
            pass
        current, killed, ended = None, None, False
        try:
            for message in _messages(read_fd, limits, deadline):
                if message is None:                      # the clock ran out
                    killed = "timeout"
                    break
                if message.get("token") != token or not _in_order(message, current):
                    killed = "tampered"
                    break
                if message["event"] == "start":
                    current = message["step"]
                elif message["event"] == "done":
                    outcome = message["outcome"]
                    outcomes.setdefault(current, outcome) if steps[current]["kind"] != "setup" else None
                    if outcome["status"] in FATAL:
                        dead.add(current)
                    current = None
                elif message["event"] == "end":
                    ended = True
        finally:
            _kill(process)
            os.close(read_fd)
        if ended or current is None:
            return
        dead.add(current)
        if steps[current]["kind"] == "setup":
            return
        outcomes[current] = _failure(killed, process.returncode, Path(home, ".stderr"), limits)


def _messages(fd, limits, deadline):
    """Yield the JSON messages on `fd`; yield None when a step or the notebook runs out of time."""
    selector, buffer = selectors.DefaultSelector(), b""
    selector.register(fd, selectors.EVENT_READ)
    step_deadline = min(time.monotonic() + limits.startup, deadline)
    while True:
        while b"\n" in buffer:
            line, buffer = buffer.split(b"\n", 1)
            try:
                message = json.loads(line)
            except ValueError:
                message = {}
            yield message if isinstance(message, dict) else {}
            step_deadline = min(time.monotonic() + limits.exercise, deadline)
        remaining = step_deadline - time.monotonic()
        if remaining <= 0 or not selector.select(remaining):
            yield None
            return
        chunk = os.read(fd, 65536)
        if not chunk:
            return
        buffer += chunk
        if len(buffer) > (1 << 20):
            yield {}                                     # nobody but a forger writes a megabyte here
            return


def _in_order(message, current):
    event, step = message.get("event"), message.get("step")
    if event == "start":
        return current is None and isinstance(step, int)
    if event == "done":
        return step == current and isinstance(message.get("outcome"), dict) and "status" in message["outcome"]
    return event == "end" and current is None


def _kill(process):
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    process.wait()


def _failure(killed, returncode, stderr_path, limits):
    tail = stderr_path.read_bytes()[-600:].decode("utf-8", "replace").strip() if stderr_path.exists() else ""
    if killed == "timeout":
        return {"status": "timeout", "detail": f"still running after {limits.exercise:g} s"}
    if killed == "tampered":
        return {"status": "tampered", "detail": "wrote to the grader's channel"}
    if returncode == -signal.SIGXCPU:
        return {"status": "timeout", "detail": "used up its CPU time"}
    if returncode is not None and returncode >= 0:
        return {"status": "exited", "detail": f"the process exited with code {returncode}"}
    name = signal.Signals(-returncode).name if returncode else "an unknown cause"
    return {"status": "crashed", "detail": f"the process was killed by {name}" + (f": {tail}" if tail else "")}
