"""Distance matrices: `F.pdist` (the p-norm distance between every pair of rows of one matrix) and `torch.cdist`
(between every row of one batch of matrices and every row of another).

Both are single ATen ops with a hand-written backward, and so are these: `Pdist` and `Cdist`, whose backward
ops (`PdistBackward`, `CdistBackward`) PyTorch does not differentiate again, so a second derivative raises its
error. For p = 2 and many rows, cdist takes another road, as ATen does: ||a - b||^2 = ||a||^2 - 2 a.b + ||b||^2
as one matrix product (`EuclideanDist`), whose backward is made of ordinary, differentiable ops.
"""
import numpy as np

from ...core.forward_ad import not_implemented, not_implemented_error
from ...core.function import Function
from ...ops._common import broadcast_shapes, wrap
from .arguments import scalar_name

__all__ = ["pdist"]


def p_norm(diff, p):
    """numpy: ||diff||_p over the last axis (p = 0 counts the non-zeros, p = inf takes the largest |d|)."""
    if p == 0:
        return (diff != 0).sum(-1).astype(diff.dtype)
    if p == 1:
        return np.abs(diff).sum(-1)
    if p == 2:
        return np.sqrt((diff * diff).sum(-1))
    if p == float("inf"):
        return np.abs(diff).max(-1, initial=0)
    return (np.abs(diff) ** p).sum(-1) ** (1 / p)


def p_norm_gradient(diff, dist, p):
    """numpy: d||diff||_p / d diff, `dist` the norm (broadcast over the last axis): sign(d) |d|^(p-1) / dist^(p-1),
    0 where the norm is 0 (and, for p < 1, where d is), as ATen's distance kernels define it."""
    sign = np.sign(diff)
    if p == 0:
        return np.zeros_like(diff)
    if p == 1:
        return sign
    if p == float("inf"):
        return sign * (np.abs(diff) == dist)
    zero = (dist == 0) | ((diff == 0) & (p < 1))
    with np.errstate(divide="ignore", invalid="ignore"):
        if p == 2:
            out = diff / dist
        elif p < 2:
            out = sign * np.abs(diff) ** (p - 1) / dist ** (p - 1)
        else:
            out = diff * np.abs(diff) ** (p - 2) / dist ** (p - 1)
    return np.where(zero, 0, out).astype(diff.dtype)


class NotDifferentiated(Function):
    """A backward op that PyTorch does not differentiate (`not_implemented` in its derivatives.yaml): recorded
    like any op, its own backward raises PyTorch's error, naming the ATen op in `aten_name`."""
    aten_name = None

    @staticmethod
    def setup_context(ctx, inputs, output):
        pass

    @staticmethod
    def backward(ctx, *grads):
        raise NotImplementedError(f"the derivative for '{ctx._forward_cls.aten_name}' is not implemented.")

    @staticmethod
    def jvp(ctx, *tangents):
        raise not_implemented_error(ctx._forward_cls.aten_name)


# ---- pdist ------------------------------------------------------------------------------------------------
class Pdist(Function):
    """z[k] = ||x[i] - x[j]||_p for the k-th pair i < j of rows (row by row); dz/dx[i] = f(x[i] - x[j]),
    dz/dx[j] = -f(x[i] - x[j]), f = `p_norm_gradient`"""
    node_name = "PdistBackward0"
    saved_names = ("self", "result")
    saved_attrs = {"p": "p"}

    @staticmethod
    def forward(x, p):
        a = x._data
        i, j = np.triu_indices(a.shape[0], 1)
        return wrap(p_norm(a[i] - a[j], p).astype(a.dtype, copy=False))

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, ctx.p = inputs
        ctx.save_for_backward(x, output)

    @staticmethod
    def backward(ctx, grad):
        x, result = ctx.saved_tensors
        return PdistBackward.apply(grad, x, result, ctx.p), None

    jvp = not_implemented("_pdist_forward")


