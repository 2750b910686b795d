"""Unroll a recurrent layer: run its cell (rnn_cell.py) over the time steps, both directions and the stacked
layers, as ATen's CPU code does (aten/src/ATen/native/RNN.cpp); `RNN`, `LSTM` and `GRU` (rnn.py) call
`run_layers`, as PyTorch's call `_VF.rnn_tanh`, `_VF.lstm`, ...

Per layer and direction: one `linear` of the whole input (the input's share of every gate at every step), the
cell at each step, `stack` of the outputs (`cat` for packed data); then `cat` of the two directions, dropout
between layers in training, and `stack` of the final states. A packed sequence shrinks as its sequences end: the
ended ones leave their final state behind, and going backwards in time they join as they start.

Two details of PyTorch's kernels show in its results, and are imitated at the end: a float32 LSTM runs on
oneDNN, whose node MkldnnRnnLayerBackward0 is the grad_fn of a layer's output; RNN and GRU turn a batch_first
output around in place (TransposeBackward1).
"""
import numpy as np

from ..._tensor import functions as _functions
from ...core.dtype import float32
from ...core.forward_ad import not_implemented
from ...core.function import Function
from ...ops._common import warn_in_user_code, wrap
from ...ops.shape import Transpose
from .. import functional as F
from .rnn_cell import CELLS


def run_layers(mode, input, batch_sizes, hx, weights, num_layers, dropout, train, bidirectional, batch_first):
    """Run the stacked layers (ATen's rnn_tanh, rnn_relu, lstm, gru) over a padded input, or over packed data
    when `batch_sizes` (a list) is given; return the output and the final states, (num_layers * D, B, H)."""
    onednn = mode == "LSTM" and _uses_onednn(input, batch_sizes, hx)
    if onednn and batch_sizes is not None:       # all sequences equally long: the data is a padded batch
        padded = input.view(len(batch_sizes), batch_sizes[0], *input.shape[1:])
        output, hidden = run_layers(mode, padded, None, hx, weights, num_layers, dropout, train, bidirectional,
                                    False)
        return output.view(-1, output.size(-1)), hidden
    if batch_first and batch_sizes is None:
        input = input.transpose(0, 1)
    cell = CELLS[mode]
    num_directions = 2 if bidirectional else 1
    states = list(zip(hx[0].unbind(0), hx[1].unbind(0))) if mode == "LSTM" else hx.unbind(0)
    layer_input, finals = input, []
    for layer in range(num_layers):
        outputs = []
        for direction in range(num_directions):
            index = layer * num_directions + direction
            w_ih, b_ih, *rest = weights[index]
            output, final = _run_layer(cell, F.linear(layer_input, w_ih, b_ih), batch_sizes, states[index], rest,
                                       reverse=direction == 1)
            if onednn:                                  # the node of PyTorch's kernel, for the grad_fn
                output, *final = MkldnnRnnLayer.apply(output, *final)
            outputs.append(output)
            finals.append(final)
        layer_input = outputs[0] if num_directions == 1 else _functions.cat(outputs, outputs[0].dim() - 1)
        if dropout != 0 and train and layer < num_layers - 1:
            layer_input = F.dropout(layer_input, dropout, True)
    if mode == "LSTM":
        hidden = tuple(_functions.stack([final[i] for final in finals], 0) for i in range(2))
    else:
        hidden = _functions.stack(finals, 0)
    if batch_first and batch_sizes is None:
        layer_input = layer_input.transpose(0, 1) if mode == "LSTM" else TransposeInPlace.apply(layer_input, 0, 1)
    return layer_input, hidden


