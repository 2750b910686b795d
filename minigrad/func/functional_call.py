"""`torch.func.functional_call` and `stack_module_state`: a Module as a function of its parameters.

`functional_call(model, params, x)` runs `model(x)` with the tensors of `params` (a dict by qualified name, or a
tuple of dicts) in place of the model's own parameters and buffers, then puts the model's own back: this is
how `grad` and `vmap` take gradients with respect to parameters, or run many copies of a model at once.
"""
from .._tensor.functions import stack

__all__ = ["functional_call", "stack_module_state"]


def functional_call(module, parameter_and_buffer_dicts, args=None, kwargs=None, *, tie_weights=True, strict=False):
    if isinstance(parameter_and_buffer_dicts, dict):
        tensors = dict(parameter_and_buffer_dicts)
    else:
        tensors = {}
        for d in parameter_and_buffer_dicts:
            for key in d:
                if key in tensors:
                    raise ValueError(f"{key} appeared in multiple dictionaries; behavior of functional call is "
                                     "ambiguous")
            tensors.update(d)
    known = {name for name, _ in module.named_parameters(remove_duplicate=False)} | \
            {name for name, _ in module.named_buffers(remove_duplicate=False)}
    if strict:
        missing = sorted(known - tensors.keys())
        unexpected = sorted(tensors.keys() - known)
        if missing or unexpected:
            parts = []
            if unexpected:
                parts.append("Unexpected key(s): " + ", ".join(repr(k) for k in unexpected) + ".")
            if missing:
                parts.append("Missing key(s): " + ", ".join(repr(k) for k in missing) + ".")
            raise RuntimeError("Error(s) in reparametrizing for " + type(module).__name__ + ":\n\t" + "\n\t".join(parts))
    originals = []
    try:
        for name, value in tensors.items():
            owner, leaf = _owner(module, name)
            slot = "_parameters" if leaf in owner._parameters else ("_buffers" if leaf in owner._buffers else None)
            if slot is None:
                originals.append((owner, leaf, None, owner.__dict__.get(leaf)))
                object.__setattr__(owner, leaf, value)
            else:
                originals.append((owner, leaf, slot, getattr(owner, slot)[leaf]))
                getattr(owner, slot)[leaf] = value
        if args is None:
            args = ()
        elif not isinstance(args, tuple):
            args = (args,)
        return module(*args, **(kwargs or {}))
    finally:
        for owner, leaf, slot, value in reversed(originals):
            if slot is None:
                object.__delattr__(owner, leaf) if value is None else object.__setattr__(owner, leaf, value)
            else:
                getattr(owner, slot)[leaf] = value


def _owner(module, name):
    *path, leaf = name.split(".")
    for part in path:
        module = getattr(module, part)
    return module, leaf


def stack_module_state(models):
    """Stack the parameters and buffers of same-shaped models: two dicts by name, each tensor with a new first
    dimension, one entry per model (the parameters detached and requiring grad, as in PyTorch)."""
    if not models:
        raise RuntimeError("stack_module_state: Expected at least one model, got 0.")
    if not (all(m.training for m in models) or not any(m.training for m in models)):
        raise RuntimeError("stack_module_state: Expected all models to have the same training/eval mode.")
    names = [n for n, _ in models[0].named_parameters()]
    params = {n: stack([dict(m.named_parameters())[n] for m in models]).detach().requires_grad_() for n in names}
    buffer_names = [n for n, _ in models[0].named_buffers()]
    buffers = {n: stack([dict(m.named_buffers())[n] for m in models]) for n in buffer_names}
    return params, buffers
