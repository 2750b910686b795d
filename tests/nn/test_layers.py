"""Parity with real PyTorch for the layers of issue 11 (nn point 4): Conv2d, MaxPool2d, AvgPool2d,
AdaptiveAvgPool2d, Dropout, Embedding, LayerNorm, BatchNorm1d/2d.

Each test builds the same layer in both libraries, copies torch's initial weights into minigrad with
`load_state_dict` (through numpy), and compares what a learner sees: repr, parameter and buffer names,
state_dict keys, outputs, gradients, running statistics over several training steps, and eval-mode outputs.
The networks built from these layers (LeNet, a CIFAR-style net) are in test_layers_nets.py.
"""
import re

import numpy as np
import pytest

import minigrad

TOL = dict(rtol=1e-5, atol=1e-6)


def to_minigrad(t):
    return minigrad.tensor(t.detach().numpy().copy())


def copy_state(torch_module, module):
    """Load torch's parameters and buffers into the minigrad module (strict: the keys must be the same)."""
    module.load_state_dict({k: to_minigrad(v) for k, v in torch_module.state_dict().items()})


def assert_close(received, expected, what, **tol):
    r, e = np.asarray(received.detach().tolist()), expected.detach().numpy()
    assert r.shape == e.shape, f"{what}: received shape {r.shape}, expected (torch) {e.shape}"
    assert np.allclose(r, e, **(tol or TOL)), f"{what}: received\n{r}\nexpected (torch)\n{e}"


def names(module):
    return ([n for n, _ in module.named_parameters()], [n for n, _ in module.named_buffers()],
            list(module.state_dict()))


def check_layer(torch, make, shape, *, grad_input=True, integer_input=None):
    """Build `make(lib)` in both libraries, copy the weights, then compare repr, names, output and gradients."""
    t_layer, m_layer = make(torch), make(minigrad)
    assert repr(m_layer) == repr(t_layer), f"repr: received {m_layer!r}, expected (torch) {t_layer!r}"
    assert names(m_layer) == names(t_layer), f"names: received {names(m_layer)}, expected (torch) {names(t_layer)}"
    copy_state(t_layer, m_layer)
    rng = np.random.default_rng(0)
    x = integer_input if integer_input is not None else rng.standard_normal(shape).astype(np.float32)
    t_x = torch.tensor(x, requires_grad=grad_input)
    m_x = minigrad.tensor(x, requires_grad=grad_input)
    t_y, m_y = t_layer(t_x), m_layer(m_x)
    assert_close(m_y, t_y, "output")
    assert type(m_y.grad_fn).__name__ == type(t_y.grad_fn).__name__
    g = rng.standard_normal(tuple(t_y.shape)).astype(np.float32)
    t_y.backward(torch.tensor(g))
    m_y.backward(minigrad.tensor(g))
    if grad_input:
        assert_close(m_x.grad, t_x.grad, "input gradient", rtol=1e-4, atol=1e-5)
    for (name, p), (_, q) in zip(m_layer.named_parameters(), t_layer.named_parameters()):
        assert_close(p.grad, q.grad, f"gradient of {name}", rtol=1e-4, atol=1e-5)
    return t_layer, m_layer


CONVS = {
    "lenet_conv1": lambda L: L.nn.Conv2d(1, 6, 5),
    "stride_padding": lambda L: L.nn.Conv2d(3, 4, 3, stride=2, padding=1),
    "pairs_dilation_no_bias": lambda L: L.nn.Conv2d(2, 4, (3, 2), stride=(1, 2), padding=(2, 1), dilation=(2, 1),
                                                    bias=False),
    "groups": lambda L: L.nn.Conv2d(4, 6, 3, groups=2),
    "same": lambda L: L.nn.Conv2d(3, 2, 3, padding="same"),
    "valid": lambda L: L.nn.Conv2d(3, 2, 3, padding="valid"),
    "reflect": lambda L: L.nn.Conv2d(2, 3, 3, padding=1, padding_mode="reflect"),
    "replicate": lambda L: L.nn.Conv2d(2, 3, 3, padding=(2, 1), padding_mode="replicate"),
}


@pytest.mark.parametrize("name", list(CONVS))
def test_conv2d_matches_torch(torch, name):
    make = CONVS[name]
    channels = {"lenet_conv1": 1, "groups": 4, "pairs_dilation_no_bias": 2, "reflect": 2, "replicate": 2}
    check_layer(torch, make, (2, channels.get(name, 3), 9, 8))


def test_conv2d_default_initialisation_is_bit_identical(torch):
    """kaiming_uniform_(a=sqrt(5)) for the weight, U(-1/sqrt(fan_in), 1/sqrt(fan_in)) for the bias, same stream."""
    for lib in (torch, minigrad):
        lib.manual_seed(7)
    t_conv, m_conv = torch.nn.Conv2d(3, 6, 5), minigrad.nn.Conv2d(3, 6, 5)
    for (name, p), (_, q) in zip(m_conv.named_parameters(), t_conv.named_parameters()):
        assert p.detach().tolist() == q.detach().tolist(), f"{name}: not the same numbers as torch's"


