"""An optimizer's `state_dict()` and `load_state_dict()`, in PyTorch's format.

A state dict names parameters by their position (0, 1, 2, ... over all groups in order), never by the
tensor itself, so it can be saved and loaded into an optimizer over other tensors of the same shapes:
    {"state": {0: {"step": tensor(3.), "exp_avg": tensor([...]), ...}, 1: {...}},
     "param_groups": [{"lr": 0.001, ..., "params": [0, 1]}]}
"""
import copy
from collections import defaultdict
from itertools import chain

from ..core import dtype as _dtype
from .._tensor.tensor import Tensor


def state_dict(optimizer):
    """Return `{"state": ..., "param_groups": ...}` with parameters replaced by their index. Mirrors
    `torch.optim.Optimizer.state_dict` (the state's tensors are the optimizer's own, not copies)."""
    param_mappings = {}
    start_index = 0

    def pack_group(group):
        nonlocal start_index
        packed = {k: v for k, v in group.items() if k != "params"}
        param_mappings.update({id(p): i for i, p in enumerate(group["params"], start_index)
                               if id(p) not in param_mappings})
        packed["params"] = [param_mappings[id(p)] for p in group["params"]]
        start_index += len(packed["params"])
        return packed

    param_groups = [pack_group(g) for g in optimizer.param_groups]
    packed_state = {(param_mappings[id(k)] if isinstance(k, Tensor) else k): v for k, v in optimizer.state.items()}
    return {"state": packed_state, "param_groups": param_groups}


def load_state_dict(optimizer, state_dict):
    """Take the state and the groups' options from `state_dict`, pairing saved indices with this optimizer's
    parameters in order. Mirrors `torch.optim.Optimizer.load_state_dict`."""
    state_dict = state_dict.copy()
    groups = optimizer.param_groups
    saved_groups = copy.deepcopy(state_dict["param_groups"])
    if len(groups) != len(saved_groups):
        raise ValueError("loaded state dict has a different number of parameter groups")
    if any(len(g["params"]) != len(s["params"]) for g, s in zip(groups, saved_groups)):
        raise ValueError("loaded state dict contains a parameter group that doesn't match the size of optimizer's "
                         "group")
    id_map = dict(zip(chain.from_iterable(g["params"] for g in saved_groups),
                      chain.from_iterable(g["params"] for g in groups)))
    state = defaultdict(dict)
    for k, v in state_dict["state"].items():
        if k in id_map:
            param = id_map[k]
            state[param] = _cast(param, v, k, state_dict["param_groups"])
        else:
            state[k] = v                 # state of no parameter is kept as it is, as PyTorch does
    for group, new_group in zip(groups, saved_groups):
        new_group["params"] = group["params"]
        if "param_names" in group and "param_names" not in new_group:
            new_group["param_names"] = group["param_names"]
    optimizer.__setstate__({"state": state, "param_groups": saved_groups})


def _cast(param, value, param_id, param_groups, key=None):
    """Give each saved tensor its parameter's float dtype; `step` stays as it is, unless fused or capturable."""
    if isinstance(value, Tensor):
        return _process_value(param, value, param_id, param_groups, key)
    if isinstance(value, dict):
        return {k: _cast(param, v, param_id, param_groups, key=k) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_cast(param, v, param_id, param_groups) for v in value)
    return value


def _process_value(param, value, param_id, param_groups, key):
    group = next((g for g in param_groups if param_id in g["params"]), {})
    if key == "step":
        return value.to(_dtype.float32) if group.get("fused") or group.get("capturable") else value
    return value.to(param.dtype) if param.dtype.is_floating_point else value
