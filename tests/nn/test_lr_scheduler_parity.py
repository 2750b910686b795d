"""The rest of optim.lr_scheduler against real torch: SequentialLR, ChainedScheduler, PolynomialLR, CyclicLR,
CosineAnnealingWarmRestarts and OneCycleLR. The lr (and the momentum or beta1 the cyclic ones move) of every step,
float for float; step(epoch) closed forms; state_dict round trips; torch's warnings and errors."""
import pytest

STEPS = 60


def optimizer_of(lib, groups=1, lr=0.1, kind="SGD"):
    params = [{"params": [lib.nn.Parameter(lib.ones(2))], "lr": lr * (i + 1)} for i in range(groups)]
    if kind == "Adam":
        return lib.optim.Adam(params, lr=lr)
    return lib.optim.SGD(params, lr=lr, momentum=0.9 if kind == "SGD" else 0.0)


def exact(values):
    """Floats as their repr, so the comparison is exact (the harness compares floats with a tolerance)."""
    return [repr(x) for x in values]


def step(optimizer):
    optimizer.zero_grad()
    sum((p * p).sum() for g in optimizer.param_groups for p in g["params"]).backward()
    optimizer.step()


def momenta(optimizer):
    return exact(g["betas"][0] if "betas" in g else g["momentum"] for g in optimizer.param_groups)


SCHEDULES = {
    "polynomial": lambda S, o: S.PolynomialLR(o, total_iters=17, power=2.0),
    "polynomial_default": lambda S, o: S.PolynomialLR(o),
    "warm_restarts": lambda S, o: S.CosineAnnealingWarmRestarts(o, T_0=7),
    "warm_restarts_mult": lambda S, o: S.CosineAnnealingWarmRestarts(o, T_0=3, T_mult=2, eta_min=0.001),
    "cyclic": lambda S, o: S.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=4),
    "cyclic_triangular2": lambda S, o: S.CyclicLR(o, base_lr=[0.01, 0.02], max_lr=0.2, step_size_up=3,
                                                  step_size_down=5, mode="triangular2"),
    "cyclic_exp_range": lambda S, o: S.CyclicLR(o, base_lr=0.001, max_lr=0.05, step_size_up=6, mode="exp_range",
                                                gamma=0.97, base_momentum=0.7, max_momentum=0.95),
    "cyclic_scale_fn": lambda S, o: S.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=5,
                                               scale_fn=lambda x: 1 / (1 + x), scale_mode="iterations"),
    "one_cycle": lambda S, o: S.OneCycleLR(o, max_lr=0.5, total_steps=STEPS),
    "one_cycle_linear_three_phase": lambda S, o: S.OneCycleLR(o, max_lr=[0.5, 0.9], epochs=6, steps_per_epoch=10,
                                                              anneal_strategy="linear", three_phase=True,
                                                              pct_start=0.25),
    "one_cycle_no_momentum": lambda S, o: S.OneCycleLR(o, max_lr=0.3, total_steps=STEPS, cycle_momentum=False,
                                                       div_factor=10.0, final_div_factor=100.0),
    "sequential": lambda S, o: S.SequentialLR(o, [S.LinearLR(o, start_factor=0.1, total_iters=5),
                                                  S.ExponentialLR(o, gamma=0.9),
                                                  S.CosineAnnealingLR(o, T_max=8)], milestones=[5, 20]),
    "chained": lambda S, o: S.ChainedScheduler([S.ConstantLR(o, factor=0.1, total_iters=3),
                                                S.ExponentialLR(o, gamma=0.95), S.StepLR(o, step_size=9)]),
    "sequential_of_chained": lambda S, o: S.SequentialLR(
        o, [S.ConstantLR(o, factor=0.5, total_iters=4),
            S.ChainedScheduler([S.ExponentialLR(o, gamma=0.9), S.MultiStepLR(o, milestones=[30, 40])])],
        milestones=[10]),
}
ADAM = {"cyclic", "one_cycle"}                         # these also cycle Adam's beta1


@pytest.mark.parametrize("name, groups, kind", [(name, groups, "SGD") for name in SCHEDULES for groups in (1, 2)
                                                if not (groups == 1 and "[" in name)]
                         + [(name, 2, "Adam") for name in sorted(ADAM)])
def test_lr_and_momentum_of_every_step_match_torch(parity, name, groups, kind):
    def example(lib):
        optimizer = optimizer_of(lib, groups, kind=kind)
        scheduler = SCHEDULES[name](lib.optim.lr_scheduler, optimizer)
        seen = [exact(scheduler.get_last_lr()) + momenta(optimizer)]
        for _ in range(STEPS - 1 if name.startswith("one_cycle") else STEPS):
            step(optimizer)
            scheduler.step()
            seen.append(exact(scheduler.get_last_lr()) + exact(g["lr"] for g in optimizer.param_groups)
                        + momenta(optimizer))
        return seen, scheduler.last_epoch, getattr(scheduler, "base_lrs", None)
    parity(example)


