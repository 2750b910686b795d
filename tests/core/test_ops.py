"""One op table (op_table.py) drives three checks of every built-in op:

1. forward against numpy (values, dtype, shape), on float32 inputs;
2. `minigrad.autograd.gradcheck` against finite differences, in float64, and `gradgradcheck` (the backward's own
   derivatives) on the same rows;
3. parity against real PyTorch on float32 and float64 inputs: values, dtype, shape, requires_grad, grad_fn
   name and the whole graph below it (node names and edges) of every output, its repr when the values are
   bitwise equal, then the `.grad` of every input after a backward with a random upstream gradient.

A last test checks the table itself: every `Function` in minigrad/ops appears in some case's graph.
"""
import inspect
import zlib

import numpy as np
import pytest

import minigrad
from minigrad.autograd import Function

from .op_table import CASES, ERRORS, FLOAT

# the conv2d_same_even_kernel row warns on both libraries, as PyTorch does; that the warning is torch's own is
# checked in tests/nn/test_nn_parity_functional.py (test_conv2d_same_with_an_even_kernel_warns_as_torch)
pytestmark = pytest.mark.filterwarnings("ignore:Using padding='same' with even kernel lengths:UserWarning")

TOLERANCE = {"float32": dict(rtol=1e-5, atol=1e-6), "float64": dict(rtol=1e-10, atol=1e-12)}
GRAD_TOLERANCE = {"float32": dict(rtol=1e-4, atol=1e-5), "float64": dict(rtol=1e-9, atol=1e-11)}


def draw(case, float_dtype):
    """The case's input arrays, the same on every run (the RNG is seeded by the case id)."""
    rng = np.random.default_rng(zlib.crc32(case.id.encode()))
    return [a.draw(rng, float_dtype) for a in case.args], rng


def as_tuple(out):
    return tuple(out) if isinstance(out, (tuple, list)) else (out,)


def make(lib, array, requires_grad=False):
    t = lib.tensor(array, dtype=getattr(lib, str(array.dtype)))
    return t.requires_grad_() if requires_grad else t


def close(received, expected, dtype, tolerance=TOLERANCE):
    if dtype in tolerance:
        return np.allclose(received, expected, equal_nan=True, **tolerance[dtype])
    return np.array_equal(received, expected)


# ---- 1. forward against numpy ---------------------------------------------------------------------------------
@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_forward_matches_numpy(case):
    arrays, _ = draw(case, "float32")
    expected = as_tuple(case.ref(*[a.copy() for a in arrays]))
    received = as_tuple(case.fn(minigrad, *[make(minigrad, a) for a in arrays]))
    assert len(received) == len(expected), f"{case.id}: received {len(received)} outputs, expected {len(expected)}"
    for k, (r, e) in enumerate(zip(received, expected)):
        e = np.asarray(e)
        want_dtype = case.dtype if (case.dtype and k == 0) else str(e.dtype)
        got = r.detach().numpy()
        assert str(got.dtype) == want_dtype, f"{case.id} output {k}: received dtype {got.dtype}, expected {want_dtype}"
        assert got.shape == e.shape, f"{case.id} output {k}: received shape {got.shape}, expected {e.shape}"
        assert close(got, e.astype(want_dtype), want_dtype), (
            f"{case.id} output {k}: received\n{got}\nexpected (numpy)\n{e}")


# ---- 2. gradcheck in float64 ------------------------------------------------------------------------------
GRAD_CASES = [c for c in CASES if c.grad and c.gradcheck]


@pytest.mark.parametrize("case", GRAD_CASES, ids=lambda c: c.id)
def test_gradcheck_float64(case):
    arrays, _ = draw(case, "float64")
    arrays = [a.astype("float64") if a.dtype.kind == "f" else a for a in arrays]
    inputs = tuple(make(minigrad, a, requires_grad=arg.requires_grad(a)) for a, arg in zip(arrays, case.args))
    assert any(t.requires_grad for t in inputs), f"{case.id}: marked grad=True but has no float input"

    def fn(*xs):
        outs = tuple(o for o in as_tuple(case.fn(minigrad, *xs)) if o.dtype.is_floating_point)
        return outs if len(outs) > 1 else outs[0]

    assert minigrad.autograd.gradcheck(fn, inputs, eps=1e-6, atol=1e-6, rtol=1e-4), case.id


