"""Recurrent layers over whole sequences: `RNN`, `LSTM`, `GRU` and their base `RNNBase`. Mirrors
`torch.nn.modules.rnn`, whose one-step cells (rnn_cell.py) are imported here too.

A layer holds the weights of every layer and direction, and its forward pass brings the input to one shape,
padded (T, B, *) or packed data, checks it and the initial state with PyTorch's messages, unrolls the cells over
it (rnn_unroll.py), and shapes the results back:

    input (T, B, input_size), (B, T, input_size) with batch_first, (T, input_size) unbatched, or a PackedSequence
    hx    h_0 (num_layers * D, B, H_out) (zeros if None); for the LSTM a pair (h_0, c_0), c_0 of hidden_size
    ->    output (T, B, D * H_out) as the input, and h_n (or (h_n, c_n)), the final states, shaped as hx

D is 2 for a bidirectional layer, else 1; H_out is hidden_size, or proj_size for a projected LSTM.
"""
import numbers
import warnings

from ..._tensor import creation as _creation
from ..module import Module
from ..parameter import Parameter
from ..utils.rnn import PackedSequence
from .rnn_cell import GRUCell, LSTMCell, RNNCell, RNNCellBase, reset_uniform
from .rnn_unroll import run_layers

__all__ = ["RNNBase", "RNN", "LSTM", "GRU", "RNNCellBase", "RNNCell", "LSTMCell", "GRUCell"]

_GATES = {"LSTM": 4, "GRU": 3, "RNN_TANH": 1, "RNN_RELU": 1}


