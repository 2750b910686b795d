"""Gradients of gradients through the nn ops (addmm, log_softmax, softmax, mse_loss, nll_loss), against real torch.

Every check runs the same float64 program on both libraries: `autograd.grad(..., create_graph=True)` gives the
first derivative as a graph, and a second `autograd.grad` of it gives a Hessian-vector product. Where torch's
double-backward graph has nodes minigrad's formulas do not (`LogSoftmaxBackwardDataBackward0`,
`SoftmaxBackwardDataBackward0`, `MseLossBackwardBackward0`: minigrad writes those gradients with Tensor ops, so its
graph shows Exp, Mul, Sub, ... instead), the values are compared, not the node names.
"""
import numpy as np
import pytest

import minigrad

TOL = dict(rtol=1e-10, atol=1e-12)


def close(m, t, what):
    """Assert that minigrad's tensor (or None) `m` equals torch's `t` in float64."""
    assert (m is None) == (t is None), f"{what}: torch gave {t}, minigrad gave {m}"
    if t is not None:
        a, b = np.array(m.detach().tolist()), t.detach().numpy()
        assert a.shape == b.shape and np.allclose(a, b, **TOL), f"{what}: torch gave\n{b}\nminigrad gave\n{a}"


def leaves(lib, arrays):
    return [lib.tensor(a, requires_grad=True) for a in arrays]


def second_order(lib, fn, arrays, v, us):
    """First derivatives of fn(*xs) for the output gradient v, and the HVPs d(sum_k g_k u_k)/dxs."""
    xs = leaves(lib, arrays)
    y = fn(lib, *xs)
    gs = lib.autograd.grad(y, xs, lib.tensor(v), create_graph=True)
    s = sum((g * lib.tensor(u)).sum() for g, u in zip(gs, us))
    return gs, lib.autograd.grad(s, xs, allow_unused=True)


def F(lib):
    return lib.nn.functional


def _addmm(lib, b, x, w):
    return lib.addmm(b, x, w)


T = np.array([0, 2, 1, 2])
T2D = np.array([[[0, 2], [1, 1]], [[2, 0], [0, 2]]])
W3 = np.array([1.0, 2.0, 0.5])
# name: (fn(lib, *inputs), input shapes)
CASES = {
    "addmm": (_addmm, [(2,), (4, 3), (3, 2)]),
    "addmm_column_bias": (_addmm, [(4, 1), (4, 3), (3, 2)]),
    "log_softmax_dim1": (lambda lib, x: F(lib).log_softmax(x, 1), [(4, 3)]),
    "log_softmax_dim_minus1": (lambda lib, x: F(lib).log_softmax(x, -1), [(2, 4, 3)]),
    "log_softmax_0d": (lambda lib, x: F(lib).log_softmax(x, 0), [()]),
    "softmax_dim0": (lambda lib, x: F(lib).softmax(x, 0), [(4, 3)]),
    "softmax_dim_minus1": (lambda lib, x: F(lib).softmax(x, -1), [(2, 4, 3)]),
    "mse_mean": (lambda lib, x, y: F(lib).mse_loss(x, y), [(4, 3), (4, 3)]),
    "mse_sum": (lambda lib, x, y: F(lib).mse_loss(x, y, reduction="sum"), [(4, 3), (4, 3)]),
    "mse_none": (lambda lib, x, y: F(lib).mse_loss(x, y, reduction="none"), [(4, 3), (4, 3)]),
    # the input is the leaf: its second derivative is zero (torch's zeros, not None)
    "nll_of_a_leaf": (lambda lib, x: F(lib).nll_loss(x, lib.tensor(T)), [(4, 3)]),
    "nll_mean": (lambda lib, x: F(lib).nll_loss(F(lib).log_softmax(x, 1), lib.tensor(T)), [(4, 3)]),
    "nll_weight_ignore": (lambda lib, x: F(lib).nll_loss(F(lib).log_softmax(x, 1), lib.tensor(T), weight=lib.tensor(
        W3), ignore_index=1), [(4, 3)]),
    "nll_sum": (lambda lib, x: F(lib).nll_loss(F(lib).softmax(x, 1), lib.tensor(T), reduction="sum"), [(4, 3)]),
    "nll_none": (lambda lib, x: F(lib).nll_loss(F(lib).softmax(x, 1), lib.tensor(T), reduction="none"), [(4, 3)]),
    "nll_unbatched": (lambda lib, x: F(lib).nll_loss(F(lib).log_softmax(x, 0), lib.tensor(2)), [(3,)]),
    "nll_2d": (lambda lib, x: F(lib).nll_loss(F(lib).log_softmax(x, 1), lib.tensor(T2D)), [(2, 3, 2, 2)]),
    "nll_2d_none": (lambda lib, x: F(lib).nll_loss(F(lib).log_softmax(x, 1), lib.tensor(T2D), reduction="none"),
                    [(2, 3, 2, 2)]),
    "cross_entropy": (lambda lib, x: F(lib).cross_entropy(x, lib.tensor(T)), [(4, 3)]),
}


