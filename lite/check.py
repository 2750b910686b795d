"""Check a built live edition: every chapter is there, Pyodide is local and matches its lock, nothing points at a
CDN or a registry. `build.py` runs it after each build; the tests run it on the folder they get.
"""
import hashlib
import json
import re
from pathlib import Path

PYODIDE = "static/pyodide"
KERNEL = "@jupyterlite/pyodide-kernel-extension:kernel"
# what a default JupyterLite or Pyodide would load from the network
REMOTE = re.compile(r"https?://(cdn\.jsdelivr\.net|pypi\.org|files\.pythonhosted\.org|unpkg\.com)")


class BuildError(RuntimeError):
    pass


def site(out, chapters):
    """Raise BuildError saying what is wrong with the live edition in `out` (built with these chapter names)."""
    out = Path(out)
    problems = []
    for name in chapters:
        if not (out / "files" / f"{name}.ipynb").exists():
            problems.append(f"files/{name}.ipynb is missing")
    settings = kernel_settings(out)
    if settings.get("disablePyPIFallback") is not True:
        problems.append("the Pyodide kernel may fall back to PyPI (disablePyPIFallback is not true)")
    if settings.get("pyodideUrl") != f"./{PYODIDE}/pyodide.js":
        problems.append(f"pyodideUrl is {settings.get('pyodideUrl')!r}, not the folder's own ./{PYODIDE}/pyodide.js")
    problems += pyodide_problems(out / PYODIDE)
    for config in out.rglob("jupyter-lite.json"):
        if REMOTE.search(config.read_text()):
            problems.append(f"{config.relative_to(out)} points at {REMOTE.search(config.read_text()).group(0)}")
    if problems:
        raise BuildError(f"the live edition in {out} is not right:\n  " + "\n  ".join(problems))


def kernel_settings(out):
    config = json.loads((Path(out) / "jupyter-lite.json").read_text())["jupyter-config-data"]
    return config.get("litePluginSettings", {}).get(KERNEL, {})


def pyodide_problems(folder):
    """Every file the lock lists is there with its sha256, and nothing else ships but the core and the lock."""
    problems = []
    lock = json.loads((folder / "pyodide-lock.json").read_text())
    listed = {entry["file_name"]: entry["sha256"] for entry in lock["packages"].values()}
    for file_name, expected in sorted(listed.items()):
        path = folder / file_name
        if not path.exists():
            problems.append(f"{PYODIDE}/{file_name} is in the lock but missing")
        elif hashlib.sha256(path.read_bytes()).hexdigest() != expected:
            problems.append(f"{PYODIDE}/{file_name} does not have the sha256 its lock gives")
    core = {"pyodide.js", "pyodide.mjs", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip",
            "pyodide-lock.json"}
    for path in folder.iterdir():
        if path.name not in listed and path.name not in core:
            problems.append(f"{PYODIDE}/{path.name} is shipped but not in the lock")
    return problems
