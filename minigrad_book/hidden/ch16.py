"""Hidden cases for chapter 16: a matrix w and a loss of its own for the per-sample gradients, and an ensemble
of two-layer Sequential models on a batch of three.
"""
import minigrad as torch
from minigrad import autograd, nn

from widgets.exercises import check, expect


@check("per_sample_grads also works for a matrix w (3, 2) and another loss.")
def check_per_sample_grads(per_sample_grads):
    w = torch.tensor([[1.0, -1.0], [0.5, 2.0], [0.0, 1.0]])
    xs = torch.tensor([[1.0, 2.0, 0.0], [0.5, 0.0, -1.0], [2.0, 1.0, 1.0]])
    ys = torch.tensor([[0.5, 1.0], [-1.0, 2.0], [0.0, 0.0]])

    def loss_fn(w, x, y):
        return ((x @ w).tanh() - y).abs().sum()
    got = per_sample_grads(loss_fn, w, xs, ys)
    rows = []
    for x, y in zip(xs, ys):
        leaf = w.clone().requires_grad_()
        rows.append(autograd.grad(loss_fn(leaf, x, y), leaf)[0])
    want = torch.stack(rows)
    expect(isinstance(got, torch.Tensor) and got.shape == want.shape,
           f"for a matrix w, per_sample_grads did not return a tensor of shape {tuple(want.shape)}.")
    expect(torch.allclose(got, want, atol=1e-6), "for a matrix w, the rows are not the samples' gradients.")


@check("ensemble_predict also works for Sequential models with two layers.")
def check_ensemble_predict(ensemble_predict):
    torch.manual_seed(1)
    models = [nn.Sequential(nn.Linear(2, 4), nn.Tanh(), nn.Linear(4, 1)) for _ in range(3)]
    x = torch.tensor([[1.0, -1.0], [0.5, 2.0], [0.0, 0.25]])
    got = ensemble_predict(models, x)
    want = torch.stack([m(x) for m in models]).detach()
    expect(isinstance(got, torch.Tensor) and got.shape == want.shape,
           f"for three Sequential models, ensemble_predict did not return a tensor of shape {tuple(want.shape)}.")
    expect(torch.allclose(got.detach(), want, atol=1e-6), "for three Sequential models, the outputs are not theirs.")