def case_data(name):
    rng = np.random.default_rng(sorted(CASES).index(name))
    fn, shapes = CASES[name]
    arrays = [rng.standard_normal(s) for s in shapes]
    us = [rng.standard_normal(s) for s in shapes]
    return fn, arrays, us, rng


@pytest.mark.parametrize("name", list(CASES))
def test_hessian_vector_product_matches_torch(torch, name):
    fn, arrays, us, rng = case_data(name)
    y_shape = tuple(fn(torch, *[torch.tensor(a) for a in arrays]).shape)
    v = rng.standard_normal(y_shape)
    m_gs, m_hs = second_order(minigrad, fn, arrays, v, us)
    t_gs, t_hs = second_order(torch, fn, arrays, v, us)
    for i, (m, t) in enumerate(zip(m_gs, t_gs)):
        close(m, t, f"{name}: first derivative {i}")
        assert m.requires_grad == t.requires_grad, f"{name}: gradient {i} requires_grad: torch {t.requires_grad}"
    for i, (m, t) in enumerate(zip(m_hs, t_hs)):
        close(m, t, f"{name}: Hessian-vector product {i}")


@pytest.mark.parametrize("name", list(CASES))
def test_gradgradcheck(name):
    """Second derivatives against finite differences of the first (no torch needed)."""
    fn, arrays, _, _ = case_data(name)
    assert minigrad.autograd.gradgradcheck(lambda *xs: fn(minigrad, *xs), tuple(leaves(minigrad, arrays)))


@pytest.mark.parametrize("name", ["log_softmax_dim1", "softmax_dim0", "mse_mean", "nll_mean", "addmm"])
def test_third_derivative_matches_torch(torch, name):
    fn, arrays, us, rng = case_data(name)

    def third(lib):
        xs = leaves(lib, arrays)
        y = fn(lib, *xs)
        gs = lib.autograd.grad(y.sum(), xs, create_graph=True)
        hs = lib.autograd.grad(sum((g * g).sum() for g in gs), xs, create_graph=True, allow_unused=True)
        pairs = [(h, u) for h, u in zip(hs, us) if h is not None and h.requires_grad]
        return lib.autograd.grad(sum((h * lib.tensor(u)).sum() for h, u in pairs), xs, allow_unused=True)

    for i, (m, t) in enumerate(zip(third(minigrad), third(torch), strict=True)):
        close(m, t, f"{name}: third derivative {i}")


@pytest.mark.parametrize("loss", ["nll", "nll_2d"])
def test_nll_loss_double_backward_node_is_torchs(torch, loss):
    """nll_loss's gradient is its own op (`nll_loss_backward`), with torch's node name and torch's edges."""
    def names(lib):
        x = lib.tensor(np.zeros((2, 3, 2, 2) if loss == "nll_2d" else (4, 3)), requires_grad=True)
        target = lib.tensor(T2D if loss == "nll_2d" else T)
        (g,) = lib.autograd.grad(F(lib).nll_loss(x, target), x, create_graph=True)
        return g.grad_fn.name(), [n.name().split("::")[-1] for n, _ in g.grad_fn.next_functions if n is not None]
    assert names(minigrad) == names(torch)


