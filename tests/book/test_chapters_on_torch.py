"""The chapters' claim "every cell prints the same on PyTorch", checked: their code runs on real torch 2.13.

Each chapter's code cells run in order in one namespace, with the imports swapped (`import minigrad as torch` ->
`import torch`, `from minigrad.autograd import ...` -> `from torch.autograd import ...`); cells that use a widget
or call an exercise check are skipped (widgets read minigrad's graph only), and so is every later cell that uses
a name a skipped cell made (a stepper driven from code, say). What a cell prints, plus the repr of its last
expression as Jupyter would show it, must equal the output stored in the notebook, which minigrad made.
The few cells that legitimately print something else on torch are listed in DIFFERS, each with its reason: they
run (later cells need what they define), only their output is not compared. Cells that cannot run on torch at
all are listed in SKIP, with their reason. A cell that makes data with minigrad's dataset helpers (PyTorch has
none) runs as it is, and the minigrad tensors it made are converted to torch tensors, as the chapters tell a
reader to do: the training that follows must then print the same losses.
"""
import ast
import contextlib
import io
import linecache
import re
import warnings
from pathlib import Path

import nbformat
import pytest

import minigrad
from parity_printed import clean_text, compare_printed

from tests.torch_reference import import_torch

torch = import_torch()
try:
    import matplotlib
    matplotlib.use("Agg")                # plt.show() draws nothing, prints nothing
except ImportError:                      # pragma: no cover - matplotlib comes with the book's requirements
    pass

BOOK = Path(__file__).resolve().parents[2] / "book"
CHAPTERS = sorted(p.stem for p in BOOK.glob("[0-9][0-9]_*.ipynb") if p.stem != "19_glossary")   # it has no code
IMPORTS = [(re.compile(r"^import minigrad as torch$", re.M), "import torch"),
           (re.compile(r"^from minigrad((?:\.\w+)*) import ", re.M), r"from torch\1 import "),
           (re.compile(r"^from torch\.datasets import ", re.M), "from minigrad.datasets import "),   # minigrad's own
           (re.compile(r"^from widgets(\.\w+)? import .*$", re.M), "")]
WIDGETS = re.compile(r"\b(BackwardStepper|draw_graph|GraphView|ModuleApplyView|ch\d\d)\b")
# the cells whose minigrad tensors are converted (torch.from_numpy(t.numpy())) after they run
DATASETS = {"12_function_vs_module": "make_moons(", "14_capstone": "make_spirals("}

# chapter -> [(a piece of the cell's source, why it prints something else on torch)]
DIFFERS = {
    "00_start_here": [("print(torch.__name__)", "prints the module's name: torch, not minigrad")],
    "03_tensor_apply_": [("timeit.repeat(", "a timing verdict: on torch it depends on the machine and its load")],
    "02_module_apply": [("inspect.getsource(nn.Module.apply)", "prints the source of torch's own Module.apply")],
    "04_function_apply": [("inspect.getsource(autograd.Function.apply)", "prints the source of torch's own apply")],
    "15_forward_mode": [("jacfwd faster?", "a timing verdict: torch's vmap batches the passes that minigrad loops over")],
    "16_torch_func": [("print(calls)", "counts the calls: torch's vmap calls the function once, on a batched tensor")],
}
# chapter -> [(a piece of the cell's source, why it cannot run on torch)]
SKIP = {
    "15_forward_mode": [("from minigrad.ops.arithmetic import Mul", "prints the source of minigrad's own Mul")],
}


def on_torch(source):
    for pattern, replacement in IMPORTS:
        source = pattern.sub(replacement, source)
    return source


def run_cell(source, namespace):
    """Run `source` as Jupyter would; return what it printed and the repr of a final expression. As in Jupyter,
    the cell's lines are in `linecache`, so a traceback taken inside it (anomaly mode's) shows them."""
    filename = f"<cell-{len(linecache.cache)}-{hash(source)}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(keepends=True), filename)
    tree = ast.parse(source)
    last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    out = io.StringIO()
    with contextlib.redirect_stdout(out), warnings.catch_warnings():
        warnings.simplefilter("ignore")   # a warning goes to stderr in Jupyter; only stdout is compared
        exec(compile(tree, filename, "exec"), namespace)
        if last is not None:
            value = eval(compile(ast.Expression(last.value), filename, "eval"), namespace)
            if value is not None:
                out.write(repr(value))
    return out.getvalue()


def stored_text(cell):
    parts = []
    for output in cell.get("outputs", []):
        if output.get("output_type") == "stream" and output.get("name") == "stdout":
            parts.append(output["text"])
        elif output.get("output_type") == "execute_result":
            parts.append(output["data"].get("text/plain", ""))
    return "".join(parts)


def names(source, context):
    """The names `source` binds (context ast.Store) or reads (ast.Load)."""
    return {node.id for node in ast.walk(ast.parse(source)) if isinstance(node, ast.Name)
            and isinstance(node.ctx, context)} | ({alias.asname or alias.name for node in ast.walk(ast.parse(source))
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)) for alias in [ast.alias(node.name)]}
            if context is ast.Store else set())


def normal(text):
    # Python's "Did you mean: 'apply_'?" after an AttributeError is given only for objects of at most 750
    # attributes; torch.Tensor sits at that edge, and what other tests in this process imported decides it. The
    # suggestion is Python's, not torch's, so it is left out of the comparison
    return _SUGGESTION.sub("", clean_text(text)).rstrip()


_SUGGESTION = re.compile(r"\. Did you mean: '[^']*'\?")


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_chapter_prints_the_same_on_torch(chapter):
    nb = nbformat.read(BOOK / f"{chapter}.ipynb", as_version=4)
    namespace = {"__name__": "__main__"}
    differs, skip = dict(DIFFERS.get(chapter, [])), dict(SKIP.get(chapter, []))
    compared, converted, unused, failures, untouchable = 0, 0, set(differs) | set(skip), [], set()
    for index, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        source = on_torch(cell.source)
        listed = {piece for piece in {**differs, **skip} if piece in cell.source}
        unused -= listed
        made = names(source, ast.Store)
        if WIDGETS.search(source) or listed & set(skip) or (names(source, ast.Load) - made) & untouchable:
            untouchable |= made
            continue
        got = run_cell(source, namespace)
        untouchable -= made
        if DATASETS.get(chapter, "\0") in cell.source:
            converted += 1
            namespace.update({name: torch.from_numpy(namespace[name].numpy()) for name in made
                              if isinstance(namespace.get(name), minigrad.Tensor)})
        if listed:
            continue
        try:     # the parity harness's comparison of printed text (tests/parity_printed.py)
            compare_printed(normal(stored_text(cell)), normal(got), f"torch {torch.__version__}",
                            reference="minigrad (stored)")
        except AssertionError as difference:
            failures.append(f"cell {index}: {difference}\n--- source:\n{cell.source}")
        compared += 1
    assert not failures, f"{chapter}:\n" + "\n=====\n".join(failures)
    assert not unused, f"{chapter}: DIFFERS or SKIP lists cells that no longer exist: {sorted(unused)}"
    assert converted == (chapter in DATASETS), f"{chapter}: no cell calls {DATASETS[chapter]!r} any more"
    assert namespace["torch"] is torch, "the imports were not swapped"
    assert compared >= (1 if chapter.startswith("00_") else 5), f"{chapter}: only {compared} cells were compared"
