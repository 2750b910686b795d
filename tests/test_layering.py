"""The layers as a test: who may import whom, read from the source (AST), failing with the offending import.

Every import counts, at the top of a file or inside a function. minigrad: `compat/` at the bottom imports no
other part of minigrad; `core/` imports only itself and, at the seams listed in CORE_SEAMS, compat (TensorBase
in `core/tensor.py` imports only numpy, the dtypes, grad mode and PyTorch's messages); `ops/` builds on core
only; no import cycle between modules, and none between the packages (core, compat, ops, _tensor, random, nn,
...); no module that injects imports into its globals (the old `_load_ops()`); minigrad never imports widgets,
optim never imports nn. widgets import no private name.
"""
import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
MINIGRAD, WIDGETS = ROOT / "minigrad", ROOT / "widgets"
TENSOR_MAY_IMPORT = {"numpy", "warnings", "minigrad.core.dtype", "minigrad.core.grad_mode", "minigrad.compat.checks",
                     "minigrad.compat.inference"}
PACKAGES = ("core", "compat", "ops", "_tensor", "random", "autograd", "func", "nn", "optim", "utils", "backends")
# The one visible seam between the teaching core and PyTorch's corner cases: what each core file takes from compat.
CORE_SEAMS = {
    "minigrad/core/tensor.py": {"minigrad.compat.checks", "minigrad.compat.inference"},
    "minigrad/core/grad_mode.py": {"minigrad.compat.decorators"},
    "minigrad/core/forward_ad.py": {"minigrad.compat", "minigrad.compat.checks"},
    "minigrad/core/graph.py": {"minigrad.compat", "minigrad.compat.checks", "minigrad.compat.callable_nodes",
                               "minigrad.compat.saved_attributes"},
    "minigrad/core/function.py": {"minigrad.compat", "minigrad.compat.checks", "minigrad.compat.callable_nodes",
                                  "minigrad.compat.batched",
                                  "minigrad.compat.inference", "minigrad.compat.anomaly"},
    "minigrad/core/engine.py": {"minigrad.compat", "minigrad.compat.checks", "minigrad.compat.tie_order",
                                "minigrad.compat.anomaly"},
}


def module_name(path):
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path, top_level_only=False):
    """Yield (line, imported module, imported names) for each import in `path`, relative ones resolved."""
    tree = ast.parse(path.read_text(), str(path))
    here = module_name(path).split(".")
    package = here if path.name == "__init__.py" else here[:-1]
    nodes = tree.body if top_level_only else ast.walk(tree)
    for node in nodes:
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name, ()
        elif isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            yield node.lineno, module, tuple(a.name for a in node.names)


def sources(root):
    return sorted(root.rglob("*.py"))


def where(path, line):
    return f"{path.relative_to(ROOT).as_posix()}:{line}"


def violations(root, rule, banned):
    found = []
    for path in sources(root):
        for line, module, names in imports(path):
            targets = [module] + [f"{module}.{n}" for n in names]
            if any(t == b or t.startswith(b + ".") for t in targets for b in banned):
                found.append(f"{where(path, line)} imports {module} {list(names) or ''} ({rule})")
    return found


@pytest.mark.parametrize("root, rule, banned", [
    (MINIGRAD, "minigrad never imports widgets", ("widgets", "ipywidgets", "graphviz")),
    (MINIGRAD / "autograd", "autograd never imports nn or optim", ("minigrad.nn", "minigrad.optim")),
    (MINIGRAD / "optim", "optim never imports nn", ("minigrad.nn",)),
    (MINIGRAD / "func", "func never imports nn (a Module is used through its methods)", ("minigrad.nn",)),
    (MINIGRAD / "core", "core imports only itself and compat",
     tuple(f"minigrad.{p}" for p in PACKAGES if p not in ("core", "compat"))),
    (MINIGRAD / "compat", "compat imports no other part of minigrad",
     tuple(f"minigrad.{p}" for p in PACKAGES if p != "compat")),
    (MINIGRAD / "ops", "ops build on core only", ("minigrad._tensor", "minigrad.nn", "minigrad.optim",
                                                  "minigrad.autograd", "minigrad.utils")),
])
def test_layer_rule(root, rule, banned):
    found = violations(root, rule, banned)
    assert not found, "received imports that break the layers:\n" + "\n".join(found)


