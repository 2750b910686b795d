"""Learning-rate schedules: StepLR, MultiStepLR, ExponentialLR, LambdaLR, CosineAnnealingLR, ReduceLROnPlateau, ...

The cyclic ones (CyclicLR, OneCycleLR) are in _cyclic.py, those made of other schedulers (SequentialLR,
ChainedScheduler) in _composite.py, ReduceLROnPlateau in _plateau.py.

Each is written as PyTorch writes it (recursively from the current lr, with the closed form used only for the
deprecated `step(epoch)`), so the lr sequences are the same floats. Mirrors `torch.optim.lr_scheduler`.
"""
import math
import types
from bisect import bisect_right
from collections import Counter

from ._composite import ChainedScheduler, SequentialLR
from ._cyclic import CyclicLR, OneCycleLR
from ._plateau import ReduceLROnPlateau
from ._scheduler import EPOCH_DEPRECATION_WARNING  # noqa: F401 - torch.optim.lr_scheduler has it too
from ._scheduler import LRScheduler, current_lrs, warn_get_lr_called_outside_step

__all__ = ["LambdaLR", "MultiplicativeLR", "StepLR", "MultiStepLR", "ConstantLR", "LinearLR", "ExponentialLR",
           "SequentialLR", "CosineAnnealingLR", "ChainedScheduler", "ReduceLROnPlateau", "CyclicLR",
           "CosineAnnealingWarmRestarts", "OneCycleLR", "PolynomialLR", "LRScheduler"]


class _LRScheduler(LRScheduler):
    """The old name of LRScheduler, kept (as a subclass, for its `__name__`) as PyTorch keeps it."""


class _LambdaScheduler(LRScheduler):
    """The shared part of LambdaLR and MultiplicativeLR: one function of the epoch per parameter group."""

    def __init__(self, optimizer, lr_lambda, last_epoch=-1):
        self.optimizer = optimizer
        if not isinstance(lr_lambda, (list, tuple)):
            self.lr_lambdas = [lr_lambda] * len(optimizer.param_groups)
        else:
            if len(lr_lambda) != len(optimizer.param_groups):
                raise ValueError(f"Expected {len(optimizer.param_groups)} lr_lambdas, but got {len(lr_lambda)}")
            self.lr_lambdas = list(lr_lambda)
        self._check_lambdas()
        super().__init__(optimizer, last_epoch)

    def _check_lambdas(self):
        pass

    def state_dict(self):
        """Return the state; a lambda is saved only if it is a callable object (its `__dict__`), never a function."""
        state = {key: value for key, value in self.__dict__.items() if key not in ("optimizer", "lr_lambdas")}
        state["lr_lambdas"] = [None if isinstance(fn, types.FunctionType) else fn.__dict__.copy()
                               for fn in self.lr_lambdas]
        return state

    def load_state_dict(self, state_dict):
        lr_lambdas = state_dict.pop("lr_lambdas")
        self.__dict__.update(state_dict)
        state_dict["lr_lambdas"] = lr_lambdas
        for idx, fn in enumerate(lr_lambdas):
            if fn is not None:
                self.lr_lambdas[idx].__dict__.update(fn)


class LambdaLR(_LambdaScheduler):
    """lr = initial lr * lr_lambda(epoch). Mirrors `torch.optim.lr_scheduler.LambdaLR`.

    Args:
        optimizer: the optimizer. lr_lambda: a function of the epoch, or a list of them, one per group.
        last_epoch: default -1.

    Example:
        >>> scheduler = LambdaLR(optimizer, lr_lambda=lambda epoch: 0.95 ** epoch)
    """

    def get_lr(self):
        warn_get_lr_called_outside_step(self)
        return [base_lr * lmbda(self.last_epoch) for lmbda, base_lr in zip(self.lr_lambdas, self.base_lrs)]


class MultiplicativeLR(_LambdaScheduler):
    """lr <- lr * lr_lambda(epoch) at each step. Mirrors `torch.optim.lr_scheduler.MultiplicativeLR`."""

    def _check_lambdas(self):
        for lr_lambda in self.lr_lambdas:
            if not callable(lr_lambda):
                raise TypeError(f"lr_lambda should be a function, but got {type(lr_lambda).__name__}")

    def get_lr(self):
        warn_get_lr_called_outside_step(self)
        if self._is_initial:
            return current_lrs(self.optimizer)
        return [group["lr"] * lmbda(self.last_epoch)
                for lmbda, group in zip(self.lr_lambdas, self.optimizer.param_groups)]


