"""A small model and training loop shared by the optimizer parity tests, written against the public API of `lib`."""
import copy

import numpy as np

from minigrad.datasets import make_moons

STEPS = 30


def build(lib):
    nn = lib.nn
    return nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 2))


def same_weights(lib):
    """A model whose weights are fixed numbers (sin of a counter), the same in both libraries."""
    model = build(lib)
    start = 0
    with lib.no_grad():
        for p in model.parameters():
            n = p.numel()
            p.copy_(lib.tensor(np.sin(np.arange(start, start + n)).reshape(tuple(p.shape)).astype(np.float32)))
            start += n
    return model


def data(lib):
    X, y = make_moons(48, noise=0.1, seed=3)
    return lib.tensor(X.numpy()), lib.tensor(y.numpy())


def train(lib, model, optimizer, steps, sign=1.0):
    """The three-line loop; with sign=-1 the loss is negated (for maximize=True, which then ascends -loss)."""
    X, y = data(lib)
    losses = []
    for _ in range(steps):
        optimizer.zero_grad()
        loss = lib.nn.functional.cross_entropy(model(X), y)
        (sign * loss).backward()
        optimizer.step()
        losses.append(loss.item())
    return np.array(losses)


def params_of(model):
    return [np.array(p.detach().tolist()) for p in model.parameters()]


def assert_trains_as_torch(torch, minigrad, name, cls, options):
    """Train `same_weights` with optimizer `cls(**options)` in both libraries for STEPS steps: the losses and the
    parameters must agree with torch's (to float32 rounding: a model's forward may differ in the last bit)."""
    sign = -1.0 if options.get("maximize") else 1.0
    results = {}
    for lib in (torch, minigrad):
        model = same_weights(lib)
        optimizer = getattr(lib.optim, cls)(model.parameters(), **options)
        results[lib.__name__] = train(lib, model, optimizer, STEPS, sign), params_of(model)
    (t_losses, t_params), (m_losses, m_params) = results["torch"], results["minigrad"]
    assert t_losses[-1] < t_losses[0], "the run does not train: the comparison would be weak"
    np.testing.assert_allclose(m_losses, t_losses, rtol=1e-5, atol=1e-6, err_msg=f"{name}: losses per step")
    for i, (m, t) in enumerate(zip(m_params, t_params)):
        np.testing.assert_allclose(m, t, rtol=1e-4, atol=1e-5, err_msg=f"{name}: parameter {i} after {STEPS} steps")


def round_trip(lib, cls, options, sign=1.0):
    """Train 10 steps, save model and optimizer (deep copies, as torch.save/load would give back), resume both in
    new objects and train 10 more steps on each: whether the two runs agree exactly, the losses, the resumed lr
    (from the state, not the constructor's) and repr."""
    model = same_weights(lib)
    optimizer = getattr(lib.optim, cls)(model.parameters(), **options)
    train(lib, model, optimizer, 10, sign)
    saved_model = copy.deepcopy(model.state_dict())
    saved = copy.deepcopy(optimizer.state_dict())
    resumed = build(lib)
    resumed.load_state_dict(saved_model)
    resumed_optimizer = getattr(lib.optim, cls)(resumed.parameters(), lr=0.5)   # lr comes from the state
    resumed_optimizer.load_state_dict(saved)
    losses = train(lib, model, optimizer, 10, sign)
    resumed_losses = train(lib, resumed, resumed_optimizer, 10, sign)
    identical = (losses.tolist() == resumed_losses.tolist()
                 and all((a == b).all() for a, b in zip(params_of(model), params_of(resumed))))
    return identical, losses.tolist(), resumed_optimizer.param_groups[0]["lr"], repr(resumed_optimizer)


def state_after_three_steps(lib, cls, options):
    """Two parameter groups (the second with its own lr), three steps: the state_dict, the repr, and whether
    the saved state is the live one (torch's state_dict does not copy it)."""
    model = same_weights(lib)
    optimizer = getattr(lib.optim, cls)([{"params": model[0].parameters()},
                                         {"params": model[2].parameters(), "lr": 0.003}], **options)
    train(lib, model, optimizer, 3)
    state = optimizer.state_dict()
    return state, repr(optimizer), state["state"][0] is optimizer.state[model[0].weight]