def saved_examples(lib):
    f = F(lib)
    x = lib.tensor(np.arange(12.0).reshape(4, 3) / 7, requires_grad=True)
    w, b = lib.tensor(np.ones((2, 3)), requires_grad=True), lib.tensor(np.ones(2), requires_grad=True)
    target = lib.tensor(np.zeros((4, 3)))
    return {
        "linear": f.linear(x, w, b), "linear_input_without_grad": f.linear(x.detach(), w, b),
        "linear_weight_without_grad": f.linear(x, w.detach(), b),
        "log_softmax": f.log_softmax(x, 1), "softmax": f.softmax(x, 0),
        "mse_mean": f.mse_loss(x, target), "mse_none": f.mse_loss(x, target, reduction="none"),
        "mse_sum": f.mse_loss(x, target, reduction="sum"),
        "nll_sum": f.nll_loss(x, lib.tensor(T), ignore_index=1, reduction="sum"),
        "nll_2d": f.nll_loss(x.view(2, 3, 2, 1), lib.tensor(np.zeros((2, 2, 1), np.int64)), ignore_index=2),
        "nll_gradient": lib.autograd.grad(f.nll_loss(x, lib.tensor(T), ignore_index=2), x, create_graph=True)[0],
    }


SAVED = ["_saved_mat1", "_saved_mat2", "_saved_result", "_saved_dim", "_saved_self", "_saved_target",
         "_saved_reduction", "_saved_ignore_index"]


def test_saved_attributes_by_torchs_names(torch):
    """Each `_saved_<name>` that minigrad's node offers holds torch's value. (Not offered: addmm's sizes
    and strides, and nll_loss's target, weight and total_weight, which minigrad keeps as numpy or not at all.)"""
    m_nodes, t_nodes = saved_examples(minigrad), saved_examples(torch)
    checked = 0
    for key, t_out in t_nodes.items():
        m_node, t_node = m_nodes[key].grad_fn, t_out.grad_fn
        for attr in SAVED:
            if not hasattr(t_node, attr) or (key.startswith("nll") and attr == "_saved_target"):
                continue
            t_value, m_value = getattr(t_node, attr), getattr(m_node, attr)
            if isinstance(t_value, torch.Tensor) or t_value is None:
                close(m_value, t_value, f"{key}: {attr}")
            else:
                assert m_value == t_value, f"{key}: {attr}: torch gave {t_value!r}, minigrad gave {m_value!r}"
            checked += 1
    assert checked == 27, f"checked {checked} attributes, expected 27"


def mlp(lib, sizes, activation, seed=0):
    """Linear -> activation -> ... -> Linear in float64, with the same weights in both libraries."""
    rng = np.random.default_rng(seed)
    layers = []
    for i, (n_in, n_out) in enumerate(zip(sizes, sizes[1:])):
        layer = lib.nn.Linear(n_in, n_out, dtype=lib.float64)
        with lib.no_grad():
            layer.weight.copy_(lib.tensor(rng.standard_normal((n_out, n_in)) / np.sqrt(n_in)))
            layer.bias.copy_(lib.tensor(rng.standard_normal(n_out) * 0.1))
        layers += [layer] + ([getattr(lib.nn, activation)()] if i < len(sizes) - 2 else [])
    return lib.nn.Sequential(*layers)