class StepLR(LRScheduler):
    """lr <- lr * gamma every `step_size` epochs. Mirrors `torch.optim.lr_scheduler.StepLR`.

    Example:
        >>> scheduler = StepLR(optimizer, step_size=30, gamma=0.1)   # lr 0.05 for epochs 0-29, 0.005 for 30-59, ...
    """

    def __init__(self, optimizer, step_size, gamma=0.1, last_epoch=-1):
        self.step_size = step_size
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        warn_get_lr_called_outside_step(self)
        if self.last_epoch == 0 or self.last_epoch % self.step_size != 0:
            return current_lrs(self.optimizer)
        return [group["lr"] * self.gamma for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self):
        return [base_lr * self.gamma ** (self.last_epoch // self.step_size) for base_lr in self.base_lrs]


class MultiStepLR(LRScheduler):
    """lr <- lr * gamma at each epoch listed in `milestones`. Mirrors `torch.optim.lr_scheduler.MultiStepLR`."""

    def __init__(self, optimizer, milestones, gamma=0.1, last_epoch=-1):
        self.milestones = Counter(milestones)
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        warn_get_lr_called_outside_step(self)
        if self.last_epoch not in self.milestones:
            return current_lrs(self.optimizer)
        return [group["lr"] * self.gamma ** self.milestones[self.last_epoch] for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self):
        milestones = sorted(self.milestones.elements())
        return [base_lr * self.gamma ** bisect_right(milestones, self.last_epoch) for base_lr in self.base_lrs]


class ConstantLR(LRScheduler):
    """lr = initial lr * factor until epoch `total_iters`, then the initial lr. Mirrors PyTorch's ConstantLR."""

    def __init__(self, optimizer, factor=1.0 / 3, total_iters=5, last_epoch=-1):
        if factor > 1.0 or factor < 0:
            raise ValueError("Constant multiplicative factor expected to be between 0 and 1.")
        self.factor = factor
        self.total_iters = total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        warn_get_lr_called_outside_step(self)
        if self.last_epoch == 0:
            return [group["lr"] * self.factor for group in self.optimizer.param_groups]
        if self.last_epoch != self.total_iters:
            return current_lrs(self.optimizer)
        return [group["lr"] * (1.0 / self.factor) for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self):
        return [base_lr * (self.factor + (self.last_epoch >= self.total_iters) * (1 - self.factor))
                for base_lr in self.base_lrs]


class LinearLR(LRScheduler):
    """The lr factor goes linearly from `start_factor` to `end_factor` over `total_iters` epochs."""

    def __init__(self, optimizer, start_factor=1.0 / 3, end_factor=1.0, total_iters=5, last_epoch=-1):
        if start_factor > 1.0 or start_factor <= 0:
            raise ValueError("Starting multiplicative factor expected to be greater than 0 and less or equal to 1.")
        if end_factor > 1.0 or end_factor < 0:
            raise ValueError("Ending multiplicative factor expected to be between 0 and 1.")
        self.start_factor = start_factor
        self.end_factor = end_factor
        self.total_iters = total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        warn_get_lr_called_outside_step(self)
        if self.last_epoch == 0:
            return [group["lr"] * self.start_factor for group in self.optimizer.param_groups]
        if self._is_initial or self.last_epoch > self.total_iters:
            return current_lrs(self.optimizer)
        change = self.end_factor - self.start_factor
        return [group["lr"] * (1.0 + change / (self.total_iters * self.start_factor + (self.last_epoch - 1) * change))
                for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self):
        return [base_lr * (self.start_factor + (self.end_factor - self.start_factor)
                           * min(self.total_iters, self.last_epoch) / self.total_iters) for base_lr in self.base_lrs]


class ExponentialLR(LRScheduler):
    """lr <- lr * gamma every epoch. Mirrors `torch.optim.lr_scheduler.ExponentialLR`."""

    def __init__(self, optimizer, gamma, last_epoch=-1):
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        warn_get_lr_called_outside_step(self)
        if self._is_initial:           # resuming from a checkpoint must not move one epoch ahead
            return current_lrs(self.optimizer)
        return [group["lr"] * self.gamma for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self):
        return [base_lr * self.gamma ** self.last_epoch for base_lr in self.base_lrs]


class CosineAnnealingLR(LRScheduler):
    """lr follows half a cosine from the initial lr down to `eta_min` over `T_max` epochs (then back up).

    The closed form is eta_min + (base_lr - eta_min) * (1 + cos(pi * epoch / T_max)) / 2; like PyTorch, `step()`
    computes it recursively from the current lr, so the floats (and the effect of other schedulers) match.
    Mirrors `torch.optim.lr_scheduler.CosineAnnealingLR`.
    """

    def __init__(self, optimizer, T_max, eta_min=0.0, last_epoch=-1):
        self.T_max = T_max
        self.eta_min = eta_min
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        warn_get_lr_called_outside_step(self)
        groups, epoch, t_max, eta_min = self.optimizer.param_groups, self.last_epoch, self.T_max, self.eta_min
        if self._is_initial:
            return current_lrs(self.optimizer)
        if self._step_count == 1 and epoch > 0:
            return [eta_min + (base_lr - eta_min) * (1 + math.cos(epoch * math.pi / t_max)) / 2
                    for base_lr in self.base_lrs]
        if (epoch - 1 - t_max) % (2 * t_max) == 0:
            return [group["lr"] + (base_lr - eta_min) * (1 - math.cos(math.pi / t_max)) / 2
                    for base_lr, group in zip(self.base_lrs, groups)]
        return [(1 + math.cos(math.pi * epoch / t_max)) / (1 + math.cos(math.pi * (epoch - 1) / t_max))
                * (group["lr"] - eta_min) + eta_min for group in groups]

    def _get_closed_form_lr(self):
        return [self.eta_min + (base_lr - self.eta_min) * (1 + math.cos(math.pi * self.last_epoch / self.T_max)) / 2
                for base_lr in self.base_lrs]


class PolynomialLR(LRScheduler):
    """lr = initial lr * (1 - epoch / total_iters) ** power, then constant. Mirrors PyTorch's PolynomialLR."""

    def __init__(self, optimizer, total_iters=5, power=1.0, last_epoch=-1):
        self.total_iters = total_iters
        self.power = power
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        warn_get_lr_called_outside_step(self)
        if self._is_initial or self.last_epoch > self.total_iters:
            return current_lrs(self.optimizer)
        decay_factor = ((1.0 - self.last_epoch / self.total_iters)
                        / (1.0 - (self.last_epoch - 1) / self.total_iters)) ** self.power
        return [group["lr"] * decay_factor for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self):
        return [base_lr * (1.0 - min(self.total_iters, self.last_epoch) / self.total_iters) ** self.power
                for base_lr in self.base_lrs]


class CosineAnnealingWarmRestarts(LRScheduler):
    """Cosine annealing from the initial lr to `eta_min` over T_0 epochs, then a restart at the initial lr; each
    period is `T_mult` times the one before. Mirrors `torch.optim.lr_scheduler.CosineAnnealingWarmRestarts`.

    lr = eta_min + (base_lr - eta_min) * (1 + cos(pi * T_cur / T_i)) / 2, T_cur the epochs since the last restart.
    `step(epoch)` takes fractional epochs too (step once per batch with epoch + i / iters).
    """

    def __init__(self, optimizer, T_0, T_mult=1, eta_min=0.0, last_epoch=-1):
        if T_0 <= 0 or not isinstance(T_0, int):
            raise ValueError(f"Expected positive integer T_0, but got {T_0}")
        if T_mult < 1 or not isinstance(T_mult, int):
            raise ValueError(f"Expected integer T_mult >= 1, but got {T_mult}")
        if not isinstance(eta_min, (float, int)):
            raise ValueError(f"Expected float or int eta_min, but got {eta_min} of type {type(eta_min)}")
        self.T_0 = T_0
        self.T_i = T_0
        self.T_mult = T_mult
        self.eta_min = eta_min
        self.T_cur = last_epoch
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        warn_get_lr_called_outside_step(self)
        return [self.eta_min + (base_lr - self.eta_min) * (1 + math.cos(math.pi * self.T_cur / self.T_i)) / 2
                for base_lr in self.base_lrs]

    def step(self, epoch=None):
        """Move T_cur one epoch on (restarting when it reaches T_i), or to `epoch`; then set the lrs.

        Unlike the other schedules it neither counts steps nor warns about the order of the steps, as PyTorch.
        """
        if epoch is None and self.last_epoch < 0:
            epoch = 0
        if epoch is None:
            epoch = self.last_epoch + 1
            self.T_cur = self.T_cur + 1
            if self.T_cur >= self.T_i:
                self.T_cur = self.T_cur % self.T_i
                self.T_i = self.T_i * self.T_mult
        else:
            if epoch < 0:
                raise ValueError(f"Expected non-negative epoch, but got {epoch}")
            if epoch >= self.T_0:
                if self.T_mult == 1:
                    self.T_cur = epoch % self.T_0
                else:
                    n = int(math.log((epoch / self.T_0 * (self.T_mult - 1) + 1), self.T_mult))
                    self.T_cur = epoch - self.T_0 * (self.T_mult ** n - 1) / (self.T_mult - 1)
                    self.T_i = self.T_0 * self.T_mult ** n
            else:
                self.T_i = self.T_0
                self.T_cur = epoch
        self.last_epoch = math.floor(epoch)
        self._get_lr_called_within_step = True
        try:
            values = self.get_lr()
        finally:
            self._get_lr_called_within_step = False
        for group, lr in zip(self.optimizer.param_groups, values):
            group["lr"] = lr
        self._last_lr = current_lrs(self.optimizer)