class RNNBase(Module):
    """The parameters of RNN, LSTM and GRU (`mode` says which) and their shared forward pass. Mirrors
    `torch.nn.RNNBase`.

    Per layer and direction, in this order: weight_ih_l{k} (gates * hidden_size, input size of the layer),
    weight_hh_l{k} (gates * hidden_size, hidden_size), bias_ih_l{k}, bias_hh_l{k}, and weight_hr_l{k}
    (proj_size, hidden_size) for a projected LSTM; the reverse direction's names end in `_reverse`. All are
    drawn from U(-1/sqrt(hidden_size), 1/sqrt(hidden_size)), in that order (PyTorch's numbers).
    """

    def __init__(self, mode, input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0,
                 bidirectional=False, proj_size=0, device=None, dtype=None):
        super().__init__()
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.bias = bias
        self.batch_first = batch_first
        self.dropout = float(dropout)
        self.bidirectional = bidirectional
        self.proj_size = proj_size
        _check_arguments(mode, input_size, hidden_size, num_layers, bias, batch_first, dropout, proj_size)
        gate_size = _GATES[mode] * hidden_size
        real_hidden_size = proj_size if proj_size > 0 else hidden_size
        num_directions = 2 if bidirectional else 1
        self._flat_weights_names, self._all_weights = [], []
        for layer in range(num_layers):
            for direction in range(num_directions):
                layer_input_size = input_size if layer == 0 else real_hidden_size * num_directions
                shapes = {"weight_ih": (gate_size, layer_input_size), "weight_hh": (gate_size, real_hidden_size)}
                if bias:
                    shapes.update(bias_ih=(gate_size,), bias_hh=(gate_size,))
                if proj_size > 0:
                    shapes["weight_hr"] = (proj_size, hidden_size)
                suffix = "_reverse" if direction == 1 else ""
                names = [f"{kind}_l{layer}{suffix}" for kind in shapes]
                for name, shape in zip(names, shapes.values()):
                    setattr(self, name, Parameter(_creation.empty(*shape, device=device, dtype=dtype)))
                self._flat_weights_names.extend(names)
                self._all_weights.append(names)
        self.reset_parameters()

    def reset_parameters(self):
        """Draw every parameter from U(-1/sqrt(hidden_size), 1/sqrt(hidden_size)), in registration order."""
        reset_uniform(self)

    def flatten_parameters(self):
        """Do nothing: PyTorch packs the weights into one buffer for cuDNN, and on the CPU does nothing too."""

    @property
    def _flat_weights(self):
        return [getattr(self, name, None) for name in self._flat_weights_names]

    @property
    def all_weights(self):
        """The parameters, one list per layer and direction: [[weight_ih_l0, weight_hh_l0, ...], ...]."""
        return [[getattr(self, name) for name in names] for names in self._all_weights]

    def _forward(self, input, hx):
        """The forward pass of RNN, LSTM and GRU (PyTorch writes it out in each, for TorchScript): bring the
        input and the initial state to the batched shapes, check them, unroll the cells, shape the results back."""
        if isinstance(input, PackedSequence):
            return self._forward_packed(input, hx)
        lstm = self.mode == "LSTM"
        batched = self._check_dims(input, hx)
        batch_dim = 0 if self.batch_first else 1
        if not batched:                               # a batch of one
            input = input.unsqueeze(batch_dim)
            if hx is not None:
                hx = (hx[0].unsqueeze(1), hx[1].unsqueeze(1)) if lstm else hx.unsqueeze(1)
        if hx is None:
            hx = self._zeros(input, input.size(batch_dim))
        self.check_forward_args(input, hx, None)
        output, hidden = self._unroll(input, None, hx)
        if not batched:
            output = output.squeeze(batch_dim)
            hidden = (hidden[0].squeeze(1), hidden[1].squeeze(1)) if lstm else hidden.squeeze(1)
        return output, hidden

    def _forward_packed(self, sequence, hx):
        data, batch_sizes, sorted_indices, unsorted_indices = sequence
        if hx is None:
            hx = self._zeros(data, int(batch_sizes[0]))
        else:
            hx = self.permute_hidden(hx, sorted_indices)     # the states follow their sequences into sorted order
        if self.mode == "LSTM":
            _check_packed_lstm(self, data, hx, batch_sizes)
        else:
            self.check_forward_args(data, hx, batch_sizes)
        output, hidden = self._unroll(data, batch_sizes.tolist(), hx)
        output = PackedSequence(output, batch_sizes, sorted_indices, unsorted_indices)
        return output, self.permute_hidden(hidden, unsorted_indices)

    def _unroll(self, input, batch_sizes, hx):
        """Run the cells over every step, direction and layer (rnn_unroll.py), as PyTorch's `_VF.lstm` etc."""
        if self.mode == "LSTM":
            if len(hx) != 2:
                raise RuntimeError("lstm expects two hidden states")
            hx = tuple(hx)
        weights = [_layer_weights(self, names) for names in self._all_weights]
        return run_layers(self.mode, input, batch_sizes, hx, weights, self.num_layers, self.dropout, self.training,
                          self.bidirectional, self.batch_first)

    def _zeros(self, input, batch):
        """The initial state when none is given: zeros, (h_0, c_0) for the LSTM."""
        num_directions = 2 if self.bidirectional else 1
        real_hidden_size = self.proj_size if self.proj_size > 0 else self.hidden_size
        like = {"dtype": input.dtype, "device": input.device}
        h = _creation.zeros(self.num_layers * num_directions, batch, real_hidden_size, **like)
        if self.mode == "LSTM":
            return h, _creation.zeros(self.num_layers * num_directions, batch, self.hidden_size, **like)
        return h

    def permute_hidden(self, hx, permutation):
        """Reorder the batch of a hidden state (dim 1) by `permutation` (None: leave it)."""
        if permutation is None:
            return hx
        return hx.index_select(1, permutation)

    def extra_repr(self):
        s = "{input_size}, {hidden_size}"
        if self.proj_size != 0:
            s += ", proj_size={proj_size}"
        if self.num_layers != 1:
            s += ", num_layers={num_layers}"
        if self.bias is not True:
            s += ", bias={bias}"
        if self.batch_first is not False:
            s += ", batch_first={batch_first}"
        if self.dropout != 0:
            s += ", dropout={dropout}"
        if self.bidirectional is not False:
            s += ", bidirectional={bidirectional}"
        return s.format(**self.__dict__)

    # ---- PyTorch's checks of the input and the hidden state, with its messages ----------------------------------

    def _check_dims(self, input, hx):
        """Check that input is 2-D or 3-D and hx matches; return whether the input is batched."""
        if input.dim() not in (2, 3):
            name, tensor = ("RNN", " tensor") if self.mode.startswith("RNN") else (self.mode, "")
            raise ValueError(f"{name}: Expected input to be 2D or 3D, got {input.dim()}D{tensor} instead")
        batched = input.dim() == 3
        want, kind = (3, "batched 3-D") if batched else (2, "unbatched 2-D")
        if self.mode == "LSTM" and hx is not None:
            if hx[0].dim() != want or hx[1].dim() != want:
                raise RuntimeError(f"For {kind} input, hx and cx should also be {want}-D but got "
                                   f"({hx[0].dim()}-D, {hx[1].dim()}-D) tensors")
        elif hx is not None and hx.dim() != want:
            raise RuntimeError(f"For {kind} input, hx should also be {want}-D but got {hx.dim()}-D tensor")
        return batched

    def check_input(self, input, batch_sizes):
        weight = self._flat_weights[0]
        if input.dtype != weight.dtype:
            raise ValueError(f"RNN input dtype ({input.dtype}) does not match weight dtype ({weight.dtype}). "
                             f"Convert input: input.to({weight.dtype}), or convert model: model.to({input.dtype})")
        expected_input_dim = 2 if batch_sizes is not None else 3
        if input.dim() != expected_input_dim:
            raise RuntimeError(f"input must have {expected_input_dim} dimensions, got {input.dim()}")
        if self.input_size != input.size(-1):
            raise RuntimeError(f"input.size(-1) must be equal to input_size. Expected {self.input_size}, "
                               f"got {input.size(-1)}")

    def get_expected_hidden_size(self, input, batch_sizes):
        if batch_sizes is not None:
            mini_batch = int(batch_sizes[0])
        else:
            mini_batch = input.size(0) if self.batch_first else input.size(1)
        num_directions = 2 if self.bidirectional else 1
        size = self.proj_size if self.proj_size > 0 else self.hidden_size
        return (self.num_layers * num_directions, mini_batch, size)

    def check_hidden_size(self, hx, expected_hidden_size, msg="Expected hidden size {}, got {}"):
        if tuple(hx.size()) != expected_hidden_size:
            raise RuntimeError(msg.format(expected_hidden_size, list(hx.size())))

    def check_forward_args(self, input, hidden, batch_sizes):
        self.check_input(input, batch_sizes)
        self.check_hidden_size(hidden, self.get_expected_hidden_size(input, batch_sizes))


