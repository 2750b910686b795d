"""Neural-network building blocks: `Module`, `Parameter`, layers, containers, losses. Mirrors `torch.nn`.

A `Function` (minigrad.autograd) is one operation with a hand-written backward and no state; a `Module` holds
parameters and submodules, composes operations in `forward`, and gets its backward from autograd. `module.py`
and `parameter.py` are the part to read; the layers are in `modules/`, their ops and `nn.functional` in
`functional/`, weight initialisation in `init.py`.
"""
from ..compat import refused as _refused
__getattr__ = _refused.module_getattr(__name__)  # what minigrad leaves out on purpose, and why
from . import functional, init  # noqa: I001
from .parameter import Parameter
from .module import Module
from . import modules
from .modules import *  # noqa: F401,F403 - Linear, ReLU, Sequential, Conv2d, ...: see modules.__all__
from . import utils
from .utils import parametrizations, parametrize  # noqa: F401 - torch.nn.utils.parametrize works after `import torch`

__all__ = ["Module", "Parameter", "functional", "init", "modules", "utils", *modules.__all__]
