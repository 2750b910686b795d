"""Parity of the built-in ops of issue 2: forward values, grad_fn names and gradients, from one op table.

Each op runs on fixed inputs; if its (first) output requires grad, ``(out * W).sum().backward()`` runs with
distinct weights W = 1, 2, 3, ... so that a transposed or misrouted gradient shows.
"""
import numpy as np
import pytest

X = [[1.0, -2.0, 3.0], [0.5, 4.0, -1.0]]   # 2x3, mixed signs, no ties, no zeros
Y = [[2.0, 1.0, -1.0], [3.0, 0.5, 2.0]]    # 2x3, no zeros (divisor)
V = [1.0, 2.0, 3.0]                         # positive (log, sqrt, pow base)

OPS = {
    # arithmetic, reflected and unary
    "add": lambda lib, x, y, v: x + y,
    "add_scalar": lambda lib, x, y, v: x + 2,
    "radd": lambda lib, x, y, v: 2 + x,
    "add_broadcast_row": lambda lib, x, y, v: x + v,
    "sub": lambda lib, x, y, v: x - y,
    "sub_scalar": lambda lib, x, y, v: x - 2,
    "rsub": lambda lib, x, y, v: 2 - x,
    "mul": lambda lib, x, y, v: x * y,
    "mul_scalar": lambda lib, x, y, v: x * 2,
    "rmul": lambda lib, x, y, v: 2 * x,
    "mul_broadcast_column": lambda lib, x, y, v: x * v[:2].unsqueeze(1),
    "div": lambda lib, x, y, v: x / y,
    "div_scalar": lambda lib, x, y, v: x / 2,
    "rdiv": lambda lib, x, y, v: 2 / x,
    "neg": lambda lib, x, y, v: -x,
    "pow_scalar": lambda lib, x, y, v: x ** 2,
    "pow_method": lambda lib, x, y, v: x.pow(3),
    "pow_tensor": lambda lib, x, y, v: v ** v,
    "rpow": lambda lib, x, y, v: 2 ** x,
    # matrix products
    "matmul": lambda lib, x, y, v: x @ y.t(),
    "mm": lambda lib, x, y, v: x.mm(y.t()),
    "matmul_method": lambda lib, x, y, v: x.matmul(y.t()),
    "matmul_matrix_vector": lambda lib, x, y, v: x @ v,
    "matmul_vector_vector": lambda lib, x, y, v: v @ v,
    # reductions
    "sum": lambda lib, x, y, v: x.sum(),
    "sum_dim": lambda lib, x, y, v: x.sum(0),
    "sum_dim_keepdim": lambda lib, x, y, v: x.sum(dim=1, keepdim=True),
    "mean": lambda lib, x, y, v: x.mean(),
    "mean_dim": lambda lib, x, y, v: x.mean(0),
    "mean_dim_keepdim": lambda lib, x, y, v: x.mean(dim=1, keepdim=True),
    "max": lambda lib, x, y, v: x.max(),
    "min": lambda lib, x, y, v: x.min(),
    "max_dim": lambda lib, x, y, v: x.max(dim=1),
    "min_dim": lambda lib, x, y, v: x.min(0),
    "max_dim_values_indices": lambda lib, x, y, v: (x.max(dim=1).values, x.max(dim=1).indices),
    "norm": lambda lib, x, y, v: x.norm(),
    "norm_dim": lambda lib, x, y, v: x.norm(dim=1),
    "torch_norm": lambda lib, x, y, v: lib.norm(x),
    "torch_norm_dim": lambda lib, x, y, v: lib.norm(x, dim=1),
    # shapes
    "t": lambda lib, x, y, v: x.t(),
    "transpose": lambda lib, x, y, v: x.transpose(0, 1),
    "reshape": lambda lib, x, y, v: x.reshape(3, 2),
    "reshape_tuple": lambda lib, x, y, v: x.reshape((6,)),
    "view": lambda lib, x, y, v: x.view(3, 2),
    "view_minus_one": lambda lib, x, y, v: x.view(-1),
    "unsqueeze": lambda lib, x, y, v: v.unsqueeze(0),
    "squeeze": lambda lib, x, y, v: v.unsqueeze(0).squeeze(),
    "squeeze_dim": lambda lib, x, y, v: v.unsqueeze(1).squeeze(1),
    "expand": lambda lib, x, y, v: v.unsqueeze(0).expand(2, 3),
    "expand_as": lambda lib, x, y, v: v.unsqueeze(0).expand_as(x),
    # elementwise functions
    "exp": lambda lib, x, y, v: x.exp(),
    "torch_exp": lambda lib, x, y, v: lib.exp(x),
    "log": lambda lib, x, y, v: v.log(),
    "abs": lambda lib, x, y, v: x.abs(),
    "sqrt": lambda lib, x, y, v: v.sqrt(),
    "clamp_min": lambda lib, x, y, v: x.clamp(min=0),
    "clamp_max": lambda lib, x, y, v: x.clamp(max=0),
    "clamp_both": lambda lib, x, y, v: x.clamp(-1.5, 1.5),
    "clamp_at_the_boundary_passes_gradient": lambda lib, x, y, v: x.clamp(min=-1.0, max=3.0),
    "relu": lambda lib, x, y, v: x.relu(),
    "torch_relu": lambda lib, x, y, v: lib.relu(x),
    "sigmoid": lambda lib, x, y, v: x.sigmoid(),
    "torch_sigmoid": lambda lib, x, y, v: lib.sigmoid(x),
    "tanh": lambda lib, x, y, v: x.tanh(),
    "torch_tanh": lambda lib, x, y, v: lib.tanh(x),
    # sorting, indexing, copies
    "sort": lambda lib, x, y, v: x.sort(),
    "sort_dim0": lambda lib, x, y, v: x.sort(dim=0),
    "sort_descending": lambda lib, x, y, v: x.sort(descending=True),
    "sort_values_indices": lambda lib, x, y, v: (x.sort().values, x.sort().indices),
    "index_row": lambda lib, x, y, v: x[0],
    "index_element": lambda lib, x, y, v: x[1, 2],
    "index_negative": lambda lib, x, y, v: v[-1],
    "slice": lambda lib, x, y, v: x[:, 1:],
    "index_bool_mask": lambda lib, x, y, v: x[x > 0],
    "index_list": lambda lib, x, y, v: v[[0, 2]],
    "clone": lambda lib, x, y, v: x.clone(),
    "detach": lambda lib, x, y, v: x.detach(),
    "double": lambda lib, x, y, v: x.double(),
    "float": lambda lib, x, y, v: x.double().float(),
    "long": lambda lib, x, y, v: x.long(),
    # comparisons give bool tensors without grad
    "gt": lambda lib, x, y, v: x > y,
    "lt_scalar": lambda lib, x, y, v: x < 0,
    "ge": lambda lib, x, y, v: x >= 0.5,
    "le": lambda lib, x, y, v: x <= y,
    "eq": lambda lib, x, y, v: x == lib.tensor([1.0, 0.0, 3.0]),
    "ne": lambda lib, x, y, v: x != 4.0,
    "zeros_like": lambda lib, x, y, v: lib.zeros_like(x),
    "ones_like": lambda lib, x, y, v: lib.ones_like(x),
}


