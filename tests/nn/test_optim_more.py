"""optim beyond SGD and Adam, against real torch: RMSprop, Adagrad and AdamW trained for 30 steps from the same
weights with each option; state_dict()/load_state_dict() in torch's format, round trips that continue training
identically; add_param_group, zero_grad, named parameters, differentiable=True, reprs and torch's errors."""
import warnings

import numpy as np
import pytest

import minigrad
from optim_examples import assert_trains_as_torch, build, round_trip, same_weights, state_after_three_steps, train

CONFIGS = {
    "rmsprop": ("RMSprop", {}),
    "rmsprop_alpha_eps": ("RMSprop", {"lr": 0.005, "alpha": 0.9, "eps": 1e-06}),
    "rmsprop_weight_decay": ("RMSprop", {"weight_decay": 0.1}),
    "rmsprop_momentum": ("RMSprop", {"lr": 0.002, "momentum": 0.9}),
    "rmsprop_centered": ("RMSprop", {"centered": True}),
    "rmsprop_centered_momentum": ("RMSprop", {"lr": 0.002, "centered": True, "momentum": 0.5, "weight_decay": 0.01}),
    "rmsprop_maximize": ("RMSprop", {"maximize": True}),
    "rmsprop_foreach": ("RMSprop", {"foreach": True, "momentum": 0.5}),
    "adagrad": ("Adagrad", {"lr": 0.1}),
    "adagrad_lr_decay": ("Adagrad", {"lr": 0.1, "lr_decay": 0.05}),
    "adagrad_weight_decay": ("Adagrad", {"lr": 0.1, "weight_decay": 0.1}),
    "adagrad_initial_accumulator": ("Adagrad", {"lr": 0.1, "initial_accumulator_value": 0.5, "eps": 1e-06}),
    "adagrad_maximize": ("Adagrad", {"lr": 0.1, "maximize": True}),
    "adagrad_foreach": ("Adagrad", {"lr": 0.1, "foreach": True}),
    "adagrad_fused": ("Adagrad", {"lr": 0.1, "fused": True, "lr_decay": 0.01}),
    "adamw": ("AdamW", {"lr": 0.01}),
    "adamw_weight_decay": ("AdamW", {"lr": 0.01, "weight_decay": 0.5, "betas": (0.8, 0.99)}),
    "adamw_amsgrad": ("AdamW", {"lr": 0.02, "amsgrad": True}),
    "adamw_maximize": ("AdamW", {"lr": 0.01, "maximize": True}),
    "adamw_foreach": ("AdamW", {"lr": 0.01, "foreach": True}),
    "adamw_fused": ("AdamW", {"lr": 0.01, "fused": True}),
    "adam_fused": ("Adam", {"lr": 0.01, "fused": True, "weight_decay": 0.01}),
    "adam_foreach_maximize": ("Adam", {"lr": 0.01, "foreach": True, "maximize": True}),
    "sgd_foreach": ("SGD", {"lr": 0.1, "momentum": 0.9, "foreach": True}),
    "sgd_fused_nesterov": ("SGD", {"lr": 0.1, "momentum": 0.9, "nesterov": True, "fused": True}),
}


@pytest.mark.parametrize("name", list(CONFIGS))
def test_training_matches_torch(torch, name):
    assert_trains_as_torch(torch, minigrad, name, *CONFIGS[name])


STATE_CONFIGS = ["rmsprop_centered_momentum", "adagrad_initial_accumulator", "adamw_amsgrad", "adam_fused",
                 "sgd_fused_nesterov"]


@pytest.mark.parametrize("name", STATE_CONFIGS)
def test_state_dict_has_torchs_format(parity, name):
    cls, options = CONFIGS[name]
    parity(lambda lib: state_after_three_steps(lib, cls, options))


@pytest.mark.parametrize("name", ["rmsprop_centered_momentum", "adagrad_lr_decay", "adamw_amsgrad", "adam_fused",
                                  "sgd_fused_nesterov", "rmsprop_maximize"])
def test_state_dict_round_trip_continues_identically(parity, name):
    cls, options = CONFIGS[name]
    sign = -1.0 if options.get("maximize") else 1.0
    assert parity(lambda lib: round_trip(lib, cls, options, sign))[0] is True


def test_load_state_dict_shares_tensors_and_casts_as_torch(parity):
    def example(lib):
        p = lib.nn.Parameter(lib.tensor([1.0, 2.0]))
        a = lib.optim.Adam([p], lr=0.1)
        (p * p).sum().backward()
        a.step()
        q = lib.nn.Parameter(lib.tensor([1.0, 2.0], dtype=lib.float64))
        b = lib.optim.Adam([q], lr=0.2)
        b.load_state_dict(a.state_dict())
        shared = b.state[q]["step"] is a.state[p]["step"]           # torch keeps `step` as it is
        return shared, b.state[q]["exp_avg"].dtype, b.state[q]["step"].dtype, b.param_groups[0]["lr"]
    parity(example)


