"""Higher derivatives of the shape, view and indexing ops, and of in-place changes through views, against torch.

All in float64. For each case y = op(x) and, with a random g that requires grad:
  - gx = grad(y, x, g, create_graph=True): these ops are linear, so d(gx . v)/dg is op(v) again (the scatter's
    backward is the gather) and d/dx is zero; both are compared, and so are the third derivatives;
  - the same for the cube, (op(x)**3 . c).sum() via `y * y * y`, whose Hessian-vector products and third
    derivatives go through each backward formula twice.
The gradients' node names are compared with torch's too, except where minigrad's formula records other nodes
(listed in NAMES_DIFFER, with the reason). Last, the `_saved_*` values that these nodes declare.
"""
import numpy as np
import pytest
from torch_reference import import_torch

import minigrad

torch = import_torch()

MASK = np.array([[True, False, True, True], [False, True, False, False], [True, True, False, True]])


def _setitem(index, value):
    """y = x.clone() with y[index] = value(x): CopySlices for a basic index, IndexPut for an advanced one."""
    def fn(L, x):
        y = x.clone()
        y[index(L) if callable(index) else index] = value(x)
        return y
    return fn


def _mul_through_view(L, x):
    y = x.clone()
    y[0].mul_(2)
    return y


def _mul_view_by_x(L, x, product=True):
    """The changed view's node is AsStridedBackward0: it reads the view back out of the base's CopySlices."""
    y = x.clone()
    v = y[:, 1]
    v.mul_(x[:, 2])
    return v * y[:, 0] if product else v


def _view_taken_before(L, x):
    """A view taken before its base changed in place is read back out of the base's new node when used."""
    y = x * 1
    w = y[1]
    y[0].mul_(x[2])
    return w * y


# (id, fn(lib, x), shape of x)
CASES = [
    ("view", lambda L, x: x.view(6, 4), (2, 3, 4)),
    ("view_minus1", lambda L, x: x.view(-1), (2, 3, 4)),
    ("view_to_0d", lambda L, x: x.view(()), (1,)),
    ("reshape_copy", lambda L, x: x.transpose(0, 1).reshape(-1), (2, 3, 4)),
    ("reshape_alias", lambda L, x: x[:, ::2].reshape(6), (3, 4)),
    ("alias", lambda L, x: x[...], (2, 3)),
    ("transpose", lambda L, x: x.transpose(0, -1), (2, 3, 4)),
    ("transpose_0d", lambda L, x: x.transpose(0, -1), ()),
    ("permute", lambda L, x: x.permute(2, 0, -2), (2, 3, 4)),
    ("t", lambda L, x: x.t(), (3, 4)),
    ("t_1d", lambda L, x: x.t(), (3,)),
    ("unsqueeze", lambda L, x: x.unsqueeze(1), (2, 3)),
    ("unsqueeze_neg", lambda L, x: x.unsqueeze(-1), (2, 3)),
    ("unsqueeze_0d", lambda L, x: x.unsqueeze(0), ()),
    ("squeeze", lambda L, x: x.squeeze(), (2, 1, 3, 1)),
    ("squeeze_dim", lambda L, x: x.squeeze(1), (2, 1, 3)),
    ("squeeze_neg_dim", lambda L, x: x.squeeze(-2), (2, 1, 3)),
    ("squeeze_dim_not_1", lambda L, x: x.squeeze(0), (2, 1, 3)),
    ("squeeze_vector_matrix", lambda L, x: x[0] @ x, (3, 3)),
    ("expand", lambda L, x: x.expand(2, 3, 4), (3, 1)),
    ("expand_minus1", lambda L, x: x.expand(2, -1, 4), (3, 1)),
    ("expand_same", lambda L, x: x.expand(3, 2), (3, 2)),
    ("clone", lambda L, x: x.clone(), (2, 3)),
    ("to_float32", lambda L, x: x.to(L.float32), (2, 3)),
    ("select", lambda L, x: x[1], (2, 3, 4)),
    ("select_neg", lambda L, x: x[:, -1], (2, 3, 4)),
    ("select_0d", lambda L, x: x[2], (3,)),
    ("slice", lambda L, x: x[:, 1:3], (2, 3, 4)),
    ("slice_step", lambda L, x: x[:, ::2], (2, 3, 4)),
    ("slice_neg_start", lambda L, x: x[-2:], (3, 4)),
    ("slice_all", lambda L, x: x[:], (3, 4)),
    ("select_and_slice", lambda L, x: x[1, :, 1:], (2, 3, 4)),
    ("index_repeated", lambda L, x: x[[0, 1, 1, 0]], (2, 3)),
    ("index_second_dim", lambda L, x: x[:, [0, 2, 2]], (2, 3, 4)),
    ("index_two_lists", lambda L, x: x[[0, 1, 1], [2, 0, 2]], (2, 3)),
    ("index_mask", lambda L, x: x[L.tensor(MASK)], (3, 4)),
    ("index_after_none", lambda L, x: x[None, [1, 0]], (2, 3)),
    ("setitem_select", _setitem(0, lambda x: x[1] * x[2]), (3, 4)),
    ("setitem_slice_broadcast", _setitem((slice(None), 0), lambda x: x[0, 1] * x[1, 1]), (2, 3)),
    ("setitem_constant", _setitem((slice(None), slice(1, 3)), lambda x: 0.5), (2, 4)),
    ("index_put", _setitem(([0, 2],), lambda x: x[1:] * x[:2]), (3, 4)),
    ("index_put_mask", _setitem(lambda L: L.tensor(MASK), lambda x: x[_mask_like(x)] * 3), (3, 4)),
    ("index_put_ellipsis", _setitem((Ellipsis, [0]), lambda x: x[..., [1]] * x[..., [2]]), (2, 3)),
    ("index_put_int_and_list", _setitem((0, [1, 2]), lambda x: x[1, :2] * x[1, :2]), (2, 3)),
    ("inplace_through_view", _mul_through_view, (2, 3)),
    ("inplace_view_by_x", _mul_view_by_x, (3, 3)),
    ("view_taken_before_inplace", _view_taken_before, (3, 2)),
]