DATA = np.random.default_rng(1)
X, X_CLASSES, Y_REAL = DATA.standard_normal((8, 3)), DATA.integers(0, 4, 8), DATA.standard_normal((8, 4))
MLPS = {
    "relu_cross_entropy": ("ReLU", lambda lib, out: F(lib).cross_entropy(out, lib.tensor(X_CLASSES))),
    "tanh_cross_entropy": ("Tanh", lambda lib, out: F(lib).cross_entropy(out, lib.tensor(X_CLASSES))),
    "tanh_mse": ("Tanh", lambda lib, out: F(lib).mse_loss(out, lib.tensor(Y_REAL))),
    "relu_mse_sum": ("ReLU", lambda lib, out: F(lib).mse_loss(out, lib.tensor(Y_REAL), reduction="sum")),
}


@pytest.mark.parametrize("name", list(MLPS))
def test_mlp_loss_hessian_vector_product_matches_torch(torch, name):
    """H v for the loss of a Linear -> activation -> Linear model, over all parameters and the input at once."""
    activation, loss_fn = MLPS[name]
    rng = np.random.default_rng(2)

    def hvp(lib):
        model = mlp(lib, [3, 5, 4], activation)
        x = lib.tensor(X, requires_grad=True)
        wrt = [x] + list(model.parameters())
        gs = lib.autograd.grad(loss_fn(lib, model(x)), wrt, create_graph=True)
        vs = [lib.tensor(v) for v in directions]
        return gs, lib.autograd.grad(sum((g * v).sum() for g, v in zip(gs, vs)), wrt)

    directions = [rng.standard_normal(s) for s in [(8, 3), (5, 3), (5,), (4, 5), (4,)]]
    for i, ((mg, mh), (tg, th)) in enumerate(zip(zip(*hvp(minigrad)), zip(*hvp(torch)), strict=True)):
        close(mg, tg, f"{name}: gradient {i}")
        close(mh, th, f"{name}: Hessian-vector product {i}")


def gradient_penalty(lib, critic, x):
    """WGAN-GP's penalty: E[(|d critic(x) / dx|_2 - 1)^2], differentiable in the critic's parameters."""
    (g,) = lib.autograd.grad(critic(x).sum(), x, create_graph=True)
    return ((g.norm(2, dim=1) - 1) ** 2).mean()


@pytest.mark.parametrize("activation", ["Tanh", "ReLU"])
def test_gradient_penalty_gradients_match_torch(torch, activation):
    def grads(lib):
        critic = mlp(lib, [3, 6, 6, 1], activation, seed=3)
        gradient_penalty(lib, critic, lib.tensor(X, requires_grad=True)).backward()
        return [p.grad for p in critic.parameters()]

    for i, (m, t) in enumerate(zip(grads(minigrad), grads(torch), strict=True)):
        close(m, t, f"{activation} critic: parameter {i}.grad")


def test_gradient_penalty_training_steps_match_torch(torch):
    """Five steps of a WGAN-GP critic (Wasserstein loss + 10 * penalty on interpolates), SGD with momentum."""
    rng = np.random.default_rng(4)
    real, fake, mix = rng.standard_normal((8, 3)), rng.standard_normal((8, 3)) + 1, rng.random((5, 8, 1))

    def train(lib):
        critic = mlp(lib, [3, 6, 1], "Tanh", seed=5)
        opt = lib.optim.SGD(critic.parameters(), lr=0.05, momentum=0.9)
        losses = []
        for step in range(5):
            opt.zero_grad()
            r, f, a = lib.tensor(real), lib.tensor(fake), lib.tensor(mix[step])
            x = (a * r + (1 - a) * f).requires_grad_()
            loss = critic(f).mean() - critic(r).mean() + 10 * gradient_penalty(lib, critic, x)
            loss.backward()
            opt.step()
            losses.append(loss.item())
        return np.array(losses), [np.array(p.detach().tolist()) for p in critic.parameters()]

    (m_losses, m_params), (t_losses, t_params) = train(minigrad), train(torch)
    assert np.allclose(m_losses, t_losses, **TOL), f"losses: torch gave {t_losses}, minigrad gave {m_losses}"
    for i, (m, t) in enumerate(zip(m_params, t_params)):
        assert np.allclose(m, t, **TOL), f"parameter {i}: torch gave\n{t}\nminigrad gave\n{m}"