@pytest.mark.parametrize("name", ["polynomial", "warm_restarts", "warm_restarts_mult", "cyclic", "one_cycle"])
def test_step_with_an_epoch_matches_torch(parity, name):
    def example(lib):
        optimizer = optimizer_of(lib)
        scheduler = SCHEDULES[name](lib.optim.lr_scheduler, optimizer)
        seen = []
        for epoch in [3, 1, 7, 20, 13, 40, 41, 2.5, 10.25]:     # fractional epochs: warm restarts per batch
            step(optimizer)
            scheduler.step(epoch)
            seen.append((exact(scheduler.get_last_lr()), scheduler.last_epoch, getattr(scheduler, "T_cur", None),
                         getattr(scheduler, "T_i", None)))
        return seen
    parity(example)


def test_one_cycle_stepped_too_often(parity):
    def example(lib):
        optimizer = optimizer_of(lib)
        scheduler = lib.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=0.1, total_steps=3)
        for _ in range(4):
            step(optimizer)
            scheduler.step()
    parity(example)


@pytest.mark.parametrize("name", ["cyclic", "cyclic_exp_range", "one_cycle", "warm_restarts_mult", "polynomial",
                                  "sequential", "chained"])
def test_state_dict_round_trip_continues_identically(parity, name):
    def run(scheduler, optimizer, steps):
        seen = []
        for _ in range(steps):
            step(optimizer)
            scheduler.step()
            seen.append(exact(scheduler.get_last_lr()) + momenta(optimizer))
        return seen

    def example(lib):
        S = lib.optim.lr_scheduler
        optimizer = optimizer_of(lib, groups=2)
        scheduler = SCHEDULES[name](S, optimizer)
        run(scheduler, optimizer, 17)
        saved, saved_optimizer = scheduler.state_dict(), optimizer.state_dict()
        resumed_optimizer = optimizer_of(lib, groups=2)
        resumed = SCHEDULES[name](S, resumed_optimizer)
        resumed_optimizer.load_state_dict(saved_optimizer)
        resumed.load_state_dict(saved)
        after, resumed_after = run(scheduler, optimizer, 20), run(resumed, resumed_optimizer, 20)
        keys = sorted(saved)
        return after == resumed_after, after, keys, saved.get("_schedulers") is not None and len(saved["_schedulers"])
    assert parity(example)[0] is True


def test_cyclic_state_dict_keeps_a_callable_scale_fn(parity):
    class Halving:
        def __init__(self):
            self.base = 0.5

        def __call__(self, x):
            return self.base ** x

    def example(lib):
        scheduler = lib.optim.lr_scheduler.CyclicLR(optimizer_of(lib), 0.01, 0.1, step_size_up=2, scale_fn=Halving())
        state = scheduler.state_dict()
        saved_fn = state["_scale_fn_custom"]
        scheduler.load_state_dict(state)               # takes "_scale_fn_custom" out of `state`, as torch's does
        lambda_state = lib.optim.lr_scheduler.CyclicLR(optimizer_of(lib), 0.01, 0.1, scale_fn=lambda x: 1.0)
        return (saved_fn, sorted(state), exact(scheduler.scale_fn(x) for x in range(3)),
                lambda_state.state_dict()["_scale_fn_custom"])
    parity(example)


@pytest.mark.parametrize("order", ["scheduler_first", "right_order", "get_lr_directly"])
@pytest.mark.parametrize("name", ["cyclic", "one_cycle", "polynomial", "warm_restarts"])
def test_warnings_in_torchs_words(parity, name, order):
    def example(lib):
        optimizer = optimizer_of(lib)
        scheduler = SCHEDULES[name](lib.optim.lr_scheduler, optimizer)
        if order == "scheduler_first":
            scheduler.step()
            step(optimizer)
        elif order == "right_order":
            step(optimizer)
            scheduler.step()
        else:
            step(optimizer)
            scheduler.get_lr()
        scheduler.step()
        return exact(scheduler.get_last_lr()), scheduler._step_count
    parity(example)


def test_sequential_warns_like_torch_when_its_schedulers_step_first(parity):
    def example(lib):
        S = lib.optim.lr_scheduler
        optimizer = optimizer_of(lib)
        scheduler = S.SequentialLR(optimizer, [S.ConstantLR(optimizer), S.ExponentialLR(optimizer, 0.5)], [2])
        for _ in range(4):
            scheduler.step()
        return exact(scheduler.get_last_lr()), scheduler.last_epoch
    parity(example)


