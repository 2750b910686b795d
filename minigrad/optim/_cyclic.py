"""CyclicLR and OneCycleLR: schedules stepped once per batch that move the lr up and down, and the momentum (or
Adam's beta1) the opposite way. Mirrors `torch.optim.lr_scheduler`.
"""
import math
import types
from functools import partial

from ._scheduler import LRScheduler, warn_get_lr_called_outside_step
from .optimizer import Optimizer


def format_param(name, optimizer, param):
    """One value per parameter group: `param` itself if it is a list or tuple of the right length, else repeated."""
    if isinstance(param, (list, tuple)):
        if len(param) != len(optimizer.param_groups):
            raise ValueError(f"{name} must have the same length as optimizer.param_groups. {name} has {len(param)} "
                             f"values, param_groups has {len(optimizer.param_groups)}.")
        return list(param)
    return [param] * len(optimizer.param_groups)


def set_momentum(group, momentum, use_beta1):
    """Set a group's momentum: SGD's `momentum`, or the first of Adam's `betas`."""
    if use_beta1:
        group["betas"] = (momentum, *group["betas"][1:])
    else:
        group["momentum"] = momentum


def start_momentum_cycle(scheduler, optimizer, base_momentum, max_momentum, last_epoch):
    """Check that the optimizer has a momentum to cycle; on a fresh start set it to `max_momentum`, and store both
    bounds in each group; return them (one per group)."""
    if "momentum" not in optimizer.defaults and "betas" not in optimizer.defaults:
        raise ValueError("optimizer must support momentum or beta1 with `cycle_momentum` option enabled")
    scheduler.use_beta1 = "betas" in optimizer.defaults
    max_momentums = format_param("max_momentum", optimizer, max_momentum)
    base_momentums = format_param("base_momentum", optimizer, base_momentum)
    if last_epoch == -1:
        for m_momentum, b_momentum, group in zip(max_momentums, base_momentums, optimizer.param_groups):
            set_momentum(group, m_momentum, scheduler.use_beta1)
            group["max_momentum"] = m_momentum
            group["base_momentum"] = b_momentum
    return base_momentums, max_momentums


