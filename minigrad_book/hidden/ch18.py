"""Hidden cases for chapter 18: the reversed gradient of a computed 2-D tensor used twice, and the gradient norms
of a model with nested Linear layers over two backward passes (the dictionary keeps the latest).
"""
import minigrad as torch
from minigrad import nn

from widgets.exercises import check, expect
from widgets.exercises.ch18 import _compare_norms, _norms_after_backward, _reversed_once


@check("reverse_gradient also works on a computed 2-D tensor, on one path of two.")
def check_reverse_gradient(reverse_gradient):
    x = torch.tensor([[0.5, -1.0], [2.0, 0.0]], requires_grad=True)
    w = torch.tensor([[1.0, 2.0], [3.0, -1.0]])
    t = x.exp()
    out = (_reversed_once(reverse_gradient, t) * w).sum() + t.sum()
    out.backward()
    want = x.detach().exp() * (1 - w)
    expect(x.grad is not None and torch.allclose(x.grad, want),
           f"for t = x.exp() of shape (2, 2), x.grad is {None if x.grad is None else x.grad.tolist()}, expected "
           f"{want.tolist()}.")


class _Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(2, 3), nn.Tanh(), nn.Linear(3, 3))
        self.head = nn.Linear(3, 1)

    def forward(self, x):
        return self.head(self.encoder(x))


@check("record_grad_norms also finds nested Linear layers and keeps the latest backward's norms.")
def check_record_grad_norms(record_grad_norms):
    torch.manual_seed(3)
    model = _Net()
    first = torch.tensor([[1.0, 2.0]], requires_grad=True)
    second = torch.tensor([[-0.5, 0.25], [1.0, 1.0]], requires_grad=True)
    want = _norms_after_backward(model, second)
    norms = record_grad_norms(model)
    expect(isinstance(norms, dict), "record_grad_norms did not return a dictionary.")
    (model(first) ** 2).sum().backward()
    (model(second) ** 2).sum().backward()
    _compare_norms(norms, want, "for a model with nested layers, after two backward passes")
