"""`LRScheduler`, the base of the learning-rate schedules in `lr_scheduler`. Mirrors `torch.optim.lr_scheduler`.

A schedule sets `group["lr"]` of each parameter group once per `scheduler.step()`. Most schedules are written
recursively, as PyTorch writes them: the new lr is the current `group["lr"]` times a factor, so several
schedulers can act on one optimizer. `step(epoch)` (deprecated) jumps with the closed form instead.
"""
import functools
import warnings
from weakref import ref

from .optimizer import Optimizer

EPOCH_DEPRECATION_WARNING = (
    "The epoch parameter in `scheduler.step()` was not necessary and is being deprecated where possible. Please use "
    "`scheduler.step()` to step the scheduler. During the deprecation, if epoch is different from None, the closed "
    "form is used instead of the new chainable form, where available. Please open an issue if you are unable to "
    "replicate your use case: https://github.com/pytorch/pytorch/issues/new/choose."
)
HOW_TO_ADJUST = "See more details at https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate"


class LRScheduler:
    """Base class of the schedules: subclasses write `get_lr()`, the lrs for epoch `last_epoch`.

    Args:
        optimizer: the optimizer whose `param_groups[i]["lr"]` the schedule sets.
        last_epoch: the index of the last epoch; -1 (the default) starts the schedule, and stores each group's
            starting lr as `group["initial_lr"]` (the `base_lrs`).

    Example:
        >>> scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=30, gamma=0.1)
        >>> for epoch in range(100):
        ...     train(...)               # optimizer.step() inside
        ...     scheduler.step()
    """
    _get_lr_called_within_step = False
    _is_initial = False

    def __init__(self, optimizer, last_epoch=-1):
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer
        if last_epoch == -1:
            for group in optimizer.param_groups:
                group.setdefault("initial_lr", group["lr"])
        else:
            for i, group in enumerate(optimizer.param_groups):
                if "initial_lr" not in group:
                    raise KeyError(
                        f"param 'initial_lr' is not specified in param_groups[{i}] when resuming scheduler with "
                        "last_epoch >= 0.\nThis typically happens when:\n1. You're trying to resume training from "
                        "a checkpoint but haven't properly loaded the optimizer state\n2. You're using last_epoch "
                        ">= 0 for a fresh training run (not recommended)")
        self.base_lrs = [group["initial_lr"] for group in optimizer.param_groups]
        self.last_epoch = last_epoch
        _mark_optimizer_steps(optimizer)
        self._initial_step()

    def _initial_step(self):
        """Count no step yet, then take the step to epoch 0 that sets the starting lrs."""
        self._step_count = 0
        self._is_initial = True
        try:
            self.step()
        finally:
            self._is_initial = False

    def get_lr(self):
        """Compute the lrs for epoch `last_epoch` (called by `step`; to read them, use `get_last_lr()`)."""
        raise NotImplementedError

    def get_last_lr(self):
        """Return the lrs the last `step()` set, one per parameter group."""
        return self._last_lr

    def step(self, epoch=None):
        """Move to the next epoch and set each group's lr. Call it after `optimizer.step()`."""
        if self._step_count == 1:
            if not hasattr(self.optimizer.step, "_wrapped_by_lr_sched"):
                warnings.warn("Seems like `optimizer.step()` has been overridden after learning rate scheduler "
                              "initialization. Please, make sure to call `optimizer.step()` before "
                              "`lr_scheduler.step()`. " + HOW_TO_ADJUST, UserWarning, stacklevel=2)
            elif not getattr(self.optimizer, "_opt_called", False):
                warnings.warn("Detected call of `lr_scheduler.step()` before `optimizer.step()`. In PyTorch 1.1.0 "
                              "and later, you should call them in the opposite order: `optimizer.step()` before "
                              "`lr_scheduler.step()`.  Failure to do this will result in PyTorch skipping the first "
                              "value of the learning rate schedule. " + HOW_TO_ADJUST, UserWarning, stacklevel=2)
        self._step_count += 1
        if epoch is not None:
            warnings.warn(EPOCH_DEPRECATION_WARNING, UserWarning, stacklevel=2)
        self._update_lr(epoch)

    def _update_lr(self, epoch=None):
        self._get_lr_called_within_step = True
        try:
            if epoch is None:
                self.last_epoch += 1
                values = self.get_lr()
            else:
                self.last_epoch = epoch
                values = self._get_closed_form_lr() if hasattr(self, "_get_closed_form_lr") else self.get_lr()
        finally:
            self._get_lr_called_within_step = False
        for group, lr in zip(self.optimizer.param_groups, values):
            group["lr"] = lr
        self._last_lr = current_lrs(self.optimizer)

    def state_dict(self):
        """Return every attribute of the scheduler except its optimizer, as PyTorch does."""
        return {key: value for key, value in self.__dict__.items() if key != "optimizer"}

    def load_state_dict(self, state_dict):
        """Restore the attributes saved by `state_dict()`."""
        self.__dict__.update(state_dict)


def current_lrs(optimizer):
    """The lr of each parameter group, in order."""
    return [group["lr"] for group in optimizer.param_groups]


def warn_get_lr_called_outside_step(scheduler):
    """PyTorch's warning for reading `get_lr()` directly instead of `get_last_lr()`."""
    if not scheduler._get_lr_called_within_step:
        warnings.warn("To get the last learning rate computed by the scheduler, please use `get_last_lr()`.",
                      UserWarning, stacklevel=3)


def _mark_optimizer_steps(optimizer):
    """Wrap `optimizer.step` so it records that it ran: the first `scheduler.step()` warns if it did not."""
    if hasattr(optimizer.step, "_wrapped_by_lr_sched"):
        return
    opt_ref = ref(optimizer)             # a weak reference: the wrapper must not keep the optimizer alive
    func = optimizer.step.__func__

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        opt = opt_ref()
        opt._opt_called = True
        return func.__get__(opt, opt.__class__)(*args, **kwargs)
    wrapper._wrapped_by_lr_sched = True
    optimizer.step = wrapper