# ---- 2b. gradgradcheck in float64: every backward is itself differentiable ---------------------------------
GRADGRAD_CASES = [pytest.param(c, id=c.id, marks=[pytest.mark.skip(reason=c.gradgrad)] if c.gradgrad else [])
                  for c in GRAD_CASES]


@pytest.mark.parametrize("case", GRADGRAD_CASES)
def test_gradgradcheck_float64(case):
    arrays, _ = draw(case, "float64")
    arrays = [a.astype("float64") if a.dtype.kind == "f" else a for a in arrays]
    inputs = tuple(make(minigrad, a, requires_grad=arg.requires_grad(a)) for a, arg in zip(arrays, case.args))

    def fn(*xs):
        outs = tuple(o for o in as_tuple(case.fn(minigrad, *xs)) if o.dtype.is_floating_point)
        return outs if len(outs) > 1 else outs[0]

    assert minigrad.autograd.gradgradcheck(fn, inputs, eps=1e-6, atol=1e-6, rtol=1e-4), case.id


def test_gradcheck_catches_a_wrong_backward():
    class WrongSquare(Function):
        """z = x**2, with a backward that forgets the factor 2"""
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return g * x

    x = minigrad.tensor([0.5, -1.5], dtype=minigrad.float64, requires_grad=True)
    assert minigrad.autograd.gradcheck(WrongSquare.apply, (x,), raise_exception=False) is False, (
        "received True from gradcheck for a backward that is off by a factor 2, expected False")
    with pytest.raises(minigrad.autograd.GradcheckError, match="Jacobian mismatch"):
        minigrad.autograd.gradcheck(WrongSquare.apply, (x,))


# ---- 3. parity with real torch ------------------------------------------------------------------------------
PARITY = [pytest.param(c, "float32", id=f"{c.id}-float32") for c in CASES] + [
    pytest.param(c, "float64", id=f"{c.id}-float64") for c in CASES if any(a.dtype == FLOAT for a in c.args)]


def describe(lib, t):
    name = None if t.grad_fn is None else t.grad_fn.name()
    return {"dtype": str(t.dtype), "shape": tuple(t.shape), "requires_grad": t.requires_grad, "grad_fn": name}


def graph(node):
    """The graph below a node as nested (name, (children...)); None for an edge that carries no gradient."""
    if node is None:
        return None
    name = node.name().replace("torch::autograd::", "")
    return (name, tuple(graph(n) for n, _ in node.next_functions)) if node.next_functions else name


def compare_tensor(what, received, expected, tolerance):
    """Assert a minigrad tensor equals a torch tensor: values, dtype, shape (not the graph)."""
    r_dtype, e_dtype = str(received.dtype), str(expected.dtype)
    assert r_dtype == e_dtype, f"{what}: received dtype {r_dtype}, expected (torch) {e_dtype}"
    assert tuple(received.shape) == tuple(expected.shape), (
        f"{what}: received shape {tuple(received.shape)}, expected (torch) {tuple(expected.shape)}")
    r, e = received.detach().numpy(), expected.detach().numpy()
    assert close(r, e, e_dtype.replace("torch.", ""), tolerance), f"{what}: received\n{r}\nexpected (torch)\n{e}"


