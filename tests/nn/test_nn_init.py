"""nn.init against real PyTorch: calculate_gain and the fans exactly; eye_, dirac_, constant_ exactly; the random
initialisers twice: with both libraries' `Tensor.normal_`/`uniform_` replaced by one shared deterministic stream
(so the values must match torch's exactly, which checks that minigrad draws the same numbers in the same order,
shapes and calls as torch's nn/init.py), and by their statistics with the libraries' own generators."""
import math

import numpy as np
import pytest

import minigrad


# ---- deterministic: gains, fans, eye_, dirac_, constant_ ------------------------------------------------
def test_calculate_gain_for_every_nonlinearity(parity):
    def example(lib):
        init = lib.nn.init
        names = ["linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d",
                 "sigmoid", "tanh", "relu", "leaky_relu", "selu"]
        out = [init.calculate_gain(n) for n in names]
        out += [init.calculate_gain("leaky_relu", p) for p in (0, 0.2, 3, math.sqrt(5))]
        for bad in (("leaky_relu", True), ("leaky_relu", "0.1"), ("gelu", None), ("Relu", None)):
            try:
                init.calculate_gain(*bad)
            except ValueError as e:
                out.append(str(e))
        return out
    result = parity(example)
    assert result[8:12] == [5.0 / 3, math.sqrt(2.0), math.sqrt(2.0 / (1 + 0.01 ** 2)), 0.75]


def test_fan_in_and_fan_out(parity):
    def example(lib):
        fans = lib.nn.init._calculate_fan_in_and_fan_out
        out = [fans(lib.empty(*shape)) for shape in ((3, 5), (4, 2, 3, 3), (2, 6, 5), (0, 3))]
        try:
            fans(lib.empty(4))
        except ValueError as e:
            out.append(str(e))
        return out
    assert parity(example)[:2] == [(5, 3), (18, 36)]


def test_eye_dirac_constant_ones_zeros(parity):
    def example(lib):
        init = lib.nn.init
        w = lib.nn.Parameter(lib.empty(3, 5))
        out = [init.eye_(w), w.requires_grad, init.eye_(lib.empty(4, 2)), init.dirac_(lib.empty(2, 2, 3)),
               init.dirac_(lib.empty(4, 2, 3, 3), groups=2), init.dirac_(lib.empty(2, 1, 1, 3, 3)),
               init.constant_(lib.empty(2, 2), 0.3), init.ones_(lib.empty(3)), init.zeros_(lib.empty(2, 1))]
        for bad in (lambda: init.eye_(lib.empty(2, 2, 2)), lambda: init.dirac_(lib.empty(2, 2)),
                    lambda: init.dirac_(lib.empty(3, 2, 3), groups=2), lambda: init.orthogonal_(lib.empty(3)),
                    lambda: init.sparse_(lib.empty(3), 0.5)):
            try:
                bad()
            except ValueError as e:
                out.append(str(e))
        return out
    parity(example)


def test_init_works_on_parameters_without_recording(parity):
    def example(lib):
        lin = lib.nn.Linear(3, 3)
        for fn in (lib.nn.init.eye_, lib.nn.init.orthogonal_, lib.nn.init.xavier_uniform_,
                   lib.nn.init.trunc_normal_, lib.nn.init.kaiming_normal_):
            returned = fn(lin.weight)
        return returned is lin.weight, lin.weight.grad_fn is None, lin.weight.requires_grad, lin.weight.is_leaf
    parity(example)


# ---- the random initialisers, with one shared stream of draws ------------------------------------------------
class Stream:
    """Deterministic 'random' numbers handed out in order: what both libraries' normal_/uniform_ return here."""

    def __init__(self):
        self.rng = np.random.default_rng(1234)
        self.calls = []

    def fill(self, lib, tensor, values):
        with lib.no_grad():
            tensor.copy_(lib.tensor(values.reshape(tuple(tensor.shape))))
        return tensor

    def patch(self, monkeypatch, lib):
        def normal_(tensor, mean=0.0, std=1.0, *, generator=None):
            self.calls.append(("normal_", tuple(tensor.shape), mean, std))
            return self.fill(lib, tensor, mean + std * self.rng.standard_normal(tensor.numel()))

        def uniform_(tensor, a=0.0, b=1.0, *, generator=None):
            self.calls.append(("uniform_", tuple(tensor.shape), a, b))
            return self.fill(lib, tensor, a + (b - a) * self.rng.random(tensor.numel()))

        monkeypatch.setattr(lib.Tensor, "normal_", normal_)
        monkeypatch.setattr(lib.Tensor, "uniform_", uniform_)


