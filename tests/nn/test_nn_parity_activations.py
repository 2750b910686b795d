"""Parity with real PyTorch for the activation, distance and KL-divergence layers of issue 26: printed reprs,
PReLU's parameter, RReLU's random slopes after `manual_seed` (bit for bit), and the layers' refusals.
The functions themselves (values, graphs, gradients) are rows of tests/core/op_table_activations.py."""
import numpy as np
import pytest

LAYERS = [
    ("Hardtanh", lambda nn: nn.Hardtanh()), ("Hardtanh_args", lambda nn: nn.Hardtanh(-2.0, 3, True)),
    ("ReLU6", lambda nn: nn.ReLU6()), ("ReLU6_inplace", lambda nn: nn.ReLU6(True)),
    ("Hardswish", lambda nn: nn.Hardswish(True)), ("Hardsigmoid", lambda nn: nn.Hardsigmoid(True)),
    ("Mish", lambda nn: nn.Mish()), ("Mish_inplace", lambda nn: nn.Mish(inplace=True)),
    ("Softsign", lambda nn: nn.Softsign()), ("Tanhshrink", lambda nn: nn.Tanhshrink()),
    ("CELU", lambda nn: nn.CELU()), ("CELU_args", lambda nn: nn.CELU(2.0, True)),
    ("PReLU", lambda nn: nn.PReLU()), ("PReLU_channels", lambda nn: nn.PReLU(3, 0.1)),
    ("RReLU", lambda nn: nn.RReLU()), ("RReLU_args", lambda nn: nn.RReLU(0.1, 0.3, True)),
    ("Threshold", lambda nn: nn.Threshold(0.1, 20)), ("Threshold_inplace", lambda nn: nn.Threshold(0.1, 20.0, True)),
    ("GLU", lambda nn: nn.GLU()), ("GLU_dim", lambda nn: nn.GLU(1)),
    ("Softmin", lambda nn: nn.Softmin()), ("Softmin_dim", lambda nn: nn.Softmin(1)),
    ("LogSigmoid", lambda nn: nn.LogSigmoid()), ("Softshrink", lambda nn: nn.Softshrink()),
    ("Softshrink_int", lambda nn: nn.Softshrink(1)), ("Hardshrink", lambda nn: nn.Hardshrink(0.25)),
    ("Softmax2d", lambda nn: nn.Softmax2d()),
    ("CosineSimilarity", lambda nn: nn.CosineSimilarity()), ("PairwiseDistance", lambda nn: nn.PairwiseDistance(1)),
    ("KLDivLoss", lambda nn: nn.KLDivLoss()), ("KLDivLoss_args", lambda nn: nn.KLDivLoss(reduction="batchmean",
                                                                                        log_target=True)),
]


@pytest.mark.parametrize("make", [pytest.param(make, id=name) for name, make in LAYERS])
def test_layer_repr_and_options_are_torchs(make, parity):
    def example(L):
        layer = make(L.nn)
        options = {k: v for k, v in vars(layer).items() if not k.startswith("_") and k != "training"}
        return repr(layer), repr(L.nn.Sequential(layer, L.nn.Linear(2, 2))), sorted(options.items())
    parity(example)


def test_prelu_parameters_are_torchs(parity):
    def example(L):
        layer = L.nn.PReLU(3, init=0.1)
        x = L.tensor([[[-1.0, 2.0], [0.5, -3.0], [-0.25, 1.0]]])
        y = layer(x)
        y.sum().backward()
        names = [(n, tuple(p.shape), p.requires_grad) for n, p in layer.named_parameters()]
        return names, layer.weight, layer.weight.grad, y, layer.state_dict()["weight"], repr(layer.weight)
    parity(example)


def test_prelu_reset_parameters_and_dtype(parity):
    def example(L):
        layer = L.nn.PReLU(2, dtype=L.float64)
        with L.no_grad():
            layer.weight.mul_(3)
        layer.reset_parameters()
        return layer.weight, layer(L.tensor([[-1.0, 1.0]], dtype=L.float64))
    parity(example)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape", [(7,), (3, 5, 4), (40,)])
