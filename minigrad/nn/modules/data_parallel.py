"""`DataParallel`: PyTorch's wrapper that splits a batch over GPUs. On the CPU, as in PyTorch without a GPU, it
holds the module and runs it unchanged."""
from ..module import Module

__all__ = ["DataParallel"]


class DataParallel(Module):
    """Wrap `module` as its child `module` (so state_dict keys start with "module."), and call it in `forward`.

    Mirrors `torch.nn.DataParallel` on a machine without an accelerator: `device_ids` is `[]`, and `output_device`
    and `dim` are not kept, as PyTorch keeps them only when it finds a GPU.

    Example:
        >>> net = nn.DataParallel(nn.Linear(2, 3))
        >>> list(net.state_dict())
        ['module.weight', 'module.bias']
    """

    def __init__(self, module, device_ids=None, output_device=None, dim=0):
        super().__init__()
        self.module = module
        self.device_ids = []

    def forward(self, *inputs, **kwargs):
        return self.module(*inputs, **kwargs)
