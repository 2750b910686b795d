"""Parity with real PyTorch for the layers of issue 26's padding, dropout, pooling and small-layer items, beyond
the op-table rows (tests/core/op_table_pad_pool.py): the padding, 1-D pooling, shuffle, fold, RMSNorm and
BatchNorm3d layers' reprs, options and gradients; the random masks of dropout1d/2d/3d, alpha_dropout and
feature_alpha_dropout (bit for bit, and the generator left where torch leaves it), their graphs, gradients and
second derivatives, in-place forms, warnings and errors."""
import pytest


def _layer_facts(layer):
    """What a learner sees of a layer: its repr, its options, and that it holds no parameters."""
    options = {k: v for k, v in vars(layer).items() if not k.startswith("_") and k != "training"}
    return repr(layer), sorted(options.items()), list(layer.state_dict())


# ---- padding layers -------------------------------------------------------------------------------------------
PADS = {
    "zero1d_int": ("ZeroPad1d", (2,), (2, 3)),
    "zero1d_list": ("ZeroPad1d", ([1, 0],), (1, 2, 3)),
    "zero2d_tuple": ("ZeroPad2d", ((1, 0, 2, -1),), (1, 2, 3, 4)),
    "zero3d": ("ZeroPad3d", (1,), (1, 2, 2, 2)),
    "constant1d": ("ConstantPad1d", ((1, 2), 3.5), (2, 3, 4)),
    "constant2d_int_value": ("ConstantPad2d", (1, 2), (2, 2, 3)),
    "constant3d": ("ConstantPad3d", ((0, 1, 1, 0, 2, 1), -1.0), (1, 1, 2, 2, 3)),
    "reflection1d": ("ReflectionPad1d", (2,), (2, 3, 4)),
    "reflection2d": ("ReflectionPad2d", ((1, 0, 2, 1),), (1, 3, 4)),
    "reflection3d": ("ReflectionPad3d", (1,), (1, 1, 2, 3, 3)),
    "replication1d": ("ReplicationPad1d", ((3, 0),), (3, 2)),
    "replication2d": ("ReplicationPad2d", (2,), (1, 2, 2, 3)),
    "replication3d": ("ReplicationPad3d", (1,), (2, 2, 2, 2)),
    "circular1d": ("CircularPad1d", ((2, -1),), (2, 3, 4)),
    "circular2d": ("CircularPad2d", ((1, 0, 2, 3),), (2, 3, 4)),
    "circular3d": ("CircularPad3d", (1,), (1, 1, 2, 2, 3)),
}


@pytest.mark.parametrize("case", PADS, ids=list(PADS))
def test_padding_layers_reprs_values_and_gradients_are_torchs(case, parity):
    name, args, shape = PADS[case]

    def example(L):
        L.manual_seed(0)
        layer = getattr(L.nn, name)(*args)
        x = L.randn(*shape, dtype=L.float64, requires_grad=True)
        y = layer(x)
        g, = L.autograd.grad((y * y).sum(), x, create_graph=True)
        gg, = L.autograd.grad((g * L.linspace(-1, 1, g.numel(), dtype=g.dtype).view(g.shape)).sum(), x)
        return _layer_facts(layer), y, str(y.grad_fn.name()), g, gg
    parity(example)         # the gradients add in another order than torch's: equal to rounding


@pytest.mark.parametrize("name", ["ZeroPad1d", "ConstantPad2d", "ReflectionPad3d", "ReplicationPad1d", "CircularPad2d"])
def test_padding_layers_missing_arguments_name_the_layer(name, parity):
    parity(lambda L: getattr(L.nn, name)())


def test_circular_padding_builds_torchs_graph(parity):
    """PyTorch pads circularly with slices and copies: the result's graph is CopySlices over SliceBackward0."""
    def example(L):
        x = L.arange(6.0).view(1, 2, 3).requires_grad_()
        y = L.nn.functional.pad(x, (1, 2, 1, 0), mode="circular")
        node, names = y.grad_fn, []
        while node is not None:
            names.append(type(node).__name__)
            node = node.next_functions[0][0] if node.next_functions else None
        return y, names, [type(n).__name__ for n, _ in y.grad_fn.next_functions]
    parity(example, rtol=0, atol=0)


