"""Ready-made parametrizations (see parametrize.py): `weight_norm` (w = g * v / ||v||) and `spectral_norm`
(w / sigma, sigma the largest singular value, estimated by power iteration). Mirrors
`torch.nn.utils.parametrizations`; `orthogonal` is not here (it needs a QR or a matrix exponential).
"""
from ...core.grad_mode import no_grad
from ..module import Module
from ..._tensor.tensor import Tensor
from . import parametrize
from .weight_norm import _weight_norm, norm_except_dim

__all__ = ["spectral_norm", "weight_norm"]


class _WeightNorm(Module):
    """weight = g * v / ||v||, from the two originals g (original0) and v (original1)."""

    def __init__(self, dim=0):
        super().__init__()
        if dim is None:
            dim = -1
        self.dim = dim

    def forward(self, weight_g, weight_v):
        return _weight_norm(weight_v, weight_g, self.dim)

    def right_inverse(self, weight):
        weight_g = norm_except_dim(weight, 2, self.dim)
        weight_v = weight
        return weight_g, weight_v


def weight_norm(module, name="weight", dim=0):
    """Parametrize `module.<name>` as g * v / ||v|| (norm over every dim but `dim`; all of them if dim=None):
    `parametrizations.<name>.original0` is g, `original1` is v. Mirrors PyTorch's `parametrizations.weight_norm`.

    Example:
        >>> m = weight_norm(nn.Linear(20, 40))
        >>> m.parametrizations.weight.original0.size()
        torch.Size([40, 1])
    """
    parametrize.register_parametrization(module, name, _WeightNorm(dim), unsafe=True)
    return module


def _normalize(x, eps):
    """F.normalize(x, dim=0, eps=eps): x / max(||x||, eps)."""
    return x / x.norm(2, 0, keepdim=True).clamp_min(eps).expand_as(x)


class _SpectralNorm(Module):
    """weight / sigma, sigma = u . (W v) from one power iteration per training forward (15 at the start); u and v
    are the buffers `_u`, `_v`, drawn from N(0, 1) as PyTorch draws them."""

    def __init__(self, weight, n_power_iterations=1, dim=0, eps=1e-12):
        super().__init__()
        ndim = weight.ndim
        if dim >= ndim or dim < -ndim:
            raise IndexError(f"Dimension out of range (expected to be in range of [-{ndim}, {ndim - 1}] but got {dim})")
        if n_power_iterations <= 0:
            raise ValueError("Expected n_power_iterations to be positive, but got "
                             f"n_power_iterations={n_power_iterations}")
        self.dim = dim if dim >= 0 else dim + ndim
        self.eps = eps
        if ndim > 1:
            self.n_power_iterations = n_power_iterations
            weight_mat = self._reshape_weight_to_matrix(weight)
            h, w = weight_mat.size()
            u = weight_mat.new_empty(h).normal_(0, 1)
            v = weight_mat.new_empty(w).normal_(0, 1)
            self.register_buffer("_u", _normalize(u, self.eps))
            self.register_buffer("_v", _normalize(v, self.eps))
            self._power_method(weight_mat, 15)

    def _reshape_weight_to_matrix(self, weight):
        if self.dim != 0:
            weight = weight.permute(self.dim, *(d for d in range(weight.dim()) if d != self.dim))
        return weight.flatten(1)

    def _power_method(self, weight_mat, n_power_iterations):
        """Move u and v (in place) towards the leading singular vectors of the weight matrix."""
        with no_grad():
            for _ in range(n_power_iterations):
                self._u.copy_(_normalize(weight_mat.mv(self._v), self.eps))
                self._v.copy_(_normalize(weight_mat.t().mv(self._u), self.eps))

    def forward(self, weight):
        if weight.ndim == 1:
            return _normalize(weight, self.eps)
        weight_mat = self._reshape_weight_to_matrix(weight)
        if self.training:
            self._power_method(weight_mat, self.n_power_iterations)
        u, v = self._u.clone(), self._v.clone()
        sigma = u.dot(weight_mat.mv(v))
        return weight / sigma

    def right_inverse(self, value):
        return value


def spectral_norm(module, name="weight", n_power_iterations=1, eps=1e-12, dim=None):
    """Parametrize `module.<name>` as weight / sigma(weight), its largest singular value estimated by power
    iteration (each training forward takes `n_power_iterations` steps). Mirrors PyTorch's
    `parametrizations.spectral_norm`."""
    weight = getattr(module, name, None)
    if not isinstance(weight, Tensor):
        raise ValueError(f"Module '{module}' has no parameter or buffer with name '{name}'")
    if dim is None:
        dim = 1 if type(module).__name__.startswith("ConvTranspose") else 0
    parametrize.register_parametrization(module, name, _SpectralNorm(weight, n_power_iterations, dim, eps))
    return module
