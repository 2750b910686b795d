"""The Transformer of "Attention Is All You Need": encoder and decoder layers, their stacks, and `Transformer`.
Mirrors `torch.nn.modules.transformer`.

An encoder layer is self-attention then a feed-forward block, each with dropout, a residual connection and a
LayerNorm (after the residual by default, before it with norm_first); a decoder layer has a second attention,
over the encoder's output (the memory). The code follows PyTorch's line by line, so that the parameters are
created, initialised and dropped out in the same order, from the same random numbers.
"""
import copy
import warnings

from ..._tensor import creation as _creation
from ...core.grad_mode import is_grad_enabled
from .. import functional as F
from ..init import xavier_uniform_
from ..module import Module
from .activation import GELU, ReLU
from .attention import MultiheadAttention
from .container import ModuleList
from .dropout import Dropout
from .linear import Linear
from .normalization import LayerNorm

__all__ = ["Transformer", "TransformerEncoder", "TransformerDecoder", "TransformerEncoderLayer",
           "TransformerDecoderLayer"]


def _generate_square_subsequent_mask(sz, device=None, dtype=None):
    """The causal mask: -inf above the diagonal (a position may not attend to later ones), 0 elsewhere."""
    return _creation.full((sz, sz), float("-inf"), dtype=dtype).triu(diagonal=1)


def _get_seq_len(src, batch_first):
    if src.dim() == 2:
        return src.size(0)
    return src.size(1 if batch_first else 0)


class Transformer(Module):
    """An encoder-decoder Transformer: `TransformerEncoder` over src, `TransformerDecoder` over tgt and the
    encoder's output. Mirrors `torch.nn.Transformer`.

    Args:
        d_model: the width of inputs and outputs (512);  nhead: attention heads (8);
        num_encoder_layers, num_decoder_layers: layers in each stack (6, 6);
        dim_feedforward: the width of the feed-forward blocks (2048);  dropout: 0.1;
        activation: "relu", "gelu" or a callable (F.relu);  custom_encoder, custom_decoder: modules to use instead;
        layer_norm_eps: 1e-5;  batch_first: (N, S, E) inputs (False: (S, N, E));
        norm_first: LayerNorm before attention and feed-forward (False: after);  bias: True.
    Every parameter of two or more dims is then re-drawn with xavier_uniform_.
    """

    def __init__(self, d_model=512, nhead=8, num_encoder_layers=6, num_decoder_layers=6, dim_feedforward=2048,
                 dropout=0.1, activation=F.relu, custom_encoder=None, custom_decoder=None, layer_norm_eps=1e-5,
                 batch_first=False, norm_first=False, bias=True, device=None, dtype=None):
        super().__init__()
        factory = {"device": device, "dtype": dtype}
        if custom_encoder is not None:
            self.encoder = custom_encoder
        else:
            encoder_layer = TransformerEncoderLayer(d_model, nhead, dim_feedforward, dropout, activation,
                                                    layer_norm_eps, batch_first, norm_first, bias, **factory)
            encoder_norm = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory)
            self.encoder = TransformerEncoder(encoder_layer, num_encoder_layers, encoder_norm)
        if custom_decoder is not None:
            self.decoder = custom_decoder
        else:
            decoder_layer = TransformerDecoderLayer(d_model, nhead, dim_feedforward, dropout, activation,
                                                    layer_norm_eps, batch_first, norm_first, bias, **factory)
            decoder_norm = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory)
            self.decoder = TransformerDecoder(decoder_layer, num_decoder_layers, decoder_norm)
        self._reset_parameters()
        self.d_model = d_model
        self.nhead = nhead
        self.batch_first = batch_first

    def forward(self, src, tgt, src_mask=None, tgt_mask=None, memory_mask=None, src_key_padding_mask=None,
                tgt_key_padding_mask=None, memory_key_padding_mask=None, src_is_causal=None, tgt_is_causal=None,
                memory_is_causal=False):
        is_batched = src.dim() == 3
        if not self.batch_first and src.size(1) != tgt.size(1) and is_batched:
            raise RuntimeError("the batch number of src and tgt must be equal")
        elif self.batch_first and src.size(0) != tgt.size(0) and is_batched:
            raise RuntimeError("the batch number of src and tgt must be equal")
        if src.size(-1) != self.d_model or tgt.size(-1) != self.d_model:
            raise RuntimeError("the feature number of src and tgt must be equal to d_model")
        memory = self.encoder(src, mask=src_mask, src_key_padding_mask=src_key_padding_mask,
                              is_causal=src_is_causal)
        return self.decoder(tgt, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                            tgt_key_padding_mask=tgt_key_padding_mask,
                            memory_key_padding_mask=memory_key_padding_mask, tgt_is_causal=tgt_is_causal,
                            memory_is_causal=memory_is_causal)

    @staticmethod
    def generate_square_subsequent_mask(sz, device=None, dtype=None):
        """Return the (sz, sz) causal mask: float('-inf') above the diagonal, 0.0 on and below it."""
        return _generate_square_subsequent_mask(sz, dtype=dtype, device=device)

    def _reset_parameters(self):
        for p in self.parameters():
            if p.dim() > 1:
                xavier_uniform_(p)