RANDOM_INITS = {
    "uniform_": lambda init, t: init.uniform_(t, -0.5, 2.0),
    "normal_": lambda init, t: init.normal_(t, 1.0, 0.1),
    "xavier_uniform_": lambda init, t: init.xavier_uniform_(t),
    "xavier_uniform_gain": lambda init, t: init.xavier_uniform_(t, gain=init.calculate_gain("tanh")),
    "xavier_normal_": lambda init, t: init.xavier_normal_(t, gain=2.0),
    "kaiming_uniform_": lambda init, t: init.kaiming_uniform_(t),
    "kaiming_uniform_linear_default": lambda init, t: init.kaiming_uniform_(t, a=math.sqrt(5)),
    "kaiming_uniform_fan_out_relu": lambda init, t: init.kaiming_uniform_(t, mode="fan_out", nonlinearity="relu"),
    "kaiming_normal_": lambda init, t: init.kaiming_normal_(t),
    "kaiming_normal_fan_out_relu": lambda init, t: init.kaiming_normal_(t, mode="fan_out", nonlinearity="relu"),
    "kaiming_normal_leaky": lambda init, t: init.kaiming_normal_(t, a=0.2, nonlinearity="leaky_relu"),
    "kaiming_normal_selu": lambda init, t: init.kaiming_normal_(t, nonlinearity="selu"),
    "orthogonal_": lambda init, t: init.orthogonal_(t),
    "orthogonal_gain": lambda init, t: init.orthogonal_(t, gain=0.5),
    "trunc_normal_": lambda init, t: init.trunc_normal_(t),
    "trunc_normal_narrow": lambda init, t: init.trunc_normal_(t, mean=0.5, std=1.0, a=0.0, b=0.8),
    "trunc_normal_tail": lambda init, t: init.trunc_normal_(t, mean=0.0, std=1.0, a=2.0, b=3.0),
    "trunc_normal_std": lambda init, t: init.trunc_normal_(t, std=0.02),
}
SHAPES = [(4, 6), (6, 4), (3, 2, 3, 3), (5, 5), (8, 40)]


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "x".join(map(str, s)))
@pytest.mark.parametrize("name", list(RANDOM_INITS))
def test_random_init_matches_torch_given_the_same_draws(torch, monkeypatch, name, shape):
    results = {}
    for lib in (torch, minigrad):
        stream = Stream()
        stream.patch(monkeypatch, lib)
        t = RANDOM_INITS[name](lib.nn.init, lib.empty(*shape))
        results[lib] = t.detach().numpy().copy(), stream.calls
    (t_values, t_calls), (m_values, m_calls) = results[torch], results[minigrad]
    assert m_calls == t_calls, f"{name}: received draws {m_calls}, expected (torch) {t_calls}"
    assert np.allclose(m_values, t_values, rtol=1e-5, atol=1e-6), (
        f"{name}: received\n{m_values}\nexpected (torch)\n{t_values}")


def test_kaiming_errors_and_zero_element_warning(parity):
    def example(lib):
        init = lib.nn.init
        out = [tuple(init.kaiming_uniform_(lib.empty(0, 3)).shape), tuple(init.kaiming_normal_(lib.empty(3, 0)).shape)]
        for bad in (lambda: init.kaiming_uniform_(lib.empty(2, 2), mode="fan_avg"),
                    lambda: init.kaiming_normal_(lib.empty(2, 2), nonlinearity="swish"),
                    lambda: init.xavier_uniform_(lib.empty(3))):
            try:
                bad()
            except ValueError as e:
                out.append(str(e))
        return out
    parity(example)


def test_trunc_normal_warns_when_the_mean_is_far_outside(parity):
    def example(lib):
        t = lib.nn.init.trunc_normal_(lib.empty(50), mean=5.0, std=1.0, a=-1.0, b=1.0)
        return bool(((t >= -1.0) & (t <= 1.0)).all())
    assert parity(example) is True


