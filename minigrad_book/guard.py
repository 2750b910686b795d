"""Inside a grading process: refuse what a submission has no business doing, and notice tampering.

Two guards, both set up after the trusted code (minigrad, widgets, the checks, the hidden tests) is imported
and before any learner code runs:

- `Fence`, an audit hook (PEP 578, `sys.addaudithook`, which cannot be removed once added): reading the
  teacher's solutions and hidden tests, writing, deleting or renaming a file outside the process's temp dir,
  opening a network connection, starting a process,
  signalling another process, loading C code through ctypes and walking the interpreter's objects (`gc`)
  raise PermissionError and are recorded, so that the exercise gets the status "forbidden".
- `Snapshot`: what every trusted module binds (functions, classes and their attributes, the code, defaults
  and closures of functions), kept by identity. After each step the grader compares: a learner's cell that
  redefined a check, patched `minigrad.allclose` or `Feedback.__bool__` is seen, and its exercise "tampered".

Audit hooks are not a sandbox (the Python docs say so): code that means harm can still get around them, for
example through C extensions already loaded. They stop the ordinary accident and the casual attempt; against a
determined attacker the grader must run inside a container (docs/teachers_guide.md).
"""
import os
import shutil
import sys
import types

IGNORED_ADDITIONS = {"__slotnames__"}               # copyreg caches it on the class when copying an instance
WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_TRUNC
PATH_EVENTS = {"os.remove": 0, "os.rename": 0, "os.rmdir": 0, "os.mkdir": 0, "os.truncate": 0, "os.chmod": 0,
               "os.chown": 0, "os.utime": 0, "os.symlink": 1, "os.link": 1, "shutil.rmtree": 0, "shutil.move": 1}
REFUSED = {
    "socket.connect": "opened a network connection", "socket.bind": "opened a network socket",
    "socket.getaddrinfo": "looked up a network address", "socket.sendto": "sent network data",
    "subprocess.Popen": "started a process", "os.system": "started a process", "os.exec": "started a process",
    "os.posix_spawn": "started a process", "os.spawn": "started a process", "os.fork": "forked the process",
    "os.forkpty": "forked the process", "pty.spawn": "started a process",
    "ctypes.dlopen": "loaded C code through ctypes", "ctypes.dlsym": "loaded C code through ctypes",
    "gc.get_objects": "walked the interpreter's objects", "gc.get_referrers": "walked the interpreter's objects",
    "gc.get_referents": "walked the interpreter's objects",
}


class Fence:
    """An audit hook that confines writes to `home` and refuses the events in REFUSED while `armed`."""

    def __init__(self, home, allow_exec=(), secret=()):
        self.home = os.path.realpath(home)
        self.secret = [os.path.realpath(p) for p in secret]
        self.allow_exec = {os.path.realpath(p) for p in allow_exec}
        self.armed, self.trusted, self.violations = False, False, []

    def install(self):
        sys.addaudithook(self._hook)
        self.armed = True

    def _inside(self, path):
        if isinstance(path, int):
            return True                                  # an fd the process already had
        path = os.path.realpath(os.fsdecode(path))
        return path == self.home or path.startswith(self.home + os.sep) or path == os.devnull

    def _secret(self, path):
        path = os.path.realpath(os.fsdecode(path))
        return any(path == s or path.startswith(s + os.sep) for s in self.secret)

    def _refuse(self, what):
        self.violations.append(what)
        raise PermissionError(f"the grader does not allow this: {what}")

    def _hook(self, event, args):
        if not self.armed:
            return
        if event == "open":
            path, mode, flags = args
            writes = (isinstance(mode, str) and any(c in mode for c in "wax+")) or (flags or 0) & WRITE_FLAGS
            if writes and path is not None and not self._inside(path):
                self._refuse(f"wrote the file {os.fsdecode(path)}, outside its own folder")
            if path is not None and not isinstance(path, int) and self._secret(path):
                if _formatting_a_traceback():              # a check's hint reading source lines: refuse, quietly
                    raise PermissionError("the grader keeps the teacher's files closed")
                self._refuse(f"read {os.fsdecode(path)}, which holds the solutions or hidden tests")
        elif event in PATH_EVENTS:
            for path in args[:PATH_EVENTS[event] + 1]:
                if path is not None and not self._inside(path):
                    self._refuse(f"changed {os.fsdecode(path)}, outside its own folder ({event})")
        elif event in ("os.kill", "os.killpg") and args[0] not in (os.getpid(), 0):
            self._refuse("sent a signal to another process")
        elif event in REFUSED:
            if self.trusted and event in ("subprocess.Popen", "os.posix_spawn") and self._allowed_exec(args):
                return
            self._refuse(REFUSED[event])

    def _allowed_exec(self, args):
        program = args[0]
        if program is None:
            return False
        program = os.fsdecode(program)
        if os.sep not in program:                       # subprocess reports the name as given: look it up
            program = shutil.which(program) or program
        return os.path.realpath(program) in self.allow_exec


def _formatting_a_traceback():
    frame = sys._getframe(2)
    while frame is not None:
        if os.path.basename(frame.f_code.co_filename) in ("linecache.py", "traceback.py"):
            return True
        frame = frame.f_back
    return False


def _is_trusted(name, prefixes):
    return name.split(".")[0] in prefixes


class Snapshot:
    """Remember, by identity, what the trusted modules bind; `changes()` names what differs now."""

    def __init__(self, prefixes=("builtins", "minigrad", "widgets", "minigrad_book", "numpy")):
        self.entries, self.class_keys = [], []
        for name, module in list(sys.modules.items()):
            if isinstance(module, types.ModuleType) and _is_trusted(name, prefixes):
                self._module(name, module)

    def _module(self, name, module):
        namespace = vars(module)
        for key, value in list(namespace.items()):
            if name == "builtins" and key in ("_", "__", "___"):
                continue                                # IPython's last results
            self.entries.append((f"{name}.{key}", namespace, key, value))
            if isinstance(value, type) and getattr(value, "__module__", None) == name:
                self._class(f"{name}.{key}", value)
            elif isinstance(value, types.FunctionType):
                self._function(f"{name}.{key}", value)

    def _class(self, label, cls):
        namespace = vars(cls)                          # a live mappingproxy
        self.class_keys.append((label, namespace, frozenset(namespace)))
        for key, value in list(namespace.items()):
            self.entries.append((f"{label}.{key}", namespace, key, value))
            function = getattr(value, "__func__", value)
            if isinstance(function, types.FunctionType):
                self._function(f"{label}.{key}", function)

    def _function(self, label, fn):
        for attr in ("__code__", "__defaults__", "__kwdefaults__"):
            self.entries.append((f"{label}.{attr}", fn, attr, getattr(fn, attr)))
        for i, cell in enumerate(fn.__closure__ or ()):
            try:
                self.entries.append((f"{label} (closure {i})", cell, "cell_contents", cell.cell_contents))
            except ValueError:                          # an empty cell
                pass

    def changes(self):
        """Return the labels of the bindings that changed, were deleted or were added to a trusted class."""
        missing = object()
        changed = []
        for label, holder, key, value in self.entries:
            mapping = isinstance(holder, (dict, types.MappingProxyType))
            now = holder.get(key, missing) if mapping else getattr(holder, key, missing)
            if now is not value:
                changed.append(label)
        for label, namespace, keys in self.class_keys:
            changed += [f"{label}.{key} (added)" for key in set(namespace) - keys - IGNORED_ADDITIONS]
        return changed
