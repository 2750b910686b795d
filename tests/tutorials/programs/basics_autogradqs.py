# "Automatic Differentiation with torch.autograd", PyTorch's "Learn the Basics":
#   https://pytorch.org/tutorials/beginner/basics/autogradqs_tutorial.html
#   (source: github.com/pytorch/tutorials, beginner_source/basics/autogradqs_tutorial.py)
# Every code block of the page, in its order, as one program (the page's prose left out). Changes, and only these:
# - The two prints of a grad_fn show a node's repr, which holds its memory address (`<AddBackward0 object at
#   0x7f...>`), different in every run; there each goes through no_address (defined below, not part of the
#   tutorial), which drops the " at 0x..." part.
# - `torch.manual_seed(0)`, added after the imports: w and b (torch.randn) come from torch's default generator
#   with no seed, and PyTorch seeds that generator differently in every process (torch.initial_seed() differs from
#   run to run), so without it not even two runs on torch would print the same.
import re

import torch

torch.manual_seed(0)  # added: see the header


def no_address(obj):
    """Return repr(obj) without the memory address that the repr of an autograd node holds."""
    return re.sub(r" at 0x[0-9a-fA-F]+", "", repr(obj))


x = torch.ones(5)  # input tensor
y = torch.zeros(3)  # expected output
w = torch.randn(5, 3, requires_grad=True)
b = torch.randn(3, requires_grad=True)
z = torch.matmul(x, w)+b
loss = torch.nn.functional.binary_cross_entropy_with_logits(z, y)


######################################################################
# Tensors, Functions and Computational graph
# ------------------------------------------

print(f"Gradient function for z = {no_address(z.grad_fn)}")
print(f"Gradient function for loss = {no_address(loss.grad_fn)}")

######################################################################
# Computing Gradients
# -------------------

loss.backward()
print(w.grad)
print(b.grad)


######################################################################
# Disabling Gradient Tracking
# ---------------------------

z = torch.matmul(x, w)+b
print(z.requires_grad)

with torch.no_grad():
    z = torch.matmul(x, w)+b
print(z.requires_grad)


######################################################################
# Another way to achieve the same result is to use the ``detach()`` method
# on the tensor:
#

z = torch.matmul(x, w)+b
z_det = z.detach()
print(z_det.requires_grad)


######################################################################
# Optional Reading: Tensor Gradients and Jacobian Products
# --------------------------------------------------------

inp = torch.eye(4, 5, requires_grad=True)
out = (inp+1).pow(2).t()
out.backward(torch.ones_like(out), retain_graph=True)
print(f"First call\n{inp.grad}")
out.backward(torch.ones_like(out), retain_graph=True)
print(f"\nSecond call\n{inp.grad}")
inp.grad.zero_()
out.backward(torch.ones_like(out), retain_graph=True)
print(f"\nCall after zeroing gradients\n{inp.grad}")
