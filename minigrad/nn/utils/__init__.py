"""Helpers around modules and their parameters. Mirrors `torch.nn.utils`.

`parametrize` and `parametrizations` are not imported here, as PyTorch does: they need nn.modules (ModuleList),
and nn.modules.rnn imports this package; minigrad.nn imports them.
"""
from . import rnn
from .clip_grad import (clip_grad_norm, clip_grad_norm_, clip_grad_value_, clip_grads_with_norm_,
                        get_total_norm)
from .convert_parameters import parameters_to_vector, vector_to_parameters
from .weight_norm import remove_weight_norm, weight_norm
