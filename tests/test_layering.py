"""The layers as a test: who may import whom, read from the source (AST), failing with the offending import.

minigrad: Tensor at the bottom (`_tensor.py` imports only numpy, the dtypes, the grad-mode switches and the
printer); no module-level import cycle anywhere in the package; no method module that injects imports into its
globals (the old `_load_ops()`); minigrad never imports widgets, autograd never imports nn or optim, optim
never imports nn. widgets import no private minigrad name.
"""
import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
MINIGRAD, WIDGETS = ROOT / "minigrad", ROOT / "widgets"
TENSOR_MAY_IMPORT = {"numpy", "warnings", "minigrad._dtype", "minigrad._grad_state", "minigrad._tensor_str"}


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
    path = MINIGRAD / "_tensor.py"
    found = []
    for line, module, names in imports(path):
        # `from . import _dtype` imports the module minigrad._dtype
        targets = [f"{module}.{n}" for n in names] if module == "minigrad" else [module]
        found += [f"{where(path, line)} imports {t}" for t in targets if t not in TENSOR_MAY_IMPORT]
    assert not found, f"received upward imports in _tensor.py, expected only {sorted(TENSOR_MAY_IMPORT)}:\n" + \
        "\n".join(found)


def module_graph():
    """{module: {(module it imports at module level, line)}} inside minigrad; importing a.b.c runs a and a.b first."""
    modules = {module_name(p): p for p in sources(MINIGRAD)}
    graph = {}
    for name, path in modules.items():
        edges = set()
        for line, module, names in imports(path, top_level_only=True):
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


# An import inside a function hides a cycle from the test above. These two are real recursions, named here:
LATE_IMPORTS = {
    # the nodes of an in-place change through a view compute with Functions, whose apply checks views
    ("minigrad/autograd/views.py", "minigrad.ops.strided"),
    # bound in Module's class body, so module.py imports this file before Module exists
    ("minigrad/nn/_lookup.py", "minigrad.nn.module"),
}


def test_minigrad_imports_inside_functions_only_where_listed():
    found = []
    for path in sources(MINIGRAD):
        top = {line for line, _, _ in imports(path, top_level_only=True)}
        for line, module, names in imports(path):
            if line not in top and (path.relative_to(ROOT).as_posix(), module) not in LATE_IMPORTS:
                found.append(f"{where(path, line)} imports {module} {list(names) or ''} inside a function")
    assert not found, ("received imports hidden in functions, expected them at the top of the file (or listed in "
                       "LATE_IMPORTS with the recursion that needs them):\n" + "\n".join(found))


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
