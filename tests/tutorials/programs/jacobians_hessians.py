# "Jacobians, Hessians, hvp, vhp, and more: composing function transforms", PyTorch tutorials:
#   https://pytorch.org/tutorials/intermediate/jacobians_hessians.html
#   (source: github.com/pytorch/tutorials, intermediate_source/jacobians_hessians.py)
# Every code block of the tutorial, in its order, as one program, comments left out. Changes, and only these:
# - the performance comparisons (torch.utils.benchmark's Timer and the tutorial's get_perf) are left out: they
#   print timings, which differ from run to run;
# - smaller sizes where the tutorial's take minutes on minigrad's loops (its vmap, jacrev and jacfwd run one
#   pass per row or column): Dout 2048 -> 256 and Din 2048 -> 256 in the jacfwd/jacrev section, the Hessian's
#   Din 512 -> 24 and Dout 32 -> 6, the batch of Jacobians and Hessians 64 -> 4 samples of 7 -> 5 features;
# - a print of each result the tutorial computes or shows as a bare expression.
import torch
import torch.nn.functional as F
from functools import partial
_ = torch.manual_seed(0)

def predict(weight, bias, x):
    return F.linear(x, weight, bias).tanh()

D = 16
weight = torch.randn(D, D)
bias = torch.randn(D)
x = torch.randn(D)  # feature vector

def compute_jac(xp):
    jacobian_rows = [torch.autograd.grad(predict(weight, bias, xp), xp, vec)[0]
                     for vec in unit_vectors]
    return torch.stack(jacobian_rows)

xp = x.clone().requires_grad_()
unit_vectors = torch.eye(D)

jacobian = compute_jac(xp)

print(jacobian.shape)
print(jacobian[0])  # show first row

from torch.func import vmap, vjp

_, vjp_fn = vjp(partial(predict, weight, bias), x)

ft_jacobian, = vmap(vjp_fn)(unit_vectors)

assert torch.allclose(ft_jacobian, jacobian)

from torch.func import jacrev

ft_jacobian = jacrev(predict, argnums=2)(weight, bias, x)

assert torch.allclose(ft_jacobian, jacobian)

ft_jac_weight, ft_jac_bias = jacrev(predict, argnums=(0, 1))(weight, bias, x)
print(ft_jac_weight.shape, ft_jac_bias.shape)

from torch.func import jacrev, jacfwd

Din = 32
Dout = 256
weight = torch.randn(Dout, Din)

bias = torch.randn(Dout)
x = torch.randn(Din)

print(weight.shape)
print(torch.allclose(jacfwd(predict, argnums=2)(weight, bias, x), jacrev(predict, argnums=2)(weight, bias, x)))

Din = 256
Dout = 32
weight = torch.randn(Dout, Din)
bias = torch.randn(Dout)
x = torch.randn(Din)
print(torch.allclose(jacfwd(predict, argnums=2)(weight, bias, x), jacrev(predict, argnums=2)(weight, bias, x)))

from torch.func import hessian

Din = 24
Dout = 6
weight = torch.randn(Dout, Din)
bias = torch.randn(Dout)
x = torch.randn(Din)

hess_api = hessian(predict, argnums=2)(weight, bias, x)
hess_fwdfwd = jacfwd(jacfwd(predict, argnums=2), argnums=2)(weight, bias, x)
hess_revrev = jacrev(jacrev(predict, argnums=2), argnums=2)(weight, bias, x)

print(torch.allclose(hess_api, hess_fwdfwd))
print(torch.allclose(hess_api, hess_revrev, atol=1e-6))
print(hess_api.shape)

batch_size = 4
Din = 5
Dout = 7

weight = torch.randn(Dout, Din)
print(f"weight shape = {weight.shape}")

bias = torch.randn(Dout)

x = torch.randn(batch_size, Din)

compute_batch_jacobian = vmap(jacrev(predict, argnums=2), in_dims=(None, None, 0))
batch_jacobian0 = compute_batch_jacobian(weight, bias, x)

def predict_with_output_summed(weight, bias, x):
    return predict(weight, bias, x).sum(0)

batch_jacobian1 = jacrev(predict_with_output_summed, argnums=2)(weight, bias, x).movedim(1, 0)
assert torch.allclose(batch_jacobian0, batch_jacobian1)

compute_batch_hessian = vmap(hessian(predict, argnums=2), in_dims=(None, None, 0))

batch_hess = compute_batch_hessian(weight, bias, x)
print(batch_hess.shape)

from torch.func import jvp, grad, vjp

def hvp(f, primals, tangents):
  return jvp(grad(f), primals, tangents)[1]

def f(x):
  return x.sin().sum()

x = torch.randn(2048)
tangent = torch.randn(2048)

result = hvp(f, (x,), (tangent,))
print(result[:4])

def hvp_revrev(f, primals, tangents):
  _, vjp_fn = vjp(grad(f), *primals)
  return vjp_fn(*tangents)

result_hvp_revrev = hvp_revrev(f, (x,), (tangent,))
assert torch.allclose(result, result_hvp_revrev[0])
