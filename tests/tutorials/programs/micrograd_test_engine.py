# micrograd's tests, the torch half: Andrej Karpathy's micrograd, test/test_engine.py
#   https://github.com/karpathy/micrograd/blob/master/test/test_engine.py
# The file compares micrograd's Value with torch on two expressions. Changes, and only these:
# - Only the torch half of each test is here (micrograd is not installed): `from micrograd.engine import Value`
#   and the Value halves are left out.
# - Each assert compares micrograd's number with the torch value it names; here that torch value is printed
#   instead (ypt.data.item() and xpt.grad.item(); gpt.data.item(), apt.grad.item() and bpt.grad.item()), in
#   full, with what micrograd's README gives for them in a comment. The two test functions are called at the
#   end.
import torch

def test_sanity_check():

    x = torch.Tensor([-4.0]).double()
    x.requires_grad = True
    z = 2 * x + 2 + x
    q = z.relu() + z * x
    h = (z * z).relu()
    y = h + q + q * x
    y.backward()
    xpt, ypt = x, y

    # forward pass went well
    print(ypt.data.item())  # ymg.data == ypt.data.item()
    # backward pass went well
    print(xpt.grad.item())  # xmg.grad == xpt.grad.item()

def test_more_ops():

    a = torch.Tensor([-4.0]).double()
    b = torch.Tensor([2.0]).double()
    a.requires_grad = True
    b.requires_grad = True
    c = a + b
    d = a * b + b**3
    c = c + c + 1
    c = c + 1 + c + (-a)
    d = d + d * 2 + (b + a).relu()
    d = d + 3 * d + (b - a).relu()
    e = c - d
    f = e**2
    g = f / 2.0
    g = g + 10.0 / f
    g.backward()
    apt, bpt, gpt = a, b, g

    tol = 1e-6
    # forward pass went well
    print(gpt.data.item())  # abs(gmg.data - gpt.data.item()) < tol; README: 24.7041
    # backward pass went well
    print(apt.grad.item())  # abs(amg.grad - apt.grad.item()) < tol; README: 138.8338
    print(bpt.grad.item())  # abs(bmg.grad - bpt.grad.item()) < tol; README: 645.5773

test_sanity_check()
test_more_ops()
