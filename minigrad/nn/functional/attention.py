"""Attention: `scaled_dot_product_attention` and `multi_head_attention_forward`, the function behind
`nn.MultiheadAttention`. Mirrors the attention part of `torch.nn.functional`.

softmax(Q K^T * scale + mask) V is the whole idea. PyTorch computes it on the CPU in one of two ways, and so do
we, because the graph (and the random numbers of dropout) differ:
  - a fused kernel, one node `ScaledDotProductFlashAttentionForCpuBackward0` with edges to Q, K and V only: for
    4-D inputs, no dropout, a 2-D or 4-D mask that needs no gradient, and equal head sizes for Q, K and V;
  - otherwise the "math" composite of ATen: Q and K^T each scaled by sqrt(scale), a matmul, + mask,
    `_safe_softmax` (a row where everything is masked gives zeros, not nan), dropout, a matmul with V.
(Past 400 lines because it is one idea: multi_head_attention_forward is sdpa with PyTorch's projections and
mask checks around it.)
"""
import math
import warnings

import numpy as np

from ...core.dtype import bool as bool_, cpp_name
from ...core.forward_ad import from_backward
from ...core.function import Function
from ...ops._common import broadcast_shapes, wrap
from ...ops.softmax import Softmax
from ..._tensor import creation as _creation
from ..._tensor.tensor import Tensor
from ..._tensor.functions import cat
from .conv import pad
from .normalization import dropout
from . import linear, softmax  # defined in __init__ before it imports this module

__all__ = ["scaled_dot_product_attention", "multi_head_attention_forward"]


def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, *, scale=None,
                                 enable_gqa=False):
    """Return softmax(query key^T * scale + mask) value, over the last two dims. Mirrors
    `torch.nn.functional.scaled_dot_product_attention`.

    Args:
        query: (N, ..., Hq, L, E);  key: (N, ..., H, S, E);  value: (N, ..., H, S, Ev).
        attn_mask: a bool mask (True: take part in attention) or a float mask added to the scores; it
            broadcasts to (N, ..., Hq, L, S).
        dropout_p: the dropout probability on the attention weights (always applied, even in eval mode).
        is_causal: mask out the keys after each query (an upper-left lower triangle when L != S).
        scale: the factor of the scores; 1 / sqrt(E) by default.
        enable_gqa: grouped-query attention: each of the H key/value heads serves Hq / H query heads.

    Example:
        >>> q = k = v = torch.ones(1, 1, 2, 4)
        >>> F.scaled_dot_product_attention(q, k, v, is_causal=True).shape
        torch.Size([1, 1, 2, 4])
    """
    _check_inputs(query, key, value, attn_mask, enable_gqa)
    scale = 1.0 / math.sqrt(query.shape[-1]) if scale is None else scale
    if _fused_kernel_applies(query, key, value, attn_mask, dropout_p):
        if dropout_p != 0.0:
            raise RuntimeError("scaled_dot_product_attention_flash_attention: Currently do not support dropout > 0")
        bias = _additive_bias(query, key, attn_mask, is_causal)
        _check_batches(query, key, value, bias, enable_gqa)
        return ScaledDotProductFlashAttentionForCpu.apply(query, key, value, bias, scale)
    if dropout_p > 1.0:
        raise RuntimeError(f"dropout probability has to be between 0 and 1, but got {dropout_p}")
    return _attention_math(query, key, value, attn_mask, dropout_p, is_causal, scale, enable_gqa)


