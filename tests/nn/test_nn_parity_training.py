"""Training parity: minigrad and torch start from the same weights (copied through numpy) on the same data and,
with the three-line loop, reach the same losses and parameters, step by step, for each optimizer setting."""
import numpy as np
import pytest

import minigrad
from minigrad.datasets import make_moons

STEPS = 50


def build(lib):
    nn = lib.nn
    return nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 16), nn.ReLU(), nn.Linear(16, 2))


def copy_weights(src, dst, lib):
    """Copy src's parameters into dst (another library's model), through numpy."""
    with lib.no_grad():
        for (name, p), (other, q) in zip(src.named_parameters(), dst.named_parameters()):
            assert name == other
            q.copy_(lib.tensor(np.array(p.detach().tolist(), np.float32)))


def train(lib, model, make_optimizer, X, y, loss_name):
    optimizer = make_optimizer(lib, model)
    loss_fn = lib.nn.CrossEntropyLoss() if loss_name == "ce" else lib.nn.MSELoss()
    target = y if loss_name == "ce" else lib.stack([1.0 - y.float(), y.float()], 1)
    losses = []
    for _ in range(STEPS):
        optimizer.zero_grad()
        loss = loss_fn(model(X), target)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return np.array(losses), [np.array(p.detach().tolist()) for p in model.parameters()]


OPTIMIZERS = {
    "sgd": lambda lib, m: lib.optim.SGD(m.parameters(), lr=0.1),
    "sgd_momentum_weight_decay": lambda lib, m: lib.optim.SGD(m.parameters(), lr=0.05, momentum=0.9,
                                                              weight_decay=1e-2),
    "sgd_nesterov": lambda lib, m: lib.optim.SGD(m.parameters(), lr=0.05, momentum=0.9, nesterov=True),
    "sgd_dampening": lambda lib, m: lib.optim.SGD(m.parameters(), lr=0.05, momentum=0.5,
                                                           dampening=0.3),
    "sgd_param_groups": lambda lib, m: lib.optim.SGD([{"params": m[0].parameters(), "lr": 0.01},
                                                      {"params": list(m[2].parameters()) + list(m[4].parameters())}],
                                                     lr=0.1, momentum=0.9),
    "adam": lambda lib, m: lib.optim.Adam(m.parameters(), lr=0.01),
    "adam_weight_decay": lambda lib, m: lib.optim.Adam(m.parameters(), lr=0.01, betas=(0.8, 0.99),
                                                       weight_decay=1e-2),
    "adam_amsgrad": lambda lib, m: lib.optim.Adam(m.parameters(), lr=0.02, amsgrad=True),
    "adamw_style": lambda lib, m: lib.optim.Adam(m.parameters(), lr=0.01, weight_decay=0.1,
                                                 decoupled_weight_decay=True),
}


@pytest.mark.parametrize("loss_name", ["ce", "mse"])
@pytest.mark.parametrize("opt_name", list(OPTIMIZERS))
def test_same_losses_as_torch(torch, opt_name, loss_name):
    X_m, y_m = make_moons(64, noise=0.1, seed=1)
    X_t, y_t = torch.tensor(X_m.numpy()), torch.tensor(y_m.numpy())
    torch.manual_seed(0)
    t_model = build(torch)
    m_model = build(minigrad)
    copy_weights(t_model, m_model, minigrad)

    t_losses, t_params = train(torch, t_model, OPTIMIZERS[opt_name], X_t, y_t, loss_name)
    m_losses, m_params = train(minigrad, m_model, OPTIMIZERS[opt_name], X_m, y_m, loss_name)

    assert t_losses[-1] < t_losses[0], "the run does not train: the comparison would be weak"
    np.testing.assert_allclose(m_losses, t_losses, rtol=2e-4, atol=1e-5,
                               err_msg=f"losses per step differ (torch first {t_losses[:3]}, last {t_losses[-1]})")
    for i, (m, t) in enumerate(zip(m_params, t_params)):
        np.testing.assert_allclose(m, t, rtol=1e-3, atol=1e-4, err_msg=f"parameter {i} after {STEPS} steps")


def test_optimizer_state_matches_torch(parity):
    def example(lib):
        p = lib.nn.Parameter(lib.tensor([1.0, -2.0, 3.0]))
        sgd = lib.optim.SGD([p], lr=0.1, momentum=0.9, weight_decay=0.5)
        adam = lib.optim.Adam([q := lib.nn.Parameter(lib.tensor([1.0, -2.0, 3.0]))], lr=0.1)
        snapshots = []
        for _ in range(3):
            for opt, param in ((sgd, p), (adam, q)):
                opt.zero_grad()
                (param ** 3).sum().backward()
                opt.step()
            snapshots.append((p.tolist(), sgd.state[p]["momentum_buffer"].tolist(), q.tolist(),
                              {k: v.tolist() for k, v in adam.state[q].items()}))
        return snapshots, list(sgd.state[p]), len(sgd.state), repr(sgd), repr(adam)
    parity(example)


@pytest.mark.parametrize("make", ["sgd", "sgd_momentum", "adam", "rmsprop", "adagrad"])
def test_a_step_counts_as_an_inplace_change_of_its_parameters(parity, make):
    """An optimizer step writes its parameters in place: their version counters move as torch's do, and a graph
    that saved a parameter before the step refuses to run backward after it."""
    def example(lib):
        p = lib.nn.Parameter(lib.tensor([1.0, -2.0, 3.0]))
        opt = {"sgd": lambda: lib.optim.SGD([p], lr=0.1),
               "sgd_momentum": lambda: lib.optim.SGD([p], lr=0.1, momentum=0.9),
               "adam": lambda: lib.optim.Adam([p], lr=0.1), "rmsprop": lambda: lib.optim.RMSprop([p], lr=0.1),
               "adagrad": lambda: lib.optim.Adagrad([p], lr=0.1)}[make]()
        versions = []
        for _ in range(2):
            opt.zero_grad()
            (p * p).sum().backward()
            opt.step()
            versions.append(p._version)
        saved = (p * p).sum()
        opt.step()
        try:
            saved.backward()
        except RuntimeError as error:
            return versions, p.tolist(), str(error).split(";")[0]
        return versions, p.tolist(), "no error"
    parity(example)