class TransformerEncoder(Module):
    """A stack of `num_layers` copies of `encoder_layer`, then `norm` if given. Mirrors
    `torch.nn.TransformerEncoder`.

    `enable_nested_tensor`: PyTorch's eval-mode shortcut for padded batches (each sequence processed at its
    own length, the padded positions of the output set to 0); minigrad gives the same values with a mask.
    """

    __constants__ = ["norm"]

    def __init__(self, encoder_layer, num_layers, norm=None, enable_nested_tensor=True, mask_check=True):
        super().__init__()
        self.layers = _get_clones(encoder_layer, num_layers)
        self.num_layers = num_layers
        self.norm = norm
        self.enable_nested_tensor = enable_nested_tensor
        self.use_nested_tensor = enable_nested_tensor
        self.mask_check = mask_check
        why_not = _why_no_nested_tensor(encoder_layer)
        if enable_nested_tensor and why_not:
            warnings.warn(f"enable_nested_tensor is True, but self.use_nested_tensor is False because {why_not}",
                          stacklevel=2)
            self.use_nested_tensor = False

    def forward(self, src, mask=None, src_key_padding_mask=None, is_causal=None):
        src_key_padding_mask = F._canonical_mask(src_key_padding_mask, "src_key_padding_mask",
                                                 F._none_or_dtype(mask), "mask", src.dtype)
        mask = F._canonical_mask(mask, "mask", None, "", src.dtype, check_other=False)
        nested = self._takes_nested_path(src, mask, src_key_padding_mask)
        if nested:
            src_key_padding_mask = _nested_padding(src_key_padding_mask)
        first_layer = self.layers[0]
        seq_len = _get_seq_len(src, first_layer.self_attn.batch_first)
        is_causal = _detect_is_causal_mask(mask, is_causal, seq_len)
        output = src
        for mod in self.layers:
            output = mod(output, src_mask=mask, is_causal=is_causal, src_key_padding_mask=src_key_padding_mask)
        if nested:
            _warn_nested_prototype()
            # PyTorch's nested tensor holds no padded positions; padded back, they are 0
            output = output.masked_fill((src_key_padding_mask != 0).unsqueeze(-1), 0.0)
        if self.norm is not None:
            output = self.norm(output)
        return output

    def _takes_nested_path(self, src, mask, src_key_padding_mask):
        """Whether PyTorch would turn src into a nested tensor (eval mode, no gradient, a left-aligned padding
        mask and no other mask)."""
        first = self.layers[0]
        if (not getattr(self, "use_nested_tensor", False) or first.training or src.dim() != 3
                or src_key_padding_mask is None or mask is not None):
            return False
        padded = (src_key_padding_mask != 0)._data     # PyTorch keeps the positions where logical_not is True
        if getattr(self, "mask_check", True) and (padded[:, :-1] & ~padded[:, 1:]).any():
            return False            # not left aligned: a padded position before a real one
        tensors = (src, first.self_attn.in_proj_weight, first.self_attn.in_proj_bias, first.self_attn.out_proj.weight,
                   first.self_attn.out_proj.bias, first.norm1.weight, first.norm1.bias, first.norm2.weight,
                   first.norm2.bias, first.linear1.weight, first.linear1.bias, first.linear2.weight,
                   first.linear2.bias)
        return not (is_grad_enabled() and any(t.requires_grad for t in tensors))


def _nested_padding(src_key_padding_mask):
    """The padding of the nested tensor PyTorch builds: each sequence keeps as many leading positions as its
    mask has unpadded ones (the same mask when it is left aligned), as a float mask of 0 and -inf."""
    lengths = (src_key_padding_mask == 0).sum(1, keepdim=True)
    padded = _creation.arange(src_key_padding_mask.shape[1]) >= lengths
    return _creation.zeros_like(src_key_padding_mask).masked_fill(padded, float("-inf"))


def _warn_nested_prototype():
    """PyTorch's warning on making its first nested tensor (once per process, as ATen's TORCH_WARN_ONCE)."""
    if not _warn_nested_prototype.done:
        _warn_nested_prototype.done = True
        warnings.warn("The PyTorch API of nested tensors is in prototype stage and will change in the near future. "
                      "We recommend specifying layout=torch.jagged when constructing a nested tensor, as this layout "
                      "receives active development, has better operator coverage, and works with torch.compile. "
                      "(Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/NestedTensorImpl.cpp:177.)",
                      UserWarning, stacklevel=3)


