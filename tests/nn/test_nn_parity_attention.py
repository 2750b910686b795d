"""Parity with real PyTorch for attention: F.scaled_dot_product_attention (every mask kind, dropout, GQA, the
graph and gradients), nn.MultiheadAttention (init, outputs, averaged and per-head weights, every parameter's
gradient) and the Transformer layers (init, train mode with dropout, eval mode, reprs, warnings, errors).
Each example takes the library (`torch` or `minigrad`), seeds it and returns tensors or reprs; `parity`
(tests/conftest.py) compares values, dtypes, grad_fn names, warnings and exceptions."""
import pytest

# ---- scaled_dot_product_attention ----------------------------------------------------------------------------

MASKS = {
    "none": lambda lib: None,
    "bool": lambda lib: lib.rand(4, 5) > 0.3,
    "bool_row_masked": lambda lib: lib.arange(4).view(4, 1).expand(4, 5) != 1,     # row 1: all masked
    "float": lambda lib: lib.randn(4, 5),
    "float_4d": lambda lib: lib.randn(2, 1, 1, 5),
    "float_3d": lambda lib: lib.randn(1, 4, 5),
}

SDPA_CASES = {
    **{f"mask_{name}": dict(mask=name) for name in MASKS},
    "causal": dict(is_causal=True),
    "causal_and_mask": dict(mask="float", is_causal=True),       # the fused kernel applies both
    "scale": dict(scale=0.3),
    "negative_scale_math": dict(scale=-0.3, mask="float_3d"),
    "dropout": dict(dropout_p=0.4),
    "dropout_bool_mask": dict(dropout_p=0.4, mask="bool"),
    "dropout_causal": dict(dropout_p=0.4, is_causal=True),
    "gqa": dict(heads_kv=1, enable_gqa=True),
    "gqa_dropout": dict(heads_kv=1, enable_gqa=True, dropout_p=0.3),
    "value_width": dict(ev=6),
    "three_dims": dict(dims=3),
    "float64": dict(dtype="float64"),
}


def sdpa_example(mask="none", is_causal=False, scale=None, dropout_p=0.0, heads_kv=3, enable_gqa=False, ev=8,
                 dims=4, dtype="float32", mask_grad=False):
    def example(lib):
        lib.manual_seed(0)
        dt = getattr(lib, dtype)
        lead = (2, 3) if dims == 4 else (3,)
        lead_kv = (2, heads_kv) if dims == 4 else (3,)
        q = lib.randn(*lead, 4, 8, dtype=dt, requires_grad=True)
        k = lib.randn(*lead_kv, 5, 8, dtype=dt, requires_grad=True)
        v = lib.randn(*lead_kv, 5, ev, dtype=dt, requires_grad=True)
        m = MASKS[mask](lib)
        if m is not None and m.is_floating_point():
            m = m.to(dt).requires_grad_(mask_grad)
        kwargs = {} if scale is None else {"scale": scale}
        out = lib.nn.functional.scaled_dot_product_attention(q, k, v, m, dropout_p, is_causal,
                                                             enable_gqa=enable_gqa, **kwargs)
        (out * lib.linspace(-1, 1, out.numel(), dtype=dt).view(out.shape)).sum().backward()
        grads = [q.grad, k.grad, v.grad] + ([m.grad] if mask_grad else [])
        return out, grads
    return example


@pytest.mark.parametrize("case", SDPA_CASES, ids=list(SDPA_CASES))
def test_sdpa_values_graph_and_gradients(parity, case):
    parity(sdpa_example(**SDPA_CASES[case]))


def test_sdpa_float_mask_that_needs_a_gradient_takes_the_math_path(parity):
    parity(sdpa_example(mask="float", mask_grad=True))