def _run_layer(cell, gates, batch_sizes, hidden, weights, reverse):
    """Run `cell` at every step of one layer in one direction, from `hidden`, given the input's share of the gates
    (T, B, G), or packed (batch_sizes[t] rows per step). Return the outputs, stacked (packed like the input), and
    the final state of every sequence.

    Packed, a sequence that has ended leaves its state behind as the batch shrinks; going backwards in time,
    the sequences join as they start, each from its initial state.
    """
    if batch_sizes is None:
        steps = gates.unbind(0)
        if not steps:
            raise RuntimeError("Expected sequence length to be larger than 0 in RNN")
    else:
        offsets = np.cumsum([0] + batch_sizes).tolist()
        steps = [gates[offsets[t]:offsets[t + 1]] for t in range(len(batch_sizes))]
    outputs = []
    if not reverse:
        finished = []
        for gi in steps:
            if gi.size(0) < _batch(hidden):
                finished.append(_rows(hidden, gi.size(0), _batch(hidden)))
                hidden = _rows(hidden, 0, gi.size(0))
            hidden = cell(gi, hidden, *weights)
            outputs.append(_output(hidden))
        final = _concat([hidden] + finished[::-1])
    else:
        initial = hidden
        if steps[-1].size(0) < _batch(initial):
            hidden = _rows(initial, 0, steps[-1].size(0))
        for gi in reversed(steps):
            if gi.size(0) > _batch(hidden):
                hidden = _concat([hidden, _rows(initial, _batch(hidden), gi.size(0))])
            hidden = cell(gi, hidden, *weights)
            outputs.append(_output(hidden))
        outputs.reverse()
        final = hidden
    join = _functions.stack if batch_sizes is None else _functions.cat
    return join(outputs, 0), final


# ---- a hidden state is a tensor (RNN, GRU) or a pair (h, c) (LSTM); these read and cut both alike -------------

def _batch(state):
    return (state[0] if isinstance(state, tuple) else state).size(0)


def _output(state):
    return state[0] if isinstance(state, tuple) else state


def _rows(state, start, stop):
    return tuple(s[start:stop] for s in state) if isinstance(state, tuple) else state[start:stop]


def _concat(states):
    if len(states) == 1:
        return states[0]
    if isinstance(states[0], tuple):
        return tuple(_functions.cat(parts, 0) for parts in zip(*states))
    return _functions.cat(states, 0)


# ---- PyTorch's CPU kernels, as far as they show: oneDNN for a float32 LSTM, transpose_ for a batch_first RNN ----

def _uses_onednn(input, batch_sizes, hx):
    """Whether PyTorch runs this LSTM on oneDNN: float32, not empty, no projection (it warns once per process
    about a projected one), and a padded input or packed data whose sequences are all equally long."""
    if input.dtype != float32 or input.numel() == 0:
        return False
    projected = hx[0].size(2) != hx[1].size(2)
    if batch_sizes is not None and (projected or batch_sizes[0] != batch_sizes[-1]):
        return False
    if projected:
        if not _uses_onednn.warned:
            _uses_onednn.warned = True
            warn_in_user_code("LSTM with projections is not supported with oneDNN. Using default implementation. "
                              "(Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/RNN.cpp:1512.)")
        return False
    if hx[0].dtype != float32 or hx[1].dtype != float32:
        raise RuntimeError("get_mkldnn_dtype: unsupported data type")
    return True


_uses_onednn.warned = False


class MkldnnRnnLayer(Function):
    """z = (output, h_n, c_n) of one LSTM layer and direction, passed through;  dz/d(inputs) = the gradients.

    Stands for PyTorch's oneDNN kernel, which computes a float32 LSTM layer as one node: here the cells compute
    it as for every other layer, and this node gives the results PyTorch's grad_fn, so that a printed output reads
    `grad_fn=<MkldnnRnnLayerBackward0>`. PyTorch's node has edges to the input, the weights and h_0, c_0; this
    one to the cells' results.
    """
    node_name = "MkldnnRnnLayerBackward0"

    @staticmethod
    def forward(output, hy, cy):
        return wrap(output._data), wrap(hy._data), wrap(cy._data)

    @staticmethod
    def setup_context(ctx, inputs, output):
        pass

    @staticmethod
    def backward(ctx, grad_output, grad_hy, grad_cy):
        return grad_output, grad_hy, grad_cy

    jvp = not_implemented("mkldnn_rnn_layer")


class TransposeInPlace(Transpose):
    """z = x with dims d0 and d1 swapped, a tensor of its own;  dz/dx = the gradient swapped back.

    PyTorch's RNN and GRU turn a batch_first output around with `transpose_` of the stacked steps, a tensor no one
    else holds: so the output is no view, and its grad_fn is TransposeBackward1."""
    node_name = "TransposeBackward1"

    @staticmethod
    def forward(x, d0, d1):
        return wrap(np.swapaxes(x._data, d0, d1))
