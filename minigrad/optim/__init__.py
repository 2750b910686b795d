"""Optimizers: `SGD` and `Adam`, on the `Optimizer` base class. Mirrors `torch.optim`."""
from .optimizer import Optimizer
from .sgd import SGD
from .adam import Adam

__all__ = ["Optimizer", "SGD", "Adam"]