class CyclicLR(LRScheduler):
    """Cycle the lr between `base_lr` and `max_lr`: up for `step_size_up` batches, down for `step_size_down`.

    "triangular" keeps the amplitude, "triangular2" halves it every cycle, "exp_range" scales it by
    gamma ** iteration; or give your own `scale_fn`. With `cycle_momentum` the momentum goes from `max_momentum`
    down to `base_momentum` as the lr rises. Mirrors `torch.optim.lr_scheduler.CyclicLR`.

    Example:
        >>> scheduler = CyclicLR(optimizer, base_lr=0.01, max_lr=0.1, step_size_up=4)
        >>> for batch in data_loader:
        ...     train_batch(...)
        ...     scheduler.step()
    """

    def __init__(self, optimizer, base_lr, max_lr, step_size_up=2000, step_size_down=None, mode="triangular",
                 gamma=1.0, scale_fn=None, scale_mode="cycle", cycle_momentum=True, base_momentum=0.8,
                 max_momentum=0.9, last_epoch=-1):
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer
        base_lrs = format_param("base_lr", optimizer, base_lr)
        if last_epoch == -1:
            for lr, group in zip(base_lrs, optimizer.param_groups):
                group["lr"] = lr
        self.max_lrs = format_param("max_lr", optimizer, max_lr)
        step_size_up = float(step_size_up)
        step_size_down = float(step_size_down) if step_size_down is not None else step_size_up
        self.total_size = step_size_up + step_size_down
        self.step_ratio = step_size_up / self.total_size
        if mode not in ["triangular", "triangular2", "exp_range"] and scale_fn is None:
            raise ValueError("mode is invalid and scale_fn is None")
        self.mode = mode
        self.gamma = gamma
        self._scale_fn_custom = scale_fn
        self.scale_mode = scale_mode
        self._init_scale_fn()
        self.cycle_momentum = cycle_momentum
        if cycle_momentum:
            self.base_momentums, self.max_momentums = start_momentum_cycle(
                self, optimizer, base_momentum, max_momentum, last_epoch)
        super().__init__(optimizer, last_epoch)
        self.base_lrs = base_lrs

    def _init_scale_fn(self):
        if self._scale_fn_custom is not None:
            return
        if self.mode == "triangular":
            self._scale_fn_ref = self._triangular_scale_fn
            self.scale_mode = "cycle"
        elif self.mode == "triangular2":
            self._scale_fn_ref = self._triangular2_scale_fn
            self.scale_mode = "cycle"
        elif self.mode == "exp_range":
            self._scale_fn_ref = partial(self._exp_range_scale_fn, self.gamma)
            self.scale_mode = "iterations"

    def scale_fn(self, x):
        """The amplitude's scale at cycle (or iteration) `x`."""
        if self._scale_fn_custom is not None:
            return self._scale_fn_custom(x)
        return self._scale_fn_ref(x)

    @staticmethod
    def _triangular_scale_fn(x):
        return 1.0

    @staticmethod
    def _triangular2_scale_fn(x):
        return 1 / (2.0 ** (x - 1))

    @staticmethod
    def _exp_range_scale_fn(gamma, x):
        return gamma ** x

    def get_lr(self):
        """The lrs of batch `last_epoch`; as a side effect, with `cycle_momentum`, set the momenta."""
        warn_get_lr_called_outside_step(self)
        cycle = math.floor(1 + self.last_epoch / self.total_size)
        x = 1.0 + self.last_epoch / self.total_size - cycle        # where in the cycle, from 0 to 1
        if x <= self.step_ratio:
            scale_factor = x / self.step_ratio
        else:
            scale_factor = (x - 1) / (self.step_ratio - 1)
        scale_at = cycle if self.scale_mode == "cycle" else self.last_epoch
        lrs = [base_lr + (max_lr - base_lr) * scale_factor * self.scale_fn(scale_at)
               for base_lr, max_lr in zip(self.base_lrs, self.max_lrs)]
        if self.cycle_momentum:
            momentums = [max_momentum - (max_momentum - base_momentum) * scale_factor * self.scale_fn(scale_at)
                         for base_momentum, max_momentum in zip(self.base_momentums, self.max_momentums)]
            for group, momentum in zip(self.optimizer.param_groups, momentums):
                set_momentum(group, momentum, self.use_beta1)
        return lrs

    def state_dict(self):
        """The attributes, without the scale function (a custom one is saved only if it is a callable object)."""
        state = super().state_dict()
        state.pop("_scale_fn_ref", None)
        fn = state.pop("_scale_fn_custom")
        state["_scale_fn_custom"] = None
        if fn is not None and not isinstance(fn, types.FunctionType):
            state["_scale_fn_custom"] = fn.__dict__.copy()
        return state

    def load_state_dict(self, state_dict):
        fn = state_dict.pop("_scale_fn_custom")
        super().load_state_dict(state_dict)
        if fn is not None:
            self._scale_fn_custom.__dict__.update(fn)
        self._init_scale_fn()