@pytest.mark.parametrize("case, float_dtype", PARITY)
def test_parity_with_torch(case, float_dtype, torch):
    arrays, rng = draw(case, float_dtype)
    results = {}
    for lib in (torch, minigrad):
        inputs = [make(lib, a, requires_grad=arg.requires_grad(a)) for a, arg in zip(arrays, case.args)]
        results[lib] = inputs, as_tuple(case.fn(lib, *inputs))
    (t_in, t_out), (m_in, m_out) = results[torch], results[minigrad]
    assert len(m_out) == len(t_out), f"{case.id}: received {len(m_out)} outputs, expected (torch) {len(t_out)}"
    for k, (m, t) in enumerate(zip(m_out, t_out)):
        assert describe(minigrad, m) == describe(torch, t), (
            f"{case.id} output {k}: received {describe(minigrad, m)}, expected (torch) {describe(torch, t)}")
        assert graph(m.grad_fn) == graph(t.grad_fn), (
            f"{case.id} output {k} graph: received\n{graph(m.grad_fn)}\nexpected (torch)\n{graph(t.grad_fn)}")
        compare_tensor(f"{case.id} output {k}", m, t, TOLERANCE)
        if np.array_equal(m.detach().numpy(), t.detach().numpy()):    # same values: the reprs must match too
            assert repr(m) == repr(t), f"{case.id} output {k} repr: received\n{m!r}\nexpected (torch)\n{t!r}"

    differentiable = [k for k, t in enumerate(t_out) if t.requires_grad]
    if not differentiable:
        return
    upstream = [rng.standard_normal(tuple(t_out[k].shape)).astype(str(t_out[k].dtype).replace("torch.", ""))
                for k in differentiable]
    for lib, outs in ((torch, t_out), (minigrad, m_out)):
        lib.autograd.backward([outs[k] for k in differentiable], [make(lib, g) for g in upstream])
    # gradients are as precise as the least precise dtype that the computation went through
    least = "float32" if any(t.dtype == torch.float32 for t in t_in + list(t_out)) else "float64"
    grad_tolerance = dict.fromkeys(("float32", "float64"), GRAD_TOLERANCE[least])
    for i, (m, t) in enumerate(zip(m_in, t_in)):
        if t.grad is None or m.grad is None:
            assert m.grad is None and t.grad is None, (
                f"{case.id} input {i}: received grad {m.grad}, expected (torch) {t.grad}")
            continue
        compare_tensor(f"{case.id} grad of input {i}", m.grad, t.grad, grad_tolerance)


# ---- misuses raise what torch raises (the parity harness compares: tests/parity_harness.py) ----------------
@pytest.mark.parametrize("fn", [pytest.param(fn, id=name) for name, fn in ERRORS])
def test_misuse_raises_like_torch(fn, parity):
    parity(fn)


# ---- the table covers every op ----------------------------------------------------------------------------
def _functions_in_ops():
    import minigrad.ops as ops
    import pkgutil
    import importlib
    found = set()
    for info in pkgutil.iter_modules(ops.__path__):
        module = importlib.import_module(f"minigrad.ops.{info.name}")
        for _, obj in inspect.getmembers(module, inspect.isclass):
            # a built-in op names its node; a base class that only shares code between rows (rounding.py) does not
            if issubclass(obj, Function) and obj.__dict__.get("node_name") and obj.__module__ == module.__name__:
                found.add(obj)
    return found


def test_table_covers_every_op_in_minigrad_ops():
    reached = set()
    for case in CASES:
        arrays, _ = draw(case, "float32")
        inputs = [make(minigrad, a, requires_grad=arg.requires_grad(a)) for a, arg in zip(arrays, case.args)]
        outs = as_tuple(case.fn(minigrad, *inputs))
        stack = [o.grad_fn for o in outs if o.grad_fn is not None]
        # Functions used only inside backward formulas (ThresholdBackward, SelectBackward, ...) show in the
        # graphs of the first, second and third gradients, recorded with create_graph=True; grad_outputs that require
        # grad make even linear ops' backward record a node
        wrt = [t for t in inputs if t.requires_grad]
        for _ in range(3):
            outs = [o for o in outs if o is not None and o.grad_fn is not None]
            if not (outs and wrt):
                break
            seeds = [minigrad.ones_like(o).requires_grad_() for o in outs]
            try:
                outs = minigrad.autograd.grad(outs, wrt, seeds, create_graph=True, allow_unused=True)
            except RuntimeError as e:       # a gradient that torch does not differentiate (NotImplemented node)
                if "is not implemented" not in str(e):
                    raise
                break
            stack += [g.grad_fn for g in outs if g is not None and g.grad_fn is not None]
            wrt = wrt + seeds
        while stack:
            node = stack.pop()
            reached.add(getattr(node, "_forward_cls", None))
            stack.extend(n for n, _ in node.next_functions if n is not None)
    missing = sorted(f.__name__ for f in _functions_in_ops() - reached)
    assert not missing, f"ops with no case in op_table.py: received coverage without {missing}, expected all"