def test_conv2d_constructor_errors_match_torch(parity):
    for make in (lambda L: L.nn.Conv2d(3, 4, 3, groups=2), lambda L: L.nn.Conv2d(4, 3, 3, groups=2),
                 lambda L: L.nn.Conv2d(3, 3, 3, groups=0), lambda L: L.nn.Conv2d(3, 3, 3, padding="same", stride=2)):
        parity(make)
    # these two print a Python set: its order depends on the hash seed of the process that compiled torch's
    # .pyc, so the example returns the ValueError's message with the set's elements sorted
    def sorted_sets(make):
        def example(lib):
            try:
                make(lib)
            except ValueError as error:
                return re.sub(r"\{[^}]*\}", lambda m: str(sorted(m.group(0)[1:-1].split(", "))), str(error))
        return example
    for make in (lambda L: L.nn.Conv2d(3, 3, 3, padding="foo"), lambda L: L.nn.Conv2d(3, 3, 3, padding_mode="foo")):
        assert parity(sorted_sets(make)) is not None, "the test is wrong: torch raised no ValueError"


def test_conv2d_padding_attributes_match_torch(parity):
    def example(L):
        convs = [L.nn.Conv2d(3, 3, (3, 4), padding="same", dilation=(1, 2)), L.nn.Conv2d(3, 3, 3, padding=(1, 2)),
                 L.nn.Conv2d(3, 3, 3, padding="valid")]
        return [(c.padding, c.kernel_size, c.stride, c.dilation, c.groups, c.transposed, c.output_padding,
                 list(c._reversed_padding_repeated_twice), c.padding_mode) for c in convs]
    parity(example)


POOLS = {
    "max": lambda L: L.nn.MaxPool2d(2),
    "max_stride_padding_ceil": lambda L: L.nn.MaxPool2d(3, 2, 1, ceil_mode=True),
    "max_dilation": lambda L: L.nn.MaxPool2d((2, 3), 1, 1, dilation=2),
    "avg": lambda L: L.nn.AvgPool2d(2),
    "avg_options": lambda L: L.nn.AvgPool2d(3, 2, 1, ceil_mode=True, count_include_pad=False),
    "avg_divisor": lambda L: L.nn.AvgPool2d((2, 3), 1, (1, 0), divisor_override=4),
    "adaptive": lambda L: L.nn.AdaptiveAvgPool2d((3, 2)),
    "adaptive_global": lambda L: L.nn.AdaptiveAvgPool2d(1),
    "adaptive_none": lambda L: L.nn.AdaptiveAvgPool2d((None, 4)),
}


@pytest.mark.parametrize("name", list(POOLS))
def test_pooling_matches_torch(torch, name):
    check_layer(torch, POOLS[name], (2, 3, 9, 8))


def test_max_pool_return_indices_matches_torch(torch):
    x = np.random.default_rng(1).standard_normal((2, 2, 7, 7)).astype(np.float32)
    t_out, t_idx = torch.nn.MaxPool2d(3, 2, 1, return_indices=True)(torch.tensor(x))
    m_out, m_idx = minigrad.nn.MaxPool2d(3, 2, 1, return_indices=True)(minigrad.tensor(x))
    assert_close(m_out, t_out, "values")
    assert m_idx.tolist() == t_idx.tolist() and m_idx.dtype == minigrad.int64


def test_dropout_masks_match_torch_for_the_same_seed(torch):
    for p, inplace in ((0.5, False), (0.2, True), (0.9, False)):
        outs = {}
        for lib in (torch, minigrad):
            lib.manual_seed(11)
            drop = lib.nn.Dropout(p, inplace=inplace)
            x = lib.ones(5, 7, requires_grad=True)
            y = drop(x * 2)
            y.sum().backward()
            outs[lib] = (y.detach().tolist(), x.grad.tolist(), repr(drop))
        assert outs[minigrad] == outs[torch], f"p={p}: received {outs[minigrad]}, expected (torch) {outs[torch]}"


def test_dropout_eval_returns_the_input_itself(torch):
    for lib in (torch, minigrad):
        drop, x = lib.nn.Dropout(0.5), lib.randn(3)
        drop.eval()
        assert drop(x) is x
        assert drop.train()(x) is not x


def test_dropout_p_is_checked_like_torch(parity):
    parity(lambda L: L.nn.Dropout(1.5))
    parity(lambda L: L.nn.Dropout(-0.5))


EMBEDDINGS = {
    "plain": lambda L: L.nn.Embedding(10, 4),
    "padding_idx": lambda L: L.nn.Embedding(10, 4, padding_idx=3),
    "negative_padding_idx": lambda L: L.nn.Embedding(10, 4, padding_idx=-2),
    "scale_grad_by_freq": lambda L: L.nn.Embedding(10, 4, scale_grad_by_freq=True),
    "max_norm": lambda L: L.nn.Embedding(10, 4, max_norm=1.5, norm_type=1.0),
}


@pytest.mark.parametrize("name", list(EMBEDDINGS))
def test_embedding_matches_torch(torch, name):
    idx = np.array([[1, 3, 3, 8], [0, 3, 1, 8]])
    t_layer, m_layer = check_layer(torch, EMBEDDINGS[name], None, grad_input=False, integer_input=idx)
    # max_norm rescaled the looked-up rows of the weight itself, in place
    assert_close(m_layer.weight, t_layer.weight, "weight after the lookup")