def run_op(lib, op):
    x = lib.tensor(X, requires_grad=True)
    y = lib.tensor(Y, requires_grad=True)
    v = lib.tensor(V, requires_grad=True)
    out = op(lib, x, y, v)
    first = out[0] if isinstance(out, tuple) else out
    if first.requires_grad:
        weights = (np.arange(first.numel()) + 1.0).reshape(tuple(first.shape))
        (first * lib.tensor(weights.tolist())).sum().backward()
    return out, x.grad, y.grad, v.grad


@pytest.mark.parametrize("name", list(OPS))
def test_op(run_both, name):
    run_both(lambda lib: run_op(lib, OPS[name]))


@pytest.mark.parametrize("name", ["add", "mul", "matmul", "sum_dim", "mean", "max_dim", "norm_dim", "sort",
                                  "exp", "sigmoid", "tanh", "relu", "clamp_min", "index_row", "reshape",
                                  "reshape_tuple", "double"])
def test_op_repr(run_both, name):
    """The printed result, grad_fn included, reads the same (torch.return_types.* for max/sort too)."""
    def example(lib):
        out = OPS[name](lib, lib.tensor(X, requires_grad=True), lib.tensor(Y, requires_grad=True),
                        lib.tensor(V, requires_grad=True))
        return repr(out)
    run_both(example)