def test_forward_mode_tangent_flows_through_circular_padding(parity):
    """The copies into an empty tensor carry the tangent (a dual written into a view gives its base one)."""
    def example(L):
        import importlib
        fwAD = importlib.import_module(f"{L.__name__}.autograd.forward_ad")
        with fwAD.dual_level():
            x = fwAD.make_dual(L.arange(4.0).view(1, 1, 4), L.linspace(-1, 1, 4).view(1, 1, 4))
            y = L.nn.functional.pad(x, (2, 3), mode="circular")
            return fwAD.unpack_dual(y).tangent
    parity(example, rtol=0, atol=0)


# ---- dropout variants: masks bit for bit, graphs, gradients ---------------------------------------------------
DROPOUTS = {
    "dropout1d": ("dropout1d", (2, 3, 4), {}), "dropout1d_unbatched": ("dropout1d", (3, 4), dict(p=0.3)),
    "dropout2d": ("dropout2d", (2, 3, 2, 2), {}), "dropout2d_p0.8": ("dropout2d", (4, 5, 1, 2), dict(p=0.8)),
    "dropout3d": ("dropout3d", (2, 3, 1, 2, 2), {}), "dropout3d_unbatched": ("dropout3d", (3, 2, 2, 2), dict(p=0.7)),
    "dropout1d_eval": ("dropout1d", (2, 3, 4), dict(training=False)),
    "dropout1d_p1": ("dropout1d", (2, 3, 4), dict(p=1.0)), "dropout2d_p0": ("dropout2d", (2, 3, 2, 2), dict(p=0.0)),
    "alpha_dropout": ("alpha_dropout", (3, 5), dict(p=0.3, training=True)),
    "alpha_dropout_p1": ("alpha_dropout", (3, 5), dict(p=1.0, training=True)),
    "alpha_dropout_default_is_off": ("alpha_dropout", (3, 5), {}),
    "feature_alpha_dropout": ("feature_alpha_dropout", (2, 4, 3), dict(p=0.4, training=True)),
    "feature_alpha_dropout_4d": ("feature_alpha_dropout", (3, 2, 2, 2), dict(training=True)),
    "dropout1d_float64": ("dropout1d", (2, 6, 3), dict(p=0.25), "float64"),
}


@pytest.mark.parametrize("case", DROPOUTS, ids=list(DROPOUTS))
def test_dropout_masks_gradients_and_generator_are_torchs(case, parity):
    name, shape, kwargs, *dtype = DROPOUTS[case]

    def example(L):
        L.manual_seed(0)
        x = L.randn(*shape, dtype=getattr(L, dtype[0]) if dtype else L.float32, requires_grad=True)
        y = getattr(L.nn.functional, name)(x, **kwargs)
        y.backward(L.linspace(-1, 1, y.numel(), dtype=y.dtype).view(y.shape))
        graph = [y.grad_fn and type(y.grad_fn).__name__] + [type(n).__name__ for n, _ in
                                                            (y.grad_fn.next_functions if y.grad_fn else ()) if n]
        return y, x.grad, graph, L.rand(3)          # the generator has moved exactly as far as torch's
    parity(example, rtol=0, atol=0)


@pytest.mark.parametrize("name, shape", [("dropout1d", (2, 3, 4)), ("dropout1d", (3, 4)), ("dropout2d", (2, 3, 2, 2)),
                                         ("dropout3d", (3, 2, 2, 2)), ("alpha_dropout", (4, 3)),
                                         ("feature_alpha_dropout", (2, 3, 2))])
def test_dropout_in_place_and_second_derivative_are_torchs(name, shape, parity):
    def example(L):
        F = L.nn.functional
        L.manual_seed(1)
        x = L.randn(*shape, dtype=L.float64)
        same = getattr(F, name)(x, 0.4, True, inplace=True)
        w = L.randn(*shape, dtype=L.float64, requires_grad=True)
        y = getattr(F, name)(w * 1.0, 0.4, True)
        g, = L.autograd.grad((y * y).sum(), w, create_graph=True)
        gg, = L.autograd.grad(g.sum(), w)
        return same is x, x, y, g, gg
    parity(example, rtol=0, atol=0)


