"""Higher derivatives of reductions, sort, matrix products and cat/stack, against real torch (float64).

For each case: y = op(*xs); gx = grad(y, xs, g, create_graph=True) with a random g that requires grad; then the
second derivatives grad((gx . v).sum(), xs + [g]) and the third ones grad((second . w).sum(), xs + [g]).
Values are compared, with an unused input (None) read as zeros: minigrad's formulas treat sign(x) and masks as
constants where torch records an `sgn` (whose derivative is 0), so the graphs differ there but not the values.
Also here: the `_saved_*` values these nodes declare, and the int64 dtype of every index they return.
"""
import numpy as np
import pytest
from parity_harness import run_both
from torch_reference import import_torch

import minigrad
from minigrad.ops import reduction, scatter
from minigrad.ops.linalg import Bmm

torch = import_torch()

INF = float("inf")

# (id, fn(lib, *xs), input shapes); inputs are distinct values (no ties) away from 0, unless `values` says
CASES = [
    ("sum", lambda L, x: x.sum(), [(2, 3)]),
    ("sum_dim", lambda L, x: x.sum(1), [(2, 3)]),
    ("sum_dims_keepdim", lambda L, x: x.sum((0, 2), keepdim=True), [(2, 3, 4)]),
    ("sum_neg_dims", lambda L, x: x.sum((-1, 0)), [(2, 3, 4)]),
    ("mean", lambda L, x: x.mean(), [(2, 3)]),
    ("mean_dim", lambda L, x: x.mean(-1), [(2, 3)]),
    ("mean_dims_keepdim", lambda L, x: x.mean((1, 2), keepdim=True), [(2, 3, 4)]),
    ("max", lambda L, x: x.max(), [(2, 3)]),
    ("min", lambda L, x: x.min(), [(3, 2)]),
    ("max_dim", lambda L, x: x.max(1).values, [(3, 4)]),
    ("max_dim_keepdim", lambda L, x: x.max(0, keepdim=True).values, [(3, 4)]),
    ("min_dim_neg", lambda L, x: x.min(-1).values, [(2, 3, 4)]),
    ("max_0d", lambda L, x: x.max(0).values, [()]),
    ("sort", lambda L, x: x.sort().values, [(3, 4)]),
    ("sort_dim0_descending", lambda L, x: x.sort(0, descending=True).values, [(3, 4)]),
    ("sort_0d", lambda L, x: x.sort().values, [()]),
    ("norm", lambda L, x: x.norm(), [(2, 3)]),
    ("norm_dim", lambda L, x: x.norm(dim=1), [(2, 3)]),
    ("norm_dim_keepdim", lambda L, x: x.norm(2, 0, True), [(2, 3)]),
    ("norm_p1", lambda L, x: x.norm(p=1), [(2, 3)]),
    ("norm_p3_dim", lambda L, x: x.norm(3, dim=-1), [(2, 3)]),
    ("norm_p1_5", lambda L, x: x.norm(1.5), [(2, 3)]),
    ("norm_p0_5_dim", lambda L, x: x.norm(0.5, dim=0), [(2, 3)]),
    ("norm_inf", lambda L, x: x.norm(INF), [(2, 3)]),
    ("norm_inf_dim", lambda L, x: x.norm(INF, dim=1), [(2, 3)]),
    ("mm", lambda L, x, w: x.mm(w), [(2, 3), (3, 4)]),
    ("mv", lambda L, x, v: x.mv(v), [(2, 3), (3,)]),
    ("dot", lambda L, x, y: x.dot(y), [(3,), (3,)]),
    ("bmm", lambda L, x, w: _bmm(L, x, w), [(2, 2, 3), (2, 3, 4)]),
    ("matmul_vec_mat", lambda L, v, w: v @ w, [(3,), (3, 2)]),
    ("matmul_folded", lambda L, x, w: x @ w, [(2, 2, 3), (3, 4)]),
    ("matmul_broadcast", lambda L, x, w: x @ w, [(2, 1, 2, 3), (3, 3, 2)]),
    ("mm_of_squares", lambda L, x, w: (x * x).mm(w * w), [(2, 3), (3, 2)]),
    ("cat", lambda L, x, y: L.cat([x, y], 1), [(2, 3), (2, 1)]),
    ("cat_neg_dim_three", lambda L, x, y, z: L.cat([x, y * y, z], -1), [(2, 1), (2, 2), (2, 3)]),
    ("stack", lambda L, x, y: L.stack([x, y]), [(2, 3), (2, 3)]),
    ("stack_neg_dim", lambda L, x, y: L.stack([x * y, y], -1), [(2, 3), (2, 3)]),
    ("norm_of_sort", lambda L, x: x.sort(1).values.norm(3, dim=0), [(3, 4)]),
    # the internal ops behind max(dim) and sort, with an input that requires grad in every place
    ("gather", lambda L, x: _select(L, "gather", x, -1), [(2, 3)]),
    ("scatter", lambda L, x, src: _select(L, "scatter", x, 1, src), [(2, 3), (2, 2)]),
    ("scatter_add_repeated", lambda L, x, src: _select(L, "scatter_add", x, 0, src), [(2, 3), (2, 2)]),
]