class PdistBackward(NotDifferentiated):
    """z = the gradient of pdist (see Pdist), as ATen's `_pdist_backward`; PyTorch has no derivative for it"""
    node_name = "PdistBackwardBackward0"
    aten_name = "_pdist_backward"

    @staticmethod
    def forward(grad, x, result, p):
        a = x._data
        i, j = np.triu_indices(a.shape[0], 1)
        # each pair's gradient, added onto its two rows
        pair = p_norm_gradient(a[i] - a[j], result._data[:, None], p) * grad._data[:, None]
        out = np.zeros_like(a)
        np.add.at(out, i, pair)
        np.add.at(out, j, -pair)
        return wrap(out)


def pdist(input, p=2):
    """The p-norm distances between all pairs of rows of an (N, M) input, as a vector of N (N - 1) / 2: the
    upper triangle of cdist(input, input), row by row. Mirrors `torch.nn.functional.pdist` (and `torch.pdist`).

    Example:
        >>> F.pdist(torch.tensor([[0.0, 0.0], [3.0, 4.0], [6.0, 8.0]]))
        tensor([ 5., 10.,  5.])
    """
    if input.dim() != 2:
        raise RuntimeError(f"pdist only supports 2D tensors, got: {input.dim()}D")
    if not input.is_floating_point():
        raise RuntimeError("pdist only supports floating-point dtypes")
    if p < 0:
        raise RuntimeError("pdist only supports non-negative p values")
    return Pdist.apply(input.contiguous(), float(p))


# ---- cdist ------------------------------------------------------------------------------------------------
class Cdist(Function):
    """z[.., i, j] = ||x1[.., i] - x2[.., j]||_p (the batch dims broadcast); dz/dx1[.., i] = sum over j of
    g[.., i, j] f(x1[.., i] - x2[.., j]) and dz/dx2 likewise with -f, f = `p_norm_gradient`"""
    node_name = "CdistBackward0"
    saved_names = ("x1", "x2", "result")
    saved_attrs = {"p": "p"}

    @staticmethod
    def forward(x1, x2, p):
        a, b = x1._data, x2._data
        batch = broadcast_shapes(a.shape[:-2], b.shape[:-2])
        a, b = np.broadcast_to(a, batch + a.shape[-2:]), np.broadcast_to(b, batch + b.shape[-2:])
        return wrap(np.ascontiguousarray(p_norm(a[..., :, None, :] - b[..., None, :, :], p)))

    @staticmethod
    def setup_context(ctx, inputs, output):
        x1, x2, ctx.p = inputs
        ctx.save_for_backward(x1, x2, output)

    @staticmethod
    def backward(ctx, grad):
        x1, x2, result = ctx.saved_tensors
        needs_x1, needs_x2 = ctx.needs_input_grad[:2]
        g1 = CdistBackward.apply(grad, x1, x2, result, ctx.p) if needs_x1 else None
        if needs_x2:        # the same formula with the roles swapped, on the transposed matrices (made contiguous)
            g2 = CdistBackward.apply(grad.transpose(-1, -2).contiguous(), x2, x1,
                                     result.transpose(-1, -2).contiguous(), ctx.p)
        else:
            g2 = None
        return g1, g2, None

    jvp = not_implemented("_cdist_forward")


class CdistBackward(NotDifferentiated):
    """z = the gradient of cdist with respect to x1 (see Cdist), as ATen's `_cdist_backward`; PyTorch has no
    derivative for it"""
    node_name = "CdistBackwardBackward0"
    aten_name = "_cdist_backward"

    @staticmethod
    def forward(grad, x1, x2, result, p):
        a, b, g = x1._data, x2._data, grad._data
        r = result._data
        diff = a[..., :, None, :] - b[..., None, :, :]             # (.., r1, r2, c), broadcast
        out = (p_norm_gradient(diff, r[..., None], p) * g[..., None]).sum(-2)
        return wrap(_sum_to(out, a.shape))


def _sum_to(a, shape):
    """numpy: `a` summed over the dims that broadcasting added or stretched, back to `shape`."""
    a = a.sum(tuple(range(a.ndim - len(shape)))) if a.ndim > len(shape) else a
    stretched = tuple(d for d, (s, t) in enumerate(zip(a.shape, shape)) if t == 1 and s != 1)
    return a.sum(stretched, keepdims=True) if stretched else a


