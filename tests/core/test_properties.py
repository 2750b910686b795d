"""Property tests: random expression graphs run on minigrad and on real torch must agree.

Hypothesis draws a *program*: a few leaves with broadcastable shapes, then a list of steps, each applying an op
to earlier tensors (any earlier tensor, so a value can be used twice, `x * x`, or by two branches that meet
again: diamonds). Both libraries run the same program in float64 from the same leaf values; every tensor's
value, shape and grad_fn name, and after a backward from all unused tensors (random upstream gradients) every
leaf's and every intermediate's gradient, must agree. A second property adds in-place ops (`add_`, `mul_`,
`clamp_`, `t[mask] = 0`, ...) and compares version counters and, if backward fails, the error message.
"""
import os

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import minigrad

RTOL, ATOL = 1e-9, 1e-10
# PROPERTY_EXAMPLES=3000 runs a longer search (e.g. before a release); the default keeps the suite fast.
# In CI (CI=true) the examples are derandomized, so a red run is reproducible and never a fluke of the seed;
# locally every run explores new programs.
IN_CI = os.environ.get("CI") == "true"
SETTINGS = settings(max_examples=int(os.environ.get("PROPERTY_EXAMPLES", 100)), deadline=None, database=None,
                    derandomize=IN_CI, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

# ---- the ops a program can use ----------------------------------------------------------------------------
# Each op is (fn(lib, *tensors), applies(*shapes)). Non-smooth points (0 for abs and relu, the clamp bounds)
# are met with probability zero from continuous random values.
UNARY = {
    "neg": (lambda L, a: -a, None),
    "tanh": (lambda L, a: a.tanh(), None),
    "sigmoid": (lambda L, a: L.sigmoid(a), None),
    "exp": (lambda L, a: a.clamp(-4.0, 4.0).exp(), None),
    "log": (lambda L, a: (a * a + 1).log(), None),
    "sqrt": (lambda L, a: (a * a + 0.5).sqrt(), None),
    "abs": (lambda L, a: a.abs(), None),
    "relu": (lambda L, a: a.relu(), None),
    "square": (lambda L, a: a ** 2, None),
    "cube": (lambda L, a: a.pow(3), None),
    "rsub": (lambda L, a: 1.5 - a, None),
    "rdiv": (lambda L, a: 1 / (a * a + 1), None),
    "scale": (lambda L, a: a * 0.5, None),
    "clamp": (lambda L, a: a.clamp(-1.0, 1.0), None),
    "clone": (lambda L, a: a.clone(), None),
    "sum": (lambda L, a: a.sum(), None),
    "mean": (lambda L, a: a.mean(), None),
    "sum_last_keepdim": (lambda L, a: a.sum(-1, keepdim=True), lambda s: len(s) >= 1),
    "sum_first": (lambda L, a: a.sum(0), lambda s: len(s) >= 1),
    "mean_last_keepdim": (lambda L, a: a.mean(dim=-1, keepdim=True), lambda s: len(s) >= 1),
    "max": (lambda L, a: a.max(), lambda s: int(np.prod(s)) > 0),       # ties share the gradient evenly
    "min_dim": (lambda L, a: a.min(dim=-1).values, lambda s: len(s) >= 1),
    "max_dim_keepdim": (lambda L, a: a.max(0, keepdim=True)[0], lambda s: len(s) >= 1),
    "norm": (lambda L, a: a.norm(), None),                                 # relu may give it all zeros
    "norm_dim": (lambda L, a: a.norm(dim=-1, keepdim=True), lambda s: len(s) >= 1),
    "transpose": (lambda L, a: a.transpose(-1, -2), lambda s: len(s) >= 2),
    "t": (lambda L, a: a.t(), lambda s: len(s) == 2),
    "unsqueeze": (lambda L, a: a.unsqueeze(0), lambda s: len(s) <= 3),
    "select": (lambda L, a: a[0], lambda s: len(s) >= 1),
    "slice": (lambda L, a: a[..., 1:], lambda s: len(s) >= 1 and s[-1] > 1),
    "reshape": (lambda L, a: a.reshape(-1), lambda s: len(s) >= 2),
    "masked": (lambda L, a: a[L.tensor(_every_other(tuple(a.shape)))], lambda s: len(s) >= 1),
    "int_index": (lambda L, a: a[L.tensor([0, 0, -1])], lambda s: len(s) >= 1),
}
def _every_other(shape):
    """A mask that does not depend on the values, so the result's shape is known when the program is drawn."""
    return (np.arange(int(np.prod(shape))).reshape(shape) % 2 == 0).tolist()


# In-place programs may use ops that make views: after an in-place change of a tensor that has views, or of a
# view, both PyTorch and minigrad rewrite the histories (CopySlices, AsStridedBackward0).
VIEWS = set()


def broadcastable(s, t):
    try:
        np.broadcast_shapes(s, t)
        return True
    except ValueError:
        return False


def _matmul_fits(s, t):
    return len(s) >= 1 and len(t) >= 1 and s[-1] == (t[-2] if len(t) >= 2 else t[0]) and (
        len(s) <= 2 or len(t) <= 2 or broadcastable(s[:-2], t[:-2]))


BINARY = {
    "add": (lambda L, a, b: a + b, broadcastable),
    "sub": (lambda L, a, b: a - b, broadcastable),
    "mul": (lambda L, a, b: a * b, broadcastable),
    "div": (lambda L, a, b: a / (b * b + 1), broadcastable),
    "pow": (lambda L, a, b: (a * a + 1) ** b, broadcastable),
    "where": (lambda L, a, b: L.where(a > b, a, b), broadcastable),
    "matmul": (lambda L, a, b: a @ b, _matmul_fits),
    "stack": (lambda L, a, b: L.stack([a, b], dim=-1), lambda s, t: s == t),
    "cat": (lambda L, a, b: L.cat([a, b]), lambda s, t: len(s) >= 1 and s[1:] == t[1:] and len(s) == len(t)),
}
INPLACE = {  # applied to a non-leaf tensor; the second operand (if any) must broadcast to its shape
    "add_": (lambda L, a: a.add_(0.5), None),
    "mul_": (lambda L, a: a.mul_(2.0), None),
    "div_": (lambda L, a: a.div_(4.0), None),
    "clamp_": (lambda L, a: a.clamp_(-0.5, 0.5), None),
    "iadd": (lambda L, a, b: a.__iadd__(b), True),
    "mul_tensor_": (lambda L, a, b: a.mul_(b), True),
    "sub_tensor_": (lambda L, a, b: a.sub_(b, alpha=2), True),
    "setitem_mask": (lambda L, a: a.__setitem__(a > 0, 0.0), None),
    "setitem_first": (lambda L, a: a.__setitem__(0, 1.0), "nonscalar"),
}


# ---- programs -----------------------------------------------------------------------------------------
def shape_of(name, shapes):
    """The result shape of an op, found by running it on zeros (with numpy-backed minigrad, no graph)."""
    fn = (UNARY.get(name) or BINARY[name])[0]
    with minigrad.no_grad():
        return tuple(fn(minigrad, *[minigrad.ones(s, dtype=minigrad.float64) for s in shapes]).shape)


@st.composite
def programs(draw, inplace=False):
    base = tuple(draw(st.lists(st.integers(1, 3), min_size=0, max_size=3)))
    leaves = []
    for _ in range(draw(st.integers(1, 3))):
        cut = draw(st.integers(0, len(base)))
        leaves.append(tuple(1 if draw(st.integers(0, 3)) == 0 else n for n in base[cut:]))
    shapes, steps, leaf_count = list(leaves), [], len(leaves)
    unary = [n for n in UNARY if not (inplace and n in VIEWS)]
    for _ in range(draw(st.integers(1, 10))):
        kind = draw(st.sampled_from(["unary", "binary", "inplace"] if inplace else ["unary", "binary"]))
        if kind == "inplace":
            targets = [k for k in range(leaf_count, len(shapes))]
            if not targets:
                continue
            k = draw(st.sampled_from(targets))
            name = draw(st.sampled_from(sorted(INPLACE)))
            other = INPLACE[name][1]
            if other == "nonscalar" and not shapes[k]:
                continue
            if other is True:
                fits = [j for j in range(len(shapes)) if broadcastable(shapes[j], shapes[k])
                        and np.broadcast_shapes(shapes[j], shapes[k]) == shapes[k]]
                steps.append(("inplace", name, (k, draw(st.sampled_from(fits)))))
            else:
                steps.append(("inplace", name, (k,)))
            continue
        if kind == "unary":
            i = draw(st.integers(0, len(shapes) - 1))
            names = [n for n in unary if UNARY[n][1] is None or UNARY[n][1](shapes[i])]
            name = draw(st.sampled_from(names))
            args = (i,)
        else:
            i = draw(st.integers(0, len(shapes) - 1))
            j = draw(st.integers(0, len(shapes) - 1))
            names = [n for n in BINARY if BINARY[n][1](shapes[i], shapes[j]) and not (inplace and n in VIEWS)]
            if not names:
                continue
            name = draw(st.sampled_from(names))
            args = (i, j)
        steps.append(("op", name, args))
        shapes.append(shape_of(name, [shapes[a] for a in args]))
    return leaves, steps


def run(lib, leaves, steps, values, refused=None):
    """Run a program; return the leaves and every tensor it made (in-place steps make none).

    An in-place step that the library refuses (e.g. on a view of a leaf) is skipped; its error goes to `refused`.
    """
    pool = [lib.tensor(v, dtype=lib.float64, requires_grad=True) for v in values]
    for k, (kind, name, args) in enumerate(steps):
        if kind == "op":
            pool.append((UNARY.get(name) or BINARY[name])[0](lib, *[pool[a] for a in args]))
        else:
            try:
                INPLACE[name][0](lib, *[pool[a] for a in args])
            except RuntimeError as error:
                if refused is None:
                    raise
                refused.append((k, str(error)))
    return pool[:len(leaves)], pool


def describe(t):
    return tuple(t.shape), str(t.dtype), t.requires_grad, None if t.grad_fn is None else t.grad_fn.name()


def close(received, expected):
    return received.shape == expected.shape and np.allclose(received, expected, rtol=RTOL, atol=ATOL,
                                                            equal_nan=True)     # pow chains may overflow both


def compare_forward(m_pool, t_pool, steps):
    for k, (m, t) in enumerate(zip(m_pool, t_pool)):
        assert describe(m) == describe(t), f"tensor {k}: received {describe(m)}, expected (torch) {describe(t)}"
        r, e = m.detach().numpy(), t.detach().numpy()
        assert close(r, e), f"tensor {k} value: received\n{r}\nexpected (torch)\n{e}\nprogram {steps}"


def sinks(steps, n_leaves, pool_size):
    """Indices of the tensors that no later step reads: backward starts from all of them."""
    used = {a for kind, _, args in steps for a in args if kind == "op"}
    out = [k for k in range(n_leaves, pool_size) if k not in used]
    return out or [pool_size - 1]


def backward_outcome(lib, pool, roots, upstream):
    try:
        lib.autograd.backward([pool[k] for k in roots], [lib.tensor(g, dtype=lib.float64) for g in upstream])
    except RuntimeError as exc:
        return str(exc).split(" (Triggered internally")[0]
    return None


def compare_grads(m_pool, t_pool, what):
    for k, (m, t) in enumerate(zip(m_pool, t_pool)):
        if t.requires_grad and t.grad_fn is not None and not t.retains_grad:
            continue
        mg, tg = m.grad, t.grad
        if tg is None or mg is None:
            assert mg is None and tg is None, f"{what} {k} grad: received {mg}, expected (torch) {tg}"
            continue
        assert close(mg.numpy(), tg.numpy()), (
            f"{what} {k} grad: received\n{mg.numpy()}\nexpected (torch)\n{tg.numpy()}")


def run_both(torch, program, seed, retain=True):
    leaves, steps = program
    rng = np.random.default_rng(seed)
    values = [rng.standard_normal(s) for s in leaves]
    t_refused, m_refused = [], []
    t_leaves, t_pool = run(torch, leaves, steps, values, t_refused)
    m_leaves, m_pool = run(minigrad, leaves, steps, values, m_refused)
    assert m_refused == t_refused, f"refused steps: received {m_refused}, expected (torch) {t_refused}"
    compare_forward(m_pool, t_pool, steps)
    roots = [k for k in sinks(steps, len(leaves), len(t_pool)) if t_pool[k].requires_grad]
    if retain:
        for m, t in zip(m_pool[len(leaves):], t_pool[len(leaves):]):
            if t.requires_grad:
                m.retain_grad()
                t.retain_grad()
    upstream = [rng.standard_normal(tuple(t_pool[k].shape)) for k in roots]
    if not roots:
        return m_pool, t_pool
    expected = backward_outcome(torch, t_pool, roots, upstream)
    received = backward_outcome(minigrad, m_pool, roots, upstream)
    assert received == expected, f"backward: received {received!r}\nexpected (torch) {expected!r}\nprogram {steps}"
    if expected is None:
        compare_grads(m_pool, t_pool, "tensor")
    return m_pool, t_pool


@SETTINGS
@given(program=programs(), seed=st.integers(0, 2 ** 32 - 1))
def test_random_graphs_match_torch(program, seed, torch):
    run_both(torch, program, seed)


@SETTINGS
@given(program=programs(inplace=True), seed=st.integers(0, 2 ** 32 - 1))
def test_random_programs_with_inplace_ops_match_torch(program, seed, torch):
    m_pool, t_pool = run_both(torch, program, seed, retain=False)
    for k, (m, t) in enumerate(zip(m_pool, t_pool)):
        assert m._version == t._version, f"tensor {k} _version: received {m._version}, expected (torch) {t._version}"


def test_programs_do_build_diamonds_and_reuse():
    """The generator is not degenerate: some programs use a tensor twice (x * x or a diamond)."""
    found = []

    @settings(max_examples=50, deadline=None, database=None, derandomize=IN_CI)
    @given(programs())
    def probe(program):
        _, steps = program
        reads = [a for kind, _, args in steps for a in args]
        found.append(len(reads) != len(set(reads)))

    probe()
    assert any(found), "received no program that reads a tensor twice, expected diamonds and reuse"


# ---- second derivatives: Hessian-vector products of random programs -----------------------------------
def hessian_vector_product(lib, pool, n_leaves, roots, upstream, v):
    """d/dleaves of (d L/dleaves . v), with L = sum of root * upstream: the gradient recorded, then differentiated.

    Values only: minigrad's double-backward graphs may be shaped unlike torch's (a gradient that does not
    require grad is a zero second derivative on either side).
    """
    leaves = pool[:n_leaves]
    loss = sum((pool[k] * lib.tensor(g, dtype=lib.float64)).sum() for k, g in zip(roots, upstream))
    grads = lib.autograd.grad(loss, leaves, create_graph=True, materialize_grads=True)
    dot = sum((g * lib.tensor(w, dtype=lib.float64)).sum() for g, w in zip(grads, v))
    if not dot.requires_grad:
        return [g.detach().numpy() for g in grads], [np.zeros(t.shape) for t in leaves]
    hv = lib.autograd.grad(dot, leaves, materialize_grads=True)
    # torch may return a lazy ZeroTensor for a zero second derivative; numpy() needs force=True for it
    return [g.detach().numpy() for g in grads], [h.numpy(**({} if lib is minigrad else {"force": True})) for h in hv]


@SETTINGS
@given(program=programs(), seed=st.integers(0, 2 ** 32 - 1))
def test_hessian_vector_products_of_random_graphs_match_torch(program, seed, torch):
    leaves, steps = program
    rng = np.random.default_rng(seed)
    values = [rng.standard_normal(s) for s in leaves]
    _, t_pool = run(torch, leaves, steps, values)
    _, m_pool = run(minigrad, leaves, steps, values)
    roots = [k for k in sinks(steps, len(leaves), len(t_pool)) if t_pool[k].requires_grad]
    if not roots:
        return
    upstream = [rng.standard_normal(tuple(t_pool[k].shape)) for k in roots]
    v = [rng.standard_normal(s) for s in leaves]
    t_grads, t_hv = hessian_vector_product(torch, t_pool, len(leaves), roots, upstream, v)
    m_grads, m_hv = hessian_vector_product(minigrad, m_pool, len(leaves), roots, upstream, v)
    for k, (r, e) in enumerate(zip(m_grads + m_hv, t_grads + t_hv)):
        what = f"gradient of leaf {k}" if k < len(leaves) else f"Hessian-vector product for leaf {k - len(leaves)}"
        assert close(np.asarray(r), np.asarray(e)), f"{what}: received\n{r}\nexpected (torch)\n{e}\nprogram {steps}"