@pytest.mark.parametrize("case", ["groups", "sizes", "extra_state"])
def test_load_state_dict_errors(parity, case):
    def example(lib):
        a, b = lib.nn.Parameter(lib.ones(2)), lib.nn.Parameter(lib.ones(3))
        saved = lib.optim.SGD([a, b], lr=0.1, momentum=0.9).state_dict()
        if case == "groups":
            lib.optim.SGD([{"params": [a]}, {"params": [b]}], lr=0.1).load_state_dict(saved)
        elif case == "sizes":
            lib.optim.SGD([a], lr=0.1).load_state_dict(saved)
        else:
            saved["state"]["note"] = {"kept": 1}
            opt = lib.optim.SGD([a, b], lr=0.1)
            opt.load_state_dict(saved)
            return [(k if isinstance(k, str) else type(k).__name__, v) for k, v in opt.state.items()]
    parity(example)


@pytest.mark.parametrize("cls", ["SGD", "Adam", "AdamW", "RMSprop", "Adagrad"])
def test_repr_and_defaults_match_torch(parity, cls):
    def example(lib):
        model = build(lib)
        optimizer = getattr(lib.optim, cls)([{"params": model[0].parameters()},
                                             {"params": model[2].parameters(), "lr": 0.5}])
        return repr(optimizer), optimizer.defaults, list(optimizer.param_groups[1])
    parity(example)


def test_adamw_is_an_adam_with_decoupled_decay(parity):
    def example(lib):
        p = lib.nn.Parameter(lib.ones(2))
        adamw = lib.optim.AdamW([p])
        loaded = lib.optim.AdamW([p])
        loaded.load_state_dict(lib.optim.Adam([p]).state_dict())       # an Adam state: AdamW keeps decoupling
        return (isinstance(adamw, lib.optim.Adam), [c.__name__ for c in type(adamw).__mro__],
                loaded.param_groups[0]["decoupled_weight_decay"], adamw.defaults["weight_decay"])
    parity(example)


def test_add_param_group_and_named_parameters(parity):
    def example(lib):
        model = same_weights(lib)
        optimizer = lib.optim.RMSprop(model[0].parameters(), lr=0.01, momentum=0.5)
        optimizer.add_param_group({"params": model[2].weight, "lr": 0.1})
        optimizer.add_param_group({"params": [model[2].bias], "alpha": 0.5})
        train(lib, model, optimizer, 3)
        named = lib.optim.Adagrad(model.named_parameters())
        errors = []
        for opt, group in ((optimizer, {"params": model[0].weight}), (optimizer, [model[0].weight]),
                           (named, {"params": [lib.nn.Parameter(lib.ones(1))]})):
            try:
                opt.add_param_group(group)
            except (TypeError, ValueError) as exc:
                errors.append(f"{type(exc).__name__}: {exc}")
        return (optimizer.state_dict(), named.state_dict()["param_groups"], errors,
                [len(g["params"]) for g in optimizer.param_groups])
    parity(example)


def test_named_and_unnamed_parameters_do_not_mix(parity):
    def example(lib):
        model = build(lib)
        params = list(model.named_parameters())
        params[1] = params[1][1]
        lib.optim.SGD(params, lr=0.1)
    parity(example)


def test_zero_grad_to_none_or_to_zero(parity):
    def example(lib):
        p = lib.nn.Parameter(lib.tensor([1.0, 2.0]))
        optimizer = lib.optim.Adagrad([p], foreach=True)
        (p * 3).sum().backward()
        grad = p.grad
        optimizer.zero_grad(set_to_none=False)
        kept = p.grad is grad and p.grad.tolist()
        optimizer.zero_grad(set_to_none=True)
        return kept, p.grad
    parity(example)


@pytest.mark.parametrize("cls, options, scales", [
    ("SGD", {"momentum": 0.9, "weight_decay": 0.1}, (1.0, -3.0)), ("SGD", {}, (1.0,)),
    ("RMSprop", {"momentum": 0.5}, (1.0, -3.0)), ("RMSprop", {"weight_decay": 0.1}, (2.0,)),
    ("RMSprop", {"centered": True, "momentum": 0.5}, (1.0,)),   # torch's centered buffer: saved, then updated
    ("Adagrad", {"lr_decay": 0.1}, (1.0, -3.0)),
    # torch's differentiable Adam saves its moment buffers and then updates them in place: one step only
    ("Adam", {"amsgrad": True}, (1.0,)), ("AdamW", {}, (-2.0,)), ("Adam", {"weight_decay": 0.1}, (1.0,)),
])
def test_differentiable_step_is_recorded(parity, cls, options, scales):
    # the update of a non-leaf parameter is part of the graph: d(new p)/d(w) flows through the optimizer
    def example(lib):
        w = lib.tensor([1.0, -2.0, 3.0], requires_grad=True)
        g = lib.tensor([0.5, 1.0, -2.0], requires_grad=True)
        p = w * 1.5
        p.retain_grad()
        optimizer = getattr(lib.optim, cls)([p], lr=0.1, differentiable=True, **options)
        with warnings.catch_warnings():
            # minigrad drops retains_grad when p is updated in place (torch keeps it), so reading p.grad warns
            warnings.filterwarnings("ignore", message="The .grad attribute of a Tensor that is not a leaf")
            for scale in scales:
                p.grad = g * scale                   # a gradient that is itself a function of g
                optimizer.step()
        (p ** 2).sum().backward()
        return p.detach().tolist(), w.grad.tolist(), g.grad.tolist(), p.grad_fn is not None
    parity(example)