LAYERS = {"Dropout1d": (), "Dropout2d": (0.3, True), "Dropout3d": (0.1,), "AlphaDropout": (0.2,),
          "FeatureAlphaDropout": (), "Dropout": (0.25, True)}


@pytest.mark.parametrize("name", LAYERS, ids=list(LAYERS))
def test_dropout_layers_reprs_training_and_eval_are_torchs(name, parity):
    shape = (2, 3, 2, 2) if name in ("Dropout2d", "Dropout3d") else (2, 3, 4)

    def example(L):
        layer = getattr(L.nn, name)(*LAYERS[name])
        L.manual_seed(2)
        x = L.randn(*shape)
        trained = layer(x.clone())
        layer.eval()
        return _layer_facts(layer), trained, layer(x) is x
    parity(example, rtol=0, atol=0)


DROPOUT_MISUSES = {
    "p_negative": lambda L: L.nn.functional.dropout1d(L.ones(2, 3), -0.1),
    "p_above_one": lambda L: L.nn.functional.alpha_dropout(L.ones(2, 3), 1.5),
    "feature_alpha_p": lambda L: L.nn.functional.feature_alpha_dropout(L.ones(2, 3), 2.0),
    "layer_p": lambda L: L.nn.Dropout3d(1.2),
    "alpha_layer_p": lambda L: L.nn.AlphaDropout(-1),
    "dropout1d_1d": lambda L: L.nn.functional.dropout1d(L.ones(3)),
    "dropout1d_4d": lambda L: L.nn.Dropout1d()(L.ones(1, 2, 3, 4)),
    "dropout1d_1d_eval_still_checks": lambda L: L.nn.functional.dropout1d(L.ones(3), training=False),
    "feature_alpha_1d": lambda L: L.nn.functional.feature_alpha_dropout(L.ones(3), 0.5, True),
    "dropout2d_5d_warns": lambda L: L.nn.functional.dropout2d(L.ones(1, 1, 1, 2, 2), training=False),
    "dropout2d_3d_warns": lambda L: L.nn.functional.dropout2d(L.ones(1, 2, 2), training=False),
    "dropout3d_3d_warns": lambda L: L.nn.functional.dropout3d(L.ones(1, 2, 2), training=False),
    "dropout3d_1d_warns_then_fails": lambda L: L.nn.functional.dropout3d(L.ones(4), 0.5),
}


@pytest.mark.parametrize("case", DROPOUT_MISUSES, ids=list(DROPOUT_MISUSES))
def test_dropout_misuses_raise_and_warn_like_torch(case, parity):
    parity(DROPOUT_MISUSES[case])


# ---- 1-D pooling layers ---------------------------------------------------------------------------------------
POOLS = {
    "max_default": ("MaxPool1d", (2,), {}), "max_all_options": ("MaxPool1d", (3, 1, 1, 2, True), {}),
    "max_indices": ("MaxPool1d", (2,), dict(return_indices=True)), "max_tuple": ("MaxPool1d", ((3,), (2,)), {}),
    "avg_default": ("AvgPool1d", (3,), {}), "avg_options": ("AvgPool1d", (3, 2, 1, True, False), {}),
    "avg_tuples": ("AvgPool1d", ((2,), (1,)), {}), "adaptive_avg": ("AdaptiveAvgPool1d", (3,), {}),
    "adaptive_avg_one": ("AdaptiveAvgPool1d", (1,), {}), "adaptive_avg_grow": ("AdaptiveAvgPool1d", (11,), {}),
}


@pytest.mark.parametrize("case", POOLS, ids=list(POOLS))
def test_pool1d_layers_reprs_values_and_gradients_are_torchs(case, parity):
    name, args, kwargs = POOLS[case]

    def example(L):
        L.manual_seed(0)
        layer = getattr(L.nn, name)(*args, **kwargs)
        x = L.randn(2, 3, 9, dtype=L.float64, requires_grad=True)
        out = layer(x)
        y = out[0] if isinstance(out, tuple) else out
        g, = L.autograd.grad((y * y).sum(), x, create_graph=True)
        gg, = L.autograd.grad((g * L.linspace(-1, 1, g.numel(), dtype=g.dtype).view(g.shape)).sum(), x)
        node = type(y.grad_fn).__name__, [type(n).__name__ for n, _ in y.grad_fn.next_functions]
        return _layer_facts(layer), out, node, g, gg, layer(x[0].detach())
    parity(example)


