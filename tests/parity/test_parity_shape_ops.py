"""Parity of issue 11 point 2 beyond the op table: the shape and indexing ops' views (shared memory and version
counters, writes through them), saved attributes, version checks of what they save, higher derivatives against
torch (float64, to 1e-10), return types, and the errors that only show in backward.
"""
import numpy as np
import pytest

import minigrad
from torch_reference import import_torch

torch = import_torch()

CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


def leaf(lib, values):
    return lib.tensor(np.array(values, np.float64), requires_grad=True)


def grid(lib, *shape):
    return lib.arange(float(np.prod(shape)), dtype=lib.float64).reshape(shape)


# ---- views share memory and the version counter with their base ---------------------------------------------
@case
def pieces_of_split_chunk_unbind_are_views(lib):
    x = grid(lib, 4, 3)
    pieces = x.split(3) + x.chunk(2, 1) + x.unbind(1) + x.split([1, 3])
    with lib.no_grad():
        x.mul_(10)
    return [(p._base is x, p._version, p.is_contiguous(), p) for p in pieces]


@case
def narrow_movedim_unflatten_diagonal_are_views(lib):
    x = grid(lib, 2, 3, 4)
    views = [x.narrow(2, 1, 2), x.movedim(0, -1), x.unflatten(2, (2, 2)), x.diagonal(0, 1, 2),
             lib.permute(x, (2, 0, 1))]
    views[0][0, 0, 0] = -1.0
    views[3][1, 1] = -2.0
    return [(v._base is x, v._version, v.is_contiguous(), v) for v in views], x


@case
def flip_roll_tile_tril_diag_are_copies(lib):
    x = grid(lib, 3, 3)
    copies = [x.flip(0), x.roll(1), x.tile(2), x.tril(), x.diag(), x.diag().diag(), x.gather(1, lib.tensor([[0]])),
              x.index_select(0, lib.tensor([1])), x.masked_fill(x > 3, 0.0), lib.outer(x[0], x[1])]
    return [(c._base is None, c.is_contiguous()) for c in copies]


@case
def writing_into_a_narrowed_view_records_copy_slices(lib):
    w = leaf(lib, [2.0, 3.0])
    y = grid(lib, 3, 2) * 1
    y.narrow(0, 1, 1).mul_(w)
    y.diagonal().add_(w)
    y.backward(lib.tensor([[1.0, -2.0], [0.5, 3.0], [2.0, 1.5]], dtype=lib.float64))
    return y.grad_fn.name(), y, w.grad


@case
def pieces_of_one_node_meet_again_in_backward(lib):
    x = leaf(lib, [[1.0, 2.0], [3.0, 4.0]])
    a, b = (x * 1).unbind()
    c, d = x.split(1, 1)
    out = (a * b).sum() + (c * d * c).sum()
    return lib.autograd.grad(out, x), a.grad_fn.name(), c.grad_fn.name()


# ---- saved attributes: torch's `grad_fn._saved_*` names and values -----------------------------------------
def _saved(node, *names):
    return {name: getattr(node, "_saved_" + name) for name in names}


@case
def saved_of_pieces(lib):
    x = leaf(lib, np.ones((4, 3)))
    return [_saved(x.split(2, -1)[0].grad_fn, "dim", "split_size", "self_sym_sizes"),
            _saved(x.split([1, 3])[0].grad_fn, "dim", "split_sizes", "self_sym_sizes"),
            _saved(x.chunk(2)[0].grad_fn, "dim", "split_size"), _saved(x.unbind(-1)[0].grad_fn, "dim"),
            _saved(x.narrow(-1, -2, 2).grad_fn, "dim", "start", "end", "step", "self_sym_sizes")]


@case
def saved_of_reordering(lib):
    x = leaf(lib, np.ones((2, 3, 4)))
    return [_saved(x.flip(0, -1).grad_fn, "dims"), _saved(x.roll(1).grad_fn, "shifts", "dims"),
            _saved(x.roll((1, -2), (0, -1)).grad_fn, "shifts", "dims"), _saved(x.movedim(0, -1).grad_fn, "dims"),
            _saved(x.tile(2).grad_fn, "repeats", "self_sym_sizes"),
            _saved(x.unflatten(1, (3, 1)).grad_fn, "self_sym_sizes")]


@case
def saved_of_triangles_and_diagonals(lib):
    x, v = leaf(lib, np.ones((3, 4))), leaf(lib, [1.0, 2.0])
    return [_saved(x.tril(-1).grad_fn, "diagonal"), _saved(x.triu(2).grad_fn, "diagonal"),
            _saved(x.diag(1).grad_fn, "offset", "dim1", "dim2", "self_sym_sizes"),
            _saved(v.diag(-1).grad_fn, "offset", "dim1", "dim2"),
            _saved(x.diagonal(1, 1, 0).grad_fn, "offset", "dim1", "dim2", "self_sym_sizes")]