def one(lib):
    return [lib.nn.Parameter(lib.ones(2))]


ERRORS = [
    ("RMSprop", {"lr": -1.0}), ("RMSprop", {"eps": -1e-3}), ("RMSprop", {"momentum": -0.5}),
    ("RMSprop", {"weight_decay": -1}), ("RMSprop", {"alpha": -0.1}),
    ("Adagrad", {"lr": -0.5}), ("Adagrad", {"lr_decay": -1}), ("Adagrad", {"weight_decay": -1}),
    ("Adagrad", {"initial_accumulator_value": -2.0}), ("Adagrad", {"eps": -1.0}),
    ("Adagrad", {"fused": True, "foreach": True}), ("Adagrad", {"fused": True, "differentiable": True}),
    ("AdamW", {"lr": -1e-3}), ("AdamW", {"betas": (0.9, 1.5)}), ("AdamW", {"weight_decay": -0.1}),
    ("AdamW", {"betas": (0, 0.99)}), ("AdamW", {"fused": True, "foreach": True}),
    ("Adam", {"fused": True, "differentiable": True}), ("Adam", {"betas": (0.9, 1)}),
    ("SGD", {"fused": True, "foreach": True}), ("SGD", {"weight_decay": -1e-2}),
]


@pytest.mark.parametrize("cls, options", ERRORS, ids=[f"{c}-{'-'.join(o)}" for c, o in ERRORS])
def test_invalid_options_fail_in_torchs_words(parity, cls, options):
    parity(lambda lib: getattr(lib.optim, cls)(one(lib), **options))


REFUSED_STEPS = [(cls, "differentiable") for cls in ("SGD", "Adam", "AdamW", "RMSprop", "Adagrad")] + [
    (cls, "capturable") for cls in ("Adam", "AdamW", "RMSprop")]


@pytest.mark.parametrize("cls, option", REFUSED_STEPS)
def test_steps_torch_refuses(parity, cls, option):
    # differentiable=True on a leaf parameter: the update is an in-place op on a leaf that requires grad;
    # capturable=True: the step counter must live on an accelerator, never the CPU
    def example(lib):
        params = one(lib)
        optimizer = getattr(lib.optim, cls)(params, **{option: True})
        (params[0] * params[0]).sum().backward()
        try:
            optimizer.step()
        except (AssertionError, RuntimeError) as exc:
            return type(exc).__name__, str(exc), list(optimizer.state[params[0]])
    parity(example)


def test_adagrad_makes_its_state_at_construction(parity):
    def example(lib):
        a, b = lib.nn.Parameter(lib.ones(2)), lib.nn.Parameter(lib.ones(1, dtype=lib.float64))
        optimizer = lib.optim.Adagrad([a], initial_accumulator_value=0.25, fused=True)
        optimizer.add_param_group({"params": [b], "initial_accumulator_value": 3.0})
        (a.sum() + b.sum()).backward()
        optimizer.step()
        return optimizer.state_dict()["state"], [v.dtype for v in optimizer.state[b].values()]
    parity(example)


@pytest.mark.parametrize("options", [{"momentum": 0.9, "weight_decay": 0.1}, {"momentum": 0.5, "dampening": 0.3},
                                     {"momentum": 0.9, "nesterov": True}, {}])
def test_sgd_update_is_bit_identical_to_torchs(torch, options):
    # ATen adds `alpha * other` with one rounding (a fused multiply-add): minigrad rounds the same way
    rng = np.random.default_rng(0)
    start = rng.standard_normal((5, 7)).astype(np.float32)
    params = {lib: lib.nn.Parameter(lib.tensor(start)) for lib in (torch, minigrad)}
    optimizers = {lib: lib.optim.SGD([p], lr=1e-3, **options) for lib, p in params.items()}
    for _ in range(50):
        grad = (rng.standard_normal((5, 7)) * 100).astype(np.float32)
        for lib, p in params.items():
            p.grad = lib.tensor(grad)
            optimizers[lib].step()
    got, expected = (np.array(params[lib].detach().tolist(), np.float32) for lib in (minigrad, torch))
    assert (got == expected).all(), f"received {got[got != expected]}, expected {expected[got != expected]}"