def test_deprecated_names_warn_and_work(parity):
    def example(lib):
        init = lib.nn.init
        t = lib.empty(2, 2)
        init.constant(t, 0.5)
        for fn in (init.uniform, init.normal, init.xavier_uniform, init.xavier_normal, init.kaiming_uniform,
                   init.kaiming_normal):
            fn(t)
        return init.constant(t, 0.25)
    parity(example)


# ---- the random initialisers with minigrad's own generator: their statistics --------------------------------
def test_statistics_with_minigrads_generator():
    init = minigrad.nn.init
    minigrad.manual_seed(0)
    w = init.kaiming_uniform_(minigrad.empty(400, 300), mode="fan_in", nonlinearity="relu")._data
    bound = math.sqrt(2.0) * math.sqrt(3.0 / 300)
    assert np.abs(w).max() <= bound and np.isclose(w.std(), bound / math.sqrt(3), rtol=0.02), (
        f"kaiming_uniform_: received max {np.abs(w).max()} std {w.std()}, expected max <= {bound}")
    w = init.kaiming_normal_(minigrad.empty(300, 400), mode="fan_out")._data
    assert np.isclose(w.std(), math.sqrt(2 / (1 + 0.01 ** 2)) / math.sqrt(300), rtol=0.02), w.std()
    w = init.xavier_normal_(minigrad.empty(200, 300))._data
    assert np.isclose(w.std(), math.sqrt(2 / 500), rtol=0.02) and abs(w.mean()) < 0.01, w.std()
    w = init.trunc_normal_(minigrad.empty(100000), std=0.5, a=-0.5, b=1.0)._data
    assert w.min() >= -0.5 and w.max() <= 1.0 and w.min() < -0.49 and w.max() > 0.99, (w.min(), w.max())
    w = init.trunc_normal_(minigrad.empty(20000), a=2.0, b=3.0)._data       # the rejection-sampling branch
    assert w.min() >= 2.0 and w.max() <= 3.0 and 2.3 < w.mean() < 2.45, w.mean()   # E = 2.3729 for N(0,1) on [2,3]
    q = init.orthogonal_(minigrad.empty(5, 8))._data
    assert np.allclose(q @ q.T, np.eye(5), atol=1e-5), q @ q.T
    q = init.orthogonal_(minigrad.empty(6, 2, 2), gain=2.0)._data.reshape(6, 4)
    assert np.allclose(q.T @ q, 4 * np.eye(4), atol=1e-4), q.T @ q
    w = init.sparse_(minigrad.empty(10, 7), sparsity=0.25)._data
    assert ((w == 0).sum(axis=0) == math.ceil(0.25 * 10)).all() and np.abs(w).max() < 0.1, w


@pytest.mark.parametrize("name", list(RANDOM_INITS))
def test_same_seed_gives_torchs_values(torch, name):
    """With minigrad's generator (PyTorch's mt19937 stream and transforms) the draws themselves match too: the
    values are bit-identical, except orthogonal_, whose QR may differ from torch's in the last bit."""
    results = []
    for lib in (torch, minigrad):
        lib.manual_seed(0)
        results.append(RANDOM_INITS[name](lib.nn.init, lib.empty(8, 20)).detach().numpy().copy())
    if name.startswith("orthogonal"):
        assert np.allclose(results[1], results[0], rtol=1e-5, atol=1e-6), f"{name}: {results[1]} vs {results[0]}"
    else:
        assert np.array_equal(results[1], results[0]), f"{name}: received\n{results[1]}\nexpected (torch)\n{results[0]}"


def test_same_seed_sparse_and_generator_argument(torch):
    results = []
    for lib in (torch, minigrad):
        lib.manual_seed(3)
        a = lib.nn.init.sparse_(lib.empty(6, 5), sparsity=0.5).numpy().copy()
        g = lib.Generator().manual_seed(7)
        b = lib.nn.init.trunc_normal_(lib.empty(30), a=-0.5, b=0.5, generator=g).numpy().copy()
        c = lib.nn.init.orthogonal_(lib.empty(4, 4), generator=lib.Generator().manual_seed(1)).numpy().copy()
        results.append((a, b, c))
    (ta, tb, tc), (ma, mb, mc) = results
    assert np.array_equal(ma, ta) and np.array_equal(mb, tb), f"received {ma}, {mb}\nexpected (torch) {ta}, {tb}"
    assert np.allclose(mc, tc, rtol=1e-5, atol=1e-6), f"received {mc}\nexpected (torch) {tc}"
