"""Neural-network building blocks: `Module`, `Parameter`, layers, containers, losses. Mirrors `torch.nn`.

A `Function` (minigrad.autograd) is one operation with a hand-written backward and no state; a `Module` holds
parameters and submodules, composes operations in `forward`, and gets its backward from autograd. `module.py`
and `parameter.py` are the part to read; the layers are in `modules/`, their ops and `nn.functional` in
`functional/`, weight initialisation in `init.py`.
"""
from ..compat import refused as _refused
__getattr__ = _refused.module_getattr(__name__)  # what minigrad leaves out on purpose, and why
from . import functional, init  # noqa: I001
from .parameter import Buffer, Parameter
from .module import Module
from . import modules
from .modules import *  # noqa: F401,F403 - Linear, ReLU, Sequential, Conv2d, ...: see modules.__all__
from . import utils
from .utils import parametrizations, parametrize  # noqa: F401 - torch.nn.utils.parametrize works after `import torch`

__all__ = ["Module", "Parameter", "functional", "init", "modules", "utils", *modules.__all__]
from . import common_types, grad  # noqa: E402,F401 - torch.nn.common_types, torch.nn.grad


def factory_kwargs(kwargs):
    """The factory arguments (`device`, `dtype`, `memory_format`, or a dict under `factory_kwargs`) of a layer's
    `**kwargs`, checked, for `torch.empty(..., **factory_kwargs(kwargs))`. Mirrors `torch.nn.factory_kwargs`."""
    if kwargs is None:
        return {}
    simple_keys = {"device", "dtype", "memory_format"}
    expected_keys = simple_keys | {"factory_kwargs"}
    if not kwargs.keys() <= expected_keys:
        raise TypeError(f"unexpected kwargs {kwargs.keys() - expected_keys}")
    result = dict(kwargs.get("factory_kwargs", {}))
    for k in simple_keys:
        if k in kwargs:
            if k in result:
                raise TypeError(f"{k} specified twice, in **kwargs and in factory_kwargs")
            result[k] = kwargs[k]
    return result
