"""Hidden cases for chapter 12: other batch sizes and values for SmallNet, another optimizer, loss and model for
train_step. (check_which is a prediction: there is no other case to try.)
"""
import copy

import minigrad as torch
from minigrad import nn, optim

from widgets.exercises import check, expect

from . import _training


@check("SmallNet also computes Linear(2, 8), then relu, then Linear(8, 2), for other inputs and batch sizes.")
def check_small_net(cls):
    torch.manual_seed(3)
    model = cls()
    linears = {(m.in_features, m.out_features): m for m in model.modules() if isinstance(m, nn.Linear)}
    expect(set(linears) == {(2, 8), (8, 2)}, "SmallNet should hold exactly a Linear(2, 8) and a Linear(8, 2).")
    hidden, out = linears[2, 8], linears[8, 2]
    for rows in (7, 1):
        x = torch.randn(rows, 2) * 3
        want = out(hidden(x).clamp(min=0))
        got = model(x)
        expect(isinstance(got, torch.Tensor) and tuple(got.shape) == (rows, 2),
               f"for a batch of {rows} random inputs, the output does not have shape ({rows}, 2).")
        expect(torch.allclose(got, want, atol=1e-6),
               f"for a batch of {rows} random inputs, the output is not Linear(8, 2)(relu(Linear(2, 8)(x))): "
               "relu goes between the two layers, and nowhere else.")
    model(torch.randn(4, 2)).sum().backward()
    missing = [name for name, p in model.named_parameters() if p.grad is None]
    expect(not missing, f"after backward, {missing[0] if missing else ''} has no gradient: every parameter "
                        "should take part in forward.")


def _problem():
    torch.manual_seed(5)
    model = nn.Sequential(nn.Linear(3, 5), nn.Tanh(), nn.Linear(5, 1))
    return model, torch.randn(10, 3), torch.randn(10, 1)


def _reference(model, X, y, steps):
    return _training.losses(model, X, y, steps, optim.SGD(model.parameters(), lr=0.05, momentum=0.9), nn.MSELoss())


@check("train_step also uses the optimizer and loss it is given: SGD with momentum and MSELoss, three calls.")
def check_train_step(fn):
    model, X, y = _problem()
    reference = copy.deepcopy(model)
    want = _reference(reference, X, y, 3)
    optimizer, loss_fn = optim.SGD(model.parameters(), lr=0.05, momentum=0.9), nn.MSELoss()
    got = [fn(model, optimizer, loss_fn, X, y) for _ in range(3)]
    same = all(torch.allclose(p, q, atol=1e-6) for p, q in zip(model.parameters(), reference.parameters()))
    expect(same, "with optim.SGD(lr=0.05, momentum=0.9) and nn.MSELoss() on a regression model, three calls did "
                 "not give the parameters of three steps: use the optimizer and the loss_fn passed in, not ones "
                 "of your own.")
    try:
        values = [float(v) for v in got]
    except (TypeError, ValueError, RuntimeError):
        values = None
    expect(values is not None and all(abs(v - w) < 1e-5 for v, w in zip(values, want)),
           "with nn.MSELoss() on a regression model, train_step did not return each step's loss (before step).")