@pytest.mark.parametrize("make", [
    lambda lib, S, o: S.SequentialLR(o, [], milestones=[]),
    lambda lib, S, o: S.SequentialLR(o, [S.StepLR(o, 2), S.StepLR(o, 3)], milestones=[]),
    lambda lib, S, o: S.SequentialLR(o, [S.StepLR(o, 2), "not a scheduler"], milestones=[3]),
    lambda lib, S, o: S.SequentialLR(o, [S.StepLR(o, 2), S.ReduceLROnPlateau(o)], milestones=[3]),
    lambda lib, S, o: S.ChainedScheduler([]),
    lambda lib, S, o: S.ChainedScheduler([S.StepLR(o, 2), S.ReduceLROnPlateau(o)]),
    lambda lib, S, o: S.CyclicLR("sgd", 0.1, 1.0),
    lambda lib, S, o: S.CyclicLR(o, 0.1, 1.0, mode="square"),
    lambda lib, S, o: S.CyclicLR(o, [0.1, 0.2], 1.0),
    lambda lib, S, o: S.CyclicLR(lib.optim.Adagrad(o.param_groups[0]["params"]), 0.1, 1.0),
    lambda lib, S, o: S.CyclicLR(o, 0.1, 1.0, base_momentum=[0.8, 0.8]),
    lambda lib, S, o: S.OneCycleLR(o, 0.1),
    lambda lib, S, o: S.OneCycleLR(o, 0.1, total_steps=0),
    lambda lib, S, o: S.OneCycleLR(o, 0.1, total_steps=2.5),
    lambda lib, S, o: S.OneCycleLR(o, 0.1, epochs=0, steps_per_epoch=3),
    lambda lib, S, o: S.OneCycleLR(o, 0.1, epochs=2, steps_per_epoch=-3),
    lambda lib, S, o: S.OneCycleLR(o, 0.1, total_steps=10, pct_start=1),
    lambda lib, S, o: S.OneCycleLR(o, 0.1, total_steps=10, pct_start=1.5),
    lambda lib, S, o: S.OneCycleLR(o, 0.1, total_steps=10, anneal_strategy="exp"),
    lambda lib, S, o: S.OneCycleLR(o, [0.1, 0.2], total_steps=10),
    lambda lib, S, o: S.OneCycleLR(lib.optim.Adagrad(o.param_groups[0]["params"]), 0.1, total_steps=10),
    lambda lib, S, o: S.CosineAnnealingWarmRestarts(o, T_0=0),
    lambda lib, S, o: S.CosineAnnealingWarmRestarts(o, T_0=2.0),
    lambda lib, S, o: S.CosineAnnealingWarmRestarts(o, T_0=2, T_mult=0),
    lambda lib, S, o: S.CosineAnnealingWarmRestarts(o, T_0=2, eta_min="0"),
    lambda lib, S, o: S.CosineAnnealingWarmRestarts(o, T_0=2).step(-1),
    lambda lib, S, o: S.PolynomialLR(o, total_iters=3, last_epoch=2),
], ids=["sequential_empty", "sequential_milestones", "sequential_no_optimizer", "sequential_plateau",
        "chained_empty", "chained_plateau", "cyclic_not_an_optimizer", "cyclic_mode", "cyclic_base_lrs",
        "cyclic_no_momentum", "cyclic_momenta", "one_cycle_no_steps", "one_cycle_zero_steps", "one_cycle_float_steps",
        "one_cycle_epochs", "one_cycle_steps_per_epoch", "one_cycle_int_pct", "one_cycle_pct", "one_cycle_anneal",
        "one_cycle_max_lrs", "one_cycle_no_momentum", "restarts_T_0", "restarts_float_T_0", "restarts_T_mult",
        "restarts_eta_min", "restarts_negative_epoch", "polynomial_resume"])
def test_errors_in_torchs_words(parity, make):
    parity(lambda lib: make(lib, lib.optim.lr_scheduler, optimizer_of(lib)))


def test_schedulers_of_another_optimizer_are_refused(parity):
    def example(lib):
        S = lib.optim.lr_scheduler
        first, second = optimizer_of(lib), optimizer_of(lib)
        errors = []
        for make in (lambda: S.SequentialLR(first, [S.StepLR(first, 2), S.StepLR(second, 2)], [1]),
                     lambda: S.ChainedScheduler([S.StepLR(first, 2), S.StepLR(second, 2)])):
            try:
                make()
            except ValueError as exc:
                errors.append(str(exc))
        return errors
    parity(example)


def test_every_scheduler_of_torch_is_there(torch):
    import minigrad
    names = set(torch.optim.lr_scheduler.__all__) | {"_LRScheduler", "EPOCH_DEPRECATION_WARNING"}
    assert sorted(names - set(dir(minigrad.optim.lr_scheduler))) == []
    assert sorted(minigrad.optim.lr_scheduler.__all__) == sorted(torch.optim.lr_scheduler.__all__)
    assert minigrad.optim.lr_scheduler._LRScheduler.__name__ == "_LRScheduler"
    assert minigrad.optim.lr_scheduler.EPOCH_DEPRECATION_WARNING == torch.optim.lr_scheduler.EPOCH_DEPRECATION_WARNING
