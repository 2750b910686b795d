"""Weight normalization: w = g * v / ||v||, a direction `v` and a length `g` learnt apart.

`_weight_norm` is the op (PyTorch's `torch._weight_norm`: one node, WeightNormInterfaceBackward0, when the norm
is taken over all dims but the first or the last; a composite otherwise), `norm_except_dim` the norm it divides by.
`weight_norm` here is PyTorch's older, deprecated form: a forward pre-hook that recomputes `module.weight` from
the parameters `weight_g` and `weight_v`; `parametrizations.weight_norm` is its replacement.
Mirrors `torch.nn.utils.weight_norm`.
"""
import warnings

import numpy as np

from ...core.forward_ad import not_implemented
from ...core.function import Function
from ...ops._common import wrap
from ..parameter import Parameter

__all__ = ["WeightNorm", "weight_norm", "remove_weight_norm"]


def norm_except_dim(v, pow=2, dim=0):
    """The `pow`-norm of `v` over every dim but `dim`, shaped to broadcast against `v` (over all, dim=-1)."""
    if dim == -1:
        return v.norm(pow)
    if dim == 0:
        return v.contiguous().view(v.size(0), -1).norm(pow, 1).view(v.size(0), *[1] * (v.dim() - 1))
    if dim == v.dim() - 1:
        return v.contiguous().view(-1, v.size(dim)).norm(pow, 0).view(*[1] * (v.dim() - 1), v.size(dim))
    return norm_except_dim(v.transpose(0, dim), pow, 0).transpose(0, dim)


def _norms(v, dim):
    axes = tuple(a for a in range(v.ndim) if a != dim)
    return np.sqrt((v * v).sum(axes, keepdims=True))


class WeightNormInterface(Function):
    """w = v * (g / n), n = ||v|| over all dims but `dim`;
    dw/dv: grad_v = (g / n) * (G - v * sum(G * v) / n**2),  dw/dg: grad_g = sum(G * v) / n (sums over those dims)"""
    node_name = "WeightNormInterfaceBackward0"
    saved_names = ("v", "g", "result1")
    saved_attrs = {"dim": "dim"}

    @staticmethod
    def forward(v, g, dim):
        return wrap((v._data * (g._data / _norms(v._data, dim))).astype(v._data.dtype))

    @staticmethod
    def setup_context(ctx, inputs, output):
        v, g, ctx.dim = inputs
        ctx.save_for_backward(v, g, wrap(_norms(v._data, ctx.dim).astype(v._data.dtype)))

    @staticmethod
    def backward(ctx, grad):
        v, g, norms = ctx.saved_tensors
        axes = tuple(a for a in range(v.dim()) if a != ctx.dim)
        grad_v_dot_v = (grad * v).sum(axes, keepdim=True)
        grad_v = (g / norms) * (grad - v * (grad_v_dot_v / (norms * norms)))
        grad_g = grad_v_dot_v / norms
        return grad_v, grad_g, None

    jvp = not_implemented("_weight_norm_interface")


def _weight_norm(v, g, dim=0):
    """w = v * (g / norm_except_dim(v, 2, dim)). Mirrors `torch._weight_norm`."""
    if dim == 0 or dim == v.dim() - 1:
        return WeightNormInterface.apply(v, g, dim)
    return v * (g / norm_except_dim(v, 2, dim))


class WeightNorm:
    """The forward pre-hook of the deprecated `weight_norm`: sets `module.<name>` from `<name>_g`, `<name>_v`."""

    def __init__(self, name, dim):
        if dim is None:
            dim = -1
        self.name = name
        self.dim = dim

    def compute_weight(self, module):
        g = getattr(module, self.name + "_g")
        v = getattr(module, self.name + "_v")
        return _weight_norm(v, g, self.dim)

    @staticmethod
    def apply(module, name, dim):
        warnings.warn("`torch.nn.utils.weight_norm` is deprecated in favor of "
                      "`torch.nn.utils.parametrizations.weight_norm`.", FutureWarning, stacklevel=3)
        for hook in module._forward_pre_hooks.values():
            if isinstance(hook, WeightNorm) and hook.name == name:
                raise RuntimeError(f"Cannot register two weight_norm hooks on the same parameter {name}")
        if dim is None:
            dim = -1
        fn = WeightNorm(name, dim)
        weight = getattr(module, name)
        # an nn.UninitializedParameter, known by its method: nn.utils must not import nn.modules (whose rnn.py
        # imports nn.utils)
        if isinstance(weight, Parameter) and hasattr(weight, "materialize"):
            raise ValueError("The module passed to `WeightNorm` can't have uninitialized parameters. Make sure to "
                             "run the dummy forward before applying weight normalization")
        del module._parameters[name]
        module.register_parameter(name + "_g", Parameter(norm_except_dim(weight, 2, dim).data))
        module.register_parameter(name + "_v", Parameter(weight.data))
        setattr(module, name, fn.compute_weight(module))
        module.register_forward_pre_hook(fn)
        return fn

    def remove(self, module):
        weight = self.compute_weight(module)
        delattr(module, self.name)
        del module._parameters[self.name + "_g"]
        del module._parameters[self.name + "_v"]
        setattr(module, self.name, Parameter(weight.data))

    def __call__(self, module, inputs):
        setattr(module, self.name, self.compute_weight(module))


def weight_norm(module, name="weight", dim=0):
    """Split `module.<name>` into `<name>_g` (its norm over all dims but `dim`) and `<name>_v` (deprecated: use
    `parametrizations.weight_norm`). Mirrors `torch.nn.utils.weight_norm`."""
    WeightNorm.apply(module, name, dim)
    return module


def remove_weight_norm(module, name="weight"):
    """Undo `weight_norm`: `module.<name>` becomes one parameter again, with its current value."""
    for k, hook in module._forward_pre_hooks.items():
        if isinstance(hook, WeightNorm) and hook.name == name:
            hook.remove(module)
            del module._forward_pre_hooks[k]
            return module
    raise ValueError(f"weight_norm of '{name}' not found in {module}")