class RNN(RNNBase):
    """A multi-layer Elman RNN: h_t = tanh(x_t W_ih^T + b_ih + h_{t-1} W_hh^T + b_hh). Mirrors `torch.nn.RNN`.

    Args:
        input_size, hidden_size: features of x and of h.
        num_layers: stacked layers, each reading the previous one's output. Default: 1.
        nonlinearity: 'tanh' or 'relu'. Default: 'tanh'.
        bias: use b_ih and b_hh. batch_first: input and output are (B, T, *). dropout: drop this fraction of
            each layer's output but the last, in training. bidirectional: also run backwards in time and
            concatenate the two outputs.

    Example:
        >>> rnn = nn.RNN(10, 20, 2)
        >>> output, h_n = rnn(torch.randn(5, 3, 10))
        >>> output.shape, h_n.shape
        (torch.Size([5, 3, 20]), torch.Size([2, 3, 20]))
    """

    def __init__(self, *args, **kwargs):
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        if len(args) > 3:
            self.nonlinearity = args[3]
            args = args[:3] + args[4:]
        else:
            self.nonlinearity = kwargs.pop("nonlinearity", "tanh")
        if self.nonlinearity == "tanh":
            mode = "RNN_TANH"
        elif self.nonlinearity == "relu":
            mode = "RNN_RELU"
        else:
            raise ValueError(f"Unknown nonlinearity '{self.nonlinearity}'. Select from 'tanh' or 'relu'.")
        super().__init__(mode, *args, **kwargs)

    def forward(self, input, hx=None):
        """Run the layers over `input` (T, B, input_size), (B, T, input_size) with batch_first, (T, input_size)
        unbatched, or a PackedSequence, from `hx` (zeros if None).

        Returns (output, h_n): output holds the last layer's h at every step, (T, B, D * hidden_size) (or a
        PackedSequence); h_n the final h of every layer and direction, (num_layers * D, B, hidden_size).
        """
        return self._forward(input, hx)


