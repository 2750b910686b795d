"""Parity with real PyTorch for the smaller parts of torch.nn added in issue 26: `nn.Buffer` (registration,
persistence, reassignment), `nn.Bilinear` (weights under `manual_seed`, repr, gradients), `F.gumbel_softmax`
(its draws and the straight-through gradient), the multi-class margin loss layers, `NLLLoss2d` and `Container`
(with their deprecation warnings), the loss layers' positional signatures (`NLLLoss(weight, size_average,
ignore_index)`), `nn.factory_kwargs`, `nn.UninitializedBuffer`, `nn.grad`'s convolution gradients and the lazy
convolutions and normalizations. The ops' values, graphs and misuses are op-table rows
(tests/core/op_table_bilinear_multiclass.py)."""
import warnings

import pytest

CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


@case
def buffers_register_and_persist(lib):
    nn = lib.nn

    class M(nn.Module):
        def __init__(self):
            super().__init__()
            self.a = nn.Buffer(lib.ones(2))
            self.b = nn.Buffer(lib.zeros(1), persistent=False)

    m = M()
    out = [list(m.state_dict()), [n for n, _ in m.named_buffers()], isinstance(m.a, nn.Buffer),
           isinstance(lib.ones(1), nn.Buffer)]
    b = nn.Buffer(lib.ones(2, requires_grad=True))
    out += [b.requires_grad, b.persistent, b, b.grad_fn]
    m.a = lib.zeros(3)
    m.c = nn.Buffer(lib.ones(1), persistent=False)
    m.b = nn.Buffer(lib.ones(1))
    return out + [m.a, list(m.state_dict()), [n for n, _ in m.named_buffers()]]


@case
def buffer_over_a_plain_attribute(lib):
    m = lib.nn.Module()
    m.x = 5
    m.x = lib.nn.Buffer(lib.ones(1))


@case
def bilinear_layer(lib):
    lib.manual_seed(0)
    m = lib.nn.Bilinear(3, 4, 2)
    a, b = lib.randn(5, 3, requires_grad=True), lib.randn(5, 4, requires_grad=True)
    y = m(a, b)
    (y * y).sum().backward()
    g, = lib.autograd.grad(m(a, b).sum(), a, create_graph=True)
    gg, = lib.autograd.grad(g.pow(2).sum(), b)
    return [repr(m), m.weight, m.bias, y, a.grad, b.grad, m.weight.grad, m.bias.grad, gg,
            repr(lib.nn.Bilinear(2, 2, 1, bias=False)), lib.nn.Bilinear(2, 3, 1)(lib.ones(2, 2), lib.ones(2, 3)).shape]


@case
def gumbel_softmax_draws_and_straight_through(lib):
    lib.manual_seed(0)
    x = lib.randn(2, 5, requires_grad=True)
    a = lib.nn.functional.gumbel_softmax(x, tau=0.5)
    b = lib.nn.functional.gumbel_softmax(x, hard=True)
    c = lib.nn.functional.gumbel_softmax(x, dim=0)
    (a.sum() + (b * lib.arange(5.0)).sum() + c[0].sum()).backward()
    return [a, b, c, b.grad_fn.name(), x.grad.round(decimals=3)]


@case
def gumbel_softmax_eps_is_deprecated(lib):
    lib.manual_seed(0)
    return lib.nn.functional.gumbel_softmax(lib.zeros(3), eps=1e-5)


@case
def multiclass_margin_layers(lib):
    lib.manual_seed(0)
    x = lib.randn(3, 4, requires_grad=True)
    t = lib.tensor([0, 3, 1])
    y = lib.tensor([[0, 2, -1, 1], [3, -1, 0, 0], [-1, 0, 0, 0]])
    weighted = lib.nn.MultiMarginLoss(weight=lib.tensor([1.0, 2.0, 0.5, 3.0]), reduction="none")
    losses = [lib.nn.MultiMarginLoss()(x, t), lib.nn.MultiMarginLoss(p=2, margin=0.5)(x, t), weighted(x, t),
              lib.nn.MultiLabelMarginLoss()(x, y), lib.nn.MultiLabelMarginLoss(reduction="none")(x, y)]
    sum(loss.sum() for loss in losses).backward()
    return [repr(lib.nn.MultiMarginLoss(p=2, margin=0.5)), repr(lib.nn.MultiLabelMarginLoss()),
            list(weighted.state_dict())] + losses + [x.grad]


@case
def multi_margin_weight_must_be_1d(lib):
    return lib.nn.MultiMarginLoss(weight=lib.ones(2, 2))


@case
def deprecated_layers_warn(lib):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        container = lib.nn.Container(a=lib.nn.Linear(1, 1))
        nll = lib.nn.NLLLoss2d(reduction="sum")
    return [[(w.category.__name__, str(w.message)) for w in caught], list(container._modules),
            nll(lib.tensor([[-1.0, -0.5]]), lib.tensor([1]))]


@case
def loss_layers_take_torchs_positional_arguments(lib):
    x = lib.tensor([[0.5, -1.0, 2.0], [1.5, 0.0, -0.5]])
    logp = x.log_softmax(1)
    t = lib.tensor([1, 2])
    return [lib.nn.NLLLoss(None, None, 1)(logp, t), lib.nn.CrossEntropyLoss(None, None, 2)(x, t),
            lib.nn.NLLLoss(lib.tensor([1.0, 2.0, 3.0]), None, -100, None, "sum")(logp, t),
            lib.nn.CrossEntropyLoss(None, None, -100, None, "none", 0.1)(x, t)]


