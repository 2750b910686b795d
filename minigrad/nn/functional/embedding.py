"""The built-in ops behind `F.embedding`: a lookup of rows, and its adjoint, adding gradients back onto rows.

`Embedding` picks rows of the weight; its backward, `EmbeddingDenseBackward`, adds each output row's gradient
onto the weight row it came from (rows looked up twice get both). Each is linear, and each one's backward is
the other, so the lookup can be differentiated any number of times. The indices are a plain int64 array:
like PyTorch's, they get no edge in `next_functions`.
"""
import numpy as np

from ...core.forward_ad import linear
from ...core.function import Function
from ...ops._common import wrap


class Embedding(Function):
    """z[..., :] = w[idx[...], :];  dz/dw (vector-Jacobian) = g's rows added onto the rows they were read from
    (none onto `padding_idx`; each divided by how often its index occurs, with scale_grad_by_freq)"""
    node_name = "EmbeddingBackward0"
    saved_attrs = {"indices": "indices_tensor", "padding_idx": "padding_idx",
                   "scale_grad_by_freq": "scale_grad_by_freq", "sparse": "sparse",
                   "weight_sym_argsize_0": "num_weights"}

    @staticmethod
    def forward(weight, indices, padding_idx, scale_grad_by_freq, sparse):
        return wrap(weight._data[indices])

    @staticmethod
    def setup_context(ctx, inputs, output):
        weight, ctx.indices, ctx.padding_idx, ctx.scale_grad_by_freq, ctx.sparse = inputs
        ctx.num_weights = weight._data.shape[0]
        ctx.indices_tensor = wrap(ctx.indices)       # what `_saved_indices` shows

    @staticmethod
    def backward(ctx, grad):
        gw = EmbeddingDenseBackward.apply(grad, ctx.indices, ctx.num_weights, ctx.padding_idx, ctx.scale_grad_by_freq)
        return gw, None, None, None, None

    jvp = linear


def _row_scale(indices, num_weights, padding_idx, scale_grad_by_freq):
    """The factor each looked-up row's gradient gets: 0 at padding_idx, 1 / count with scale_grad_by_freq, else 1
    (None when every factor is 1)."""
    if padding_idx < 0 and not scale_grad_by_freq:
        return None
    scale = np.ones(indices.shape)
    if scale_grad_by_freq:
        scale = scale / np.bincount(indices.ravel(), minlength=num_weights)[indices]
    return np.where(indices == padding_idx, 0.0, scale)


class EmbeddingDenseBackward(Function):
    """gW[r] = the sum of g[...] over the positions where idx[...] == r, times the row scale (see `_row_scale`)
    (PyTorch's `embedding_dense_backward`); linear in g, so d gW / dg (vector-Jacobian, for G) = G[idx], zero
    at padding_idx (and, as in PyTorch, not divided by the counts)"""
    node_name = "EmbeddingDenseBackwardBackward0"

    @staticmethod
    def forward(grad, indices, num_weights, padding_idx, scale_grad_by_freq):
        g = grad._data
        dim = g.shape[-1]
        rows = g.reshape(-1, dim)
        scale = _row_scale(indices, num_weights, padding_idx, scale_grad_by_freq)
        if scale is not None:
            rows = rows * scale.reshape(-1, 1).astype(g.dtype)
        out = np.zeros((num_weights, dim), g.dtype)
        np.add.at(out, indices.ravel(), rows)           # add.at, not assignment: an index may repeat
        return wrap(out)

    @staticmethod
    def setup_context(ctx, inputs, output):
        _, ctx.indices, ctx.num_weights, ctx.padding_idx, ctx.scale_grad_by_freq = inputs

    @staticmethod
    def backward(ctx, grad):
        picked = Embedding.apply(grad, ctx.indices, -1, False, False)
        # PyTorch's `embedding_dense_double_backward` zeroes the padding rows but leaves out the 1 / count of
        # scale_grad_by_freq (so it is not quite the adjoint then); minigrad gives the same numbers
        scale = _row_scale(ctx.indices, ctx.num_weights, ctx.padding_idx, False)
        if scale is not None:
            picked = picked * wrap(scale[..., None].astype(grad._data.dtype))
        return picked, None, None, None, None

    jvp = linear


def embedding_renorm_(weight, indices, max_norm, norm_type):
    """Rescale, in place, each looked-up row whose `norm_type`-norm exceeds max_norm to norm max_norm
    (PyTorch's `embedding_renorm_`: scale = max_norm / (norm + 1e-7)). Not recorded: it runs under no_grad."""
    w = weight._data
    rows = np.unique(indices)
    norms = np.linalg.norm(w[rows].astype(np.float64), ord=norm_type, axis=1)
    big = norms > max_norm
    if big.any():
        w[rows[big]] *= (max_norm / (norms[big] + 1e-7))[:, None].astype(w.dtype)
        weight._bump_version()