class LSTM(RNNBase):
    """A multi-layer long short-term memory RNN (gates i, f, g, o; see rnn_cell.py). Mirrors `torch.nn.LSTM`.

    Arguments as `RNN` (no nonlinearity), plus `proj_size`: if > 0, h is projected to this size by weight_hr.

    Example:
        >>> lstm = nn.LSTM(10, 20, 2)
        >>> output, (h_n, c_n) = lstm(torch.randn(5, 3, 10))
        >>> c_n.shape
        torch.Size([2, 3, 20])
    """

    def __init__(self, *args, **kwargs):
        super().__init__("LSTM", *args, **kwargs)

    def forward(self, input, hx=None):
        """As `RNN.forward`, with a pair of states: `hx` is (h_0, c_0) and the result (output, (h_n, c_n));
        c has hidden_size features, h (and the output) proj_size if set."""
        return self._forward(input, hx)

    def get_expected_cell_size(self, input, batch_sizes):
        layers, mini_batch, _ = self.get_expected_hidden_size(input, batch_sizes)
        return (layers, mini_batch, self.hidden_size)     # c has hidden_size features, even with a projection

    def check_forward_args(self, input, hidden, batch_sizes):
        self.check_input(input, batch_sizes)
        self._check_states(input, hidden, batch_sizes)

    def _check_states(self, input, hidden, batch_sizes):
        self.check_hidden_size(hidden[0], self.get_expected_hidden_size(input, batch_sizes),
                               "Expected hidden[0] size {}, got {}")
        self.check_hidden_size(hidden[1], self.get_expected_cell_size(input, batch_sizes),
                               "Expected hidden[1] size {}, got {}")

    def permute_hidden(self, hx, permutation):
        if permutation is None:
            return hx
        return hx[0].index_select(1, permutation), hx[1].index_select(1, permutation)


class GRU(RNNBase):
    """A multi-layer gated recurrent unit RNN (gates r, z, n; see rnn_cell.py). Mirrors `torch.nn.GRU`.

    Arguments as `RNN` (no nonlinearity).

    Example:
        >>> gru = nn.GRU(10, 20, 2)
        >>> output, h_n = gru(torch.randn(5, 3, 10))
        >>> h_n.shape
        torch.Size([2, 3, 20])
    """

    def __init__(self, *args, **kwargs):
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        super().__init__("GRU", *args, **kwargs)

    def forward(self, input, hx=None):
        """As `RNN.forward`."""
        return self._forward(input, hx)


def _layer_weights(module, names):
    """(w_ih, b_ih, w_hh, b_hh, w_hr) of one layer and direction, None where absent."""
    weights = {name.split("_l")[0]: getattr(module, name) for name in names}
    return tuple(weights.get(kind) for kind in ("weight_ih", "bias_ih", "weight_hh", "bias_hh", "weight_hr"))


# ---- PyTorch's checks of the arguments, with its messages -------------------------------------------------------

def _check_arguments(mode, input_size, hidden_size, num_layers, bias, batch_first, dropout, proj_size):
    if not isinstance(dropout, numbers.Number) or not 0 <= dropout <= 1 or isinstance(dropout, bool):
        raise ValueError("dropout should be a number in range [0, 1] representing the probability of an element "
                         "being zeroed")
    if dropout > 0 and num_layers == 1:
        warnings.warn("dropout option adds dropout after all but last recurrent layer, so non-zero dropout expects "
                      f"num_layers greater than 1, but got dropout={dropout} and num_layers={num_layers}",
                      stacklevel=4)
    if not isinstance(bias, bool):
        raise TypeError(f"bias should be of type bool, got: {type(bias).__name__}")
    if not isinstance(batch_first, bool):
        raise TypeError(f"batch_first should be of type bool, got: {type(batch_first).__name__}")
    if not isinstance(input_size, int):
        raise TypeError(f"input_size should be of type int, got: {type(input_size).__name__}")
    if input_size <= 0:
        raise ValueError("input_size must be greater than zero")
    if not isinstance(hidden_size, int):
        raise TypeError(f"hidden_size should be of type int, got: {type(hidden_size).__name__}")
    if hidden_size <= 0:
        raise ValueError("hidden_size must be greater than zero")
    if num_layers <= 0:
        raise ValueError("num_layers must be greater than zero")
    if proj_size < 0:
        raise ValueError("proj_size should be a positive integer or zero to disable projections")
    if proj_size >= hidden_size:
        raise ValueError("proj_size has to be smaller than hidden_size")
    if mode not in _GATES:
        raise ValueError("Unrecognized RNN mode: " + mode)


def _check_packed_lstm(lstm, data, hx, batch_sizes):
    """PyTorch checks nothing of a packed LSTM input in Python; its kernel wants two states, reads their size 2
    (an IndexError for a 2-D state), then reads whatever memory the sizes it was given say, or crashes. Here the
    same errors, then the checks of a padded input's states (a wrong input size fails in `linear`, as there)."""
    if len(hx) != 2:
        raise RuntimeError("lstm expects two hidden states")
    hx[0].size(2), hx[1].size(2)       # what the kernel reads first, to see whether h is projected
    lstm._check_states(data, hx, batch_sizes)