@case
def cross_entropy_label_smoothing(lib):
    """ATen's cross_entropy_loss_label_smoothing: (1 - e) nll + e / C times the reduced sum of -log p."""
    lib.manual_seed(0)
    x = lib.randn(4, 3, requires_grad=True)
    t = lib.tensor([1, 2, 0, 1])
    w = lib.tensor([1.0, 2.0, 0.5])
    out = []
    for kw in [dict(label_smoothing=0.1), dict(label_smoothing=0.2, weight=w),
               dict(label_smoothing=0.3, reduction="sum"), dict(label_smoothing=0.3, reduction="none", weight=w)]:
        loss = lib.nn.functional.cross_entropy(x, t, **kw)
        out += [loss, lib.autograd.grad(loss.sum(), x)[0]]
    images, labels = lib.randn(2, 3, 2, 2), lib.tensor([[[0, 1], [2, 1]], [[1, 1], [0, 2]]])
    # with ignored targets the values agree; the ignored rows' zero gradients differ in sign (-0.0), so not compared
    return out + [lib.nn.functional.cross_entropy(x, t, label_smoothing=0.1, ignore_index=1),
                  lib.nn.functional.cross_entropy(x, t, weight=w, label_smoothing=0.25, ignore_index=0),
                  lib.nn.functional.cross_entropy(images, labels, label_smoothing=0.1),
                  lib.nn.CrossEntropyLoss(label_smoothing=0.1)(x, t)]


@case
def cross_entropy_label_smoothing_out_of_range(lib):
    return lib.nn.functional.cross_entropy(lib.ones(2, 3), lib.tensor([0, 1]), label_smoothing=1.5)


@case
def factory_kwargs(lib):
    made = lib.nn.factory_kwargs({"device": "cpu", "dtype": lib.float64})
    return [made == {"device": "cpu", "dtype": lib.float64}, lib.nn.factory_kwargs(None),
            lib.nn.factory_kwargs({"factory_kwargs": {"dtype": lib.float64}}), lib.empty(2, **made).dtype]


@case
def factory_kwargs_unknown(lib):
    return lib.nn.factory_kwargs({"foo": 1})


@case
def factory_kwargs_twice(lib):
    return lib.nn.factory_kwargs({"dtype": lib.float64, "factory_kwargs": {"dtype": lib.float32}})


@case
def uninitialized_buffer(lib):
    return [repr(lib.nn.UninitializedBuffer()), isinstance(lib.nn.UninitializedBuffer(), lib.Tensor)]


@case
def convolution_gradients_as_functions(lib):
    lib.manual_seed(0)
    w, x, g = lib.randn(3, 2, 2, 2), lib.randn(1, 2, 4, 4), lib.randn(1, 3, 3, 3)
    w1, x1 = lib.randn(3, 2, 3), lib.randn(1, 2, 6)
    return [lib.nn.grad.conv2d_input((1, 2, 4, 4), w, g), lib.nn.grad.conv2d_weight(x, (3, 2, 2, 2), g),
            lib.nn.grad.conv2d_input((1, 2, 8, 8), w, lib.randn(1, 3, 5, 5), stride=2, padding=1),
            lib.nn.grad.conv1d_input((1, 2, 5), w1, lib.randn(1, 3, 3)),
            lib.nn.grad.conv1d_weight(x1, (3, 2, 3), lib.randn(1, 3, 2), stride=2)]


@case
def lazy_layers_become_the_plain_ones(lib):
    """The lazy convolutions and normalizations: uninitialized until the first input, then drawn as the plain layer
    draws them (the same numbers under manual_seed) and turned into it."""
    nn = lib.nn
    lib.manual_seed(0)
    out = []
    m = nn.LazyConv2d(6, 3)
    out += [repr(m), type(m).__name__, repr(m.weight), m.has_uninitialized_params()]
    y = m(lib.randn(2, 4, 5, 5))
    out += [type(m).__name__, repr(m), m.weight.shape, y.sum(), m.bias]
    b = nn.LazyBatchNorm1d()
    out += [repr(b), list(b.state_dict()), repr(b.running_mean)]
    b(lib.randn(3, 5))
    out += [type(b).__name__, repr(b), b.running_mean, b.num_batches_tracked]
    i = nn.LazyInstanceNorm2d(affine=True, track_running_stats=True)
    out.append(repr(i))
    i(lib.randn(2, 3, 4, 4))
    out += [type(i).__name__, repr(i), i.running_var]
    t = nn.LazyConvTranspose2d(4, 3, stride=2)
    out += [repr(t), t(lib.randn(1, 2, 3, 3)).shape, repr(t), t.weight.shape]
    c1 = nn.LazyConv1d(3, 2)
    c1(lib.randn(4, 5))
    c2 = nn.LazyConv2d(4, 2, groups=2, bias=False)
    c2(lib.randn(1, 6, 3, 3))
    i1 = nn.LazyInstanceNorm1d()
    i1(lib.randn(2, 3, 7))
    b3 = nn.LazyBatchNorm3d(affine=False)
    b3(lib.randn(2, 2, 2, 2, 2))
    return out + [repr(c1), c1.weight, repr(c2), c2.weight.shape, repr(i1), repr(b3), list(b3.state_dict())]


@case
def lazy_instance_norm_reads_dim_1_even_unbatched(lib):
    lib.nn.LazyInstanceNorm1d()(lib.randn(3, 7))


@pytest.mark.parametrize("name", list(CASES))
def test_parity(parity, name):
    parity(CASES[name])
