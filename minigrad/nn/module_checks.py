"""The checks behind Module's registration, with PyTorch's exact messages (kept apart so module.py reads short)."""
from .._tensor.tensor import Tensor
from .parameter import Parameter


def typename(obj):
    """Name a value's type as PyTorch's messages do: `torch.FloatTensor` for a tensor, `int` for an int."""
    if isinstance(obj, Tensor):
        return obj.type()
    cls = type(obj)
    module = cls.__module__
    return cls.__qualname__ if module in ("", "builtins") else f"{module}.{cls.__qualname__}"


def check_name(module, kind, name, registry):
    """A parameter or buffer name must be a non-empty string without dots, not already some other attribute."""
    if not isinstance(name, str):
        raise TypeError(f"{kind} name should be a string. Got {typename(name)}")
    if "." in name:
        raise KeyError(f"{kind} name can't contain \".\"")
    if name == "":
        raise KeyError(f'{kind} name can\'t be empty string ""')
    if hasattr(module, name) and name not in registry:
        raise KeyError(f"attribute '{name}' already exists")


def check_module_name(module, name):
    """The same rules for a child module's name (PyTorch checks them in another order, with other words)."""
    if not isinstance(name, str):
        raise TypeError(f"module name should be a string. Got {typename(name)}")
    if hasattr(module, name) and name not in module._modules:
        raise KeyError(f"attribute '{name}' already exists")
    if "." in name:
        raise KeyError(f"module name can't contain \".\", got: {name}")
    if name == "":
        raise KeyError('module name can\'t be empty string ""')


def check_parameter(name, param):
    """Only a leaf `Parameter` can be registered as a parameter."""
    if not isinstance(param, Parameter):
        raise TypeError(f"cannot assign '{typename(param)}' object to parameter '{name}' "
                        "(torch.nn.Parameter or None required)")
    if param.grad_fn:
        raise ValueError(f"Cannot assign non-leaf Tensor to parameter '{name}'. Model parameters must be created "
                         f"explicitly. To express '{name}' as a function of another Tensor, compute the value in the "
                         "forward() method.")


def check_buffer(name, tensor):
    """A buffer is a tensor (or None)."""
    if tensor is not None and not isinstance(tensor, Tensor):
        raise TypeError(f"cannot assign '{typename(tensor)}' object to buffer '{name}' "
                        "(torch Tensor or None required)")


_EXPECTED = {"parameter": "torch.nn.Parameter or None expected", "child module": "torch.nn.Module or None expected",
             "buffer": "torch.nn.Buffer, torch.Tensor or None expected"}


def wrong_assignment(kind, name, value):
    """The TypeError for `module.name = value` when `name` is registered as a `kind` and value is not one."""
    return TypeError(f"cannot assign '{typename(value)}' as {kind} '{name}' ({_EXPECTED[kind]})")