def test_widgets_import_no_private_minigrad_name():
    found = []
    for path in sources(WIDGETS):
        for line, module, names in imports(path):
            if module != "minigrad" and not module.startswith("minigrad."):
                continue
            private = [p for p in module.split(".") if p.startswith("_")] + [n for n in names if n.startswith("_")]
            if private:
                found.append(f"{where(path, line)} imports {module} {list(names)}: private {private}")
    assert not found, "received widgets reading minigrad's internals, expected its public API:\n" + "\n".join(found)


def private_names(root):
    """The private attribute names that code under `root` defines: `x._name = ...`, class attributes, methods."""
    names = set()
    for path in sources(root):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                names.add(node.attr)
            elif isinstance(node, ast.ClassDef):
                for item in node.body:
                    if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                        names.add(item.name)
                    elif isinstance(item, ast.Assign):
                        names.update(t.id for t in item.targets if isinstance(t, ast.Name))
    return {n for n in names if n.startswith("_") and not n.startswith("__")}


def test_widgets_read_no_private_minigrad_attribute():
    """`node._saved`, `getattr(node, "_output_shapes", ())`, ...: widgets read the public graph API instead."""
    forbidden = private_names(MINIGRAD)
    found = []
    for path in sources(WIDGETS):
        for node in ast.walk(ast.parse(path.read_text())):
            name = None
            if isinstance(node, ast.Attribute) and node.attr in forbidden and getattr(node.value, "id", "") != "self":
                name = node.attr
            elif (isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("getattr", "hasattr", "setattr")
                  and len(node.args) > 1 and getattr(node.args[1], "value", None) in forbidden):
                name = node.args[1].value
            if name:
                found.append(f"{where(path, node.lineno)} reads minigrad's private {name}")
    assert not found, "received widgets reading minigrad's internals, expected its public API:\n" + "\n".join(found)


def test_tensor_is_at_the_bottom():
    path = MINIGRAD / "core" / "tensor.py"
    modules = {module_name(p) for p in sources(MINIGRAD)}
    found = []
    for line, module, names in imports(path):
        # `from . import dtype` imports the module minigrad.core.dtype
        targets = [f"{module}.{n}" for n in names if f"{module}.{n}" in modules] or [module]
        found += [f"{where(path, line)} imports {t}" for t in targets if t not in TENSOR_MAY_IMPORT]
    assert not found, f"received upward imports in core/tensor.py, expected only {sorted(TENSOR_MAY_IMPORT)}:\n" + \
        "\n".join(found)


def test_core_takes_from_compat_only_at_the_listed_seams():
    found = []
    for path in sources(MINIGRAD / "core"):
        allowed = CORE_SEAMS.get(path.relative_to(ROOT).as_posix(), set())
        for line, module, names in imports(path):
            targets = [f"{module}.{n}" for n in names] if module == "minigrad.compat" else [module]
            found += [f"{where(path, line)} imports {t}" for t in targets
                      if t.startswith("minigrad.compat") and t not in allowed and module not in allowed]
    assert not found, "received core imports from compat beyond CORE_SEAMS:\n" + "\n".join(found)


def module_graph():
    """{module: {(module it imports, line)}} inside minigrad, imports inside functions included; importing a.b.c
    runs a and a.b first."""
    modules = {module_name(p): p for p in sources(MINIGRAD)}
    graph = {}
    for name, path in modules.items():
        edges = set()
        for line, module, names in imports(path):
            for target in [f"{module}.{n}" for n in names if f"{module}.{n}" in modules] or [module]:
                parts = target.split(".")
                for k in range(1, len(parts) + 1):
                    parent = ".".join(parts[:k])
                    if parent in modules and parent != name and not name.startswith(parent + "."):
                        edges.add((parent, line))
        graph[name] = edges
    return graph