_warn_nested_prototype.done = False


def _why_no_nested_tensor(encoder_layer):
    """PyTorch's reason why an encoder of such layers cannot use nested tensors ('' if it can)."""
    enc_layer = "encoder_layer"
    if not isinstance(encoder_layer, TransformerEncoderLayer):
        return f"{enc_layer} was not TransformerEncoderLayer"
    if encoder_layer.norm_first:
        return f"{enc_layer}.norm_first was True"
    if not encoder_layer.self_attn.batch_first:
        return f"{enc_layer}.self_attn.batch_first was not True(use batch_first for better inference performance)"
    if not encoder_layer.self_attn._qkv_same_embed_dim:
        return f"{enc_layer}.self_attn._qkv_same_embed_dim was not True"
    if encoder_layer.self_attn.in_proj_bias is None:
        return f"{enc_layer}.self_attn was passed bias=False"
    if not encoder_layer.activation_relu_or_gelu:
        return f"{enc_layer}.activation_relu_or_gelu was not True"
    if encoder_layer.norm1.eps != encoder_layer.norm2.eps:
        return f"{enc_layer}.norm1.eps was not equal to {enc_layer}.norm2.eps"
    if encoder_layer.self_attn.num_heads % 2 == 1:
        return f"{enc_layer}.self_attn.num_heads is odd"
    return ""


class TransformerDecoder(Module):
    """A stack of `num_layers` copies of `decoder_layer`, then `norm` if given. Mirrors
    `torch.nn.TransformerDecoder`."""

    __constants__ = ["norm"]

    def __init__(self, decoder_layer, num_layers, norm=None):
        super().__init__()
        self.layers = _get_clones(decoder_layer, num_layers)
        self.num_layers = num_layers
        self.norm = norm

    def forward(self, tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
                memory_key_padding_mask=None, tgt_is_causal=None, memory_is_causal=False):
        output = tgt
        seq_len = _get_seq_len(tgt, self.layers[0].self_attn.batch_first)
        tgt_is_causal = _detect_is_causal_mask(tgt_mask, tgt_is_causal, seq_len)
        for mod in self.layers:
            output = mod(output, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                         tgt_key_padding_mask=tgt_key_padding_mask, memory_key_padding_mask=memory_key_padding_mask,
                         tgt_is_causal=tgt_is_causal, memory_is_causal=memory_is_causal)
        if self.norm is not None:
            output = self.norm(output)
        return output


class TransformerEncoderLayer(Module):
    """Self-attention and a feed-forward block (linear, activation, dropout, linear), each followed by dropout
    and added to its input; LayerNorm after each sum (or before each block with norm_first). Mirrors
    `torch.nn.TransformerEncoderLayer`; the arguments are `Transformer`'s.

    Example:
        >>> layer = nn.TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16, batch_first=True)
        >>> layer(torch.rand(3, 5, 8)).shape
        torch.Size([3, 5, 8])
    """

    __constants__ = ["norm_first"]

    def __init__(self, d_model, nhead, dim_feedforward=2048, dropout=0.1, activation=F.relu, layer_norm_eps=1e-5,
                 batch_first=False, norm_first=False, bias=True, device=None, dtype=None):
        super().__init__()
        factory = {"device": device, "dtype": dtype}
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout, bias=bias, batch_first=batch_first,
                                            **factory)
        self.linear1 = Linear(d_model, dim_feedforward, bias=bias, **factory)
        self.dropout = Dropout(dropout)
        self.linear2 = Linear(dim_feedforward, d_model, bias=bias, **factory)
        self.norm_first = norm_first
        self.norm1 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory)
        self.norm2 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory)
        self.dropout1 = Dropout(dropout)
        self.dropout2 = Dropout(dropout)
        if isinstance(activation, str):
            activation = _get_activation_fn(activation)
        # which of the fused kernel's two activations this is (0: neither), as PyTorch records it
        if activation is F.relu or isinstance(activation, ReLU):
            self.activation_relu_or_gelu = 1
        elif activation is F.gelu or isinstance(activation, GELU):
            self.activation_relu_or_gelu = 2
        else:
            self.activation_relu_or_gelu = 0
        self.activation = activation

    def __setstate__(self, state):
        self.__dict__.update(state)
        if not hasattr(self, "activation"):
            self.activation = F.relu

    def forward(self, src, src_mask=None, src_key_padding_mask=None, is_causal=False):
        src_key_padding_mask = F._canonical_mask(src_key_padding_mask, "src_key_padding_mask",
                                                 F._none_or_dtype(src_mask), "src_mask", src.dtype)
        src_mask = F._canonical_mask(src_mask, "src_mask", None, "", src.dtype, check_other=False)
        x = src
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), src_mask, src_key_padding_mask, is_causal=is_causal)
            x = x + self._ff_block(self.norm2(x))
        else:
            x = self.norm1(x + self._sa_block(x, src_mask, src_key_padding_mask, is_causal=is_causal))
            x = self.norm2(x + self._ff_block(x))
        return x

    def _sa_block(self, x, attn_mask, key_padding_mask, is_causal=False):
        x = self.self_attn(x, x, x, attn_mask=attn_mask, key_padding_mask=key_padding_mask, need_weights=False,
                           is_causal=is_causal)[0]
        return self.dropout1(x)

    def _ff_block(self, x):
        x = self.linear2(self.dropout(self.activation(self.linear1(x))))
        return self.dropout2(x)