@case
def saved_of_gather_scatter_index(lib):
    x, s = leaf(lib, np.ones((3, 4))), leaf(lib, np.ones((3, 2)))
    i, j = lib.tensor([[0, 1], [2, 3], [1, 0]]), lib.tensor([2, 0])
    m = x > 0
    return [_saved(x.gather(-1, i).grad_fn, "dim", "index", "self", "sparse_grad"),
            _saved(x.scatter(1, i, s).grad_fn, "dim", "index"), _saved(x.scatter(1, i, 2.0).grad_fn, "dim", "index"),
            _saved(x.scatter_add(1, i, s).grad_fn, "dim", "index"),
            _saved(x.index_select(0, j).grad_fn, "dim", "index", "self_sym_sizes"),
            _saved(x.index_add(1, j, s, alpha=2).grad_fn, "alpha", "dim", "index", "source", "source_dim"),
            _saved(x.masked_fill(m, 1.0).grad_fn, "mask"), _saved(x.masked_fill(m, s[0, 0]).grad_fn, "mask")]


# ---- what the ops save is version-checked --------------------------------------------------------------------
@case
def gather_input_changed_in_place_fails_backward(lib):
    x = leaf(lib, [[1.0, 2.0], [3.0, 4.0]])
    y = x * 1
    z = y.gather(1, lib.tensor([[1], [0]]))
    y.add_(1)
    z.sum().backward()


@case
def index_add_source_changed_in_place_fails_backward(lib):
    x, s = leaf(lib, [1.0, 2.0]), leaf(lib, [3.0])
    src = s * 1
    z = x.index_add(0, lib.tensor([1]), src)
    src.mul_(2)
    z.sum().backward()


@case
def masked_fill_in_place_keeps_its_history(lib):
    x = leaf(lib, [1.0, -2.0, 3.0])
    y = x * 2
    y.masked_fill_(y < 0, 0.0).scatter_(0, lib.tensor([2]), 5.0).index_add_(0, lib.tensor([0]), x[1:2])
    y.sum().backward()
    return y, y.grad_fn.name(), y._version, x.grad


# ---- return types, one-argument where ----------------------------------------------------------------------
@case
def return_types(lib):
    x = grid(lib, 2, 3)
    return [type(x.split(1)).__name__, type(x.chunk(2)).__name__, type(x.unbind()).__name__,
            type(x.nonzero(as_tuple=True)).__name__, type(lib.where(x > 2)).__name__, lib.where(x > 2),
            lib.nonzero(x), lib.nonzero(lib.tensor(0.0), as_tuple=True)]


@case
def chunk_of_an_empty_dim_gives_every_chunk(lib):
    x = lib.zeros(0, 2, requires_grad=True)
    return [(p.shape, p.grad_fn.name()) for p in x.chunk(3)]


@case
def unflatten_with_two_inferred_sizes(lib):
    return lib.ones(2, 4).unflatten(1, (-1, -1))


@case
def scatter_with_a_larger_src_fails_in_backward(lib):
    s = leaf(lib, np.ones((2, 3)))
    lib.ones(2, 3, dtype=lib.float64).scatter(1, lib.tensor([[0], [1]]), s).sum().backward()


@pytest.mark.parametrize("name", list(CASES))
def test_parity(run_both, name):
    prefix = {"unflatten_with_two_inferred_sizes": "unflatten got an unexpected error:\nonly one dimension can be "
              "inferred",
              # torch numbers the gradient by the op's tensor inputs (src is 1), minigrad by all its inputs (3)
              "scatter_with_a_larger_src_fails_in_backward": "Function ScatterBackward0 returned an invalid gradient "
              "at index "}.get(name)
    run_both(CASES[name], msg_prefix=prefix)