def _mask_like(x):
    """MASK as a tensor of x's library."""
    return (torch if isinstance(x, torch.Tensor) else minigrad).tensor(MASK)


# where minigrad's backward formula records other nodes than torch's, with the same values
NAMES_DIFFER = {
    "squeeze": "torch unsqueezes each size-1 dim back (UnsqueezeBackward0); minigrad reshapes once (ViewBackward0)",
    "setitem_constant": "torch zeroes the written part in place in a copy of the gradient (CopySlices); minigrad "
                        "writes the zeros out of place (IndexPutBackward0)",
    "inplace_through_view": "torch writes the view's gradient in place into a copy of the base's (CopySlices); "
                            "minigrad out of place (AsStridedScatterBackward0)",
}


def _numpy(t):
    t = t.detach()
    return t.numpy(force=True) if isinstance(t, torch.Tensor) else t.numpy()


def _grads(lib, out, inputs):
    """The gradients of the scalar `out` w.r.t. `inputs`, with zeros for unused inputs."""
    if not out.requires_grad:
        return [lib.zeros_like(t) for t in inputs]
    grads = lib.autograd.grad(out, inputs, create_graph=True, allow_unused=True)
    return [lib.zeros_like(t) if g is None else g for g, t in zip(grads, inputs)]


def _derivatives(lib, fn, shape, cube):
    """First, second and third derivatives of fn (or of its cube) w.r.t. x and g, as numpy arrays, with the
    first derivative's requires_grad and node name."""
    rng = np.random.default_rng(sum(shape) + 7 * len(shape))
    # an array even for shape (): minigrad.tensor(numpy_scalar, dtype=float64) goes through float32
    x = lib.tensor(np.asarray(rng.uniform(0.5, 2.0, shape) * rng.choice([-1.0, 1.0], shape)), dtype=lib.float64,
                   requires_grad=True)
    y = fn(lib, x)
    if cube:
        c = lib.tensor(rng.standard_normal(tuple(y.shape)), dtype=y.dtype)
        y = (y * y * y * c).sum()
    g = lib.tensor(rng.standard_normal(tuple(y.shape)), dtype=y.dtype, requires_grad=True)
    (first,) = lib.autograd.grad(y, x, g, create_graph=True)
    info = (first.requires_grad, None if first.grad_fn is None else first.grad_fn.name())
    v = lib.tensor(rng.standard_normal(shape), dtype=lib.float64)
    second = _grads(lib, (first * v).sum(), [x, g])
    ws = [lib.tensor(rng.standard_normal(tuple(t.shape)), dtype=t.dtype) for t in second]
    third = _grads(lib, sum((d * w).sum() for d, w in zip(second, ws)), [x, g])
    return [[_numpy(first)], [_numpy(d) for d in second], [_numpy(d) for d in third]], info


