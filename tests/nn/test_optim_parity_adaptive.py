"""Adamax, NAdam, RAdam, Adadelta, Rprop and ASGD against real torch (its single-tensor path, the CPU default):
30 steps on a small model from the same weights, parameters and state bit-identical after each option;
state_dict()/load_state_dict() round trips that continue identically; reprs, defaults and torch's errors."""

import numpy as np
import pytest

import minigrad
from optim_examples import assert_trains_as_torch, build, round_trip, state_after_three_steps

CONFIGS = {
    "adamax": ("Adamax", {}),
    "adamax_options": ("Adamax", {"lr": 0.01, "betas": (0.8, 0.99), "eps": 1e-6, "weight_decay": 0.1}),
    "adamax_maximize": ("Adamax", {"maximize": True, "foreach": False}),
    "nadam": ("NAdam", {}),
    "nadam_options": ("NAdam", {"lr": 0.01, "betas": (0.8, 0.99), "weight_decay": 0.1, "momentum_decay": 0.01}),
    "nadam_decoupled": ("NAdam", {"lr": 0.01, "weight_decay": 0.1, "decoupled_weight_decay": True}),
    "nadam_maximize": ("NAdam", {"maximize": True}),
    "radam": ("RAdam", {"lr": 0.01}),
    "radam_options": ("RAdam", {"lr": 0.01, "betas": (0.8, 0.9), "eps": 1e-6, "weight_decay": 0.1}),
    "radam_decoupled": ("RAdam", {"lr": 0.01, "weight_decay": 0.1, "decoupled_weight_decay": True}),
    "radam_maximize": ("RAdam", {"lr": 0.01, "maximize": True}),
    "adadelta": ("Adadelta", {}),
    "adadelta_options": ("Adadelta", {"lr": 0.5, "rho": 0.8, "eps": 1e-5, "weight_decay": 0.1}),
    "adadelta_maximize": ("Adadelta", {"maximize": True}),
    "rprop": ("Rprop", {}),
    "rprop_options": ("Rprop", {"lr": 0.001, "etas": (0.3, 1.5), "step_sizes": (1e-4, 0.01)}),
    "rprop_maximize": ("Rprop", {"maximize": True}),
    "asgd": ("ASGD", {"lr": 0.1}),
    "asgd_averaging": ("ASGD", {"lr": 0.1, "lambd": 0.01, "alpha": 0.5, "t0": 5, "weight_decay": 0.1}),
    "asgd_maximize": ("ASGD", {"lr": 0.1, "maximize": True, "t0": 3}),
}


def state_arrays(optimizer, params):
    """Each parameter's state, as numpy arrays (float32 kept exactly)."""
    return [{k: np.array(v.tolist()) for k, v in optimizer.state[p].items()} for p in params]


@pytest.mark.parametrize("name", list(CONFIGS))
def test_training_matches_torch(torch, name):
    assert_trains_as_torch(torch, minigrad, name, *CONFIGS[name])


# torch's AVX2 float32 `sqrt` (Sleef's, within 0.5001 ulp) is not numpy's correctly rounded one, so the optimizers
# that take a square root agree with torch to an ulp per step, the others to the bit
WITHOUT_SQRT = ("Adamax", "Rprop", "ASGD")


def assert_same(got, expected, exact, what):
    if exact:
        assert (got == expected).all(), f"{what}: received {got[got != expected]}, expected {expected[got != expected]}"
    else:
        np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-12, err_msg=what)


@pytest.mark.parametrize("name", list(CONFIGS))
def test_update_matches_torchs_rounding(torch, name):
    # the same gradients fed to both (a model's forward may differ in the last bit): parameters and every
    # state tensor must then agree, step after step, as ATen rounds each in-place update
    cls, options = CONFIGS[name]
    exact = cls in WITHOUT_SQRT
    rng = np.random.default_rng(0)
    starts = [rng.standard_normal(shape).astype(np.float32) for shape in ((5, 7), (7,))]
    params = {lib: [lib.nn.Parameter(lib.tensor(s)) for s in starts] for lib in (torch, minigrad)}
    optimizers = {lib: getattr(lib.optim, cls)(ps, **options) for lib, ps in params.items()}
    for step in range(40):
        # all-zero gradients every 7th step exercise Rprop's "no sign" branch
        grads = [(rng.standard_normal(s.shape) * (1 if step % 7 else 0)).astype(np.float32) for s in starts]
        for lib, ps in params.items():
            for p, g in zip(ps, grads):
                p.grad = lib.tensor(g)
            optimizers[lib].step()
        for i, (m, t) in enumerate(zip(*(params[lib] for lib in (minigrad, torch)))):
            assert_same(np.array(m.detach().tolist(), np.float32), np.array(t.detach().tolist(), np.float32), exact,
                        f"{name}: parameter {i} after step {step + 1}")
        m_state, t_state = (state_arrays(optimizers[lib], params[lib]) for lib in (minigrad, torch))
        for i, (m, t) in enumerate(zip(m_state, t_state)):
            assert list(m) == list(t), f"{name}: state keys of parameter {i}: received {list(m)}, expected {list(t)}"
            for key in t:
                assert_same(m[key], t[key], exact, f"{name}: state[{key!r}] of parameter {i} after step {step + 1}")


