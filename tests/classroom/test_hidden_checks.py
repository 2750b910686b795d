"""The hidden test cases (minigrad_book/hidden/chNN.py): the book's own solutions pass them, wrong answers fail.

Each chapter's answers run in one namespace, built the way the grader builds it: the chapter's own definitions
(imports, functions, classes) in notebook order, each exercise's stub replaced by its solution. Then every check
cell's call runs, the visible check first and then the hidden one, with the same arguments. The wrong answers
in WRONG are ones a learner could hand in that pass the visible check: only the hidden cases catch them. Those
in ALSO_WRONG the visible check catches already; the hidden check must catch them on its own too.
"""
import ast
import importlib
import warnings

import nbformat
import pytest

from minigrad_book import chapters, plan
from widgets.exercises import Feedback

from .conftest import ROOT, SOLUTION_CODE

CHAPTERS = ["01_tensors_and_the_graph", "02_module_apply", "03_tensor_apply_", "04_function_apply",
            "05_backward_and_grad_output", "06_how_backward_runs", "07_setup_context", "08_non_tensor_arguments",
            "09_outputs_and_in_place", "10_save_for_backward", "11_legacy_functions", "12_function_vs_module",
            "13_gradients_of_gradients", "14_capstone", "15_forward_mode",
            "16_torch_func", "17_saved_tensors", "18_hooks"]
# the prediction exercises: the answer is a value the learner writes down, so there is no other case to try
PREDICTIONS = {"check_visit_order", "check_int_prediction", "check_weights", "check_bad_input", "check_which"}
DEFINITIONS = (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.ClassDef)


def _notebook(chapter):
    nb = nbformat.read(ROOT / "book" / f"{chapter}.ipynb", as_version=4)
    chapters.tag(nb)
    return nb


