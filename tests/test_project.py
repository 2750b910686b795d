"""The repository keeps two promises: pyproject.toml and environment.yml name the same runtime
dependencies, and `import minigrad` stays numpy-only (book -> widgets -> minigrad, never the reverse)."""
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    tomllib = pytest.importorskip("tomli")

ROOT = Path(__file__).resolve().parent.parent

# conda-forge packages whose Python distribution has another name on PyPI
CONDA_TO_PYPI = {"python-graphviz": "graphviz"}
# conda-forge packages that are not Python distributions, so pyproject.toml cannot name them
NOT_ON_PYPI = {
    "python": "the interpreter (checked against requires-python)",
    "pip": "the installer",
    "graphviz": "the Graphviz `dot` binary, which the `graphviz` Python package runs",
}


def parse_environment_yml(text):
    """Read the small YAML subset environment.yml uses, without a YAML library.

    Returns:
        dict with "name", "channels", "conda" (the dependency strings) and "pip" (the `- pip:` list).
    """
    env = {"name": None, "channels": [], "conda": [], "pip": []}
    section, dep_indent = None, None
    for raw in text.splitlines():
        line = re.sub(r"(^|\s)#.*", "", raw).rstrip()
        if not line:
            continue
        indent = len(line) - len(line.lstrip())
        item = line.strip()
        if indent == 0:
            section, _, value = (part.strip() for part in item.partition(":"))
            if section == "name":
                env["name"] = value
            continue
        if not item.startswith("- "):
            raise ValueError(f"environment.yml: expected a list item under {section!r}, got {raw!r}")
        value = item[2:].strip()
        if section == "channels":
            env["channels"].append(value)
        elif section == "dependencies":
            dep_indent = indent if dep_indent is None else dep_indent
            if indent > dep_indent:
                env["pip"].append(value)
            elif value != "pip:":
                env["conda"].append(value)
    return env


def split_requirement(text):
    """Split 'ipywidgets >= 8' or 'tomli; python_version < "3.11"' into (normalized name, version spec)."""
    match = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(\[[^\]]*\])?([^;]*)", text)
    if match is None:
        raise ValueError(f"cannot read the requirement {text!r}")
    name = re.sub(r"[-_.]+", "-", match.group(1)).lower()
    return name, re.sub(r"\s+", "", match.group(3))


def dependency_mismatches(project, env):
    """List, as sentences, every way environment.yml disagrees with pyproject's [project] table.

    Args:
        project: the [project] table of pyproject.toml.
        env: what parse_environment_yml returned.
    Returns:
        [] when the two are in sync.
    """
    problems = []
    runtime = dict(split_requirement(r) for r in project["dependencies"])
    test = dict(split_requirement(r) for r in project.get("optional-dependencies", {}).get("test", []))
    conda = dict(split_requirement(d) for d in env["conda"])

    listed = {}
    for name, spec in conda.items():
        if name in NOT_ON_PYPI:
            continue
        pypi = CONDA_TO_PYPI.get(name, name)
        if pypi in runtime:
            listed[pypi] = spec
        elif pypi not in test:
            problems.append(f"environment.yml lists {name!r}, which pyproject.toml names neither in "
                            f"dependencies nor in the test extra")
    for name, spec in runtime.items():
        conda_name = {v: k for k, v in CONDA_TO_PYPI.items()}.get(name, name)
        if name not in listed:
            problems.append(f"pyproject.toml depends on {name + spec!r}, but environment.yml has no "
                            f"{conda_name!r}")
        elif listed[name] != spec:
            problems.append(f"{name!r} is pinned differently: pyproject.toml has {spec!r}, "
                            f"environment.yml has {listed[name]!r}")
    if "graphviz" in runtime and "graphviz" not in conda:
        problems.append("environment.yml has no 'graphviz' package, so the `graphviz` Python package would "
                        "find no `dot` binary")
    if conda.get("python") != re.sub(r"\s+", "", project.get("requires-python", "")):
        problems.append(f"environment.yml asks for python{conda.get('python', ' (nothing)')}, but "
                        f"requires-python is {project.get('requires-python')!r}")
    if "-e ." not in env["pip"]:
        problems.append(f"environment.yml must install the project itself with `pip: [-e .]`, "
                        f"its pip list is {env['pip']!r}")
    return problems


def read_project():
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def read_environment():
    return parse_environment_yml((ROOT / "environment.yml").read_text())


def test_environment_yml_names_the_same_runtime_dependencies_as_pyproject():
    assert dependency_mismatches(read_project(), read_environment()) == []


def test_names_do_not_clash_with_pypi_minigrad():
    project, env = read_project(), read_environment()
    assert project["name"] == "minigrad-book", f"distribution name is {project['name']!r}"
    assert env["name"] == project["name"], f"conda env is {env['name']!r}, expected {project['name']!r}"
    assert env["channels"] == ["conda-forge"], f"channels are {env['channels']!r}"


def test_parser_reads_conda_and_pip_lists():
    env = parse_environment_yml(
        "name: x  # comment\nchannels:\n  - conda-forge\ndependencies:\n"
        "  - numpy   # note\n  - pip\n  - pip:\n      - -e .\n      - rich\n"
    )
    assert env == {"name": "x", "channels": ["conda-forge"], "conda": ["numpy", "pip"], "pip": ["-e .", "rich"]}


