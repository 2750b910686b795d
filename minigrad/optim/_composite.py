"""SequentialLR and ChainedScheduler: schedules made of other schedules, one after another or all at once.
Mirrors `torch.optim.lr_scheduler`.
"""
from bisect import bisect_right

from ._plateau import ReduceLROnPlateau
from ._scheduler import LRScheduler, current_lrs


class _CompositeScheduler(LRScheduler):
    """The shared part: checking the schedulers, and a state_dict that holds each scheduler's state_dict."""

    def _check_schedulers(self, optimizer, schedulers, at_least):
        if len(schedulers) < 1:
            raise ValueError(f"{self.__class__.__name__} expects at least one scheduler{at_least}, but got no "
                             "scheduler.")
        for scheduler_idx, scheduler in enumerate(schedulers):
            if not hasattr(scheduler, "optimizer"):
                raise TypeError(f"{self.__class__.__name__} at index {scheduler_idx} should have `optimizer` as its "
                                "attribute.")
            if isinstance(scheduler, ReduceLROnPlateau):
                raise ValueError(
                    f"{self.__class__.__name__} does not support `ReduceLROnPlateau` scheduler as it requires "
                    "additional kwargs to be specified when calling `step`, but got one at index "
                    f"{scheduler_idx} in the given schedulers sequence.")
            if optimizer != scheduler.optimizer:
                raise ValueError(
                    f"{self.__class__.__name__} expects all schedulers to belong to the same optimizer, but got "
                    f"scheduler {scheduler.__class__.__name__} at index {scheduler_idx} has {scheduler.optimizer}, "
                    f"which is different from {optimizer.__class__.__name__}.")

    def state_dict(self):
        """The attributes, with the state_dict of each scheduler in "_schedulers"."""
        state_dict = {key: value for key, value in self.__dict__.items() if key not in ("optimizer", "_schedulers")}
        state_dict["_schedulers"] = [s.state_dict() for s in self._schedulers]
        return state_dict

    def load_state_dict(self, state_dict):
        _schedulers = state_dict.pop("_schedulers")
        self.__dict__.update(state_dict)
        state_dict["_schedulers"] = _schedulers          # leave the caller's dict as it was
        for scheduler, state in zip(self._schedulers, _schedulers):
            scheduler.load_state_dict(state)


class SequentialLR(_CompositeScheduler):
    """Run `schedulers[0]` until epoch `milestones[0]`, then `schedulers[1]` (restarted at its epoch 0), ...

    Mirrors `torch.optim.lr_scheduler.SequentialLR`.

    Example:
        >>> warm_up = LinearLR(optimizer, start_factor=0.1, total_iters=5)
        >>> decay = ExponentialLR(optimizer, gamma=0.9)
        >>> scheduler = SequentialLR(optimizer, schedulers=[warm_up, decay], milestones=[5])
    """

    def __init__(self, optimizer, schedulers, milestones, last_epoch=-1):
        self._check_schedulers(optimizer, schedulers, "")
        if len(milestones) != len(schedulers) - 1:
            raise ValueError(
                "Sequential Schedulers expects number of schedulers provided to be one more than the number of "
                f"milestone points, but got number of schedulers {len(schedulers)} and the number of milestones to "
                f"be equal to {len(milestones)}")
        self._schedulers = schedulers
        self._milestones = milestones
        self.last_epoch = last_epoch + 1
        self.optimizer = optimizer
        # each scheduler took its initial step when it was made: undo those, and take only the first one's
        for group in optimizer.param_groups:
            group["lr"] = group["initial_lr"]
        self.recursive_undo()
        idx = bisect_right(self._milestones, 0)
        self._schedulers[idx]._initial_step()
        self._last_lr = schedulers[idx].get_last_lr()

    def recursive_undo(self, sched=None):
        """Step back the epoch of every scheduler inside (and inside those), undoing their initial steps."""
        scheds = self if sched is None else sched
        if hasattr(scheds, "_schedulers"):
            for s in scheds._schedulers:
                self.recursive_undo(s)
        elif hasattr(scheds, "last_epoch"):
            scheds.last_epoch -= 1

    def step(self):
        """Step the scheduler of this epoch; at a milestone, start the next one at its epoch 0 (closed form)."""
        self.last_epoch += 1
        idx = bisect_right(self._milestones, self.last_epoch)
        scheduler = self._schedulers[idx]
        if idx > 0 and self._milestones[idx - 1] == self.last_epoch:
            scheduler._update_lr(0)
        else:
            scheduler.step()
        self._last_lr = scheduler.get_last_lr()


class ChainedScheduler(_CompositeScheduler):
    """Step every scheduler of the list at each `step()`, so their factors multiply.

    Mirrors `torch.optim.lr_scheduler.ChainedScheduler`.

    Example:
        >>> scheduler = ChainedScheduler([ConstantLR(optimizer, factor=0.1, total_iters=2),
        ...                               ExponentialLR(optimizer, gamma=0.9)])
    """

    def __init__(self, schedulers, optimizer=None):
        if len(schedulers) < 1:
            self._check_schedulers(optimizer, schedulers, " to be chained")
        optimizer = optimizer or schedulers[0].optimizer
        self._check_schedulers(optimizer, schedulers, " to be chained")
        self._schedulers = schedulers
        self.optimizer = optimizer
        self._last_lr = current_lrs(self._schedulers[-1].optimizer)

    def step(self):
        """Step each scheduler in turn."""
        for scheduler in self._schedulers:
            scheduler.step()
        self._last_lr = current_lrs(self._schedulers[-1].optimizer)