class TransformerDecoderLayer(Module):
    """Self-attention over tgt, attention from tgt to the memory, and a feed-forward block, each with dropout,
    a residual connection and a LayerNorm (before each block with norm_first). Mirrors
    `torch.nn.TransformerDecoderLayer`; the arguments are `Transformer`'s."""

    __constants__ = ["norm_first"]

    def __init__(self, d_model, nhead, dim_feedforward=2048, dropout=0.1, activation=F.relu, layer_norm_eps=1e-5,
                 batch_first=False, norm_first=False, bias=True, device=None, dtype=None):
        super().__init__()
        factory = {"device": device, "dtype": dtype}
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout, batch_first=batch_first, bias=bias,
                                            **factory)
        self.multihead_attn = MultiheadAttention(d_model, nhead, dropout=dropout, batch_first=batch_first,
                                                 bias=bias, **factory)
        self.linear1 = Linear(d_model, dim_feedforward, bias=bias, **factory)
        self.dropout = Dropout(dropout)
        self.linear2 = Linear(dim_feedforward, d_model, bias=bias, **factory)
        self.norm_first = norm_first
        self.norm1 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory)
        self.norm2 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory)
        self.norm3 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory)
        self.dropout1 = Dropout(dropout)
        self.dropout2 = Dropout(dropout)
        self.dropout3 = Dropout(dropout)
        self.activation = _get_activation_fn(activation) if isinstance(activation, str) else activation

    def __setstate__(self, state):
        # as PyTorch: a Module activation lives in _modules, not in `state`, so a copy (the layers of
        # TransformerDecoder are deep copies) gets F.relu in its __dict__, which shadows the module
        if "activation" not in state:
            state["activation"] = F.relu
        self.__dict__.update(state)

    def forward(self, tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
                memory_key_padding_mask=None, tgt_is_causal=False, memory_is_causal=False):
        x = tgt
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), tgt_mask, tgt_key_padding_mask, tgt_is_causal)
            x = x + self._mha_block(self.norm2(x), memory, memory_mask, memory_key_padding_mask, memory_is_causal)
            x = x + self._ff_block(self.norm3(x))
        else:
            x = self.norm1(x + self._sa_block(x, tgt_mask, tgt_key_padding_mask, tgt_is_causal))
            x = self.norm2(x + self._mha_block(x, memory, memory_mask, memory_key_padding_mask, memory_is_causal))
            x = self.norm3(x + self._ff_block(x))
        return x

    def _sa_block(self, x, attn_mask, key_padding_mask, is_causal=False):
        x = self.self_attn(x, x, x, attn_mask=attn_mask, key_padding_mask=key_padding_mask, is_causal=is_causal,
                           need_weights=False)[0]
        return self.dropout1(x)

    def _mha_block(self, x, mem, attn_mask, key_padding_mask, is_causal=False):
        x = self.multihead_attn(x, mem, mem, attn_mask=attn_mask, key_padding_mask=key_padding_mask,
                                is_causal=is_causal, need_weights=False)[0]
        return self.dropout2(x)

    def _ff_block(self, x):
        x = self.linear2(self.dropout(self.activation(self.linear1(x))))
        return self.dropout3(x)


def _get_clones(module, N):
    return ModuleList([copy.deepcopy(module) for i in range(N)])


def _get_activation_fn(activation):
    if activation == "relu":
        return F.relu
    if activation == "gelu":
        return F.gelu
    raise RuntimeError(f"activation should be relu/gelu, not {activation}")


def _detect_is_causal_mask(mask, is_causal=None, size=None):
    """is_causal if given; else whether `mask` is exactly the causal mask of the sequence length."""
    make_causal = is_causal is True
    if is_causal is None and mask is not None:
        sz = size if size is not None else mask.size(-2)
        causal_comparison = _generate_square_subsequent_mask(sz, dtype=mask.dtype)
        if mask.size() == causal_comparison.size():
            make_causal = bool((mask == causal_comparison).all())
        else:
            make_causal = False
    return make_causal