def _run_definitions(source, namespace):
    """Run the imports, functions, classes and `name = thing.attr` lines of a teacher's cell (not its demos)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return                                          # a cell with IPython syntax defines nothing we need
    for node in tree.body:
        if isinstance(node, DEFINITIONS):
            exec(compile(ast.Module([node], []), "<chapter>", "exec"), namespace)
        elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Attribute):
            try:                                        # relu = MyReLU.apply, but not x.grad of a demo's x
                exec(compile(ast.Module([node], []), "<chapter>", "exec"), namespace)
            except NameError:
                pass


def answered(chapter, replace=None):
    """Return (namespace, check calls) with every exercise answered by its solution or by `replace[id]`."""
    nb, replace = _notebook(chapter), replace or {}
    solutions = {ex.id: SOLUTION_CODE.search(ex.solution).group(1) for ex in chapters.exercises(nb)}
    namespace, done, calls = {"__name__": "__main__"}, set(), []
    aliases = chapters.module_aliases(nb)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for cell in nb.cells:
            ident, kind = chapters.exercise_of(cell), set(chapters.tags(cell))
            if cell.cell_type != "code" or chapters.SOLUTION in kind:
                continue
            if ident and chapters.CHECK in kind:
                calls.append(chapters.parse_check(cell.source, aliases))
            elif ident:
                if ident not in done:
                    exec(compile(replace.get(ident, solutions[ident]), f"<{ident}>", "exec"), namespace)
                    done.add(ident)
            else:
                _run_definitions(cell.source, namespace)
    return namespace, calls


def run_checks(namespace, call):
    """Return the (visible, hidden) Feedback of one check call; hidden is None if there is no hidden test."""
    args = [eval(a, namespace) for a in call.args]
    visible = getattr(importlib.import_module(call.module), call.function)(*args)
    hidden_module = importlib.import_module(f"minigrad_book.hidden.{call.module.rsplit('.', 1)[-1]}")
    hidden_check = getattr(hidden_module, call.function, None)
    return visible, (None if hidden_check is None else hidden_check(*args))


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_the_solution_passes_every_visible_and_hidden_check(chapter):
    namespace, calls = answered(chapter)
    assert calls, f"{chapter} has no check cells"
    for call in calls:
        visible, hidden = run_checks(namespace, call)
        assert type(visible) is Feedback and visible.ok, f"{chapter}: the solution fails {call.function}: {visible}"
        if call.function in PREDICTIONS:
            assert hidden is None, f"{chapter}: {call.function} is a prediction; it has no hidden cases"
            continue
        assert hidden is not None, f"{chapter}: {call.function} has no hidden test"
        assert type(hidden) is Feedback and hidden.ok, f"{chapter}: the solution fails the hidden " \
                                                       f"{call.function}: {hidden}"


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_the_grader_finds_a_hidden_test_for_every_check_but_the_predictions(chapter):
    nb = _notebook(chapter)
    for ex in chapters.exercises(nb):
        for call in ex.checks:
            found = call.function in plan.hidden_tests(call.module)
            assert found == (call.function not in PREDICTIONS), \
                f"{chapter}: hidden test for {call.function} found: {found}"
    visible = importlib.import_module(f"widgets.exercises.ch{chapter[:2]}")
    stray = [name for name in plan.hidden_tests(visible.__name__) if not name.startswith("_")
             and not hasattr(visible, name)]
    assert not stray, f"hidden ch{chapter[:2]} defines {stray}, which name no check: the grader never calls them"


# Wrong answers that pass the visible check: (exercise id, what is wrong, the solution's text, what replaces it).
# An empty solution text ("") means the wrong answer is the whole given source.
WRONG = [
    ("ch01.leaves_of", "walks only four levels down, as deep as the visible graphs go", "",
     "def leaves_of(t):\n    found = []\n\n    def walk(node, depth):\n"
     "        if node is None or depth == 0:\n            return\n"
     "        if hasattr(node, 'variable'):\n"
     "            if not any(v is node.variable for v in found):\n                found.append(node.variable)\n"
     "            return\n        for next_node, _ in node.next_functions:\n            walk(next_node, depth - 1)\n\n"
     "    walk(t.grad_fn, 4)\n    return found\n"),
    ("ch01.clip_hook", "returns the visible case's clipped gradient", "return grad.clamp(-1, 1)",
     "return torch.tensor([0.5, -1.0, 1.0])"),
    ("ch01.sgd_update", "ignores lr, uses the visible check's 0.1", "w -= lr * w.grad", "w -= 0.1 * w.grad"),
    ("ch02.init_constant", "sets every module with a weight, not only Linear", "isinstance(module, nn.Linear)",
     "hasattr(module, 'weight')"),
    ("ch02.my_apply", "recurses two levels only, as deep as the visible model", "",
     "def my_apply(module, fn):\n    for child in module.children():\n"
     "        for grandchild in child.children():\n            fn(grandchild)\n        fn(child)\n"
     "    fn(module)\n    return module\n"),
    ("ch03.apply_copy", "a list comprehension over t.tolist(): only 1-D tensors", "",
     "def apply_copy(t, fn):\n    return torch.tensor([fn(v) for v in t.tolist()], dtype=t.dtype)\n"),
    ("ch03.fast", "still one element at a time, stacked", "return 3 * t * t - 1",
     "return torch.stack([3 * v * v - 1 for v in t])"),
    ("ch04.square", "backward returns the visible check's expected gradient", "return grad_output * 2 * x",
     "return torch.tensor([-4.0, 10.0, 600.0])"),
    ("ch04.leaky_relu", "backward returns the visible check's expected gradient", "return grad_input",
     "return torch.tensor([0.1, 1.0, 100.0, 1000.0])"),
    ("ch05.jacobian", "zeroes x.grad after each row, so an earlier gradient leaks into row 0", "",
     "def jacobian(f, x):\n    rows = []\n    n = f(x).numel()\n    for i in range(n):\n        y = f(x)\n"
     "        one_hot = torch.zeros(n)\n        one_hot[i] = 1.0\n        y.backward(one_hot.reshape(y.shape))\n"
     "        rows.append(x.grad.reshape(-1).clone())\n        x.grad.zero_()\n    return torch.stack(rows)\n"),
    ("ch05.two_backwards", "one backward, then x.grad doubled", "loss.backward(retain_graph=True)\n    loss.backward()",
     "loss.backward()\n    x.grad = x.grad * 2"),
    ("ch06.topological_order", "a breadth-first walk", "",
     "def topological_order(loss):\n    order, seen, queue = [], set(), [loss.grad_fn]\n    while queue:\n"
     "        node = queue.pop(0)\n        if node is None or node in seen:\n            continue\n"
     "        seen.add(node)\n        order.append(node)\n"
     "        queue.extend(next_node for next_node, _ in node.next_functions)\n    return order\n"),
    ("ch07.mul", "ignores grad_output (all ones in the visible check)", "grad_x = grad_output * y",
     "grad_x = y"),
    ("ch08.power", "keeps n on the class, not on ctx", "",
     "class Power(autograd.Function):\n    @staticmethod\n    def forward(x, n):\n        return x ** n\n\n"
     "    @staticmethod\n    def setup_context(ctx, inputs, output):\n        x, n = inputs\n"
     "        ctx.save_for_backward(x)\n        Power.n = n\n\n"
     "    @staticmethod\n    def backward(ctx, grad_output):\n        x, = ctx.saved_tensors\n"
     "        return grad_output * Power.n * x ** (Power.n - 1), None\n"),
    ("ch08.clamp", "backward uses the visible check's bounds, -1 and 1", "grad_input[x < ctx.low] = 0",
     "grad_input[x < -1] = 0"),
    ("ch08.affine", "the visible check's scale, 2, written into backward", "grad_output * ctx.scale",
     "grad_output * 2"),
    ("ch09.square_and_cube", "ignores the gradients' values (all ones in the visible check)",
     "grad_x = grad_square * 2 * x", "grad_x = 2 * x"),
    ("ch09.clamp_with_mask", "backward compares x with 0, the visible check's lo, instead of using the mask", "",
     "class ClampWithMask(Function):\n    @staticmethod\n    def forward(x, lo):\n"
     "        return x.clamp(min=lo), (x > lo).to(x.dtype)\n\n"
     "    @staticmethod\n    def setup_context(ctx, inputs, output):\n"
     "        ctx.mark_non_differentiable(output[1])\n        ctx.save_for_backward(inputs[0])\n\n"
     "    @staticmethod\n    def backward(ctx, grad_clamped, grad_mask):\n        x, = ctx.saved_tensors\n"
     "        return grad_clamped * (x > 0).to(x.dtype), None\n"),
    ("ch09.mul_in_place", "backward multiplies by 3, the visible check's c", "return grad_output * ctx.c, None",
     "return grad_output * 3.0, None"),
    ("ch10.fixed_update", "returns the visible check's expected x", "return x", "return torch.tensor([2.0, 3.0])"),
    ("ch11.square", "ignores grad_output", "return 2 * x * grad_output", "return 2 * x"),
    ("ch11.leaky_relu", "ignores grad_output", "torch.where(x > 0, grad_output, grad_output * ctx.slope)",
     "torch.where(x > 0, torch.ones_like(x), torch.ones_like(x) * ctx.slope)"),
    ("ch12.small_net", "relu after the last layer instead of between the two", "self.out(relu(self.hidden(x)))",
     "relu(self.out(self.hidden(x)))"),
    ("ch12.train_step", "makes its own SGD(lr=0.5), as in the visible check, instead of using `optimizer`",
     "optimizer.zero_grad()", "optimizer = optim.SGD(model.parameters(), lr=0.5)\n    optimizer.zero_grad()"),
    ("ch13.hvp", "g @ v: right for a 1-D w only", "(g * v).sum()", "g @ v"),
    ("ch13.sin", "ignores grad_output", "return grad_output * x.cos()", "return x.cos()"),
    ("ch13.gradient_penalty", "divides by 4, the visible check's number of rows", ".mean()", ".sum() / 4"),
    ("ch14.my_gradcheck", "beta does not require grad, so its gradient goes unchecked",
     "dtype=torch.float64, requires_grad=True)\n    return", "dtype=torch.float64)\n    return"),
    ("ch14.swish_net", "the second Swish after the last layer instead of the middle one",
     "x = Swish.apply(self.fc2(x), self.beta2)\n        return self.out(x)",
     "return Swish.apply(self.out(self.fc2(x)), self.beta2)"),
    ("ch14.train", "the visible check's lr, 0.05, instead of the argument", "lr=lr)", "lr=0.05)"),
    ("ch15.cube_jvp", "a float64 tangent whatever x's dtype (the visible check's input is float64)",
     "return 3 * x ** 2 * x_t", "return (3 * x ** 2 * x_t).double()"),
    ("ch15.directional_derivative", "flattens x and v first: right for a vector x only",
     "out = f(fwAD.make_dual(x, v))", "out = f(fwAD.make_dual(x.reshape(-1), v.reshape(-1)))"),
    ("ch15.hvp", "flattens the product: right for a vector x only", "return func.jvp(func.grad(f), (x,), (v,))[1]",
     "return func.jvp(func.grad(f), (x,), (v,))[1].reshape(-1)"),
    ("ch16.per_sample_grads", "one flat row per sample: right for a vector w only", "(w, xs, ys)",
     "(w, xs, ys).reshape(len(xs), -1)"),
    ("ch16.ensemble_predict", "a fresh nn.Linear(3, 2), the visible check's architecture, instead of models[0]",
     "    def run(p, b, x):\n        return func.functional_call(models[0],",
     "    template = nn.Linear(3, 2)\n\n    def run(p, b, x):\n        return func.functional_call(template,"),
    ("ch17.half_hooks", "halves float64 tensors too (the visible check's tensors are float32)",
     "t.dtype == torch.float32 else t", "t.is_floating_point() else t"),
    ("ch17.checkpointed", "preserve_rng_state=False: right until a block draws random numbers",
     "use_reentrant=False)", "use_reentrant=False, preserve_rng_state=False)"),
    ("ch18.reverse_gradient", "t * torch.ones(3): the visible check's shape only", "t.view_as(t)", "t * torch.ones(3)"),
    ("ch18.record_grad_norms", "named_children(): right for a flat Sequential only", "model.named_modules()",
     "model.named_children()"),
]


# Wrong answers that the visible check already rejects: the hidden check must reject them on its own too.
ALSO_WRONG = [
    ("ch06.count_dependencies", "counts nodes, not edges", "counts[next_node] += 1", "counts[next_node] = 1"),
    ("ch06.my_backward", "overwrites a node's buffer instead of adding to it",
     "grad if next_node not in buffers else buffers[next_node] + grad", "grad"),
    ("ch07.sigmoid", "ignores grad_output", "return grad_output * s * (1 - s)", "return s * (1 - s)"),
    ("ch10.sigmoid", "ignores grad_output", "return grad_output * y * (1 - y)", "return y * (1 - y)"),
    ("ch10.softsign", "ignores grad_output", "return grad_output / d ** 2", "return 1 / d ** 2"),
    ("ch14.swish", "beta's gradient ignores grad_output", "grad_beta = (grad_output * x * x", "grad_beta = (x * x"),
]


def _chapter_of(exercise):
    return next(c for c in CHAPTERS if c.startswith(exercise[2:4]))


def _checked(exercise, old, new):
    """Answer `exercise` with its solution edited (or replaced, if `old` is ""); return (visible, hidden)."""
    chapter = _chapter_of(exercise)
    solution = SOLUTION_CODE.search(next(ex.solution for ex in chapters.exercises(_notebook(chapter))
                                         if ex.id == exercise)).group(1)
    assert old in solution, f"{exercise}: the solution no longer contains {old!r}"
    namespace, calls = answered(chapter, {exercise: solution.replace(old, new) if old else new})
    call = next(c for c in calls if f"{c.module.rsplit('.', 1)[-1]}.{c.function.removeprefix('check_')}" == exercise)
    return run_checks(namespace, call)


@pytest.mark.parametrize("exercise, what, old, new", WRONG, ids=[w[0] for w in WRONG])
def test_a_wrong_answer_that_passes_the_visible_check_fails_the_hidden_one(exercise, what, old, new):
    visible, hidden = _checked(exercise, old, new)
    assert visible.ok, f"{exercise} ({what}) should pass the visible check, got: {visible}"
    assert hidden is not None and not hidden.ok, f"{exercise} ({what}) passed the hidden check too: {hidden}"


@pytest.mark.parametrize("exercise, what, old, new", ALSO_WRONG, ids=[w[0] for w in ALSO_WRONG])
def test_a_wrong_answer_the_visible_check_catches_fails_the_hidden_one_too(exercise, what, old, new):
    visible, hidden = _checked(exercise, old, new)
    assert not visible.ok, f"{exercise} ({what}) now passes the visible check: move it to WRONG"
    assert hidden is not None and not hidden.ok, f"{exercise} ({what}) passed the hidden check: {hidden}"


def test_every_chapter_has_a_wrong_answer_that_only_the_hidden_checks_catch():
    covered = {_chapter_of(w[0]) for w in WRONG}
    assert covered == set(CHAPTERS), f"no wrong answer for {sorted(set(CHAPTERS) - covered)}"


def test_every_hidden_check_is_tried_on_a_wrong_answer():
    tried = {w[0] for w in WRONG + ALSO_WRONG} | {"ch04.count_nodes"}    # its hidden test predates this file
    untried = [ex.id for chapter in CHAPTERS for ex in chapters.exercises(_notebook(chapter))
               if ex.checks[0].function not in PREDICTIONS and ex.id not in tried]
    assert not untried, f"no wrong answer tries the hidden checks of {untried}"