def test_rrelu_training_draws_torchs_random_slopes(dtype, shape, torch):
    import minigrad
    x = np.random.default_rng(sum(shape)).standard_normal(shape).astype(dtype)
    results = []
    for lib in (torch, minigrad):
        lib.manual_seed(0)
        t = lib.tensor(x, requires_grad=True)
        y = lib.nn.functional.rrelu(t, 0.1, 0.7, training=True)
        y.backward(lib.ones_like(y))
        after = lib.rand(3)             # the generator advanced by as many draws as torch's
        results.append((y.detach().numpy(), t.grad.numpy(), after.numpy(), y.grad_fn.name()))
    (ty, tg, ta, tn), (my, mg, ma, mn) = results
    assert np.array_equal(my, ty), f"rrelu values: received\n{my}\nexpected (torch)\n{ty}"
    assert np.array_equal(mg, tg), f"rrelu gradient (the slopes): received\n{mg}\nexpected (torch)\n{tg}"
    assert np.array_equal(ma, ta), f"the draws after rrelu: received {ma}, expected (torch) {ta}"
    assert mn == tn, f"grad_fn: received {mn}, expected (torch) {tn}"


def test_rrelu_module_is_random_in_training_and_mean_in_eval(parity):
    def example(L):
        L.manual_seed(7)
        layer = L.nn.RReLU()
        x = L.tensor([[-1.0, 2.0, -3.0], [0.0, -0.5, 4.0]])
        trained = layer(x)
        inplace = L.nn.RReLU(inplace=True)(x.clone())
        layer.eval()
        return trained, inplace, layer(x), L.rand(2)
    parity(example, rtol=0, atol=0)


def test_rrelu_inplace_training_gradient(parity):
    def example(L):
        L.manual_seed(3)
        x = L.tensor([-1.0, 2.0, -3.0, -0.5], requires_grad=True)
        y = L.nn.functional.rrelu_(x * 1, training=True)
        (g,) = L.autograd.grad(y.sum(), x, create_graph=True)
        return y, g, g.grad_fn.name()
    parity(example, rtol=0, atol=0)


def test_softmax2d_refuses_2d_input(parity):
    parity(lambda L: L.nn.Softmax2d()(L.ones(2, 3)))


def test_hardtanh_refuses_max_below_min(parity):
    parity(lambda L: L.nn.Hardtanh(1.0, -1.0))


def test_hardtanh_min_value_is_deprecated(parity):
    parity(lambda L: repr(L.nn.Hardtanh(min_value=-2.0)))


def test_kl_div_loss_batchmean_and_mean_warning(parity):
    def example(L):
        x = L.tensor([[0.2, 0.8], [0.6, 0.4]]).log()
        t = L.tensor([[0.5, 0.5], [0.9, 0.1]])
        return L.nn.KLDivLoss(reduction="batchmean")(x, t), L.nn.KLDivLoss()(x, t)
    parity(example)


# ---- hardsigmoid: not an op-table row, as torch does not differentiate its gradient --------------------------
HARDSIGMOID = [("function", lambda L, x: L.nn.functional.hardsigmoid(x * 4)),
               ("inplace", lambda L, x: L.nn.functional.hardsigmoid(x * 4, inplace=True)),
               ("module", lambda L, x: L.nn.Hardsigmoid()(x * 4))]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("fn", [pytest.param(fn, id=name) for name, fn in HARDSIGMOID])
def test_hardsigmoid_values_graph_and_gradient_are_torchs(fn, dtype, parity):
    x = np.array([[-1.2, -0.6, -0.3], [0.1, 0.5, 0.9]], dtype=dtype)

    def example(L):
        t = L.tensor(x, requires_grad=True)
        y = fn(L, t)
        (g,) = L.autograd.grad(y, t, L.ones_like(y) * 0.5, create_graph=True)
        with L.autograd.forward_ad.dual_level():
            dual = L.autograd.forward_ad.make_dual(L.tensor(x), L.ones_like(L.tensor(x)))
            tangent = L.autograd.forward_ad.unpack_dual(fn(L, dual)).tangent
        return y, y.grad_fn.name(), y.grad_fn.next_functions[0][0].name(), g, g.grad_fn.name(), tangent
    parity(example, rtol=0, atol=0)


def test_hardsigmoid_gradient_matches_finite_differences():
    import minigrad
    x = minigrad.tensor([[-1.2, -0.6, -0.3], [0.1, 0.5, 0.9]], dtype=minigrad.float64, requires_grad=True)
    assert minigrad.autograd.gradcheck(lambda t: minigrad.nn.functional.hardsigmoid(t * 4), (x,), eps=1e-6,
                                       atol=1e-6, rtol=1e-4)