@pytest.mark.parametrize("name", ["adamax_options", "nadam_decoupled", "radam_options", "adadelta_options",
                                  "rprop_options", "asgd_averaging"])
def test_state_dict_has_torchs_format(parity, name):
    cls, options = CONFIGS[name]
    parity(lambda lib: state_after_three_steps(lib, cls, options))


@pytest.mark.parametrize("name", ["adamax", "nadam_options", "radam", "adadelta", "rprop", "asgd_averaging"])
def test_state_dict_round_trip_continues_identically(parity, name):
    cls, options = CONFIGS[name]
    sign = -1.0 if options.get("maximize") else 1.0
    assert parity(lambda lib: round_trip(lib, cls, options, sign))[0] is True


CLASSES = ["Adamax", "NAdam", "RAdam", "Adadelta", "Rprop", "ASGD"]


@pytest.mark.parametrize("cls", CLASSES)
def test_repr_and_defaults_match_torch(parity, cls):
    def example(lib):
        model = build(lib)
        optimizer = getattr(lib.optim, cls)([{"params": model[0].parameters()},
                                             {"params": model[2].parameters(), "lr": 0.5}])
        return repr(optimizer), optimizer.defaults, list(optimizer.param_groups[1])
    parity(example)


def one(lib):
    return [lib.nn.Parameter(lib.tensor([1.0, -2.0]))]


ERRORS = [
    ("Adamax", {"lr": -1.0}), ("Adamax", {"eps": -1.0}), ("Adamax", {"betas": (1.0, 0.9)}),
    ("Adamax", {"betas": (0.9, -0.1)}), ("Adamax", {"weight_decay": -1.0}),
    ("NAdam", {"lr": -1.0}), ("NAdam", {"betas": (0.9, 1.0)}), ("NAdam", {"momentum_decay": -1.0}),
    ("RAdam", {"eps": -1e-8}), ("RAdam", {"betas": (-0.5, 0.9)}), ("RAdam", {"weight_decay": -0.1}),
    ("Adadelta", {"lr": -1.0}), ("Adadelta", {"rho": 1.5}), ("Adadelta", {"eps": -1.0}),
    ("Adadelta", {"weight_decay": -1.0}),
    ("Rprop", {"lr": -1.0}), ("Rprop", {"etas": (1.5, 2.0)}), ("Rprop", {"etas": (0.5, 0.9)}),
    ("ASGD", {"lr": -1.0}), ("ASGD", {"weight_decay": -1.0}),
]


@pytest.mark.parametrize("cls, options", ERRORS, ids=[f"{c}-{'-'.join(o)}" for c, o in ERRORS])
def test_invalid_options_fail_in_torchs_words(parity, cls, options):
    parity(lambda lib: getattr(lib.optim, cls)(one(lib), **options))


@pytest.mark.parametrize("cls", CLASSES)
def test_capturable_step_fails_on_the_cpu_as_torchs(parity, cls):
    def example(lib):
        params = one(lib)
        optimizer = getattr(lib.optim, cls)(params, capturable=True)
        (params[0] * params[0]).sum().backward()
        try:
            optimizer.step()
        except (AssertionError, RuntimeError) as exc:
            return type(exc).__name__, str(exc)
    parity(example)


@pytest.mark.parametrize("cls", CLASSES)
def test_differentiable_is_refused_with_a_clear_message(cls):
    with pytest.raises(NotImplementedError, match=f"minigrad's {cls} does not support differentiable=True"):
        getattr(minigrad.optim, cls)(one(minigrad), differentiable=True)
