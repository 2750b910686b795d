"""One time step of a recurrent network: the cell functions, and the modules `RNNCell`, `LSTMCell`, `GRUCell`.

A cell reads the input x_t and the hidden state h (and, for the LSTM, the cell state c) and returns the next
state. Each gate sums the input's share x W_ih^T + b_ih and the state's share h W_hh^T + b_hh:

    RNN:   h' = tanh(x W_ih^T + b_ih + h W_hh^T + b_hh)                  (or relu)
    LSTM:  i, f, g, o = split(x W_ih^T + b_ih + h W_hh^T + b_hh, 4)
           c' = sigmoid(f) * c + sigmoid(i) * tanh(g);  h' = sigmoid(o) * tanh(c')   (then h' W_hr^T with proj_size)
    GRU:   r, z, n from x W_ih^T + b_ih and h W_hh^T + b_hh (split in 3):
           r = sigmoid(x_r + h_r);  z = sigmoid(x_z + h_z);  n = tanh(x_n + r * h_n);  h' = (1 - z) * n + z * h

The cell functions take the input's share `gi` already computed: a sequence layer (rnn.py) computes it for all
time steps in one `linear` before its loop, as ATen does on the CPU; the cell modules compute it for their one
step. The functions are ATen's cells (aten/src/ATen/native/RNN.cpp) op for op, so the graph has PyTorch's nodes:
RNNCell's output is TanhBackward0 (ReluBackward0), GRUCell's AddBackward0, LSTMCell's h MulBackward0 and c
AddBackward0. Where PyTorch differs: its gate split is UnsafeSplitBackward0, here SplitBackward0.
"""
import math

from ..._tensor import creation as _creation
from .. import functional as F
from .. import init
from ..module import Module
from ..parameter import Parameter

__all__ = ["RNNCellBase", "RNNCell", "LSTMCell", "GRUCell"]


# ---- the cells: one step from gi = x W_ih^T + b_ih and the state; the same signature for the four kinds ---------

def rnn_tanh_cell(gi, h, w_hh, b_hh, w_hr=None):
    return (F.linear(h, w_hh, b_hh) + gi).tanh()


def rnn_relu_cell(gi, h, w_hh, b_hh, w_hr=None):
    return (F.linear(h, w_hh, b_hh) + gi).relu()


def lstm_cell(gi, state, w_hh, b_hh, w_hr=None):
    h, c = state
    ingate, forgetgate, cellgate, outgate = (F.linear(h, w_hh, b_hh) + gi).chunk(4, 1)
    c = forgetgate.sigmoid() * c + ingate.sigmoid() * cellgate.tanh()
    h = outgate.sigmoid() * c.tanh()
    if w_hr is not None:
        h = h.matmul(w_hr.t())
    return h, c


def gru_cell(gi, h, w_hh, b_hh, w_hr=None):
    i_r, i_z, i_n = gi.chunk(3, 1)
    h_r, h_z, h_n = F.linear(h, w_hh, b_hh).chunk(3, 1)
    resetgate = (h_r + i_r).sigmoid()
    inputgate = (h_z + i_z).sigmoid()
    newgate = (i_n + h_n * resetgate).tanh()
    return (h - newgate) * inputgate + newgate


CELLS = {"RNN_TANH": rnn_tanh_cell, "RNN_RELU": rnn_relu_cell, "LSTM": lstm_cell, "GRU": gru_cell}


def reset_uniform(module):
    """Draw every parameter of `module` from U(-1/sqrt(hidden_size), 1/sqrt(hidden_size)), in registration order
    (PyTorch's `reset_parameters` of its recurrent layers and cells, the same random numbers)."""
    stdv = 1.0 / math.sqrt(module.hidden_size) if module.hidden_size > 0 else 0
    for weight in module.parameters():
        init.uniform_(weight, -stdv, stdv)


# ---- the cells as modules: input (B, input_size) or unbatched (input_size,) -------------------------------------

