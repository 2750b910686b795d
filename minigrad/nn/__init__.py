"""Neural-network building blocks: `Module`, `Parameter`, layers, containers, losses. Mirrors `torch.nn`.

A `Function` (minigrad.autograd) is one operation with a hand-written backward and no state; a `Module` holds
parameters and submodules, composes operations in `forward`, and gets its backward from autograd.
"""
from . import functional, init  # noqa: I001
from .parameter import Parameter
from .module import Module
from .linear import Flatten, Identity, Linear
from .activation import LogSoftmax, ReLU, Sigmoid, Softmax, Tanh
from .container import ModuleList, Sequential
from .loss import CrossEntropyLoss, MSELoss, NLLLoss
# layers with their own files: convolution, pooling, normalization, embedding, dropout (see each module's __all__)
from .layers import *  # noqa: F401,F403
from . import layers as _layers

__all__ = ["Module", "Parameter", "Linear", "Identity", "Flatten", "ReLU", "Sigmoid", "Tanh", "Softmax",
           "LogSoftmax", "Sequential", "ModuleList", "MSELoss", "NLLLoss", "CrossEntropyLoss", "functional", "init",
           *_layers.__all__]
