"""`MultiheadAttention`: attention with learned projections, split into heads (`F.multi_head_attention_forward`)."""
from ..._tensor import creation as _creation
from .. import functional as F
from ..init import constant_, xavier_normal_, xavier_uniform_
from ..module import Module
from ..parameter import Parameter
from .linear import Linear

__all__ = ["MultiheadAttention", "NonDynamicallyQuantizableLinear"]


class NonDynamicallyQuantizableLinear(Linear):
    """A `Linear` under another name (PyTorch uses the name to keep it out of dynamic quantization): the output
    projection of `MultiheadAttention`."""


class MultiheadAttention(Module):
    """Attend from queries to keys and values with `num_heads` heads: MultiHead(Q, K, V) =
    Concat(head_1, ..., head_h) W^O, head_i = Attention(Q W_i^Q, K W_i^K, V W_i^V). Mirrors
    `torch.nn.MultiheadAttention`.

    Args:
        embed_dim: the model's width E (split into num_heads heads of E // num_heads).
        num_heads: the number of heads.
        dropout: dropout probability on the attention weights. Default: 0.0.
        bias: biases in the input and output projections. Default: True.
        add_bias_kv: learn one more key and value position (`bias_k`, `bias_v`). Default: False.
        add_zero_attn: add a key and value position of zeros. Default: False.
        kdim, vdim: widths of key and value (E by default); if they differ from E, the projections are
            `q_proj_weight`, `k_proj_weight`, `v_proj_weight` instead of one `in_proj_weight`.
        batch_first: inputs and outputs are (N, L, E) instead of (L, N, E). Default: False.

    Example:
        >>> mha = nn.MultiheadAttention(8, 2)
        >>> out, weights = mha(x, x, x)      # x: (L, N, 8); out: (L, N, 8), weights: (N, L, L)
    """

    __constants__ = ["batch_first"]

    def __init__(self, embed_dim, num_heads, dropout=0.0, bias=True, add_bias_kv=False, add_zero_attn=False,
                 kdim=None, vdim=None, batch_first=False, device=None, dtype=None):
        if embed_dim <= 0 or num_heads <= 0:
            raise ValueError(f"embed_dim and num_heads must be greater than 0, got embed_dim={embed_dim} and "
                             f"num_heads={num_heads} instead")
        super().__init__()
        self.embed_dim = embed_dim
        self.kdim = kdim if kdim is not None else embed_dim
        self.vdim = vdim if vdim is not None else embed_dim
        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim
        self.num_heads = num_heads
        self.dropout = dropout
        self.batch_first = batch_first
        self.head_dim = embed_dim // num_heads
        if self.head_dim * num_heads != self.embed_dim:
            raise AssertionError("embed_dim must be divisible by num_heads")
        # created in PyTorch's order, so that out_proj's default init draws the same numbers
        if not self._qkv_same_embed_dim:
            self.q_proj_weight = Parameter(_creation.empty(embed_dim, embed_dim, dtype=dtype))
            self.k_proj_weight = Parameter(_creation.empty(embed_dim, self.kdim, dtype=dtype))
            self.v_proj_weight = Parameter(_creation.empty(embed_dim, self.vdim, dtype=dtype))
            self.register_parameter("in_proj_weight", None)
        else:
            self.in_proj_weight = Parameter(_creation.empty(3 * embed_dim, embed_dim, dtype=dtype))
            self.register_parameter("q_proj_weight", None)
            self.register_parameter("k_proj_weight", None)
            self.register_parameter("v_proj_weight", None)
        if bias:
            self.in_proj_bias = Parameter(_creation.empty(3 * embed_dim, dtype=dtype))
        else:
            self.register_parameter("in_proj_bias", None)
        self.out_proj = NonDynamicallyQuantizableLinear(embed_dim, embed_dim, bias=bias, dtype=dtype)
        if add_bias_kv:
            self.bias_k = Parameter(_creation.empty(1, 1, embed_dim, dtype=dtype))
            self.bias_v = Parameter(_creation.empty(1, 1, embed_dim, dtype=dtype))
        else:
            self.bias_k = self.bias_v = None
        self.add_zero_attn = add_zero_attn
        self._reset_parameters()

    def _reset_parameters(self):
        """Glorot-uniform projections, zero biases, Glorot-normal bias_k and bias_v (PyTorch's order)."""
        if self._qkv_same_embed_dim:
            xavier_uniform_(self.in_proj_weight)
        else:
            xavier_uniform_(self.q_proj_weight)
            xavier_uniform_(self.k_proj_weight)
            xavier_uniform_(self.v_proj_weight)
        if self.in_proj_bias is not None:
            constant_(self.in_proj_bias, 0.0)
            constant_(self.out_proj.bias, 0.0)
        if self.bias_k is not None:
            xavier_normal_(self.bias_k)
        if self.bias_v is not None:
            xavier_normal_(self.bias_v)

    def forward(self, query, key, value, key_padding_mask=None, need_weights=True, attn_mask=None,
                average_attn_weights=True, is_causal=False):
        """Return (attn_output, attn_weights or None); see `F.multi_head_attention_forward` for the shapes.

        PyTorch may run a fused kernel instead in eval mode without gradients: the values are the same.
        """
        is_batched = query.dim() == 3
        key_padding_mask = F._canonical_mask(key_padding_mask, "key_padding_mask", F._none_or_dtype(attn_mask),
                                             "attn_mask", query.dtype)
        attn_mask = F._canonical_mask(attn_mask, "attn_mask", None, "", query.dtype, check_other=False)
        if self.batch_first and is_batched:
            # transposed so that `query is key` still tells self-attention from encoder-decoder attention
            if key is value:
                if query is key:
                    query = key = value = query.transpose(1, 0)
                else:
                    query, key = (x.transpose(1, 0) for x in (query, key))
                    value = key
            else:
                query, key, value = (x.transpose(1, 0) for x in (query, key, value))
        separate = {} if self._qkv_same_embed_dim else dict(
            use_separate_proj_weight=True, q_proj_weight=self.q_proj_weight, k_proj_weight=self.k_proj_weight,
            v_proj_weight=self.v_proj_weight)
        attn_output, attn_output_weights = F.multi_head_attention_forward(
            query, key, value, self.embed_dim, self.num_heads, self.in_proj_weight, self.in_proj_bias,
            self.bias_k, self.bias_v, self.add_zero_attn, self.dropout, self.out_proj.weight, self.out_proj.bias,
            training=self.training, key_padding_mask=key_padding_mask, need_weights=need_weights,
            attn_mask=attn_mask, average_attn_weights=average_attn_weights, is_causal=is_causal, **separate)
        if self.batch_first and is_batched:
            return attn_output.transpose(1, 0), attn_output_weights
        return attn_output, attn_output_weights
