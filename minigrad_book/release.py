"""`minigrad-book release OUT/`: the student copy of the book, with every solution left out.

    OUT/book/NN_name.ipynb   the chapters without their `solution` cells; stubs, checks and hints stay
    OUT/minigrad/, widgets/  the code the chapters import, the check modules without their solution regions
    OUT/pyproject.toml       so that `pip install OUT/` installs that copy (and not the teacher's)

Two places hold solutions. In a notebook, the markdown cells tagged `solution`; in a check module, the code
between `# begin solution` and `# end solution` (reference implementations a check compares with). The release
drops the cells and replaces each name defined in a region with `widgets.exercises.removed.removed(name)`, a
stand-in whose check then says that it runs when the teacher grades. A chapter whose check modules lost a
region is re-executed, so that its stored outputs are the ones the student copy prints (strict nbval passes).
The hidden tests (minigrad_book/hidden/) and this kit are not copied.
"""
import copy
import os
import re
import shutil
from pathlib import Path

from . import chapters
from .stored import store_like_the_book

BEGIN = re.compile(r"^# begin solution\b")
END = re.compile(r"^# end solution\b")
STAND_IN = "from widgets.exercises.removed import removed  # the reference solution is not in the student copy\n"
PACKAGES = ("minigrad", "widgets")
STUDENT_README = """# The minigrad book: student copy

An interactive book about how PyTorch's autograd works from the inside. Install this copy and open the book:

    pip install -e .
    jupyter lab book/

Each exercise is a stub (`...`) followed by a check cell that prints "✓ correct" or "✗ not yet" with a hint.
This copy holds no solutions; a few checks that compare with the reference solution run only when your
teacher grades your notebook. Hand in the notebooks as they are (keep their file names).
"""


def strip_module(source, name="<module>"):
    """Return `source` with each `# begin solution` ... `# end solution` region replaced by stand-ins."""
    out, region = [], None
    for number, line in enumerate(source.splitlines(keepends=True), 1):
        if BEGIN.match(line):
            if region is not None:
                raise ValueError(f"{name}:{number}: '# begin solution' inside another solution region")
            region = []
        elif END.match(line):
            if region is None:
                raise ValueError(f"{name}:{number}: '# end solution' without a '# begin solution' before it")
            names = chapters.defined_names("".join(region))
            if not names:
                raise ValueError(f"{name}:{number}: a solution region must define a name at top level")
            out += [STAND_IN] + [f"{n} = removed({n!r})\n" for n in names]
            region = None
        elif region is not None:
            region.append(line)
        else:
            out.append(line)
    if region is not None:
        raise ValueError(f"{name}: a '# begin solution' region is never closed with '# end solution'")
    return "".join(out)


def student_notebook(nb, chapter):
    """Return a copy of the chapter `nb` without solution cells, tagged, and marked with its chapter name."""
    nb = copy.deepcopy(nb)
    chapters.tag(nb)
    nb.cells = [c for c in nb.cells if chapters.SOLUTION not in chapters.tags(c)]
    nb.metadata[chapters.KEY] = {"chapter": chapter}
    return nb


def _copy_package(src, dst):
    """Copy a package, stripping solution regions; return the dotted names of the modules that changed."""
    changed = []
    for path in sorted(src.rglob("*")):
        if "__pycache__" in path.parts or path.suffix in (".pyc", ".pyo"):
            continue
        target = dst / path.relative_to(src.parent)
        if path.is_dir():
            target.mkdir(parents=True, exist_ok=True)
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        if path.suffix == ".py":
            text = path.read_text(encoding="utf-8")
            stripped = strip_module(text, str(path))
            target.write_text(stripped, encoding="utf-8")
            if stripped != text:
                changed.append(".".join(path.relative_to(src.parent).with_suffix("").parts))
        else:
            shutil.copy2(path, target)
    return changed


def _student_pyproject(text):
    """The teacher's pyproject.toml without the kit: no console script, only minigrad and widgets packaged."""
    text = re.sub(r"(?ms)^\[project\.scripts\]\n.*?(?=^\[|\Z)", "", text)
    return re.sub(r"(?m)^include = \[.*\]$", 'include = ["minigrad*", "widgets*"]', text)


def release(root, out, execute=True):
    """Write the student copy of the book at `root` (the teacher's repository) into `out`.

    Returns the list of chapter names written. Chapters that import a check module whose solution region was
    replaced are re-executed (a Jupyter kernel, with `out` first on the import path) to store their outputs.
    """
    import nbformat                                      # not at the top: the grading processes import this module
    root, out = Path(root), Path(out)
    if out.exists() and any(out.iterdir()):
        raise FileExistsError(f"{out} is not empty: release writes a new folder (remove it or name another)")
    out.mkdir(parents=True, exist_ok=True)
    changed = [m for package in PACKAGES for m in _copy_package(root / package, out)]
    (out / "pyproject.toml").write_text(_student_pyproject((root / "pyproject.toml").read_text()))
    (out / "README.md").write_text(STUDENT_README)
    names = []
    # each edition (book/, and a translation such as book/zh/) gets the same treatment
    for source in [root / "book"] + [d for d in sorted((root / "book").iterdir())
                                     if d.is_dir() and chapters.chapter_paths(d)]:
        book = out / source.relative_to(root)
        book.mkdir()
        for path in sorted(source.iterdir()):
            if (path.suffix != ".ipynb" and path.name != "__pycache__" and not path.name.startswith(".")
                    and not (path.is_dir() and chapters.chapter_paths(path))):
                (shutil.copytree if path.is_dir() else shutil.copy2)(path, book / path.name)
        for path in chapters.chapter_paths(source):
            nb = student_notebook(nbformat.read(path, as_version=4), path.stem)
            if execute and set(chapters.module_aliases(nb).values()) & set(changed):
                _execute(nb, book, out)
            nbformat.write(nb, book / path.name)
            if source == root / "book":
                names.append(path.stem)
    return names


def _execute(nb, cwd, code_root):
    from nbclient import NotebookClient
    old = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = os.pathsep.join([str(code_root.resolve())] + ([old] if old else []))
    try:
        NotebookClient(nb, timeout=600, startup_timeout=300, kernel_name="python3", record_timing=False,
                       resources={"metadata": {"path": str(cwd)}}).execute()
    finally:
        os.environ.pop("PYTHONPATH") if old is None else os.environ.__setitem__("PYTHONPATH", old)
    store_like_the_book(nb)
