"""Weight initialisation: fill a tensor in place, without recording it in the graph. Mirrors `torch.nn.init`.

Each function runs under `no_grad` (so it works on parameters that require grad) and returns the tensor.
Typical use, with `Module.apply`:

    >>> def init_weights(m):
    ...     if isinstance(m, nn.Linear):
    ...         nn.init.xavier_uniform_(m.weight)
    ...         nn.init.zeros_(m.bias)
    >>> net.apply(init_weights)
"""
from ._init_basic import (_calculate_correct_fan, _calculate_fan_in_and_fan_out, calculate_gain,  # noqa: F401
                          constant_, kaiming_normal_, kaiming_uniform_, normal_, ones_, uniform_, xavier_normal_,
                          xavier_uniform_, zeros_)
from ._init_extra import *  # noqa: F401,F403 - eye_, dirac_, orthogonal_, trunc_normal_, sparse_, old names
