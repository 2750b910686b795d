# Hessian-vector products, two published ways:
# 1. With torch.autograd.grad and create_graph: the answer (by moskomule, Dec 2017) in the PyTorch Forums thread
#    "Calculating Hessian Vector Product", https://discuss.pytorch.org/t/calculating-hessian-vector-product/11240
# 2. With torch.autograd.functional.hvp: the example of its documentation,
#    https://pytorch.org/docs/stable/generated/torch.autograd.functional.hvp.html (the docstring of torch 2.13)
# Changes, and only these:
# - The imports the snippets assume (`from torch import autograd`, `Variable`, `hvp`).
# - The forum answer displays `x.grad` (its output, "Variable containing: 10 6", is PyTorch 0.3's print);
#   here it is printed. Added after it: the same product with autograd.grad twice instead of backward.
# - The documentation draws its inputs with torch.rand(2, 2) and torch.rand(2); here they are fixed numbers,
#   because minigrad's RNG does not reproduce torch's. Each hvp(...) result it displays is printed.
import torch
from torch import autograd
from torch.autograd import Variable
from torch.autograd.functional import hvp

print("# forum: grad with create_graph, then backward")
v = Variable(torch.Tensor([1, 1]))
x = Variable(torch.Tensor([0.1, 0.1]), requires_grad=True)
f = 3 * x[0] ** 2 + 4 * x[0] * x[1] + x[1] ** 2
grad_f, = autograd.grad(f, x, create_graph=True)
z = grad_f @ v
z.backward()
print(x.grad)

print("# the same with autograd.grad twice")
f = 3 * x[0] ** 2 + 4 * x[0] * x[1] + x[1] ** 2
grad_f, = autograd.grad(f, x, create_graph=True)
hv, = autograd.grad(grad_f @ v, x)
print(grad_f, hv)

print("# torch.autograd.functional.hvp")


def pow_reducer(x):
    return x.pow(3).sum()


inputs = torch.tensor([[0.1, 0.2], [0.3, 0.4]])
v = torch.ones(2, 2)
print(hvp(pow_reducer, inputs, v))
print(hvp(pow_reducer, inputs, v, create_graph=True))


def pow_adder_reducer(x, y):
    return (2 * x.pow(2) + 3 * y.pow(2)).sum()


inputs = (torch.tensor([0.5, 0.6]), torch.tensor([0.7, 0.8]))
v = (torch.zeros(2), torch.ones(2))
print(hvp(pow_adder_reducer, inputs, v))