def _attention_math(query, key, value, attn_mask, dropout_p, is_causal, scale, enable_gqa):
    """ATen's `_scaled_dot_product_attention_math`, op for op (so the graph and dropout's draws are PyTorch's)."""
    # scaling both Q and K by sqrt(scale) keeps the products small (ATen does it for stability)
    factor = math.sqrt(abs(scale))
    q = query * (-factor if scale < 0 else factor)
    if is_causal:
        if attn_mask is not None:
            raise RuntimeError("_scaled_dot_product_attention: Explicit attn_mask should not be set when "
                               "is_causal=True")
        attn_mask = _creation.ones(query.shape[-2], key.shape[-2], dtype=bool_).tril()
    if attn_mask is not None and attn_mask.dtype == bool_:
        attn_mask = _creation.zeros(attn_mask.shape, dtype=query.dtype).masked_fill(attn_mask.logical_not(),
                                                                                   float("-inf"))
    if enable_gqa:
        key = key.repeat_interleave(query.shape[-3] // key.shape[-3], -3)
        value = value.repeat_interleave(query.shape[-3] // value.shape[-3], -3)
    attn = q.matmul(key.transpose(-2, -1) * factor)
    if attn_mask is not None:
        attn = attn + attn_mask
    attn = SafeSoftmax.apply(attn, -1)
    if dropout_p > 0.0:
        attn = dropout(attn, dropout_p, True)
    return attn.matmul(value)


class SafeSoftmax(Softmax):
    """softmax along dim, except that a slice that is all -inf (fully masked) gives zeros instead of nan;
    the gradient is softmax's (zero on such a slice, since z is)"""
    node_name = "SafeSoftmaxBackward0"

    @staticmethod
    def forward(x, dim):
        return wrap(_safe_softmax(x._data, dim))


def _safe_softmax(a, dim):
    top = a.max(axis=dim, keepdims=True)
    masked = np.isneginf(top)
    with np.errstate(invalid="ignore"):
        e = np.exp(a - np.where(masked, 0, top))
    return np.where(masked, 0, e / np.where(masked, 1, e.sum(axis=dim, keepdims=True))).astype(a.dtype)


class ScaledDotProductFlashAttentionForCpu(Function):
    """O = P V,  P = safe_softmax(S),  S = Q K^T * scale + bias  (K, V repeated over query heads for GQA);
    dV = P^T G,  dP = G V^T,  dS = P * (dP - sum_j dP_j P_j),  dQ = dS K * scale,  dK = dS^T Q * scale
    (dK, dV summed over the query heads that share a key head)"""
    node_name = "ScaledDotProductFlashAttentionForCpuBackward0"
    saved_names = ("query", "key", "value", "output")
    saved_attrs = {"scale": "scale"}

    @staticmethod
    def forward(query, key, value, bias, scale):
        k, v = (_repeat_heads_np(t._data, query.shape[-3]) for t in (key, value))
        scores = query._data @ np.swapaxes(k, -2, -1) * scale
        if bias is not None:
            scores = scores + bias
        return wrap((_safe_softmax(scores, -1) @ v).astype(query._data.dtype))

    @staticmethod
    def setup_context(ctx, inputs, output):
        query, key, value, ctx.bias, ctx.scale = inputs
        ctx.save_for_backward(query, key, value, output)

    @staticmethod
    def backward(ctx, grad):
        query, key, value, _ = ctx.saved_tensors
        heads = query.shape[-3]
        k, v = _repeat_heads(key, heads), _repeat_heads(value, heads)
        scores = query.matmul(k.transpose(-2, -1)) * ctx.scale
        if ctx.bias is not None:
            scores = scores + wrap(ctx.bias.astype(query._data.dtype))
        p = SafeSoftmax.apply(scores, -1)
        grad_p = grad.matmul(v.transpose(-2, -1))
        grad_s = p * (grad_p - (grad_p * p).sum(-1, keepdim=True))
        grad_q = grad_s.matmul(k) * ctx.scale
        grad_k = grad_s.transpose(-2, -1).matmul(query) * ctx.scale
        grad_v = p.transpose(-2, -1).matmul(grad)
        return grad_q, _sum_heads(grad_k, key.shape[-3]), _sum_heads(grad_v, value.shape[-3]), None, None

    jvp = from_backward


def _repeat_heads_np(a, heads):
    return a if a.ndim < 3 or a.shape[-3] == heads else np.repeat(a, heads // a.shape[-3], axis=-3)


def _repeat_heads(t, heads):
    return t if t.dim() < 3 or t.shape[-3] == heads else t.repeat_interleave(heads // t.shape[-3], -3)


def _sum_heads(grad, heads):
    """The adjoint of repeating each of `heads` heads: sum the copies."""
    if grad.shape[-3] == heads:
        return grad
    lead, group = grad.shape[:-3], grad.shape[-3] // heads
    return grad.reshape(*lead, heads, group, *grad.shape[-2:]).sum(-3)


def _additive_bias(query, key, attn_mask, is_causal):
    """The mask as a numpy array added to the scores (-inf where a bool mask is False), with the causal mask."""
    bias = None
    if attn_mask is not None:
        m = attn_mask._data
        bias = np.where(m, 0.0, -np.inf).astype(query._data.dtype) if m.dtype == np.bool_ else m
    if is_causal:
        length, source = query.shape[-2], key.shape[-2]
        causal = np.where(np.tri(length, source, dtype=bool), 0.0, -np.inf).astype(query._data.dtype)
        bias = causal if bias is None else bias + causal
    return bias


def _fused_kernel_applies(query, key, value, attn_mask, dropout_p):
    """Whether PyTorch's CPU dispatcher picks the fused (flash) kernel for these inputs."""
    return (query.dim() == 4 and key.dim() == 4 and value.dim() == 4 and dropout_p <= 0.0
            and query.shape[-1] == key.shape[-1] == value.shape[-1]
            and (attn_mask is None or (attn_mask.dim() in (2, 4) and not attn_mask.requires_grad)))


# ---- PyTorch's checks and messages -------------------------------------------------------------------------

def _check_inputs(query, key, value, attn_mask, enable_gqa):
    if not (query.dtype == key.dtype == value.dtype):
        raise RuntimeError(f"Expected query, key, and value to have the same dtype, but got query.dtype: "
                           f"{cpp_name(query.dtype)} key.dtype: {cpp_name(key.dtype)} and value.dtype: "
                           f"{cpp_name(value.dtype)} instead.")
    if query.dim() < 2 or key.dim() < 2 or value.dim() < 2:
        raise RuntimeError(f"Expected query, key, and value to all be  at least 2 dimensional, but got query.dim: "
                           f"{query.dim()} key.dim: {key.dim()} and value.dim: {value.dim()} instead.")
    if attn_mask is not None and attn_mask.dtype != bool_ and str(attn_mask.dtype) != "torch.float32" \
            and attn_mask.dtype != query.dtype:
        raise RuntimeError(f"Expected attn_mask dtype to be bool or float or to match query dtype, but got "
                           f"attn_mask.dtype: {cpp_name(attn_mask.dtype)} and  query.dtype: "
                           f"{cpp_name(query.dtype)} instead.")
    if enable_gqa and query.dim() >= 3 and (query.shape[-3] % key.shape[-3] or query.shape[-3] % value.shape[-3]):
        raise RuntimeError("Number of heads in key and value must divide the number of heads in ")


def _check_batches(query, key, value, bias, enable_gqa):
    """The broadcasting errors PyTorch's kernel gives for mismatched batch or head sizes, or a mask's shape."""
    heads = (query.shape[-3],) if enable_gqa else ()
    broadcast_shapes(query.shape[:-2], key.shape[:-3] + heads if enable_gqa else key.shape[:-2])
    if bias is not None:
        broadcast_shapes(query.shape[:-1] + (key.shape[-2],), bias.shape)


# ---- multi-head attention ----------------------------------------------------------------------------------

def multi_head_attention_forward(query, key, value, embed_dim_to_check, num_heads, in_proj_weight, in_proj_bias,
                                 bias_k, bias_v, add_zero_attn, dropout_p, out_proj_weight, out_proj_bias,
                                 training=True, key_padding_mask=None, need_weights=True, attn_mask=None,
                                 use_separate_proj_weight=False, q_proj_weight=None, k_proj_weight=None,
                                 v_proj_weight=None, static_k=None, static_v=None, average_attn_weights=True,
                                 is_causal=False):
    """Project query, key and value, split them into `num_heads` heads, attend, join the heads and project
    again: the forward of `nn.MultiheadAttention`. Mirrors `torch.nn.functional.multi_head_attention_forward`.

    Shapes (L target length, S source length, N batch, E embed_dim): query (L, N, E) or (L, E) unbatched,
    key and value (S, N, E_k / E_v); masks: key_padding_mask (N, S), attn_mask (L, S) or (N * num_heads, L, S),
    bool (True: masked out) or float (added). Returns (attn_output (L, N, E), attn_weights (N, L, S) averaged
    over the heads, (N, num_heads, L, S) if not average_attn_weights, or None if not need_weights).

    With need_weights, the weights are computed here (bmm, softmax, dropout, bmm, as PyTorch does);
    without, the heads go to `scaled_dot_product_attention`.
    """
    is_batched = _mha_shape_check(query, key, value, key_padding_mask, attn_mask, num_heads)
    if not is_batched:
        query, key, value = query.unsqueeze(1), key.unsqueeze(1), value.unsqueeze(1)
        if key_padding_mask is not None:
            key_padding_mask = key_padding_mask.unsqueeze(0)
    tgt_len, bsz, embed_dim = query.shape
    src_len = key.shape[0]
    key_padding_mask = _canonical_mask(key_padding_mask, "key_padding_mask", _none_or_dtype(attn_mask), "attn_mask",
                                       query.dtype)
    if is_causal and attn_mask is None:
        raise RuntimeError("Need attn_mask if specifying the is_causal hint. You may use the Transformer module "
                           "method `generate_square_subsequent_mask` to create this mask.")
    if is_causal and key_padding_mask is None and not need_weights:
        # the mask is only a hint: scaled_dot_product_attention builds the causal one itself
        attn_mask = None
    else:
        attn_mask = _canonical_mask(attn_mask, "attn_mask", None, "", query.dtype, check_other=False)
        if key_padding_mask is not None:
            is_causal = False
    if embed_dim != embed_dim_to_check:
        raise AssertionError(f"was expecting embedding dimension of {embed_dim_to_check}, but got {embed_dim}")
    head_dim = embed_dim // num_heads
    if head_dim * num_heads != embed_dim:
        raise AssertionError(f"embed_dim {embed_dim} not divisible by num_heads {num_heads}")
    if use_separate_proj_weight:
        if key.shape[:2] != value.shape[:2]:
            raise AssertionError(f"key's sequence and batch dims {key.shape[:2]} do not match value's "
                                 f"{value.shape[:2]}")
    elif key.shape != value.shape:
        raise AssertionError(f"key shape {key.shape} does not match value shape {value.shape}")

    # 1. the input projections
    if not use_separate_proj_weight:
        if in_proj_weight is None:
            raise AssertionError("use_separate_proj_weight is False but in_proj_weight is None")
        q, k, v = _in_projection_packed(query, key, value, in_proj_weight, in_proj_bias)
    else:
        for name, w in (("q", q_proj_weight), ("k", k_proj_weight), ("v", v_proj_weight)):
            if w is None:
                raise AssertionError(f"use_separate_proj_weight is True but {name}_proj_weight is None")
        b_q, b_k, b_v = (None, None, None) if in_proj_bias is None else in_proj_bias.chunk(3)
        q, k, v = _in_projection(query, key, value, q_proj_weight, k_proj_weight, v_proj_weight, b_q, b_k, b_v)

    # 2. the masks, and the extra key/value positions (bias_k/bias_v, add_zero_attn)
    if attn_mask is not None:
        if attn_mask.dim() == 2:
            if tuple(attn_mask.shape) != (tgt_len, src_len):
                raise RuntimeError(f"The shape of the 2D attn_mask is {attn_mask.shape}, but should be "
                                   f"{(tgt_len, src_len)}.")
            attn_mask = attn_mask.unsqueeze(0)
        elif attn_mask.dim() == 3:
            if tuple(attn_mask.shape) != (bsz * num_heads, tgt_len, src_len):
                raise RuntimeError(f"The shape of the 3D attn_mask is {attn_mask.shape}, but should be "
                                   f"{(bsz * num_heads, tgt_len, src_len)}.")
        else:
            raise RuntimeError(f"attn_mask's dimension {attn_mask.dim()} is not supported")
    if bias_k is not None and bias_v is not None:
        if static_k is not None:
            raise AssertionError("bias cannot be added to static key.")
        if static_v is not None:
            raise AssertionError("bias cannot be added to static value.")
        k = cat([k, bias_k.repeat(1, bsz, 1)])
        v = cat([v, bias_v.repeat(1, bsz, 1)])
        if attn_mask is not None:
            attn_mask = pad(attn_mask, (0, 1))
        if key_padding_mask is not None:
            key_padding_mask = pad(key_padding_mask, (0, 1))
    elif bias_k is not None:
        raise AssertionError("bias_k is set but bias_v is None")
    elif bias_v is not None:
        raise AssertionError("bias_v is set but bias_k is None")

    # 3. split the heads: (L, N, E) -> (N * num_heads, L, head_dim)
    q = q.view(tgt_len, bsz * num_heads, head_dim).transpose(0, 1)
    k = _heads(k, static_k, bsz, num_heads, head_dim, "k")
    v = _heads(v, static_v, bsz, num_heads, head_dim, "v")
    if add_zero_attn:
        zeros = (bsz * num_heads, 1, head_dim)
        k = cat([k, _creation.zeros(zeros, dtype=k.dtype)], dim=1)
        v = cat([v, _creation.zeros(zeros, dtype=v.dtype)], dim=1)
        if attn_mask is not None:
            attn_mask = pad(attn_mask, (0, 1))
        if key_padding_mask is not None:
            key_padding_mask = pad(key_padding_mask, (0, 1))
    src_len = k.shape[1]
    if key_padding_mask is not None:
        if key_padding_mask.shape[0] != bsz:
            raise AssertionError(f"Expected key_padded_mask.shape[0] to be {bsz}, but got "
                                 f"{key_padding_mask.shape[0]}")
        if key_padding_mask.shape[1] != src_len:
            raise AssertionError(f"Expected key_padded_mask.shape[1] to be {src_len}, but got "
                                 f"{key_padding_mask.shape[1]}")
        key_padding_mask = (key_padding_mask.view(bsz, 1, 1, src_len).expand(-1, num_heads, -1, -1)
                            .reshape(bsz * num_heads, 1, src_len))
        attn_mask = key_padding_mask if attn_mask is None else attn_mask + key_padding_mask
    if not training:
        dropout_p = 0.0

    # 4. attend, join the heads, project
    if need_weights:
        q_scaled = q * math.sqrt(1.0 / float(q.shape[-1]))
        if is_causal and attn_mask is None:
            raise AssertionError("FIXME: is_causal not implemented for need_weights")
        if attn_mask is not None:
            weights = attn_mask.baddbmm(q_scaled, k.transpose(-2, -1))
        else:
            weights = q_scaled.bmm(k.transpose(-2, -1))
        weights = softmax(weights, dim=-1)
        if dropout_p > 0.0:
            weights = dropout(weights, p=dropout_p)
        attn_output = weights.bmm(v)
        attn_output = attn_output.transpose(0, 1).reshape(tgt_len * bsz, embed_dim)
        attn_output = linear(attn_output, out_proj_weight, out_proj_bias)
        attn_output = attn_output.view(tgt_len, bsz, attn_output.size(1))
        weights = weights.view(bsz, num_heads, tgt_len, src_len)
        if average_attn_weights:
            weights = weights.mean(dim=1)
        if not is_batched:
            attn_output, weights = attn_output.squeeze(1), weights.squeeze(0)
        return attn_output, weights
    if attn_mask is not None:
        if attn_mask.size(0) == 1 and attn_mask.dim() == 3:
            attn_mask = attn_mask.unsqueeze(0)
        else:
            attn_mask = attn_mask.view(bsz, num_heads, -1, src_len)
    q = q.view(bsz, num_heads, tgt_len, head_dim)
    k = k.view(bsz, num_heads, src_len, head_dim)
    v = v.view(bsz, num_heads, src_len, head_dim)
    attn_output = scaled_dot_product_attention(q, k, v, attn_mask, dropout_p, is_causal)
    attn_output = attn_output.permute(2, 0, 1, 3).reshape(bsz * tgt_len, embed_dim)
    attn_output = linear(attn_output, out_proj_weight, out_proj_bias)
    attn_output = attn_output.view(tgt_len, bsz, attn_output.size(1))
    if not is_batched:
        attn_output = attn_output.squeeze(1)
    return attn_output, None


def _heads(t, static, bsz, num_heads, head_dim, name):
    """(S, N, E) -> (N * num_heads, S, head_dim), or the given static keys/values, checked."""
    if static is None:
        return t.view(t.shape[0], bsz * num_heads, head_dim).transpose(0, 1)
    if static.size(0) != bsz * num_heads:
        raise AssertionError(f"expecting static_{name}.size(0) of {bsz * num_heads}, but got {static.size(0)}")
    if static.size(2) != head_dim:
        raise AssertionError(f"expecting static_{name}.size(2) of {head_dim}, but got {static.size(2)}")
    return static


def _in_projection_packed(q, k, v, w, b):
    """q W_q^T + b_q, k W_k^T + b_k, v W_v^T + b_v with the three weights stacked in one (3E, E) matrix; one
    product for self-attention (q is k is v), two for encoder-decoder attention (k is v), as PyTorch."""
    E = q.size(-1)
    if k is v:
        if q is k:
            proj = linear(q, w, b)
            proj = proj.unflatten(-1, (3, E)).unsqueeze(0).transpose(0, -2).squeeze(-2).contiguous()
            return proj[0], proj[1], proj[2]
        w_q, w_kv = w.split([E, E * 2])
        b_q, b_kv = (None, None) if b is None else b.split([E, E * 2])
        kv_proj = linear(k, w_kv, b_kv)
        kv_proj = kv_proj.unflatten(-1, (2, E)).unsqueeze(0).transpose(0, -2).squeeze(-2).contiguous()
        return linear(q, w_q, b_q), kv_proj[0], kv_proj[1]
    w_q, w_k, w_v = w.chunk(3)
    b_q, b_k, b_v = (None, None, None) if b is None else b.chunk(3)
    return linear(q, w_q, b_q), linear(k, w_k, b_k), linear(v, w_v, b_v)


def _in_projection(q, k, v, w_q, w_k, w_v, b_q, b_k, b_v):
    """The three projections with separate weights (kdim or vdim differ from embed_dim), shapes checked."""
    Eq, Ek, Ev = q.size(-1), k.size(-1), v.size(-1)
    for name, w, shape in (("query", w_q, (Eq, Eq)), ("key", w_k, (Eq, Ek)), ("value", w_v, (Eq, Ev))):
        if tuple(w.shape) != shape:
            raise AssertionError(f"expecting {name} weights shape of {shape}, but got {w.shape}")
    for name, bias in (("query", b_q), ("key", b_k), ("value", b_v)):
        if bias is not None and tuple(bias.shape) != (Eq,):
            raise AssertionError(f"expecting {name} bias shape of {(Eq,)}, but got {bias.shape}")
    return linear(q, w_q, b_q), linear(k, w_k, b_k), linear(v, w_v, b_v)


def _mha_shape_check(query, key, value, key_padding_mask, attn_mask, num_heads):
    """True for batched (3-D) inputs, False for unbatched (2-D); PyTorch's AssertionError otherwise."""
    if query.dim() == 3:
        if key.dim() != 3 or value.dim() != 3:
            raise AssertionError("For batched (3-D) `query`, expected `key` and `value` to be 3-D but found "
                                 f"{key.dim()}-D and {value.dim()}-D tensors respectively")
        if key_padding_mask is not None and key_padding_mask.dim() != 2:
            raise AssertionError("For batched (3-D) `query`, expected `key_padding_mask` to be `None` or 2-D but "
                                 f"found {key_padding_mask.dim()}-D tensor instead")
        if attn_mask is not None and attn_mask.dim() not in (2, 3):
            raise AssertionError("For batched (3-D) `query`, expected `attn_mask` to be `None`, 2-D or 3-D but "
                                 f"found {attn_mask.dim()}-D tensor instead")
        return True
    if query.dim() == 2:
        if key.dim() != 2 or value.dim() != 2:
            raise AssertionError("For unbatched (2-D) `query`, expected `key` and `value` to be 2-D but found "
                                 f"{key.dim()}-D and {value.dim()}-D tensors respectively")
        if key_padding_mask is not None and key_padding_mask.dim() != 1:
            raise AssertionError("For unbatched (2-D) `query`, expected `key_padding_mask` to be `None` or 1-D "
                                 f"but found {key_padding_mask.dim()}-D tensor instead")
        if attn_mask is not None:
            if attn_mask.dim() not in (2, 3):
                raise AssertionError("For unbatched (2-D) `query`, expected `attn_mask` to be `None`, 2-D or 3-D "
                                     f"but found {attn_mask.dim()}-D tensor instead")
            expected = (num_heads, query.shape[0], key.shape[0])
            if attn_mask.dim() == 3 and tuple(attn_mask.shape) != expected:
                raise AssertionError(f"Expected `attn_mask` shape to be {expected} but got {attn_mask.shape}")
        return False
    raise AssertionError(f"query should be unbatched 2D or batched 3D tensor but received {query.dim()}-D query "
                         "tensor")


def _canonical_mask(mask, mask_name, other_type, other_name, target_type, check_other=True):
    """A bool mask as a float one of `target_type` (-inf where True, 0 elsewhere); a float mask as it is."""
    if mask is None:
        return None
    is_float = mask.is_floating_point()
    if mask.dtype != bool_ and not is_float:
        raise AssertionError(f"only bool and floating types of {mask_name} are supported")
    if check_other and other_type is not None and mask.dtype != other_type:
        warnings.warn(f"Support for mismatched {mask_name} and {other_name} is deprecated. Use same type for both "
                      "instead.", stacklevel=2)
    if not is_float:
        mask = _creation.zeros_like(mask, dtype=target_type).masked_fill_(mask, float("-inf"))
    return mask


def _none_or_dtype(input):
    if input is None:
        return None
    if isinstance(input, Tensor):
        return input.dtype
    raise RuntimeError("input to _none_or_dtype() must be None or torch.Tensor")
