"""Neural-network building blocks: `Module`, `Parameter`, layers, containers, losses. Mirrors `torch.nn`.

A `Function` (minigrad.autograd) is one operation with a hand-written backward and no state; a `Module` holds
parameters and submodules, composes operations in `forward`, and gets its backward from autograd.
"""
from . import functional, init  # noqa: I001
from .parameter import Parameter
from .module import Module
from .lazy import LazyLinear, UninitializedParameter
from .linear import Flatten, Identity, Linear, Unflatten
from .activation import ELU, GELU, SELU, LeakyReLU, LogSoftmax, ReLU, Sigmoid, SiLU, Softmax, Softplus, Tanh
from .container import ModuleDict, ModuleList, ParameterDict, ParameterList, Sequential
from .loss import BCELoss, BCEWithLogitsLoss, CrossEntropyLoss, HuberLoss, L1Loss, MSELoss, NLLLoss, SmoothL1Loss
from . import modules  # torch.nn.modules.module.register_module_forward_hook, ...
# layers with their own files: convolution, pooling, normalization, embedding, dropout (see each module's __all__)
from .layers import *  # noqa: F401,F403
from . import layers as _layers

__all__ = ["Module", "Parameter", "Linear", "LazyLinear", "UninitializedParameter", "Identity", "Flatten", "Unflatten", "ReLU", "Sigmoid", "Tanh", "Softmax",
           "LogSoftmax", "LeakyReLU", "ELU", "SELU", "GELU", "SiLU", "Softplus", "Sequential", "ModuleList",
           "ModuleDict", "ParameterList", "ParameterDict", "MSELoss", "NLLLoss", "CrossEntropyLoss", "BCELoss",
           "BCEWithLogitsLoss", "L1Loss", "SmoothL1Loss", "HuberLoss", "functional", "init", "modules",
           *_layers.__all__]