class RNNCellBase(Module):
    """The parameters of a one-step cell: weight_ih (chunks * hidden, input), weight_hh (chunks * hidden,
    hidden), bias_ih and bias_hh, all from U(-1/sqrt(hidden_size), 1/sqrt(hidden_size)). Mirrors
    `torch.nn.RNNCellBase`."""

    def __init__(self, input_size, hidden_size, bias, num_chunks, device=None, dtype=None):
        super().__init__()
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.bias = bias
        factory = {"device": device, "dtype": dtype}
        self.weight_ih = Parameter(_creation.empty(num_chunks * hidden_size, input_size, **factory))
        self.weight_hh = Parameter(_creation.empty(num_chunks * hidden_size, hidden_size, **factory))
        if bias:
            self.bias_ih = Parameter(_creation.empty(num_chunks * hidden_size, **factory))
            self.bias_hh = Parameter(_creation.empty(num_chunks * hidden_size, **factory))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def extra_repr(self):
        s = "{input_size}, {hidden_size}"
        if "bias" in self.__dict__ and self.bias is not True:
            s += ", bias={bias}"
        if "nonlinearity" in self.__dict__ and self.nonlinearity != "tanh":
            s += ", nonlinearity={nonlinearity}"
        return s.format(**self.__dict__)

    def reset_parameters(self):
        """Draw fresh weights from U(-1/sqrt(hidden_size), 1/sqrt(hidden_size))."""
        reset_uniform(self)

    def _batch(self, input, hx, states, name):
        """Check the dims as PyTorch's forward does; return the input as a batch of one if it is unbatched, the
        `states` hidden tensors (zeros if hx is None) likewise, and whether the input was batched."""
        if input.dim() not in (1, 2):
            raise ValueError(f"{name}: Expected input to be 1D or 2D, got {input.dim()}D instead")
        for idx, value in enumerate(() if hx is None else hx if states == 2 else (hx,)):
            if value.dim() not in (1, 2):
                what = f"hx[{idx}]" if states == 2 else "hidden"
                raise ValueError(f"{name}: Expected {what} to be 1D or 2D, got {value.dim()}D instead")
        batched = input.dim() == 2
        if not batched:
            input = input.unsqueeze(0)
        if hx is None:
            zeros = _creation.zeros(input.size(0), self.hidden_size, dtype=input.dtype, device=input.device)
            hidden = (zeros,) * states
        elif states == 2:
            hidden = tuple(hx) if batched else (hx[0].unsqueeze(0), hx[1].unsqueeze(0))
        else:
            hidden = (hx if batched else hx.unsqueeze(0),)
        return input, hidden, batched

    def _step(self, cell, input, hidden):
        """ATen's checks of the sizes, with its messages, then one step of `cell`."""
        if input.size(1) != self.weight_ih.size(1):
            raise RuntimeError(f"input has inconsistent input_size: got {input.size(1)} expected "
                               f"{self.weight_ih.size(1)}")
        for idx, h in enumerate(hidden):
            if input.size(0) != h.size(0):
                raise RuntimeError(f"Input batch size {input.size(0)} doesn't match hidden{idx} batch size "
                                   f"{h.size(0)}")
            if h.size(1) != self.weight_hh.size(1):
                raise RuntimeError(f"hidden{idx} has inconsistent hidden_size: got {h.size(1)}, expected "
                                   f"{self.weight_hh.size(1)}")
        gi = F.linear(input, self.weight_ih, self.bias_ih)
        return cell(gi, hidden if cell is lstm_cell else hidden[0], self.weight_hh, self.bias_hh)


class RNNCell(RNNCellBase):
    """One step of an Elman RNN: h' = tanh(x W_ih^T + b_ih + h W_hh^T + b_hh) (or relu). Mirrors
    `torch.nn.RNNCell`.

    Args:
        input_size, hidden_size: features of x and of h.
        bias: use b_ih and b_hh. Default: True.
        nonlinearity: 'tanh' or 'relu'. Default: 'tanh'.

    Example:
        >>> cell = nn.RNNCell(10, 20)
        >>> cell(torch.randn(3, 10)).shape
        torch.Size([3, 20])
    """

    def __init__(self, input_size, hidden_size, bias=True, nonlinearity="tanh", device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=1, device=device, dtype=dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input, hx=None):
        """Return h' (B, hidden_size), or (hidden_size,) for an unbatched input; h is zeros if hx is None."""
        input, hidden, batched = self._batch(input, hx, 1, "RNNCell")
        if self.nonlinearity == "tanh":
            cell = rnn_tanh_cell
        elif self.nonlinearity == "relu":
            cell = rnn_relu_cell
        else:
            raise RuntimeError(f"Unknown nonlinearity: {self.nonlinearity}")
        ret = self._step(cell, input, hidden)
        return ret if batched else ret.squeeze(0)


class LSTMCell(RNNCellBase):
    """One step of an LSTM: returns (h', c') from input and (h, c) (zeros if None). Mirrors `torch.nn.LSTMCell`.

    Example:
        >>> cell = nn.LSTMCell(10, 20)
        >>> h, c = cell(torch.randn(3, 10))
        >>> c.shape
        torch.Size([3, 20])
    """

    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=4, device=device, dtype=dtype)

    def forward(self, input, hx=None):
        input, hidden, batched = self._batch(input, hx, 2, "LSTMCell")
        if len(hidden) != 2:
            raise RuntimeError("lstm_cell expects two hidden states")
        h, c = self._step(lstm_cell, input, hidden)
        return (h, c) if batched else (h.squeeze(0), c.squeeze(0))


class GRUCell(RNNCellBase):
    """One step of a GRU: returns h' from input and h (zeros if None). Mirrors `torch.nn.GRUCell`.

    Example:
        >>> cell = nn.GRUCell(10, 20)
        >>> cell(torch.randn(3, 10)).shape
        torch.Size([3, 20])
    """

    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=3, device=device, dtype=dtype)

    def forward(self, input, hx=None):
        input, hidden, batched = self._batch(input, hx, 1, "GRUCell")
        ret = self._step(gru_cell, input, hidden)
        return ret if batched else ret.squeeze(0)