_INDEX = {"gather": [[2, 0], [1, 1]], "scatter": [[2, 0], [1, 0]], "scatter_add": [[1, 0], [1, 1]]}


def _select(lib, op, x, dim, src=None):
    """x.gather(dim, index) or x.scatter(dim, index, src): minigrad's internal Gather, Scatter, ScatterAdd."""
    index = np.array(_INDEX[op])
    if lib is torch:
        args = (dim, torch.tensor(index)) + ((src,) if src is not None else ())
        return getattr(x, op)(*args)
    fn = {"gather": scatter.Gather, "scatter": scatter.Scatter, "scatter_add": scatter.ScatterAdd}[op]
    return fn.apply(x, dim, index) if src is None else fn.apply(x, dim, index, src)


def _bmm(lib, x, w):
    return torch.bmm(x, w) if lib is torch else Bmm.apply(x, w)     # minigrad has no public bmm yet


def _numpy(t):
    t = t.detach()
    return t.numpy(force=True) if isinstance(t, torch.Tensor) else t.numpy()   # force: torch's ZeroTensors


def _inputs(shapes, seed):
    rng = np.random.default_rng(seed)
    arrays = []
    for shape in shapes:
        n = int(np.prod(shape))
        # distinct magnitudes in [0.3, 2.1): no ties for max/sort, and no zero for the norms' divisions
        mags = 0.3 + rng.permutation(n) * (1.8 / max(n, 1)) + rng.uniform(0, 0.01, n)
        arrays.append((mags * rng.choice([-1.0, 1.0], n)).reshape(shape))
    return arrays


def _grads(lib, out, inputs):
    """The gradients of the scalar `out` w.r.t. `inputs`, as a list with zeros for unused inputs."""
    if not out.requires_grad:
        return [lib.zeros_like(t) for t in inputs]
    grads = lib.autograd.grad(out, inputs, create_graph=True, allow_unused=True)
    return [lib.zeros_like(t) if g is None else g for g, t in zip(grads, inputs)]


def _derivatives(lib, fn, arrays, seed):
    """First, second and third derivatives of fn at `arrays`, as lists of numpy arrays (plus the requires_grad
    flags of the first ones)."""
    rng = np.random.default_rng(seed + 1)
    xs = [lib.tensor(a, dtype=lib.float64, requires_grad=True) for a in arrays]
    y = fn(lib, *xs)
    g = lib.tensor(rng.standard_normal(tuple(y.shape)), dtype=lib.float64, requires_grad=True)
    first = lib.autograd.grad(y, xs, g, create_graph=True, allow_unused=True)
    first = [lib.zeros_like(x) if d is None else d for d, x in zip(first, xs)]
    flags = [d.requires_grad for d in first]
    vs = [lib.tensor(rng.standard_normal(a.shape), dtype=lib.float64) for a in arrays]
    s1 = sum((d * v).sum() for d, v in zip(first, vs))
    second = _grads(lib, s1, xs + [g])
    ws = [lib.tensor(rng.standard_normal(tuple(t.shape)), dtype=lib.float64) for t in second]
    s2 = sum((d * w).sum() for d, w in zip(second, ws))
    third = _grads(lib, s2, xs + [g])
    return [[_numpy(d) for d in ds] for ds in (first, second, third)], flags


@pytest.mark.parametrize("name, fn, shapes", CASES, ids=[c[0] for c in CASES])
def test_higher_derivatives_match_torch(name, fn, shapes):
    arrays = _inputs(shapes, seed=len(name))
    got, got_flags = _derivatives(minigrad, fn, arrays, seed=len(name))
    expected, expected_flags = _derivatives(torch, fn, arrays, seed=len(name))
    assert got_flags == expected_flags, (f"{name}: first derivatives' requires_grad: received {got_flags}, "
                                         f"expected {expected_flags}")
    for order, (mine, theirs) in enumerate(zip(got, expected), start=1):
        for i, (a, b) in enumerate(zip(mine, theirs)):
            assert a.dtype == b.dtype == np.float64 and a.shape == b.shape, \
                f"{name}: derivative {order} of input {i}: received {a.dtype}{a.shape}, expected {b.dtype}{b.shape}"
            np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-12,
                                       err_msg=f"{name}: derivative {order} of input {i} (received vs torch)")


