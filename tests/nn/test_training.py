"""The three-line loop trains real models on the generated data: accuracy is asserted, time only measured."""
import time

import minigrad as torch
from minigrad import nn
from minigrad.datasets import make_digits, make_moons, make_spirals, train_test_split


def fit(model, X, y, optimizer, steps):
    loss_fn = nn.CrossEntropyLoss()
    losses = []
    for _ in range(steps):
        optimizer.zero_grad()
        loss = loss_fn(model(X), y)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses


def accuracy(model, X, y):
    with torch.no_grad():
        return (model(X).argmax(dim=1) == y).float().mean().item()


def test_two_layer_network_learns_two_moons(record_property):
    X, y = make_moons(200, noise=0.1, seed=0)
    X_train, y_train, X_test, y_test = train_test_split(X, y)
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(2, 16), nn.ReLU(), nn.Linear(16, 2))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    start = time.perf_counter()
    losses = fit(model, X_train, y_train, optimizer, steps=300)
    record_property("train_seconds", round(time.perf_counter() - start, 3))
    assert losses[-1] < 0.1 * losses[0]
    assert accuracy(model, X_train, y_train) >= 0.95
    assert accuracy(model, X_test, y_test) >= 0.95


def test_spirals_need_the_hidden_layer():
    X, y = make_spirals(300, n_classes=3, noise=0.2, seed=0)
    torch.manual_seed(0)
    linear = nn.Linear(2, 3)
    fit(linear, X, y, torch.optim.Adam(linear.parameters(), lr=0.05), steps=200)
    mlp = nn.Sequential(nn.Linear(2, 64), nn.ReLU(), nn.Linear(64, 3))
    fit(mlp, X, y, torch.optim.Adam(mlp.parameters(), lr=0.01), steps=600)
    assert accuracy(linear, X, y) < 0.7
    assert accuracy(mlp, X, y) >= 0.95


def test_digits_classifier():
    X, y = make_digits(40, noise=0.2, seed=0)
    X_train, y_train, X_test, y_test = train_test_split(X, y)
    torch.manual_seed(0)
    model = nn.Sequential(nn.Flatten(), nn.Linear(64, 32), nn.Tanh(), nn.Linear(32, 10))
    fit(model, X_train, y_train, torch.optim.Adam(model.parameters(), lr=0.01), steps=150)
    assert accuracy(model, X_test, y_test) >= 0.9
