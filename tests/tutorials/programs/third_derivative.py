# Higher-order derivatives with torch.autograd.grad, the nth_derivative answer to "Higher order gradients in
# pytorch" on Stack Overflow, copied into many projects with its link:
#   https://stackoverflow.com/questions/50322833/higher-order-gradients-in-pytorch
# The answer's code as it is copied (imports included), then the same function on y = x**3 at x = 2.
# The one change: added after the answer's example, the first, second and third derivative of x**3 at x = 2
# (12, 12 and 6), printed the same way as the answer prints its result.
import torch
from torch.autograd import grad


def nth_derivative(f, wrt, n):

    for i in range(n):

        grads = grad(f, wrt, create_graph=True)[0]
        f = grads.sum()

    return grads


x = torch.arange(4., requires_grad=True).reshape(2, 2)
loss = (x ** 4).sum()

print(nth_derivative(f=loss, wrt=x, n=3))

x = torch.tensor(2.0, requires_grad=True)
y = x ** 3
for n in (1, 2, 3):
    print(nth_derivative(f=y, wrt=x, n=n))
