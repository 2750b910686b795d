"""The backward engine: one iterative generator (`backward_steps`) that `Tensor.backward` runs to the end.

Expected gradients come from hand math or from real torch, never from minigrad itself.
"""
import gc
import io
import math
import pathlib
import tokenize

import numpy as np
import pytest
from parity_harness import run_both

import minigrad
from minigrad.core import engine
from minigrad.autograd.graph import FREED_MESSAGE

MINIGRAD = pathlib.Path(minigrad.__file__).parent


def leaf(values, dtype=None):
    return minigrad.tensor(values, dtype=dtype or minigrad.float64, requires_grad=True)


def assert_grad(t, expected, what="grad"):
    received = None if t.grad is None else t.grad.numpy()
    assert received is not None and np.allclose(received, expected, rtol=1e-10, atol=1e-12), (
        f"{what}: received {received}, expected {np.asarray(expected)}")


def nodes_below(t):
    """Every node reachable from t.grad_fn (a test-side walk, to check what the engine visited)."""
    seen, stack = {}, [t.grad_fn]
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen[id(node)] = node
        stack.extend(n for n, _ in node.next_functions)
    return list(seen.values())


# ---- a long chain runs iteratively --------------------------------------------------------------------------
def test_backward_through_a_100000_node_chain():
    x = leaf([0.5])
    y, n = x, 100_000
    gc.disable()                 # Python's cyclic GC rescans the growing graph and makes the build ~10x slower
    try:
        for i in range(n // 2):  # half multiply by c, half add 1: dy/dx = c ** (n / 2)
            y = y * 1.00001
            y = y + 1.0
    finally:
        gc.enable()
    assert len(nodes_below(y)) == n + 1, f"received {len(nodes_below(y))} nodes, expected {n + 1}"
    y.backward()                 # a recursive engine would raise RecursionError here
    assert_grad(x, [1.00001 ** (n // 2)], "grad after a 100,000-node chain")
    x_ = 0.5
    for _ in range(n // 2):
        x_ = x_ * 1.00001 + 1.0
    assert math.isclose(y.item(), x_, rel_tol=1e-12), f"received {y.item()}, expected {x_}"


# ---- gradients accumulate where paths meet ----------------------------------------------------------------
def test_reused_tensor_x_times_x():
    x = leaf([1.5, -2.0])
    (x * x).sum().backward()
    assert_grad(x, [3.0, -4.0], "d(x*x)/dx = 2x")


def test_diamond_runs_the_shared_node_once_with_the_summed_gradient():
    x = leaf([1.0, 2.0])
    h = x.exp()                  # shared by both branches
    y = (h * 2 + h * h).sum()    # dy/dh = 2 + 2h
    steps = list(engine.backward_steps(y))
    names = [s.name for s in steps]
    assert names.count("ExpBackward0") == 1, f"received {names}, expected ExpBackward0 exactly once"
    (exp_step,) = [s for s in steps if s.name == "ExpBackward0"]
    e = np.exp([1.0, 2.0])
    np.testing.assert_allclose(exp_step.grad_outputs[0].numpy(), 2 + 2 * e,
                               err_msg="received the gradient into the shared node, expected the sum 2 + 2h")
    assert_grad(x, (2 + 2 * e) * e, "diamond grad")


def test_gradients_accumulate_across_backward_calls():
    x = leaf([1.0, 3.0])
    (x * 2).sum().backward()
    grad = x.grad
    (x * x).sum().backward()
    assert_grad(x, [2 + 2, 2 + 6], "grad after two backward calls")
    assert x.grad is grad, "received a new .grad tensor, expected the same one accumulated in place (as torch)"


# ---- backward_steps: one record per node -------------------------------------------------------------------
def test_backward_steps_records_every_node_once_with_its_gradients():
    x, w = leaf([1.0, 2.0, 3.0]), leaf([0.5, -1.0, 2.0])
    y = (x * w).sum()
    steps = list(engine.backward_steps(y, retain_graph=True))
    graph_nodes = nodes_below(y)
    assert sorted(id(s.node) for s in steps) == sorted(id(n) for n in graph_nodes), (
        f"received steps {[s.name for s in steps]}, expected one per node {[n.name() for n in graph_nodes]}")
    assert [s.index for s in steps] == list(range(len(steps)))
    by_name = {s.name: s for s in steps if s.name != "torch::autograd::AccumulateGrad"}
    assert set(by_name) == {"SumBackward0", "MulBackward0"}, f"received {sorted(by_name)}"
    s = by_name["SumBackward0"]
    assert steps[0] is s, f"received {steps[0].name} first, expected SumBackward0 (the root)"
    assert s.grad_outputs[0].numpy().tolist() == 1.0, f"received {s.grad_outputs}, expected (tensor(1.),)"
    assert s.grad_inputs[0].numpy().tolist() == [1.0, 1.0, 1.0], f"received {s.grad_inputs}"
    m = by_name["MulBackward0"]
    assert [g.numpy().tolist() for g in m.grad_inputs] == [[0.5, -1.0, 2.0], [1.0, 2.0, 3.0]], (
        f"received {m.grad_inputs}, expected (w, x)")
    assert m.next_functions == m.node.next_functions
    accs = [s for s in steps if s.name == "torch::autograd::AccumulateGrad"]
    assert {id(a.variable) for a in accs} == {id(x), id(w)}, "received AccumulateGrad steps for other leaves"
    for a in accs:
        assert a.grad_after is a.variable.grad
        assert a.grad_before is None, "the engine copies no .grad for views: the stepper keeps its own"
    # a second run: grad_after is the sum (.grad before the call is the stepper's copy: test_widget_stepper)
    steps = list(engine.backward_steps(y))
    for a in (s for s in steps if s.variable is not None):
        other = w if a.variable is x else x
        assert a.grad_after.tolist() == (2 * other).tolist(), f"received {a.grad_after}, expected {2 * other}"


def test_backward_steps_is_lazy():
    x = leaf([1.0])
    y = x.exp().exp()
    gen = engine.backward_steps(y)
    first = next(gen)
    assert first.name == "ExpBackward0" and x.grad is None, (
        f"received x.grad={x.grad} after one step, expected None (AccumulateGrad has not run yet)")
    rest = list(gen)
    assert [s.name for s in rest] == ["ExpBackward0", "torch::autograd::AccumulateGrad"], f"received {rest}"
    assert_grad(x, [math.exp(1 + math.exp(1))])


def test_tensor_backward_runs_backward_steps_to_the_end(monkeypatch):
    calls = []
    real = engine.backward_steps

    def spy(*args, **kwargs):
        calls.append(args)
        kwargs["describe"] = True       # backward() asks for no BackwardStep records; the spy wants the names
        for step in real(*args, **kwargs):
            calls.append(step.name)
            yield None

    monkeypatch.setattr(engine, "backward_steps", spy)
    x = leaf([2.0])
    (x * x).sum().backward()
    names = calls[1:]
    assert len(calls) > 1 and isinstance(calls[0], tuple), "received no call of backward_steps from backward()"
    assert names == ["SumBackward0", "MulBackward0", "torch::autograd::AccumulateGrad"], f"received {names}"
    assert_grad(x, [4.0])
    minigrad.autograd.backward([(x * 3).sum()])
    assert calls.count("MulBackward0") == 2, "received autograd.backward without backward_steps"


def test_execution_order_matches_torch(torch):
    """The engine calls nodes in PyTorch's order (latest-created ready node first; AccumulateGrad at once)."""
    def build(lib):
        a = lib.tensor([1.0, -2.0], requires_grad=True)
        b = lib.tensor([0.5, 3.0], requires_grad=True)
        h = a * b
        u, v = h.exp(), h.tanh()
        return a, b, ((u + v) * a + (v * b).sigmoid()).sum()

    *_, y = build(torch)
    order = []
    for node in nodes_below(y):
        node.register_prehook(lambda grads, node=node: order.append(node.name()))
    y.backward()
    *_, m = build(minigrad)
    received = [s.name for s in engine.backward_steps(m)]
    assert received == order, f"received order {received}, expected (torch) {order}"


# ---- saved tensors are freed; version counters catch in-place changes ---------------------------------
def test_saved_tensors_freed_after_backward():
    x = leaf([1.0, 2.0])
    y = (x * x).sum()
    y.backward()
    with pytest.raises(RuntimeError) as info:
        y.backward()
    assert str(info.value) == FREED_MESSAGE, f"received {info.value}"


def test_retain_graph_allows_a_second_backward():
    x = leaf([1.0, 2.0])
    y = (x * x).sum()
    y.backward(retain_graph=True)
    y.backward(retain_graph=True)
    y.backward()
    assert_grad(x, [6.0, 12.0], "grad after three backward calls")
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        y.backward()


def test_freed_error_matches_torch(parity):
    def second_backward(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x.exp().sum()
        y.backward()
        y.backward()
    parity(second_backward)


VERSION_ERRORS = {
    "saved_output": lambda L, x: x.exp().add_(1),                     # exp saved its output
    "saved_input": lambda L, x: (lambda a: (a * a, a.mul_(3))[0])(x * 2),
    "saved_sigmoid": lambda L, x: (x * 2).sigmoid().mul_(2),
    "leaf_data": lambda L, x: (lambda c: ((x * x), c.add_(1))[0])(x.detach()),
    "clamp_named_clamp1": lambda L, x: (lambda a: (a * a, a.clamp_(0, 1.5))[0])(x * 1),
    "fill_named_fill2": lambda L, x: (lambda a: (a * a, a.fill_(2.0))[0])(x * 1),
    "setitem_named_copyslices": lambda L, x: (lambda a: (a * a, a.__setitem__(0, 1.0))[0])(x * 1),
    "mask_named_indexput": lambda L, x: (lambda a: (a * a, a.__setitem__(a > 1, 1.0))[0])(x * 1),
    "twice_modified": lambda L, x: (lambda a: (a.log(), a.add_(1), a.add_(1))[0])(x + 0),   # log saved a
}


@pytest.mark.parametrize("name", list(VERSION_ERRORS))
def test_version_check_error_matches_torch(name, torch):
    def example(lib):
        x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        VERSION_ERRORS[name](lib, x).sum().backward()
    assert run_both(example, torch, minigrad).raised is not None, "the test is wrong: torch did not raise"


# In-place changes through views: PyTorch rewrites the base's history (CopySlices wrapping the op's node) and
# the view's (AsStridedBackward0), and regenerates views whose base changed. minigrad does the same.
VIEW_PROGRAMS = {
    "change_through_a_view": lambda lib, x: (x[0].mul_(2), x),
    "augmented_assignment_on_an_item": lambda lib, x: (x.__setitem__(0, x[0].__imul__(2)), x),
    "use_a_view_after_its_base_changed": lambda lib, x: (lambda v: (x.mul_(2), v * v))(x[1:]),
    "view_of_a_view_of_a_transpose": lambda lib, x: (lambda m: (m.t()[0].add_(10), m * m))(x.view(3, 1) * 1),
    "value_that_requires_grad_into_a_plain_tensor": lambda lib, x: (
        lambda z: (z[0:2].add_(x[:2]), z * z))(lib.zeros(3)),
}


@pytest.mark.parametrize("name", list(VIEW_PROGRAMS))
def test_in_place_changes_through_views_match_torch(parity, name):
    def example(lib):
        a = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        out = VIEW_PROGRAMS[name](lib, a * 1)[-1]
        out.sum().backward()
        names = [out.grad_fn.name()] + [n.name() if n else None for n, _ in out.grad_fn.next_functions]
        return a.grad.tolist(), out.tolist(), names
    parity(example, rtol=0, atol=0)


def test_views_of_a_leaf_changed_in_place_get_torchs_error(torch):
    for lib in (minigrad, torch):
        a = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        with pytest.raises(RuntimeError, match="a view of a leaf Variable that requires grad is being used"):
            a[0].mul_(2)


def test_a_view_changed_without_recording_is_fine_and_matches_torch(parity):
    def example(lib):
        a = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        x = a * 1
        with lib.no_grad():
            x[0].mul_(2)
        x[0] = x[0] * 2                                   # the out-of-place spelling of x[0] *= 2
        x.sum().backward()
        return a.grad.tolist(), x.tolist()
    parity(example, rtol=0, atol=0)


# ---- hooks and retain_grad --------------------------------------------------------------------------------
def hooks_example(lib):
    """Hooks on a leaf and a non-leaf (one changes the gradient, one is removed), retain_grad on a non-leaf."""
    seen = []
    x = lib.tensor([1.0, -2.0, 3.0], requires_grad=True)
    h = x * 2
    h.retain_grad()
    h.register_hook(lambda g: seen.append(("h", g.tolist())))
    h.register_hook(lambda g: g * 10)                          # replaces the gradient flowing on
    removed = h.register_hook(lambda g: seen.append(("removed", g.tolist())))
    removed.remove()
    x.register_hook(lambda g: seen.append(("x", g.tolist())))
    z = h * h + h                                              # h used twice: its hook sees the sum, once
    z.sum().backward()
    return seen, x.grad.tolist(), h.grad.tolist(), h.retains_grad, x.retains_grad


def test_hooks_and_retain_grad_match_torch(parity):
    parity(hooks_example, rtol=0, atol=0)


def test_hook_sees_the_summed_gradient_by_hand():
    seen = []
    x = leaf([1.0, 2.0])
    h = x * 3
    h.register_hook(lambda g: seen.append(g.numpy().copy()))
    (h * h + h).sum().backward()
    assert len(seen) == 1, f"received {len(seen)} hook calls, expected 1"
    np.testing.assert_allclose(seen[0], 2 * np.array([3.0, 6.0]) + 1, err_msg="received hook gradient")
    assert_grad(x, 3 * (2 * np.array([3.0, 6.0]) + 1))


# ---- grad modes -------------------------------------------------------------------------------------------
def test_no_grad_records_nothing():
    x = leaf([1.0, 2.0])
    with minigrad.no_grad():
        assert minigrad.is_grad_enabled() is False
        y = x * 2
        with minigrad.enable_grad():
            z = x * 2
    assert minigrad.is_grad_enabled() is True
    assert (y.requires_grad, y.grad_fn) == (False, None), f"received {y.requires_grad, y.grad_fn}"
    assert z.grad_fn.name() == "MulBackward0", f"received {z.grad_fn}"

    @minigrad.no_grad()
    def double(t):
        return t * 2
    assert double(x).grad_fn is None
    with minigrad.set_grad_enabled(False):
        assert (x + 1).grad_fn is None
    assert (x + 1).grad_fn is not None


def test_backward_inside_no_grad_still_computes_gradients():
    x = leaf([1.0, 2.0])
    y = (x * x).sum()
    with minigrad.no_grad():
        y.backward()
    assert_grad(x, [2.0, 4.0])


# ---- one traversal ----------------------------------------------------------------------------------------
def test_only_the_engine_walks_next_functions():
    """In minigrad's code (not comments or docstrings), `next_functions` is read by the engine's loop (routing
    gradients) and by the one walk of the graph, `count_dependencies` in core/graph.py (once); graph.py,
    function.py, views.py and once_differentiable.py may only define or assign it (views.py's CopySlices copies
    the edges of the node it wraps when it is built: construction, not traversal)."""
    readers, walks, misuse = [], [], []
    for path in sorted(MINIGRAD.rglob("*.py")):
        tokens = list(tokenize.generate_tokens(io.StringIO(path.read_text()).readline))
        for k, tok in enumerate(tokens):
            if tok.type != tokenize.NAME or tok.string != "next_functions":
                continue
            rel = path.relative_to(MINIGRAD).as_posix()
            assigned = k + 1 < len(tokens) and tokens[k + 1].string == "="
            if rel in ("core/graph.py", "core/function.py", "_tensor/views.py",
                       "autograd/once_differentiable.py") and assigned:
                continue
            if rel == "_tensor/views.py" and tokens[k - 2].string == "fn" and tokens[k + 1].string == "[":
                continue                                    # fn.next_functions[1:], copied once at construction
            if rel == "core/graph.py":
                walks.append(f"{rel}:{tok.start[0]}")
                continue
            (readers if rel == "core/engine.py" else misuse).append(f"{rel}:{tok.start[0]}")
    assert readers, "received no use of next_functions in core/engine.py, expected the engine to walk it"
    assert len(walks) == 1, f"received {walks}, expected one read in core/graph.py (count_dependencies)"
    assert not misuse, (f"received other readers of next_functions {misuse}, expected only core/engine.py and "
                        "the walk in core/graph.py")


def test_backward_frees_the_saved_tensors_themselves():
    """Not just a flag: once backward ran, nothing keeps the intermediate tensors alive (only retain_graph does)."""
    import gc
    import weakref

    def chain(retain_graph):
        x = minigrad.tensor([0.5, -1.0, 2.0], requires_grad=True)
        hidden = (x * 2).tanh()                  # TanhBackward0 saves its output: `hidden`
        ref = weakref.ref(hidden)
        y = (hidden * 3).sum()
        del hidden
        y.backward(retain_graph=retain_graph)
        gc.collect()
        return ref() is None, y

    freed, _ = chain(retain_graph=False)
    kept, y = chain(retain_graph=True)
    assert freed, "after backward the saved output of tanh is still alive"
    assert not kept, "with retain_graph=True the saved tensor should stay alive for a second backward"