def test_max_pool1d_without_grad_and_with_indices_on_ties_are_torchs(parity):
    """Ties (a constant row) pick the first maximum, with or without a graph to record."""
    def example(L):
        F = L.nn.functional
        x = L.tensor([[[1.0, 1.0, 2.0, 2.0, 0.0, 3.0, 3.0]]])
        return F.max_pool1d(x, 2, 1, return_indices=True), F.max_pool1d(x, 3, 2, 1, ceil_mode=True)
    parity(example, rtol=0, atol=0)


# ---- shuffle layers and BatchNorm3d ---------------------------------------------------------------------------
@pytest.mark.parametrize("name, arg, shape", [("PixelShuffle", 2, (2, 8, 2, 3)), ("PixelUnshuffle", 2, (1, 2, 4, 6)),
                                              ("ChannelShuffle", 3, (2, 6, 2))])
def test_shuffle_layers_reprs_values_and_second_derivatives_are_torchs(name, arg, shape, parity):
    def example(L):
        L.manual_seed(0)
        layer = getattr(L.nn, name)(arg)
        x = L.randn(*shape, dtype=L.float64, requires_grad=True)
        y = layer(x)
        g, = L.autograd.grad((y * L.linspace(-1, 1, y.numel(), dtype=y.dtype).view(y.shape)).sum(), x,
                             create_graph=True)
        saved = {k: getattr(y.grad_fn, k) for k in dir(y.grad_fn) if k.startswith("_saved_")}
        return _layer_facts(layer), y, g, y.is_contiguous(), saved
    parity(example, rtol=0, atol=0)


def test_batch_norm3d_init_training_and_eval_are_torchs(parity):
    def example(L):
        L.manual_seed(0)
        bn = L.nn.BatchNorm3d(3, momentum=0.2)
        x = L.randn(2, 3, 2, 2, 3, requires_grad=True)
        y = bn(x)
        y.sum().backward()
        bn.eval()
        return _layer_facts(bn), y, x.grad, bn.running_mean, bn.running_var, bn.num_batches_tracked, bn(x)
    parity(example)


def test_batch_norm3d_wants_5d_input(parity):
    parity(lambda L: L.nn.BatchNorm3d(3)(L.ones(2, 3, 4)))


@pytest.mark.parametrize("args, kwargs, dtype", [((4,), {}, "float32"), (([3, 4],), dict(eps=1e-3), "float32"),
                                                 ((4,), dict(elementwise_affine=False), "float64"),
                                                 ((4,), dict(dtype="float64"), "float64")])
def test_rms_norm_layer_repr_init_values_and_gradients_are_torchs(args, kwargs, dtype, parity):
    def example(L):
        options = {k: getattr(L, v) if k == "dtype" else v for k, v in kwargs.items()}
        layer = L.nn.RMSNorm(*args, **options)
        L.manual_seed(0)
        x = L.randn(2, 3, 4, dtype=getattr(L, dtype), requires_grad=True)
        y = layer(x)
        y.backward(L.linspace(-1, 1, y.numel(), dtype=y.dtype).view(y.shape))
        weights = [(n, p, p.grad) for n, p in layer.named_parameters()]
        return repr(layer), list(layer.state_dict()), layer.eps, layer.normalized_shape, y, x.grad, weights
    parity(example)


@pytest.mark.parametrize("name, args, shape", [("Unfold", (2,), (1, 2, 3, 4)),
                                               ("Unfold", ((2, 3), 2, 1, (2, 1)), (2, 1, 5, 5)),
                                               ("Fold", ((3, 3), 2), (1, 4, 4)),
                                               ("Fold", ((4, 5), (2, 2), 1, 1, 2), (2, 8, 9))])
def test_fold_layers_reprs_values_and_gradients_are_torchs(name, args, shape, parity):
    def example(L):
        L.manual_seed(0)
        layer = getattr(L.nn, name)(*args)
        x = L.randn(*shape, dtype=L.float64, requires_grad=True)
        y = layer(x)
        y.backward(L.linspace(-1, 1, y.numel(), dtype=y.dtype).view(y.shape))
        return _layer_facts(layer), y, x.grad, type(y.grad_fn).__name__
    parity(example)