IN_SYNC_PROJECT = {"requires-python": ">=3.10", "dependencies": ["numpy", "graphviz", "ipywidgets>=8"],
                   "optional-dependencies": {"test": ["pytest"]}}
IN_SYNC_CONDA = ["python>=3.10", "numpy", "graphviz", "python-graphviz", "ipywidgets>=8", "pytest", "pip"]


@pytest.mark.parametrize("conda, dependencies, expected", [
    (IN_SYNC_CONDA, IN_SYNC_PROJECT["dependencies"], None),
    ([d for d in IN_SYNC_CONDA if d != "numpy"], IN_SYNC_PROJECT["dependencies"], "has no 'numpy'"),
    ([d for d in IN_SYNC_CONDA if d != "python-graphviz"], IN_SYNC_PROJECT["dependencies"],
     "has no 'python-graphviz'"),
    ([d for d in IN_SYNC_CONDA if d != "graphviz"], IN_SYNC_PROJECT["dependencies"], "no `dot` binary"),
    (IN_SYNC_CONDA + ["scipy"], IN_SYNC_PROJECT["dependencies"], "lists 'scipy'"),
    (IN_SYNC_CONDA, ["numpy", "graphviz", "ipywidgets>=7"], "pinned differently"),
    (["python>=3.9"] + IN_SYNC_CONDA[1:], IN_SYNC_PROJECT["dependencies"], "requires-python"),
], ids=["in-sync", "missing", "missing-renamed", "missing-dot", "extra", "pin", "python"])
def test_dependency_mismatches_catches_drift(conda, dependencies, expected):
    project = dict(IN_SYNC_PROJECT, dependencies=dependencies)
    problems = dependency_mismatches(project, {"conda": conda, "pip": ["-e ."]})
    if expected is None:
        assert problems == []
    else:
        assert any(expected in p for p in problems), f"expected a problem saying {expected!r}, got {problems!r}"


VIEW_LIBRARIES = ("ipywidgets", "graphviz", "widgets", "IPython", "matplotlib", "torch")
IMPORT_ALL_OF_MINIGRAD = f"""
import importlib, json, pkgutil, sys
import minigrad
for module in pkgutil.walk_packages(minigrad.__path__, "minigrad."):
    importlib.import_module(module.name)
print(json.dumps(sorted({{name.split(".")[0] for name in sys.modules}} & set({VIEW_LIBRARIES!r}))))
"""


def test_import_minigrad_loads_no_view_library():
    """minigrad is numpy only: importing it (and every submodule) in a fresh interpreter loads none of
    ipywidgets, graphviz, widgets, IPython, matplotlib or torch."""
    run = subprocess.run([sys.executable, "-c", IMPORT_ALL_OF_MINIGRAD], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, f"importing minigrad failed:\n{run.stderr}"
    loaded = json.loads(run.stdout.strip().splitlines()[-1])
    assert loaded == [], f"`import minigrad` also loaded {loaded}; expected none of {list(VIEW_LIBRARIES)}"


IMPORT_ALL_AND_LIST = """
import importlib, json, pkgutil, sys
before = set(sys.modules)
import minigrad
for module in pkgutil.walk_packages(minigrad.__path__, "minigrad."):
    importlib.import_module(module.name)
top = {name.split(".")[0] for name in set(sys.modules) - before}
print(json.dumps(sorted(top - set(sys.stdlib_module_names))))
"""


def test_import_minigrad_loads_only_numpy_and_the_standard_library():
    """Every module minigrad (and each of its submodules) loads is numpy's, the standard library's or its own;
    numpy's compiled random module brings two Cython runtime modules, which count as numpy's."""
    run = subprocess.run([sys.executable, "-c", IMPORT_ALL_AND_LIST], cwd=ROOT, capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, f"importing minigrad failed:\n{run.stderr}"
    loaded = set(json.loads(run.stdout.strip().splitlines()[-1]))
    numpy_own = {name for name in loaded if name.startswith("_cython_") or name == "cython_runtime"}
    assert loaded - numpy_own <= {"minigrad", "numpy"}, f"`import minigrad` also loaded {sorted(loaded - numpy_own)}"


QUIET_INF_AND_NAN = """
import numpy as np
import minigrad as torch
big, inf = torch.tensor([3e38]), torch.tensor([float("inf")])
print((inf * 0).tolist(), (big + big).tolist(), (inf - inf).tolist(), (big * big).tolist(), (big / 0).tolist(),
      torch.exp(torch.tensor([100.0])).tolist(), torch.log(torch.tensor([-1.0])).tolist())
try:
    np.float32(3e38) * np.float32(10)
except RuntimeWarning as warning:
    print("numpy still warns:", warning)
"""


def test_minigrad_makes_inf_and_nan_without_a_warning_and_leaves_numpy_alone():
    """As in PyTorch, inf * 0, overflow and log(-1) give nan and inf silently, even under `-W error`; a user's own
    numpy code still warns (minigrad ignores RuntimeWarnings on its own lines only)."""
    run = subprocess.run([sys.executable, "-W", "error::RuntimeWarning", "-c", QUIET_INF_AND_NAN], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, f"a RuntimeWarning escaped from minigrad:\n{run.stderr}"
    assert run.stdout.splitlines() == [
        "[nan] [inf] [nan] [inf] [inf] [inf] [nan]",
        "numpy still warns: overflow encountered in scalar multiply"], run.stdout
