"""The work behind `Module.state_dict` and `Module.load_state_dict`: a flat, dotted-name view of all the state."""
from collections import OrderedDict, namedtuple
from collections.abc import Mapping

from .._tensor.tensor import Tensor
from ..core.grad_mode import no_grad


class _IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    """What `load_state_dict` returns: the keys it expected but did not get, and the ones it did not expect."""

    __slots__ = ()

    def __repr__(self):
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


def _local_state(module):
    """This module's own parameters and persistent buffers (not its children's), skipping None."""
    items = list(module._parameters.items()) + [
        (k, v) for k, v in module._buffers.items() if k not in module._non_persistent_buffers_set]
    return {k: v for k, v in items if v is not None}


def save(module, destination, prefix, keep_vars):
    """Put the module's parameters, then its persistent buffers, then each child's state, into `destination`."""
    if hasattr(destination, "_metadata"):
        destination._metadata[prefix[:-1]] = {"version": module._version}
    for name, value in _local_state(module).items():
        destination[prefix + name] = value if keep_vars else value.detach()
    for name, child in module._modules.items():
        if child is not None:
            save(child, destination, prefix + name + ".", keep_vars)
    return destination


def _load_local(module, state_dict, prefix, missing, unexpected, errors):
    """Copy this module's own entries from `state_dict`; note what is missing, unexpected or mis-shaped."""
    local = _local_state(module)
    for name, param in local.items():
        key = prefix + name
        if key not in state_dict:
            missing.append(key)
            continue
        value = state_dict[key]
        if not isinstance(value, Tensor):
            errors.append(f'While copying the parameter named "{key}", expected torch.Tensor or Tensor-like '
                          f"object from checkpoint but received {type(value)}")
            continue
        if param.dim() == 0 and value.dim() == 1 and value.shape[0] == 1:
            value = value[0]    # PyTorch still accepts 1-element vectors saved by its 0.3 versions
        if value.shape != param.shape:
            errors.append(f"size mismatch for {key}: copying a param with shape {value.shape} from checkpoint, "
                          f"the shape in current model is {param.shape}.")
            continue
        with no_grad():       # loading is not an operation to differentiate
            param.copy_(value)
    for key in state_dict:
        if key.startswith(prefix):
            first, *rest = key[len(prefix):].split(".", 1)
            if (rest and first not in module._modules) or (not rest and first not in local):
                unexpected.append(key)


def load(module, state_dict, strict):
    """Load `state_dict` into `module` and its descendants; raise one RuntimeError listing every problem."""
    if not isinstance(state_dict, Mapping):
        raise TypeError(f"Expected state_dict to be dict-like, got {type(state_dict)}.")
    missing, unexpected, errors = [], [], []

    def load_tree(current, entries, prefix):
        _load_local(current, entries, prefix, missing, unexpected, errors)
        for name, child in current._modules.items():
            if child is not None:
                child_prefix = prefix + name + "."
                load_tree(child, {k: v for k, v in entries.items() if k.startswith(child_prefix)}, child_prefix)

    load_tree(module, OrderedDict(state_dict), "")
    if strict:
        if unexpected:
            errors.insert(0, "Unexpected key(s) in state_dict: {}. ".format(", ".join(f'"{k}"' for k in unexpected)))
        if missing:
            errors.insert(0, "Missing key(s) in state_dict: {}. ".format(", ".join(f'"{k}"' for k in missing)))
    if errors:
        raise RuntimeError("Error(s) in loading state_dict for {}:\n\t{}".format(type(module).__name__,
                                                                                "\n\t".join(errors)))
    return _IncompatibleKeys(missing, unexpected)