class OneCycleLR(LRScheduler):
    """The 1cycle policy: the lr rises from max_lr / div_factor to `max_lr` over the first `pct_start` of
    `total_steps`, then anneals to initial_lr / final_div_factor (with `three_phase`, back to the initial lr
    first); the momentum moves the opposite way. Not chainable. Mirrors `torch.optim.lr_scheduler.OneCycleLR`.

    Example:
        >>> scheduler = OneCycleLR(optimizer, max_lr=0.1, steps_per_epoch=len(data_loader), epochs=10)
    """

    def __init__(self, optimizer, max_lr, total_steps=None, epochs=None, steps_per_epoch=None, pct_start=0.3,
                 anneal_strategy="cos", cycle_momentum=True, base_momentum=0.85, max_momentum=0.95, div_factor=25.0,
                 final_div_factor=1e4, three_phase=False, last_epoch=-1):
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer
        self.total_steps = self._total_steps(total_steps, epochs, steps_per_epoch)
        self._schedule_phases = self._phases(pct_start, three_phase)
        if pct_start < 0 or pct_start > 1 or not isinstance(pct_start, float):
            raise ValueError(f"Expected float between 0 and 1 pct_start, but got {pct_start}")
        if anneal_strategy not in ["cos", "linear"]:
            raise ValueError(f"anneal_strategy must be one of 'cos' or 'linear', instead got {anneal_strategy}")
        self._anneal_func_type = anneal_strategy
        max_lrs = format_param("max_lr", optimizer, max_lr)
        if last_epoch == -1:
            for group, group_max_lr in zip(optimizer.param_groups, max_lrs):
                group["initial_lr"] = group_max_lr / div_factor
                group["max_lr"] = group_max_lr
                group["min_lr"] = group["initial_lr"] / final_div_factor
        self.cycle_momentum = cycle_momentum
        if cycle_momentum:
            start_momentum_cycle(self, optimizer, base_momentum, max_momentum, last_epoch)
        super().__init__(optimizer, last_epoch)

    @staticmethod
    def _total_steps(total_steps, epochs, steps_per_epoch):
        if total_steps is not None:
            if total_steps <= 0 or not isinstance(total_steps, int):
                raise ValueError(f"Expected positive integer total_steps, but got {total_steps}")
            return total_steps
        if epochs is not None and steps_per_epoch is not None:
            if not isinstance(epochs, int) or epochs <= 0:
                raise ValueError(f"Expected positive integer epochs, but got {epochs}")
            if not isinstance(steps_per_epoch, int) or steps_per_epoch <= 0:
                raise ValueError(f"Expected positive integer steps_per_epoch, but got {steps_per_epoch}")
            return epochs * steps_per_epoch
        raise ValueError("You must define either total_steps OR (epochs AND steps_per_epoch)")

    def _phases(self, pct_start, three_phase):
        """Each phase: the step it ends at, and the group keys of the lr and momentum it goes from and to."""
        def phase(end_step, start_lr, end_lr, start_momentum, end_momentum):
            return {"end_step": end_step, "start_lr": start_lr, "end_lr": end_lr, "start_momentum": start_momentum,
                    "end_momentum": end_momentum}
        warm_up = phase(float(pct_start * self.total_steps) - 1, "initial_lr", "max_lr", "max_momentum",
                        "base_momentum")
        if three_phase:
            return [warm_up,
                    phase(float(2 * pct_start * self.total_steps) - 2, "max_lr", "initial_lr", "base_momentum",
                          "max_momentum"),
                    phase(self.total_steps - 1, "initial_lr", "min_lr", "max_momentum", "max_momentum")]
        return [warm_up, phase(self.total_steps - 1, "max_lr", "min_lr", "base_momentum", "max_momentum")]

    def _anneal_func(self, start, end, pct):
        if self._anneal_func_type == "cos":
            return self._annealing_cos(start, end, pct)
        return self._annealing_linear(start, end, pct)

    @staticmethod
    def _annealing_cos(start, end, pct):
        """Cosine anneal from `start` to `end` as pct goes from 0.0 to 1.0."""
        cos_out = math.cos(math.pi * pct) + 1
        return end + (start - end) / 2.0 * cos_out

    @staticmethod
    def _annealing_linear(start, end, pct):
        """Linearly anneal from `start` to `end` as pct goes from 0.0 to 1.0."""
        return (end - start) * pct + start

    def get_lr(self):
        """The lrs of step `last_epoch`, each in its phase; as a side effect, with `cycle_momentum`, the momenta."""
        warn_get_lr_called_outside_step(self)
        step_num = self.last_epoch
        if step_num > self.total_steps:
            raise ValueError(f"Tried to step {step_num} times. The specified number of total steps is "
                             f"{self.total_steps}")
        lrs = []
        for group in self.optimizer.param_groups:
            start_step = 0.0
            for i, phase in enumerate(self._schedule_phases):
                end_step = phase["end_step"]
                if step_num <= end_step or i == len(self._schedule_phases) - 1:
                    pct = (step_num - start_step) / (end_step - start_step)
                    lrs.append(self._anneal_func(group[phase["start_lr"]], group[phase["end_lr"]], pct))
                    if self.cycle_momentum:
                        momentum = self._anneal_func(group[phase["start_momentum"]], group[phase["end_momentum"]],
                                                     pct)
                        set_momentum(group, momentum, self.use_beta1)
                    break
                start_step = phase["end_step"]
        return lrs