class EuclideanDist(Function):
    """z = sqrt(max(||a||^2 - 2 a.b + ||b||^2, 1e-30)) for rows a of x1 and b of x2, as one matrix product
    [-2 x1, ||x1||^2, 1] @ [x2, 1, ||x2||^2]^T (ATen's `_euclidean_dist`); with R = g / z (0 where z = 0),
    dz/dx1 = x1 * rowsum(R) - R @ x2 and dz/dx2 = x2 * colsum(R) - R^T @ x1"""
    node_name = "EuclideanDistBackward0"
    saved_names = ("x1", "x2", "result")

    @staticmethod
    def forward(x1, x2):
        a, b = x1._data, x2._data
        a_sq, b_sq = (a * a).sum(-1, keepdims=True), (b * b).sum(-1, keepdims=True)
        left = np.concatenate([a * a.dtype.type(-2), a_sq, np.ones_like(a_sq)], -1)
        right = np.concatenate([b, np.ones_like(b_sq), b_sq], -1)
        return wrap(np.sqrt(np.maximum(left @ np.swapaxes(right, -1, -2), a.dtype.type(1e-30))))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(*inputs, output)

    @staticmethod
    def backward(ctx, grad):
        x1, x2, result = ctx.saved_tensors
        ratio = grad / result
        ratio = ratio.masked_fill(result == 0, 0)
        g1 = x1 * ratio.sum(-1, True) - ratio.matmul(x2)
        g2 = x2 * ratio.sum(-2, False).unsqueeze(-1) - ratio.transpose(-1, -2).matmul(x1)
        return g1.sum_to_size(x1.shape), g2.sum_to_size(x2.shape)

    jvp = not_implemented("_euclidean_dist")


_COMPUTE_MODES = {"use_mm_for_euclid_dist_if_necessary": 0, "use_mm_for_euclid_dist": 1,
                  "donot_use_mm_for_euclid_dist": 2}


def cdist(x1, x2, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary"):
    """The p-norm distance between each row of x1 (.., R1, M) and each row of x2 (.., R2, M): (.., R1, R2), the
    batch dims broadcast. Mirrors `torch.cdist`: for p = 2 with more than 25 rows (or compute_mode=
    'use_mm_for_euclid_dist') it uses a matrix product, faster and less exact for near points.

    Example:
        >>> torch.cdist(torch.tensor([[0.0, 0.0]]), torch.tensor([[3.0, 4.0], [0.0, 1.0]]))
        tensor([[5., 1.]])
    """
    if compute_mode not in _COMPUTE_MODES:
        raise ValueError(f"{compute_mode} is not a valid value for compute_mode")
    for name, x in (("X1", x1), ("X2", x2)):
        if x.dim() < 2:
            raise RuntimeError(f"cdist only supports at least 2D tensors, {name} got: {x.dim()}D")
    if x1.shape[-1] != x2.shape[-1]:
        raise RuntimeError(f"X1 and X2 must have the same number of columns. X1: {x1.shape[-1]} X2: {x2.shape[-1]}")
    for name, x in (("X1", x1), ("X2", x2)):
        if not x.is_floating_point():
            raise RuntimeError(f"cdist only supports floating-point dtypes, {name} got: {scalar_name(x)}")
    if p < 0:
        raise RuntimeError("cdist only supports non-negative p values")
    if x1.dtype != x2.dtype:
        raise RuntimeError(f"expected scalar type {scalar_name(x1)} but found {scalar_name(x2)}")
    batch = broadcast_shapes(x1.shape[:-2], x2.shape[:-2])
    (r1, c), r2, mode = x1.shape[-2:], x2.shape[-2], _COMPUTE_MODES[compute_mode]
    euclid = p == 2 and (mode == 1 or (mode == 0 and (r1 > 25 or r2 > 25)))
    if x1.numel() == 0 or x2.numel() == 0 or not euclid:
        return Cdist.apply(x1, x2, float(p))
    if int(np.prod(batch)) == 1:
        return EuclideanDist.apply(x1, x2).view(*batch, r1, r2)
    # as ATen: both expanded to the common batch, made contiguous, and viewed as one batch dim
    flat = [x.expand(*batch, r, c).contiguous().view(-1, r, c) for x, r in ((x1, r1), (x2, r2))]
    return EuclideanDist.apply(*flat).view(*batch, r1, r2)