def test_ties_share_the_second_derivative_as_torch():
    """max/min over tied values, and the inf-norm with ties, split the gradient (and its derivative) evenly."""
    arrays = [np.array([[1.0, 3.0, -3.0], [3.0, 0.5, 2.0]])]
    for fn in (lambda L, x: x.max(), lambda L, x: x.norm(INF), lambda L, x: x.norm(INF, dim=1),
               lambda L, x: (-x).min()):
        got, _ = _derivatives(minigrad, fn, arrays, seed=3)
        expected, _ = _derivatives(torch, fn, arrays, seed=3)
        for mine, theirs in zip(got, expected):
            for a, b in zip(mine, theirs):
                np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-14)


def test_max_of_a_tensor_with_nan_gives_its_gradient_to_the_nans():
    got, expected = [], []
    for lib, out in ((minigrad, got), (torch, expected)):
        x = lib.tensor([1.0, float("nan"), 2.0, float("nan")], dtype=lib.float64, requires_grad=True)
        (gx,) = lib.autograd.grad(x.max(), x)
        out.append(gx.numpy())
    np.testing.assert_array_equal(got[0], expected[0])


# ---- the `_saved_*` values the nodes declare (saved_names / saved_attrs), against torch's ------------------
SAVED_CASES = [
    ("sum", lambda L, x: x.sum(), [(2, 3)]),
    ("sum_dim", lambda L, x: x.sum(1), [(2, 3)]),
    ("sum_neg_dims_keepdim", lambda L, x: x.sum((0, -1), keepdim=True), [(2, 3)]),
    ("mean", lambda L, x: x.mean(), [(2, 3)]),
    ("mean_dim", lambda L, x: x.mean(-1), [(2, 3)]),
    ("max", lambda L, x: x.max(), [(2, 3)]),
    ("min", lambda L, x: x.min(), [(2, 3)]),
    ("max_dim", lambda L, x: x.max(-1).values, [(2, 3)]),
    ("min_dim_keepdim", lambda L, x: x.min(1, keepdim=True).values, [(2, 3)]),
    ("sort", lambda L, x: x.sort().values, [(2, 3)]),
    ("sort_dim0", lambda L, x: x.sort(0, descending=True).values, [(2, 3)]),
    ("norm", lambda L, x: x.norm(), [(2, 3)]),
    ("norm_fro", lambda L, x: x.norm("fro", dim=1), [(2, 3)]),
    ("norm_p3_dim", lambda L, x: x.norm(3.0, dim=-1, keepdim=True), [(2, 3)]),
    ("norm_inf", lambda L, x: x.norm(INF, dim=(0, 1)), [(2, 3)]),
    ("max_0d", lambda L, x: x.max(0).values, [()]),
    ("sort_0d", lambda L, x: x.sort().values, [()]),
    ("mm", lambda L, x, w: x.mm(w), [(2, 3), (3, 4)]),
    ("mm_constant_weight", lambda L, x, w: x.mm(w.detach()), [(2, 3), (3, 4)]),      # _saved_self is None
    ("mv", lambda L, x, v: x.mv(v), [(2, 3), (3,)]),
    ("dot_constant_first", lambda L, x, y: x.detach().dot(y), [(3,), (3,)]),
    ("bmm", lambda L, x, w: _bmm(L, x, w), [(2, 2, 3), (2, 3, 4)]),
    ("cat", lambda L, x, y: L.cat([x, y], -1), [(2, 3), (2, 1)]),
    ("stack", lambda L, x, y: L.stack([x, y], 1), [(2, 3), (2, 3)]),
]


def _declared(cls):
    return set(getattr(cls, "saved_names", ())) | set(getattr(cls, "saved_attrs", {}))