@pytest.mark.parametrize("cube", [False, True], ids=["linear", "cube"])
@pytest.mark.parametrize("name, fn, shape", CASES, ids=[c[0] for c in CASES])
def test_higher_derivatives_match_torch(name, fn, shape, cube):
    got, (got_flag, got_name) = _derivatives(minigrad, fn, shape, cube)
    expected, (expected_flag, expected_name) = _derivatives(torch, fn, shape, cube)
    assert got_flag == expected_flag, f"{name}: gx.requires_grad: received {got_flag}, expected {expected_flag}"
    if not cube and name not in NAMES_DIFFER:
        assert got_name == expected_name, f"{name}: gx.grad_fn: received {got_name}, expected {expected_name}"
    for order, (mine, theirs) in enumerate(zip(got, expected), start=1):
        for i, (a, b) in enumerate(zip(mine, theirs)):
            assert a.dtype == b.dtype and a.shape == b.shape, (
                f"{name}: derivative {order} #{i}: received {a.dtype}{a.shape}, expected {b.dtype}{b.shape}")
            tol = 1e-5 if a.dtype == np.float32 else 1e-10
            np.testing.assert_allclose(a, b, rtol=tol, atol=tol,
                                       err_msg=f"{name}: derivative {order} #{i} (received vs torch)")


def test_gradients_without_create_graph_have_no_history():
    x = minigrad.randn(2, 3, dtype=minigrad.float64, requires_grad=True)
    for y in (x.t(), x[1], x[:, 1:], x[[0, 0]], x.unsqueeze(0).expand(2, 2, 3), _mul_through_view(minigrad, x)):
        (gx,) = minigrad.autograd.grad(y.sum(), x)
        assert gx.grad_fn is None and not gx.requires_grad, (
            f"received grad_fn {gx.grad_fn} for {y.grad_fn.name()} without create_graph, expected None")


# ---- the `_saved_*` values these nodes declare (saved_attrs), against torch's -----------------------------
# not the in-place cases (below, one node each), nor x[0, [1, 2]] = v: torch records that as a CopySlices of an
# index_put into the view x[0], minigrad as one IndexPut
SAVED_CASES = [c for c in CASES if not c[0].startswith(("setitem", "inplace", "view_taken"))
               and c[0] != "index_put_int_and_list"] + [
    ("select_backward", lambda L, x: _first(L, x, lambda x: x[:, -1]), (2, 3)),
    ("slice_backward", lambda L, x: _first(L, x, lambda x: x[1:, ::2]), (3, 4)),
    ("index_backward", lambda L, x: _first(L, x, lambda x: x[[1, 1]]), (2, 3)),
    ("copy_slices", _setitem(0, lambda x: x[1] * 2), (2, 3)),
    ("copy_slices_inplace", _mul_through_view, (2, 3)),
    ("as_strided", lambda L, x: _mul_view_by_x(L, x, product=False), (3, 3)),
]


def _first(L, x, fn):
    """The gradient of fn at x, with create_graph: its node is fn's backward op."""
    y = fn(x)
    (gx,) = L.autograd.grad(y, x, L.ones_like(y).requires_grad_(), create_graph=True)
    return gx


def _saved(node, name):
    """`node._saved_<name>`, read through the class's declarations if the node does not offer it itself."""
    try:
        return getattr(node, "_saved_" + name)
    except AttributeError:
        return getattr(node, _declared(node)[name])


def _declared(node):
    return getattr(getattr(node, "_forward_cls", type(node)), "saved_attrs", {})


def _same(a, b):
    if isinstance(b, torch.Tensor):
        return isinstance(a, minigrad.Tensor) and str(a.dtype) == str(b.dtype) and a.tolist() == b.tolist()
    if isinstance(b, tuple):
        return isinstance(a, tuple) and len(a) == len(b) and all(_same(u, v) for u, v in zip(a, b))
    return type(a) is type(b) and a == b


@pytest.mark.parametrize("name, fn, shape", SAVED_CASES, ids=[c[0] for c in SAVED_CASES])
def test_saved_values_match_torch(name, fn, shape):
    nodes = [fn(lib, lib.ones(shape, dtype=lib.float64, requires_grad=True)).grad_fn for lib in (minigrad, torch)]
    mine, theirs = nodes
    assert mine.name() == theirs.name(), f"{name}: received {mine.name()}, expected {theirs.name()}"
    declared = set(_declared(mine))
    offered = {a[len("_saved_"):] for a in dir(theirs) if a.startswith("_saved_")}
    assert declared == offered, f"{name}: declared {sorted(declared)}, torch has {sorted(offered)}"
    for key in sorted(declared):
        a, b = _saved(mine, key), getattr(theirs, "_saved_" + key)
        assert _same(a, b), f"{name}: _saved_{key}: received {a!r}, expected {b!r}"