def test_sdpa_fused_node_edges_and_second_derivative(parity):
    def example(lib):
        lib.manual_seed(0)
        q, k, v = (lib.randn(1, 2, 3, 4, dtype=lib.float64, requires_grad=True) for _ in range(3))
        out = lib.nn.functional.scaled_dot_product_attention(q, k, v)
        names = [None if f is None else f.name() for f, _ in out.grad_fn.next_functions]
        return out.grad_fn.name(), names
    parity(example)
    import minigrad
    from minigrad.autograd import gradcheck, gradgradcheck
    q, k, v = (minigrad.randn(1, 2, 3, 4, dtype=minigrad.float64, requires_grad=True) for _ in range(3))
    bias = minigrad.randn(3, 3, dtype=minigrad.float64)

    def f(q, k, v):
        return minigrad.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=bias)
    assert gradcheck(f, (q, k, v)) and gradgradcheck(f, (q, k, v))


SDPA_ERRORS = {
    "dtype": lambda lib: (lib.randn(2, 3, 4, 8), lib.randn(2, 3, 5, 8, dtype=lib.float64), lib.randn(2, 3, 5, 8)),
    "one_dim": lambda lib: (lib.randn(8), lib.randn(8), lib.randn(8)),
    "mask_dtype": lambda lib: (lib.randn(2, 3, 4, 8), lib.randn(2, 3, 5, 8), lib.randn(2, 3, 5, 8),
                               lib.ones(4, 5, dtype=lib.int64)),
    "mask_shape": lambda lib: (lib.randn(2, 3, 4, 8), lib.randn(2, 3, 5, 8), lib.randn(2, 3, 5, 8),
                               lib.randn(3, 1, 4, 5)),
    "heads": lambda lib: (lib.randn(2, 4, 4, 8), lib.randn(2, 3, 5, 8), lib.randn(2, 3, 5, 8)),
    "gqa_heads": lambda lib: (lib.randn(2, 4, 4, 8), lib.randn(2, 3, 5, 8), lib.randn(2, 3, 5, 8), None, 0.0,
                              False, {"enable_gqa": True}),
    "scale_is_keyword_only": lambda lib: (lib.randn(2, 3, 4, 8), lib.randn(2, 3, 5, 8), lib.randn(2, 3, 5, 8), None,
                                          0.0, False, 0.5),
    "causal_mask_math": lambda lib: (lib.randn(3, 4, 8), lib.randn(3, 5, 8), lib.randn(3, 5, 8), lib.randn(4, 5),
                                     0.0, True),
    "dropout_above_one": lambda lib: (lib.randn(2, 3, 4, 8), lib.randn(2, 3, 5, 8), lib.randn(2, 3, 5, 8), None,
                                      1.5),
    "dropout_negative": lambda lib: (lib.randn(2, 3, 4, 8), lib.randn(2, 3, 5, 8), lib.randn(2, 3, 5, 8), None,
                                     -0.2),
}


@pytest.mark.parametrize("case", SDPA_ERRORS, ids=list(SDPA_ERRORS))
def test_sdpa_errors(parity, case):
    def example(lib):
        lib.manual_seed(0)
        args = SDPA_ERRORS[case](lib)
        kwargs = args[-1] if isinstance(args[-1], dict) else {}
        return lib.nn.functional.scaled_dot_product_attention(*args[:len(args) - bool(kwargs)], **kwargs)
    parity(example)


# ---- MultiheadAttention ----------------------------------------------------------------------------------------

MHA_INITS = {"default": {}, "kdim_vdim": dict(kdim=3, vdim=5), "bias_kv": dict(add_bias_kv=True),
             "no_bias": dict(bias=False), "batch_first": dict(batch_first=True, dropout=0.1)}


@pytest.mark.parametrize("case", MHA_INITS, ids=list(MHA_INITS))
def test_mha_parameters_init_bit_identical_and_repr(parity, case):
    def example(lib):
        lib.manual_seed(0)
        m = lib.nn.MultiheadAttention(8, 2, **MHA_INITS[case])
        return repr(m), [(name, p) for name, p in m.named_parameters()], list(m.state_dict())
    parity(example, rtol=0, atol=0)


