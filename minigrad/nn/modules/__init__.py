"""`nn.modules`: PyTorch's home of the layer classes, here an alias of minigrad.nn's own modules.

So that PyTorch code such as `nn.modules.module.register_module_forward_hook(hook)` runs unchanged.
"""
import sys

from .. import activation, container, linear, loss, module

for _name, _mod in (("module", module), ("container", container), ("activation", activation),
                    ("linear", linear), ("loss", loss)):
    sys.modules[f"{__name__}.{_name}"] = _mod