# ---- higher derivatives against torch ------------------------------------------------------------------------
IDX = [[0, 2], [3, 1], [1, 0]]
HIGHER = [
    ("split", lambda L, x: L.cat([p * p for p in x.split([1, 2])]), [(3, 2)]),
    ("unbind", lambda L, x: L.stack(x.unbind(1)[::-1]) ** 2, [(2, 3)]),
    ("narrow", lambda L, x: x.narrow(1, 1, 2) ** 3, [(2, 4)]),
    ("flip_roll", lambda L, x: (x.flip(0).roll(1, 1)) ** 2 * x, [(2, 3)]),
    ("movedim_unflatten", lambda L, x: x.movedim(0, 1).unflatten(0, (2, 2)) ** 2, [(3, 4)]),
    ("tile", lambda L, x: x.tile((2, 1)) ** 3, [(2, 2)]),
    ("tril_triu", lambda L, x: (x.tril() * x.triu(1)).exp(), [(3, 3)]),
    ("diag_both_ways", lambda L, x: x.diag().diag() @ x * x.diagonal(1).sum(), [(3, 3)]),
    ("diag_embed", lambda L, x: x.diag_embed(1) ** 2, [(2, 2)]),
    ("outer", lambda L, u, v: L.outer(u * u, v) ** 2, [(3,), (2,)]),
    ("gather", lambda L, x: x.gather(1, L.tensor(IDX)) ** 2, [(3, 4)]),
    ("scatter", lambda L, x, s: x.scatter(1, L.tensor(IDX), s * s) ** 2, [(3, 4), (3, 2)]),
    ("scatter_value", lambda L, x: x.scatter(1, L.tensor(IDX), 2.0) ** 3, [(3, 4)]),
    ("scatter_add", lambda L, x, s: x.scatter_add(0, L.tensor(IDX), s ** 2) ** 2, [(4, 2), (3, 2)]),
    ("index_select", lambda L, x: x.index_select(0, L.tensor([2, 0, 2])) ** 3, [(3, 2)]),
    ("index_add", lambda L, x, s: x.index_add(0, L.tensor([1, 1]), s * s, alpha=-2) ** 2, [(3, 2), (2, 2)]),
    ("masked_fill", lambda L, x: x.masked_fill(x > 0, 1.0) ** 3, [(2, 3)]),
    ("masked_fill_tensor", lambda L, x, v: x.masked_fill(x > 0, v[0] ** 2) ** 2, [(2, 3), (1,)]),
    ("einsum_matmul", lambda L, x, y: L.einsum("ij,jk->ik", x * x, y), [(2, 3), (3, 2)]),
    ("einsum_batched", lambda L, x, y: L.einsum("bij,bkj->bik", x, y) ** 2, [(2, 2, 3), (2, 2, 3)]),
    ("einsum_trace_and_diagonal", lambda L, x: L.einsum("ii", x * x) * L.einsum("ii->i", x), [(3, 3)]),
    ("einsum_three", lambda L, u, x, v: L.einsum("i,ij,j->", u, x * x, v), [(2,), (2, 3), (3,)]),
]


def _derivatives(lib, fn, arrays, seed):
    """First, second and third derivatives of fn at `arrays` (zeros for an unused input), as numpy arrays."""
    rng = np.random.default_rng(seed)
    xs = [lib.tensor(a, requires_grad=True) for a in arrays]
    y = fn(lib, *xs)
    g = lib.tensor(rng.standard_normal(tuple(y.shape)), requires_grad=True)
    wrt, outs, found = xs, [y], []
    seeds = [g]
    for _ in range(3):
        grads = lib.autograd.grad(outs, wrt, seeds, create_graph=True, allow_unused=True)
        grads = [lib.zeros_like(t) if d is None else d for d, t in zip(grads, wrt)]
        found.append([np.array(d.detach().tolist()) for d in grads])     # tolist: torch may give ZeroTensors
        vs = [lib.tensor(rng.standard_normal(tuple(d.shape))) for d in grads]
        outs, seeds = [sum((d * v).sum() for d, v in zip(grads, vs))], None
        wrt = xs + [g]
        if not outs[0].requires_grad:
            break
    return found


@pytest.mark.parametrize("name, fn, shapes", HIGHER, ids=[h[0] for h in HIGHER])
def test_higher_derivatives_match_torch(name, fn, shapes):
    rng = np.random.default_rng(len(name))
    arrays = [rng.uniform(0.5, 1.5, s) * rng.choice([-1.0, 1.0], s) for s in shapes]
    got, expected = (_derivatives(lib, fn, arrays, seed=7) for lib in (minigrad, torch))
    assert len(got) == len(expected), f"{name}: received {len(got)} orders of derivatives, expected {len(expected)}"
    for order, (mine, theirs) in enumerate(zip(got, expected), start=1):
        for i, (a, b) in enumerate(zip(mine, theirs)):
            np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-12,
                                       err_msg=f"{name}: derivative {order} of input {i} (received vs torch)")


# ---- what minigrad leaves out, said clearly -----------------------------------------------------------------
def test_scatter_reduce_is_not_implemented():
    x = minigrad.zeros(2, 3)
    with pytest.raises(NotImplementedError, match=r"scatter\(\.\.\., reduce='add'\)"):
        x.scatter(1, minigrad.tensor([[0], [1]]), minigrad.ones(2, 1), reduce="add")
    with pytest.raises(NotImplementedError, match="reduce='multiply'"):
        x.scatter_(1, minigrad.tensor([[0], [1]]), 2.0, reduce="multiply")


@pytest.mark.parametrize("args", [(0, 1), (-1, 2), (1, -1), (0, 5), (2, 0), (-3, 0), (0, -4)],
                         ids=lambda a: f"dim{a[0]}_index{a[1]}")
def test_select_is_torchs(parity, args):
    """Tensor.select and torch.select: values, grad_fn, the gradient, and torch's IndexErrors."""
    def example(lib):
        x = lib.arange(12.0).reshape(3, 4).requires_grad_()
        y = x.select(*args)
        (y * 2).sum().backward()
        return y, lib.select(x.detach(), *args), x.grad
    parity(example)


def test_select_of_a_0d_tensor(parity):
    parity(lambda lib: lib.tensor(3.0).select(0, 0))