MHA_CASES = {
    "weights_averaged": {},
    "weights_per_head": dict(average=False),
    "no_weights": dict(need_weights=False),
    "key_padding": dict(padding=True),
    "key_padding_no_weights": dict(padding=True, need_weights=False),
    "bool_mask": dict(mask="bool"),
    "float_mask": dict(mask="float"),
    "mask_3d": dict(mask="3d"),
    "mask_3d_no_weights": dict(mask="3d", need_weights=False),
    "bool_mask_and_padding": dict(mask="bool", padding=True),
    "causal_hint": dict(mask="causal", is_causal=True, need_weights=False),
    "bias_kv": dict(add_bias_kv=True, padding=True, mask="bool"),
    "zero_attn": dict(add_zero_attn=True, padding=True, mask="bool"),
    "kdim_vdim": dict(kdim=3, vdim=6),
    "no_bias": dict(bias=False),
    "batch_first": dict(batch_first=True),
    "self_attention": dict(self_attention=True),
    "self_attention_batch_first": dict(self_attention=True, batch_first=True, need_weights=False),
    "unbatched": dict(unbatched=True, padding=True),
    "dropout_train": dict(train=True, dropout=0.3),
    "dropout_train_no_weights": dict(train=True, dropout=0.3, need_weights=False),
    "eval_no_grad_fast_path": dict(self_attention=True, batch_first=True, no_grad=True, padding=True),
}


def mha_example(average=True, need_weights=True, padding=False, mask=None, is_causal=False, train=False,
                dropout=0.0, self_attention=False, unbatched=False, no_grad=False, **options):
    def example(lib):
        lib.manual_seed(0)
        m = lib.nn.MultiheadAttention(8, 2, dropout=dropout, **options).train(train)
        bf = options.get("batch_first", False)
        shape = (lambda n, b: (n,) if unbatched else (b, n) if bf else (n, b))
        query = lib.randn(*shape(4, 3), 8, requires_grad=True)
        key = lib.randn(*shape(5, 3), options.get("kdim", 8))
        value = lib.randn(*shape(5, 3), options.get("vdim", 8))
        if self_attention:
            key = value = query
        src = 4 if self_attention else 5
        pad = None
        if padding:
            pad = lib.zeros(3, src, dtype=lib.bool)
            pad[1, -1] = pad[2, -2:] = True
            pad = pad[0] if unbatched else pad
        masks = {None: None, "bool": lib.ones(4, src, dtype=lib.bool).triu(1),
                 "float": lib.randn(4, src), "3d": lib.randn(6, 4, src),
                 "causal": lib.nn.Transformer.generate_square_subsequent_mask(4)[:, :src]}
        attn_mask = masks[mask]
        if no_grad:
            m.requires_grad_(False)
            with lib.no_grad():
                return m(query, key, value, key_padding_mask=pad, need_weights=need_weights, attn_mask=attn_mask,
                         average_attn_weights=average, is_causal=is_causal)
        out, weights = m(query, key, value, key_padding_mask=pad, need_weights=need_weights, attn_mask=attn_mask,
                         average_attn_weights=average, is_causal=is_causal)
        (out * lib.linspace(-1, 1, out.numel()).view(out.shape)).sum().backward()
        return out, weights, query.grad, [(name, p.grad) for name, p in m.named_parameters()]
    return example


@pytest.mark.parametrize("case", MHA_CASES, ids=list(MHA_CASES))
def test_mha_outputs_weights_and_gradients(parity, case):
    parity(mha_example(**MHA_CASES[case]))