def test_embedding_init_and_from_pretrained_match_torch(torch, parity):
    for lib in (torch, minigrad):
        lib.manual_seed(3)
    t_emb, m_emb = torch.nn.Embedding(6, 3, padding_idx=1), minigrad.nn.Embedding(6, 3, padding_idx=1)
    assert m_emb.weight.tolist() == t_emb.weight.tolist()        # N(0, 1), then the padding row zeroed

    def example(L):
        emb = L.nn.Embedding.from_pretrained(L.tensor([[1.0, 2.0], [3.0, 4.0]]), padding_idx=0)
        return repr(emb), emb.weight.requires_grad, emb(L.tensor([1, 0]))
    parity(example)
    parity(lambda L: L.nn.Embedding(5, 2, padding_idx=5))
    parity(lambda L: L.nn.Embedding(5, 2, _weight=L.ones(4, 2)))


NORMS = {
    "layer_norm": (lambda L: L.nn.LayerNorm(8), (4, 3, 8)),
    "layer_norm_2_dims_eps": (lambda L: L.nn.LayerNorm([3, 8], eps=1e-3), (4, 3, 8)),
    "layer_norm_no_affine": (lambda L: L.nn.LayerNorm(8, elementwise_affine=False), (2, 8)),
    "layer_norm_no_bias": (lambda L: L.nn.LayerNorm(8, bias=False), (2, 5, 8)),
    "batch_norm_1d": (lambda L: L.nn.BatchNorm1d(3), (6, 3)),
    "batch_norm_1d_3d_input": (lambda L: L.nn.BatchNorm1d(3, momentum=0.3), (4, 3, 5)),
    "batch_norm_2d": (lambda L: L.nn.BatchNorm2d(3), (2, 3, 4, 5)),
    "batch_norm_2d_no_affine": (lambda L: L.nn.BatchNorm2d(3, affine=False), (2, 3, 4, 5)),
    "batch_norm_no_bias_cumulative": (lambda L: L.nn.BatchNorm1d(3, momentum=None, bias=False), (5, 3)),
    "batch_norm_untracked": (lambda L: L.nn.BatchNorm2d(3, track_running_stats=False), (2, 3, 3, 3)),
}


@pytest.mark.parametrize("name", list(NORMS))
def test_normalization_matches_torch(torch, name):
    make, shape = NORMS[name]
    check_layer(torch, make, shape)


@pytest.mark.parametrize("name", [n for n in NORMS if n.startswith("batch_norm")])
def test_batch_norm_running_statistics_over_training_steps_then_eval(torch, name):
    """Five training steps (forward, backward, SGD step) move the buffers as torch's do; eval then uses them."""
    make, shape = NORMS[name]
    layers = {torch: make(torch), minigrad: make(minigrad)}
    copy_state(layers[torch], layers[minigrad])
    rng = np.random.default_rng(2)
    optimizers = {lib: lib.optim.SGD(layers[lib].parameters(), lr=0.1) for lib in layers
                  if list(layers[lib].parameters())}
    target = rng.standard_normal(shape).astype(np.float32)
    for step in range(5):
        x = (rng.standard_normal(shape) * (step + 1) + step).astype(np.float32)
        for lib, layer in layers.items():
            out = layer(lib.tensor(x, requires_grad=True))
            ((out - lib.tensor(target)) ** 2).mean().backward()
            if lib in optimizers:
                optimizers[lib].step()
                optimizers[lib].zero_grad()
        t_layer, m_layer = layers[torch], layers[minigrad]
        for (key, value), (_, expected) in zip(m_layer.state_dict().items(), t_layer.state_dict().items()):
            assert_close(value, expected, f"step {step}: {key}", rtol=1e-4, atol=1e-5)
    x = rng.standard_normal(shape).astype(np.float32)
    for lib in layers:
        layers[lib].eval()
    assert_close(layers[minigrad](minigrad.tensor(x)), layers[torch](torch.tensor(x)), "eval output", rtol=1e-4,
                 atol=1e-5)


def test_batch_norm_buffers_and_errors_match_torch(parity):
    def example(L):
        bn = L.nn.BatchNorm2d(2)
        bn(L.randn(3, 2, 2, 2))
        bn(L.randn(3, 2, 2, 2))
        return bn.num_batches_tracked, bn.num_batches_tracked.dtype, names(bn), list(bn.state_dict())
    parity(example)
    parity(lambda L: L.nn.BatchNorm1d(3)(L.ones(2, 3, 4, 5)))
    parity(lambda L: L.nn.BatchNorm2d(3)(L.ones(2, 3, 4)))
    parity(lambda L: L.nn.BatchNorm1d(3)(L.ones(1, 3)))
    parity(lambda L: L.nn.BatchNorm2d(3)(L.ones(2, 4, 5, 5)))
    parity(lambda L: L.nn.BatchNorm1d(3).eval()(L.ones(1, 3)))          # one sample is fine in eval mode
