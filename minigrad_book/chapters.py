"""Read the book's exercises: which cells hold each one's stub, check and solution, under a stable id and points.

A chapter marks an exercise with cell tags (book/README.md): `exercise` (the stub the learner completes),
`check` (a call such as `ch04.check_square(Square)`) and `solution` (a markdown cell; the n-th solution belongs
to the n-th exercise). `tag` writes each exercise's id and points into the metadata of those cells,

    {"minigrad": {"exercise": "ch04.square", "points": 1}}

so that a learner's answer is found by its id even after the cell was moved, copied or renamed. Ids already
there are kept: tagging is idempotent, and a teacher may change the points by hand.
"""
import ast
import threading
from dataclasses import dataclass, field
from pathlib import Path

KEY = "minigrad"
EXERCISE, CHECK, SOLUTION = "exercise", "check", "solution"
DEFAULT_POINTS = 1


# CPython 3.11's compiler is not safe to call from several threads at once ("SystemError: AST constructor
# recursion depth mismatch"), and the grader's threads parse submissions: one at a time (it takes milliseconds).
_PARSING = threading.Lock()


def parse(source, mode="exec"):
    """`ast.parse`, one thread at a time."""
    with _PARSING:
        return ast.parse(source, mode=mode)


def chapter_paths(book):
    """Return the chapter notebooks of `book` (NN_name.ipynb), in order."""
    return sorted(Path(book).glob("[0-9][0-9]_*.ipynb"))


def tags(cell):
    return cell.get("metadata", {}).get("tags", [])


def exercise_of(cell):
    """Return the exercise id stored in `cell`'s metadata, or None."""
    meta = cell.get("metadata", {}).get(KEY)
    return meta.get("exercise") if isinstance(meta, dict) and isinstance(meta.get("exercise"), str) else None


@dataclass(frozen=True)
class CheckCall:
    """A check cell, parsed: `module.function(*args)`, each arg a source evaluated in the learner's namespace."""
    module: str
    function: str
    args: tuple


@dataclass
class Exercise:
    id: str
    points: float
    stub: list = field(default_factory=list)        # sources of the stub cells
    checks: list = field(default_factory=list)      # CheckCall per check cell
    solution: str = ""                              # the solution cell's markdown
    names: tuple = ()                               # top-level names the stub defines (to find renamed cells)


def defined_names(source):
    """Return the names a cell binds at top level (def, class, assignment), or () if it does not parse."""
    try:
        tree = parse(source)
    except (SyntaxError, ValueError):
        return ()
    names = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.append(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names += [n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)]
    return tuple(dict.fromkeys(names))


def module_aliases(nb):
    """Map each name the chapter imports a module under to the module: {"ch04": "widgets.exercises.ch04"}."""
    aliases = {}
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        try:
            tree = parse(cell.source)
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and not node.level:
                aliases.update({a.asname or a.name: f"{node.module}.{a.name}" for a in node.names})
            elif isinstance(node, ast.Import):
                aliases.update({a.asname or a.name.split(".")[0]: a.name if a.asname else a.name.split(".")[0]
                                for a in node.names})
    return aliases


def parse_check(source, aliases):
    """Parse a check cell `chNN.check_x(arg, ...)` into a CheckCall; raise ValueError if it is not one."""
    try:
        tree = parse(source)
    except SyntaxError as error:
        raise ValueError(f"a check cell should be one call such as ch04.check_square(Square), got {source!r}"
                         ) from error
    call = tree.body[0].value if len(tree.body) == 1 and isinstance(tree.body[0], ast.Expr) else None
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
            and isinstance(call.func.value, ast.Name) and call.func.value.id in aliases and not call.keywords):
        raise ValueError(f"a check cell should be one call such as ch04.check_square(Square), got {source!r}")
    return CheckCall(aliases[call.func.value.id], call.func.attr, tuple(ast.unparse(a) for a in call.args))


def _groups(nb):
    """Yield (stub cell, check cells, solution cell or None) per exercise, from the tags alone."""
    groups = []
    for cell in nb.cells:
        if EXERCISE in tags(cell):
            groups.append((cell, [], None))
        elif CHECK in tags(cell) and groups:
            groups[-1][1].append(cell)
    solutions = [cell for cell in nb.cells if SOLUTION in tags(cell)]
    return [(stub, checks, solutions[i] if i < len(solutions) else None)
            for i, (stub, checks, _) in enumerate(groups)]


def tag(nb):
    """Store each exercise's id and points in the metadata of its stub, check and solution cells.

    The id comes from the first check call (`ch04.check_square(...)` gives "ch04.square") unless one of the
    cells already has an id. Returns True if anything changed.
    """
    aliases, changed, seen = module_aliases(nb), False, set()
    for stub, checks, solution in _groups(nb):
        if not checks:
            raise ValueError(f"the exercise cell {stub.source[:40]!r} has no check cell after it")
        cells = [stub, *checks] + ([solution] if solution is not None else [])
        old = next((c.metadata[KEY] for c in cells if exercise_of(c)), None)
        if old is None:
            call = parse_check(checks[0].source, aliases)
            old = {"exercise": f"{call.module.rsplit('.', 1)[-1]}.{call.function.removeprefix('check_')}",
                   "points": DEFAULT_POINTS}
        meta = {"exercise": old["exercise"], "points": old.get("points", DEFAULT_POINTS)}
        if meta["exercise"] in seen:
            raise ValueError(f"two exercises share the id {meta['exercise']!r}")
        seen.add(meta["exercise"])
        for cell in cells:
            if cell.metadata.get(KEY) != meta:
                cell.metadata[KEY], changed = dict(meta), True
    return changed


def exercises(nb):
    """Return the chapter's exercises (from the ids that `tag` stored), in the order of the notebook."""
    aliases, found = module_aliases(nb), {}
    for cell in nb.cells:
        ident = exercise_of(cell)
        if ident is None:
            continue
        ex = found.setdefault(ident, Exercise(ident, cell.metadata[KEY].get("points", DEFAULT_POINTS)))
        if CHECK in tags(cell):
            ex.checks.append(parse_check(cell.source, aliases))
        elif SOLUTION in tags(cell):
            ex.solution = cell.source
        elif cell.cell_type == "code":
            ex.stub.append(cell.source)
            ex.names += defined_names(cell.source)
    return list(found.values())