def find_cycle(graph):
    """Return one import cycle as a list of 'module:line -> module' steps, or None."""
    state, stack = {}, []

    def visit(node):
        state[node] = "open"
        for target, line in sorted(graph[node]):
            stack.append(f"{node}:{line} -> {target}")
            if state.get(target) == "open":
                start = next(i for i, step in enumerate(stack) if step.startswith(target + ":"))
                return stack[start:]
            if target not in state:
                cycle = visit(target)
                if cycle:
                    return cycle
            stack.pop()
        state[node] = "done"
        return None

    for node in sorted(graph):
        if node not in state:
            cycle = visit(node)
            if cycle:
                return cycle
    return None


def test_no_import_cycle_in_minigrad():
    cycle = find_cycle(module_graph())
    assert cycle is None, "received a module-level import cycle:\n" + "\n".join(cycle or [])


def test_the_cycle_finder_finds_a_cycle():
    graph = {"a": {("b", 1)}, "b": {("c", 2)}, "c": {("a", 3)}, "d": set()}
    assert find_cycle(graph) == ["a:1 -> b", "b:2 -> c", "c:3 -> a"]


def package_of(module):
    """The package a module belongs to for the layering: `minigrad.core.graph` -> `core`; a root module is its own."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else None


def package_graph():
    """{package: {(package it imports, 'module:line')}}, from the module graph (the root `minigrad/__init__.py`,
    which gathers every package into the torch namespace, is left out: nothing inside imports it)."""
    graph = {}
    for module, edges in module_graph().items():
        src = package_of(module)
        if src is None:
            continue
        for target, line in edges:
            dst = package_of(target)
            if dst is not None and dst != src:
                graph.setdefault(src, set()).add((dst, f"{module}:{line}"))
        graph.setdefault(src, set())
    return {p: {(d, where_) for d, where_ in edges} for p, edges in graph.items()}


def test_no_import_cycle_between_packages():
    graph = package_graph()
    simple = {p: {(d, 0) for d, _ in edges} for p, edges in graph.items()}
    for p in list(simple):
        for d, _ in simple[p]:
            simple.setdefault(d, set())
    cycle = find_cycle(simple)
    if cycle:
        steps = [step.split(":")[0] + " -> " + step.split("-> ")[1] for step in cycle]
        witnesses = [f"{a} -> {b}: " + ", ".join(sorted(w for d, w in graph[a] if d == b)[:3])
                     for a, b in (step.split(" -> ") for step in steps)]
        raise AssertionError("received a cycle between packages:\n" + "\n".join(witnesses))


def test_the_package_graph_sees_imports_inside_functions(tmp_path):
    probe = ROOT / "minigrad" / "compat" / "_layering_probe.py"
    probe.write_text("def late():\n    from ..core import tensor\n")
    try:
        edges = package_graph()["compat"]
    finally:
        probe.unlink()
    assert ("core", "minigrad.compat._layering_probe:2") in edges, edges


def test_no_module_injects_imports_into_its_globals():
    """The old `_load_ops()`: a function that imports names and declares them `global`."""
    found = []
    for path in sources(MINIGRAD):
        for fn in ast.walk(ast.parse(path.read_text())):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            declared = {n for g in ast.walk(fn) if isinstance(g, ast.Global) for n in g.names}
            imported = {(a.asname or a.name).split(".")[0] for i in ast.walk(fn)
                        if isinstance(i, (ast.Import, ast.ImportFrom)) for a in i.names}
            if declared & imported:
                found.append(f"{where(path, fn.lineno)} {fn.name}() imports into globals {sorted(declared & imported)}")
    assert not found, "received module-global injection:\n" + "\n".join(found)


def test_the_rules_catch_an_offending_import(tmp_path):
    """The checks above can fail: a fake autograd module importing nn is reported with its line."""
    fake = ROOT / "minigrad" / "autograd" / "_layering_probe.py"
    fake.write_text("import numpy\nfrom ..nn import Module\n")
    try:
        found = violations(MINIGRAD / "autograd", "autograd never imports nn or optim", ("minigrad.nn",))
    finally:
        fake.unlink()
    assert found == ["minigrad/autograd/_layering_probe.py:2 imports minigrad.nn ['Module'] "
                     "(autograd never imports nn or optim)"], found