MHA_ERRORS = {
    "zero_heads": lambda lib: lib.nn.MultiheadAttention(8, 0),
    "not_divisible": lambda lib: lib.nn.MultiheadAttention(8, 3),
    "query_dims": lambda lib: lib.nn.MultiheadAttention(8, 2)(lib.randn(8), lib.randn(8), lib.randn(8)),
    "key_dims": lambda lib: lib.nn.MultiheadAttention(8, 2)(lib.randn(4, 3, 8), lib.randn(5, 8), lib.randn(5, 8)),
    "mask_shape": lambda lib: lib.nn.MultiheadAttention(8, 2)(lib.randn(4, 3, 8), lib.randn(5, 3, 8),
                                                            lib.randn(5, 3, 8), attn_mask=lib.randn(4, 4)),
    "mask_dtype": lambda lib: lib.nn.MultiheadAttention(8, 2)(lib.randn(4, 3, 8), lib.randn(5, 3, 8),
                                                            lib.randn(5, 3, 8), attn_mask=lib.ones(4, 5).long()),
    "padding_shape": lambda lib: lib.nn.MultiheadAttention(8, 2)(lib.randn(4, 3, 8), lib.randn(5, 3, 8),
                                                               lib.randn(5, 3, 8),
                                                               key_padding_mask=lib.zeros(2, 5, dtype=lib.bool)),
    "causal_without_mask": lambda lib: lib.nn.MultiheadAttention(8, 2)(lib.randn(4, 3, 8), lib.randn(5, 3, 8),
                                                                     lib.randn(5, 3, 8), is_causal=True),
    "embed_dim": lambda lib: lib.nn.MultiheadAttention(8, 2)(lib.randn(4, 3, 6), lib.randn(5, 3, 6),
                                                           lib.randn(5, 3, 6)),
}


@pytest.mark.parametrize("case", MHA_ERRORS, ids=list(MHA_ERRORS))
def test_mha_errors(parity, case):
    def example(lib):
        lib.manual_seed(0)
        return MHA_ERRORS[case](lib)
    parity(example)


# ---- Transformer layers ------------------------------------------------------------------------------------------

def test_transformer_init_bit_identical_repr_and_warning(parity):
    def example(lib):
        lib.manual_seed(0)
        m = lib.nn.Transformer(d_model=8, nhead=2, num_encoder_layers=2, num_decoder_layers=1, dim_feedforward=16)
        return repr(m), [(name, p) for name, p in m.named_parameters()]
    parity(example, rtol=0, atol=0)


def test_generate_square_subsequent_mask(parity):
    parity(lambda lib: (lib.nn.Transformer.generate_square_subsequent_mask(4),
                        lib.nn.Transformer.generate_square_subsequent_mask(3, dtype=lib.float64)), rtol=0, atol=0)


TRANSFORMER_CASES = {
    "train_dropout": {},
    "norm_first": dict(norm_first=True),
    "gelu": dict(activation="gelu"),
    "gelu_module": dict(activation="GELU"),   # PyTorch's decoder copies end up with F.relu: mirrored
    "callable": dict(activation="tanh"),
    "masks": dict(masks=True),
    "eval": dict(train=False),
    "eval_no_grad_batch_first_padding": dict(train=False, no_grad=True, batch_first=True, masks=True),
    "eps_and_no_bias": dict(layer_norm_eps=1e-3, bias=False),
    "batch_first_eval": dict(batch_first=True, train=False),
    "batch_first_train_dropout": dict(batch_first=True),
}


def transformer_example(train=True, activation="relu", masks=False, no_grad=False, batch_first=False, **options):
    def example(lib):
        lib.manual_seed(0)
        act = {"GELU": lib.nn.GELU(), "tanh": lib.tanh}.get(activation, activation)
        m = lib.nn.Transformer(d_model=8, nhead=2, num_encoder_layers=2, num_decoder_layers=2, dim_feedforward=16,
                               dropout=0.2, activation=act, batch_first=batch_first, **options).train(train)
        src = lib.randn(3, 5, 8) if batch_first else lib.randn(5, 3, 8)
        tgt = lib.randn(3, 4, 8) if batch_first else lib.randn(4, 3, 8)
        kwargs = {}
        if masks:
            pad = lib.zeros(3, 5, dtype=lib.bool)
            pad[1, -2:] = pad[2, -1] = True
            kwargs = dict(src_key_padding_mask=pad, memory_key_padding_mask=pad,
                          tgt_mask=lib.nn.Transformer.generate_square_subsequent_mask(4))
        if no_grad:
            with lib.no_grad():
                return m(src, tgt, **kwargs)
        out = m(src, tgt, **kwargs)
        (out * lib.linspace(-1, 1, out.numel()).view(out.shape)).sum().backward()
        return out, [(name, p.grad) for name, p in m.named_parameters()]
    return example