@pytest.mark.parametrize("name, fn, shapes", SAVED_CASES, ids=[c[0] for c in SAVED_CASES])
def test_saved_values_match_torch(name, fn, shapes):
    arrays = _inputs(shapes, seed=1)
    nodes = [fn(lib, *[lib.tensor(a, dtype=lib.float64, requires_grad=True) for a in arrays]).grad_fn
             for lib in (minigrad, torch)]
    mine, theirs = nodes
    declared = _declared(mine._forward_cls)
    offered = {a[len("_saved_"):] for a in dir(theirs) if a.startswith("_saved_")}
    assert declared and declared <= offered, f"{name}: declared {sorted(declared)}, torch has {sorted(offered)}"
    for key in sorted(declared):
        a, b = getattr(mine, "_saved_" + key), getattr(theirs, "_saved_" + key)
        if isinstance(b, torch.Tensor):
            assert isinstance(a, minigrad.Tensor) and str(a.dtype) == str(b.dtype), f"{name}: _saved_{key}"
            np.testing.assert_array_equal(_numpy(a), _numpy(b), err_msg=f"{name}: _saved_{key}")
        else:
            assert (type(a), a) == (type(b), b), f"{name}: _saved_{key}: received {a!r}, expected {b!r}"


@pytest.mark.parametrize("op", ["max", "sort"])
def test_changing_the_indices_in_place_makes_backward_fail_as_in_torch(op):
    """max(dim) and sort save the indices they return (torch's `_saved_indices`), so they are version-checked."""
    def example(lib):
        x = lib.tensor([[3.0, 1.0], [0.0, 5.0]], requires_grad=True)
        values, indices = x.max(1) if op == "max" else x.sort(1)
        indices.add_(0)
        values.sum().backward()
    raised = run_both(example, torch, minigrad).raised
    assert raised is not None and raised.type == "RuntimeError", f"the test is wrong: torch raised {raised}"


# ---- indices are int64 on every platform (issue 10, point 7) -------------------------------------------------
def test_indices_are_int64_even_where_numpy_gives_int32(monkeypatch):
    """On Windows and 32-bit platforms numpy's argmax/argsort give int32; the ops cast to int64 as torch does."""
    argsort, argmax, argmin = np.argsort, np.argmax, np.argmin
    monkeypatch.setattr(np, "argsort", lambda *a, **k: argsort(*a, **k).astype(np.int32))
    monkeypatch.setattr(reduction.MaxDim, "pick", staticmethod(lambda a, axis: argmax(a, axis=axis).astype(np.int32)))
    monkeypatch.setattr(reduction.MinDim, "pick", staticmethod(lambda a, axis: argmin(a, axis=axis).astype(np.int32)))
    x = minigrad.tensor([[3.0, 1.0, 2.0], [0.0, 5.0, 4.0]], requires_grad=True)
    for out in (x.sort().indices, x.sort(0, descending=True).indices, x.max(1).indices, x.min(0, True).indices):
        assert out.dtype is minigrad.int64, f"received {out._data.dtype}, expected int64"
    assert x.max(1).indices.tolist() == [0, 1] and x.sort().indices.tolist() == [[1, 2, 0], [0, 2, 1]]
    monkeypatch.setattr(np, "argmax", lambda *a, **k: np.asarray(argmax(*a, **k)).astype(np.int32))
    monkeypatch.setattr(np, "argmin", lambda *a, **k: np.asarray(argmin(*a, **k)).astype(np.int32))
    for out in (x.argmax(), x.argmax(1), x.argmin(0, keepdim=True), minigrad.argmax(x, dim=-1)):
        assert out.dtype is minigrad.int64, f"received {out._data.dtype}, expected int64"
    assert x.argmax(1).tolist() == [0, 1] and x.argmin().item() == 3


@pytest.mark.parametrize("width", ["int8", "int16", "int32", "int64", "uint8"])
def test_tensor_and_as_tensor_keep_every_numpy_integer_width(width):
    """As torch.tensor(array) and torch.as_tensor(array) do (issue 11: minigrad has all of PyTorch's CPU dtypes)."""
    a = np.array([0, 1, 100], dtype=width)
    for make in (minigrad.tensor, minigrad.as_tensor):
        t = make(a)
        assert t.dtype is getattr(minigrad, width) and t.tolist() == a.tolist(), f"{make.__name__}: received {t.dtype}"


@pytest.mark.parametrize("width", ["int8", "int16", "int32", "uint8", "int64"])
def test_from_numpy_keeps_an_integer_dtype(width):
    t = minigrad.from_numpy(np.array([0, 1, 100], dtype=width))
    assert t.dtype is getattr(minigrad, width) and t.tolist() == [0, 1, 100], f"received {t.dtype}"


@pytest.mark.parametrize("width", ["int8", "int16", "int32", "uint8", "int64"])
def test_dtype_of_a_tensor_over_any_integer_array(width):
    """What an op gets when it wraps a numpy result of another width: that width's dtype, never a KeyError."""
    assert minigrad.Tensor._make(np.zeros(2, width)).dtype is getattr(minigrad, width)
