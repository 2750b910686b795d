"""A small model and training loop shared by the optimizer parity tests, written against the public API of `lib`."""
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
