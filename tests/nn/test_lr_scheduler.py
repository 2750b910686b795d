"""optim.lr_scheduler against real torch: the lr of every epoch over 50 epochs, float for float (recursive and
closed forms), ReduceLROnPlateau on fixed metric sequences, chained schedulers, get_last_lr, last_epoch,
state_dict round trips, torch's warnings (step order, deprecated epoch, get_lr) and errors."""
import math

import pytest

EPOCHS = 50


def optimizer_of(lib, groups=1, lr=0.1, momentum=0.0):
    params = [{"params": [lib.nn.Parameter(lib.ones(2))], "lr": lr * (i + 1)} for i in range(groups)]
    return lib.optim.SGD(params, lr=lr, momentum=momentum)


def exact(lrs):
    """Floats as their repr, so the comparison is exact (the harness compares floats with a tolerance)."""
    return [repr(x) for x in lrs]


def step(optimizer):
    optimizer.zero_grad()
    sum((p * p).sum() for g in optimizer.param_groups for p in g["params"]).backward()
    optimizer.step()


SCHEDULES = {
    "step": lambda S, o: S.StepLR(o, step_size=7, gamma=0.5),
    "multistep": lambda S, o: S.MultiStepLR(o, milestones=[5, 10, 10, 30], gamma=0.3),
    "exponential": lambda S, o: S.ExponentialLR(o, gamma=0.93),
    "lambda": lambda S, o: S.LambdaLR(o, lr_lambda=lambda epoch: 0.95 ** epoch),
    "lambda_per_group": lambda S, o: S.LambdaLR(o, lr_lambda=[lambda e: 1 / (e + 1), lambda e: 0.9 ** (e // 3)]),
    "multiplicative": lambda S, o: S.MultiplicativeLR(o, lr_lambda=lambda epoch: 0.97),
    "cosine": lambda S, o: S.CosineAnnealingLR(o, T_max=10),
    "cosine_eta_min": lambda S, o: S.CosineAnnealingLR(o, T_max=17, eta_min=0.003),
    "constant": lambda S, o: S.ConstantLR(o, factor=0.25, total_iters=4),
    "linear": lambda S, o: S.LinearLR(o, start_factor=0.2, end_factor=0.9, total_iters=12),
}


@pytest.mark.parametrize("name, groups", [(name, groups) for name in SCHEDULES for groups in (1, 2)
                                          if (name, groups) != ("lambda_per_group", 1)])   # one lambda per group
def test_lr_of_every_epoch_matches_torch(parity, name, groups):
    def example(lib):
        optimizer = optimizer_of(lib, groups)
        scheduler = SCHEDULES[name](lib.optim.lr_scheduler, optimizer)
        seen = [exact(scheduler.get_last_lr())]
        for _ in range(EPOCHS):
            step(optimizer)
            scheduler.step()
            seen.append(exact(scheduler.get_last_lr()) + exact(g["lr"] for g in optimizer.param_groups))
        return seen, scheduler.last_epoch, scheduler.base_lrs
    parity(example)


@pytest.mark.parametrize("name", ["step", "multistep", "exponential", "cosine_eta_min", "constant", "linear"])
def test_closed_form_of_step_epoch_matches_torch(parity, name):
    def example(lib):
        optimizer = optimizer_of(lib)
        scheduler = SCHEDULES[name](lib.optim.lr_scheduler, optimizer)
        seen = []
        for epoch in [3, 1, 7, 20, 13, 40, 41]:         # the deprecated `step(epoch)` jumps with the closed form
            step(optimizer)
            scheduler.step(epoch)
            seen.append(exact(scheduler.get_last_lr()))
        return seen
    parity(example)


def test_two_schedulers_chain_on_one_optimizer(parity):
    def example(lib):
        S = lib.optim.lr_scheduler
        optimizer = optimizer_of(lib)
        schedulers = [S.ExponentialLR(optimizer, gamma=0.9), S.StepLR(optimizer, step_size=4, gamma=0.5),
                      S.CosineAnnealingLR(optimizer, T_max=9, eta_min=0.001)]
        seen = []
        for _ in range(30):
            step(optimizer)
            for scheduler in schedulers:
                scheduler.step()
            seen.append(exact(s.get_last_lr()[0] for s in schedulers))
        return seen
    parity(example)


PLATEAU = {
    "min_rel": {}, "min_abs": {"threshold_mode": "abs", "threshold": 0.05, "patience": 2},
    "max_rel": {"mode": "max", "patience": 1, "factor": 0.5}, "max_abs": {"mode": "max", "threshold_mode": "abs"},
    "cooldown_min_lr": {"patience": 0, "cooldown": 2, "min_lr": 0.004, "factor": 0.3},
    "per_group_min_lr": {"patience": 1, "min_lr": [0.01, 0.05]}, "eps": {"patience": 0, "eps": 0.02},
}


@pytest.mark.parametrize("name", list(PLATEAU))
def test_reduce_lr_on_plateau_matches_torch(parity, name):
    options = PLATEAU[name]
    metrics = [1.0, 0.9, 0.92, 0.95, 0.899, 0.8995, 0.9, 0.7, 0.7, 0.71, 0.72, 0.73, 0.7, 0.69, 0.75, 0.8]
    metrics = metrics + [0.6 + 0.1 * math.sin(i) for i in range(EPOCHS - len(metrics))]

    def example(lib):
        optimizer = optimizer_of(lib, groups=2)
        scheduler = lib.optim.lr_scheduler.ReduceLROnPlateau(optimizer, **options)
        seen = []
        for i, metric in enumerate(metrics):
            step(optimizer)
            scheduler.step(lib.tensor(metric) if i % 3 == 0 else metric)       # 0-d tensors are metrics too
            seen.append((exact(scheduler.get_last_lr()), scheduler.num_bad_epochs, scheduler.cooldown_counter,
                         scheduler.best, scheduler.last_epoch))
        return seen, scheduler.state_dict()
    parity(example)


@pytest.mark.parametrize("order", ["scheduler_first", "right_order", "overridden_step", "deprecated_epoch",
                                   "get_lr_directly"])
def test_warnings_in_torchs_words(parity, order):
    def example(lib):
        optimizer = optimizer_of(lib)
        scheduler = lib.optim.lr_scheduler.StepLR(optimizer, step_size=2)
        if order == "scheduler_first":
            scheduler.step()
            step(optimizer)
        elif order == "right_order":
            step(optimizer)
            scheduler.step()
        elif order == "overridden_step":
            optimizer.step = lambda closure=None: None
            scheduler.step()
        elif order == "deprecated_epoch":
            step(optimizer)
            scheduler.step(3)
        else:
            step(optimizer)
            scheduler.get_lr()
        scheduler.step()
        return exact(scheduler.get_last_lr()), scheduler._step_count
    parity(example)


@pytest.mark.parametrize("name", ["step", "multistep", "cosine", "lambda", "plateau"])
def test_state_dict_round_trip_continues_identically(parity, name):
    def make(lib, optimizer):
        S = lib.optim.lr_scheduler
        if name == "plateau":
            return S.ReduceLROnPlateau(optimizer, patience=1)
        return SCHEDULES[name](S, optimizer)

    def run(scheduler, optimizer, epochs, start):
        seen = []
        for epoch in range(start, start + epochs):
            step(optimizer)
            scheduler.step(1.0 / (1 + epoch % 4)) if name == "plateau" else scheduler.step()
            seen.append(exact(scheduler.get_last_lr()))
        return seen

    def example(lib):
        optimizer = optimizer_of(lib, momentum=0.9)
        scheduler = make(lib, optimizer)
        run(scheduler, optimizer, 12, 0)
        saved, saved_optimizer = scheduler.state_dict(), optimizer.state_dict()
        resumed_optimizer = optimizer_of(lib, momentum=0.9)
        resumed = make(lib, resumed_optimizer)                # as torch advises: the scheduler first, then
        resumed_optimizer.load_state_dict(saved_optimizer)    # the optimizer's state (with its lrs)
        resumed.load_state_dict(saved)
        after, resumed_after = run(scheduler, optimizer, 15, 12), run(resumed, resumed_optimizer, 15, 12)
        return after == resumed_after, after, saved, resumed.last_epoch
    assert parity(example)[0] is True


def test_resuming_with_last_epoch(parity):
    def example(lib):
        S = lib.optim.lr_scheduler
        optimizer = optimizer_of(lib)
        try:
            S.StepLR(optimizer, step_size=3, last_epoch=5)
        except KeyError as exc:
            error = str(exc)
        for group in optimizer.param_groups:
            group["initial_lr"] = 0.8
        resumed = S.ExponentialLR(optimizer, gamma=0.5, last_epoch=5)
        cosine = S.CosineAnnealingLR(optimizer, T_max=10, last_epoch=6)
        return error, exact(resumed.get_last_lr()), resumed.last_epoch, exact(cosine.get_last_lr()), resumed._step_count
    parity(example)


@pytest.mark.parametrize("make", [
    lambda lib, o: lib.optim.lr_scheduler.StepLR([1, 2], step_size=1),
    lambda lib, o: lib.optim.lr_scheduler.LambdaLR(o, lr_lambda=[lambda e: 1.0] * 3),
    lambda lib, o: lib.optim.lr_scheduler.MultiplicativeLR(o, lr_lambda=0.9),
    lambda lib, o: lib.optim.lr_scheduler.ConstantLR(o, factor=1.5),
    lambda lib, o: lib.optim.lr_scheduler.LinearLR(o, start_factor=0),
    lambda lib, o: lib.optim.lr_scheduler.LinearLR(o, end_factor=2),
    lambda lib, o: lib.optim.lr_scheduler.ReduceLROnPlateau(o, factor=1.0),
    lambda lib, o: lib.optim.lr_scheduler.ReduceLROnPlateau(o, mode="least"),
    lambda lib, o: lib.optim.lr_scheduler.ReduceLROnPlateau(o, threshold_mode="relative"),
    lambda lib, o: lib.optim.lr_scheduler.ReduceLROnPlateau(o, min_lr=[0.1, 0.2, 0.3]),
    lambda lib, o: lib.optim.lr_scheduler.ReduceLROnPlateau("sgd"),
], ids=["not_an_optimizer", "lambdas", "not_callable", "constant_factor", "linear_start", "linear_end",
        "plateau_factor", "plateau_mode", "plateau_threshold_mode", "plateau_min_lrs", "plateau_not_an_optimizer"])
def test_errors_in_torchs_words(parity, make):
    parity(lambda lib: make(lib, optimizer_of(lib)))


def test_plateau_after_a_new_param_group(parity):
    def example(lib):
        optimizer = optimizer_of(lib)
        per_group = lib.optim.lr_scheduler.ReduceLROnPlateau(optimizer, patience=0, min_lr=[0.01])
        shared = lib.optim.lr_scheduler.ReduceLROnPlateau(optimizer, patience=0, min_lr=0.02)
        optimizer.add_param_group({"params": [lib.nn.Parameter(lib.ones(1))], "lr": 0.3})
        for metric in (1.0, 2.0, 3.0):
            shared.step(metric)
        lrs = exact(shared.get_last_lr())
        per_group.step(1.0)
        try:
            per_group.step(2.0)                  # one min_lr per group was given, for one group only
        except RuntimeError as exc:
            return lrs, str(exc)
    parity(example)


def test_torch_optim_has_lr_scheduler():
    import minigrad
    assert minigrad.optim.lr_scheduler.StepLR.__module__ == "minigrad.optim.lr_scheduler"
    assert issubclass(minigrad.optim.lr_scheduler.ReduceLROnPlateau, minigrad.optim.lr_scheduler.LRScheduler)