@pytest.mark.parametrize("case", list(TRANSFORMER_CASES))
def test_transformer_forward_and_gradients(parity, case):
    parity(transformer_example(**TRANSFORMER_CASES[case]))


ENCODER_CASES = {"left_aligned_padding": dict(left=True), "padding_not_left_aligned": dict(left=False),
                 "no_mask_check": dict(left=False, mask_check=False), "train": dict(left=True, train=True),
                 "causal_mask_detected": dict(causal=True)}


def encoder_example(left=True, mask_check=True, train=False, causal=False):
    def example(lib):
        lib.manual_seed(0)
        layer = lib.nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, batch_first=True)
        enc = lib.nn.TransformerEncoder(layer, 2, norm=lib.nn.LayerNorm(8), mask_check=mask_check).train(train)
        src = lib.randn(3, 5, 8)
        pad = lib.zeros(3, 5, dtype=lib.bool)
        pad[1, -2:] = True
        pad[2, 0 if not left else -1] = True
        with lib.no_grad():
            if causal:
                return enc(src, mask=lib.nn.Transformer.generate_square_subsequent_mask(5))
            return enc(src, src_key_padding_mask=pad)
    return example


@pytest.mark.parametrize("case", ENCODER_CASES, ids=list(ENCODER_CASES))
def test_encoder_eval_fast_path_values(parity, case):
    import warnings
    with warnings.catch_warnings():     # the nested-tensor prototype warning comes once per process
        warnings.filterwarnings("ignore", "The PyTorch API of nested tensors")
        parity(encoder_example(**ENCODER_CASES[case]))


def test_encoder_decoder_layers_alone(parity):
    def example(lib):
        lib.manual_seed(0)
        enc = lib.nn.TransformerEncoderLayer(8, 2, 16, activation="gelu", norm_first=True)
        dec = lib.nn.TransformerDecoderLayer(8, 2, 16, dropout=0.3)
        src, tgt = lib.randn(5, 3, 8, requires_grad=True), lib.randn(4, 3, 8)
        memory = enc(src, is_causal=True, src_mask=lib.nn.Transformer.generate_square_subsequent_mask(5))
        out = dec(tgt, memory, tgt_is_causal=False)
        (out * lib.linspace(-1, 1, out.numel()).view(out.shape)).sum().backward()
        return repr(enc), repr(dec), out, src.grad
    parity(example)


TRANSFORMER_ERRORS = {
    "activation": lambda lib: lib.nn.TransformerEncoderLayer(8, 2, activation="tanh"),
    "batch": lambda lib: lib.nn.Transformer(8, 2, 1, 1, 16)(lib.randn(5, 3, 8), lib.randn(4, 2, 8)),
    "features": lambda lib: lib.nn.Transformer(8, 2, 1, 1, 16)(lib.randn(5, 3, 8), lib.randn(4, 3, 6)),
    "warning_odd_heads": lambda lib: repr(lib.nn.TransformerEncoder(
        lib.nn.TransformerEncoderLayer(9, 3, 16, batch_first=True), 1)),
    "warning_norm_first": lambda lib: repr(lib.nn.TransformerEncoder(
        lib.nn.TransformerEncoderLayer(8, 2, 16, batch_first=True, norm_first=True), 1, enable_nested_tensor=True)),
    "no_warning_when_disabled": lambda lib: repr(lib.nn.TransformerEncoder(
        lib.nn.TransformerEncoderLayer(8, 2, 16), 1, enable_nested_tensor=False)),
}


@pytest.mark.parametrize("case", TRANSFORMER_ERRORS, ids=list(TRANSFORMER_ERRORS))
def test_transformer_errors_and_warnings(parity, case):
    def example(lib):
        lib.manual_seed(0)
        return TRANSFORMER_ERRORS[case](lib)
    parity(example)
