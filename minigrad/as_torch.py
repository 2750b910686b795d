"""Make every `torch` import in this process resolve to minigrad: `import minigrad.as_torch` (in a notebook's
first cell), or run a whole script with `python -m minigrad.run script.py`.

After it, `import torch`, `import torch.nn as nn`, `from torch.utils.data import DataLoader` and every other
`torch.X` import give minigrad's own modules (`minigrad`, `minigrad.nn`, `minigrad.utils.data`), the same
objects that `import minigrad` gives, so a PyTorch program runs unchanged and never mixes the two libraries.
A `torch.X` that minigrad does not have fails at the import, naming it. If real PyTorch is already imported,
installing refuses: its tensors and minigrad's cannot meet.

Example:
    >>> import minigrad.as_torch
    >>> import torch.nn as nn
    >>> nn.Linear(2, 1)
    Linear(in_features=2, out_features=1, bias=True)
"""
import importlib
import importlib.abc
import importlib.util
import sys


class TorchAlias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds `torch` and `torch.X` and loads them as the already imported `minigrad` and `minigrad.X`."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname != "torch" and not fullname.startswith("torch."):
            return None
        name = "minigrad" + fullname[len("torch"):]
        try:
            found = importlib.util.find_spec(name)
        except ModuleNotFoundError:     # a parent of `name` is missing
            found = None
        if found is None:
            raise ModuleNotFoundError(f"No module named '{fullname}' (`torch` is minigrad here, and minigrad has "
                                      f"no '{name}')", name=fullname)
        return importlib.util.spec_from_loader(fullname, self, origin=found.origin,
                                               is_package=found.submodule_search_locations is not None)

    def create_module(self, spec):
        # the module minigrad already has (or imports now), never a second copy of it under another name
        module = importlib.import_module("minigrad" + spec.name[len("torch"):])
        spec.minigrad_spec = module.__spec__    # the import system writes the `torch` spec over it...
        return module

    def exec_module(self, module):
        module.__spec__ = module.__spec__.minigrad_spec     # ...and this puts it back (it already ran as minigrad.X)


def real_torch_modules():
    """Return the names of the modules of real PyTorch that this process has imported."""
    return sorted(name for name, module in list(sys.modules.items())
                  if (name == "torch" or name.startswith("torch."))
                  and not getattr(module, "__name__", "").startswith("minigrad"))


def install():
    """Put the alias first on `sys.meta_path` (once); raise ImportError if real PyTorch is already imported."""
    if any(isinstance(finder, TorchAlias) for finder in sys.meta_path):
        return
    real = real_torch_modules()
    if real:
        raise ImportError(f"real PyTorch is already imported in this process ({', '.join(real[:3])}"
                          f"{', ...' if len(real) > 3 else ''}), so `torch` cannot become minigrad: import "
                          f"minigrad.as_torch before anything imports torch (in a notebook, restart the kernel "
                          f"and make it the first cell)")
    sys.meta_path.insert(0, TorchAlias())


install()
