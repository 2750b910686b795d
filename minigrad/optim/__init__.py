"""Optimizers on the `Optimizer` base class, and `lr_scheduler`. Mirrors `torch.optim`."""
from ..compat import refused as _refused
__getattr__ = _refused.module_getattr(__name__)  # what minigrad leaves out on purpose, and why
from .optimizer import Optimizer
from .sgd import SGD
from .adam import Adam
from .adamw import AdamW
from .rmsprop import RMSprop
from .adagrad import Adagrad
from .adamax import Adamax
from .nadam import NAdam
from .radam import RAdam
from .adadelta import Adadelta
from .rprop import Rprop
from .asgd import ASGD
from . import lr_scheduler

__all__ = ["Optimizer", "SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "lr_scheduler"]
__all__ += ["Adamax", "NAdam", "RAdam", "Adadelta", "Rprop", "ASGD"]
