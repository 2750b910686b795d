"""Parity with real PyTorch for the recurrent layers (nn.RNN, LSTM, GRU and their cells) and nn.utils.rnn.

One table of layers drives the checks: initial weights bit for bit after manual_seed; outputs, final states,
their grad_fn names and the gradients of every parameter, of the input and of h0 (c0), in float64 (to 1e-12) and
float32 (to float round-off; a float32 LSTM is PyTorch's oneDNN kernel, MkldnnRnnLayerBackward0), across
batch_first, bidirectional, stacked layers, projections, unbatched input, dropout masks and packed sequences.
Then reprs, parameter names, the packing utilities, second derivatives, forward AD and the errors. Each example
takes the library and returns tensors or plain data; `parity` (tests/conftest.py) runs it on both and compares
(values, dtypes, shapes, grad_fn names, printed text, warnings and exceptions).
"""
import pytest

SEQ, BATCH, IN, HID = 5, 3, 4, 6
TOLERANCES = {"float64": dict(rtol=1e-10, atol=1e-12), "float32": dict(rtol=1e-5, atol=1e-6)}


def run_layer(lib, make, dtype, shape, hx=None, lengths=None, train=False):
    """Build a layer after manual_seed(0), run it on a seeded input (packed with these `lengths`, unsorted, if
    given), backprop a weighted sum of all it returned; return its parameters, results, their grad_fn names and
    every gradient."""
    lib.manual_seed(0)
    layer = make(lib.nn).to(getattr(lib, dtype))
    layer.train(train)
    x = lib.randn(*shape, dtype=getattr(lib, dtype), requires_grad=True)
    states = [lib.randn(*s, dtype=getattr(lib, dtype), requires_grad=True) for s in hx or ()]
    arg = x
    if lengths is not None:
        arg = lib.nn.utils.rnn.pack_padded_sequence(x, lengths, batch_first=layer.batch_first, enforce_sorted=False)
    h = None if not states else states[0] if len(states) == 1 else tuple(states)
    out = layer(arg) if h is None else layer(arg, h)
    results = []
    for r in out if isinstance(out, tuple) else (out,):
        if isinstance(r, lib.nn.utils.rnn.PackedSequence):
            results += [r.data, r.batch_sizes, r.sorted_indices, r.unsorted_indices]
        else:
            results += list(r) if isinstance(r, tuple) else [r]
    floats = [t for t in results if t.is_floating_point()]
    loss = sum((t * lib.arange(t.numel(), dtype=t.dtype).reshape(t.shape).cos()).sum() for t in floats)
    loss.backward()
    return {"parameters": dict(layer.named_parameters()), "results": results,
            "grad_fns": [t.grad_fn.name() for t in floats], "is_view": [t._base is not None for t in floats],
            "grads": {name: p.grad for name, p in layer.named_parameters()},
            "input_grads": [t.grad for t in [x] + states]}


S, B = (SEQ, BATCH, IN), (BATCH, SEQ, IN)       # the input's shape, time-major and batch_first
LAYERS = {
    "rnn_tanh": (lambda nn: nn.RNN(IN, HID), S, None),
    "rnn_relu_2layers_h0": (lambda nn: nn.RNN(IN, HID, 2, nonlinearity="relu"), S, [(2, BATCH, HID)]),
    "rnn_bidirectional_batch_first": (lambda nn: nn.RNN(IN, HID, bidirectional=True, batch_first=True), B, None),
    "rnn_no_bias_positional": (lambda nn: nn.RNN(IN, HID, 1, "relu", False), S, None),
    "rnn_unbatched_batch_first": (lambda nn: nn.RNN(IN, HID, 2, batch_first=True), (SEQ, IN), [(2, HID)]),
    "lstm": (lambda nn: nn.LSTM(IN, HID), S, None),
    "lstm_h0_no_bias": (lambda nn: nn.LSTM(IN, HID, bias=False), S, [(1, BATCH, HID), (1, BATCH, HID)]),
    "lstm_2layers_bidirectional_h0": (lambda nn: nn.LSTM(IN, HID, 2, bidirectional=True), S,
                                      [(4, BATCH, HID), (4, BATCH, HID)]),
    "lstm_batch_first": (lambda nn: nn.LSTM(IN, HID, batch_first=True), B, None),
    "lstm_proj": (lambda nn: nn.LSTM(IN, HID, 2, proj_size=3, batch_first=True), B, None),
    "lstm_proj_bidirectional_h0": (lambda nn: nn.LSTM(IN, HID, proj_size=2, bidirectional=True), S,
                                   [(2, BATCH, 2), (2, BATCH, HID)]),
    "lstm_unbatched": (lambda nn: nn.LSTM(IN, HID), (SEQ, IN), [(1, HID), (1, HID)]),
    "gru": (lambda nn: nn.GRU(IN, HID), S, None),
    "gru_3layers_bidirectional_batch_first": (lambda nn: nn.GRU(IN, HID, 3, batch_first=True, bidirectional=True),
                                              B, [(6, BATCH, HID)]),
    "gru_unbatched": (lambda nn: nn.GRU(IN, HID, 2), (SEQ, IN), [(2, HID)]),
    "rnn_cell": (lambda nn: nn.RNNCell(IN, HID), (BATCH, IN), [(BATCH, HID)]),
    "rnn_cell_relu_unbatched": (lambda nn: nn.RNNCell(IN, HID, nonlinearity="relu"), (IN,), None),
    "lstm_cell": (lambda nn: nn.LSTMCell(IN, HID), (BATCH, IN), [(BATCH, HID), (BATCH, HID)]),
    "lstm_cell_no_bias_no_h": (lambda nn: nn.LSTMCell(IN, HID, bias=False), (BATCH, IN), None),
    "lstm_cell_unbatched": (lambda nn: nn.LSTMCell(IN, HID), (IN,), [(HID,), (HID,)]),
    "gru_cell": (lambda nn: nn.GRUCell(IN, HID), (BATCH, IN), [(BATCH, HID)]),
    "gru_cell_unbatched": (lambda nn: nn.GRUCell(IN, HID), (IN,), [(HID,)]),
}

# (layer, lengths of the 4 sequences of the batch): packed unsorted; equal lengths take oneDNN in a float32 LSTM
PACKED = {
    "rnn": (lambda nn: nn.RNN(IN, HID), [3, 5, 1, 3]),
    "rnn_bidirectional_2layers": (lambda nn: nn.RNN(IN, HID, 2, bidirectional=True), [3, 5, 1, 3]),
    "lstm_bidirectional_h0": (lambda nn: nn.LSTM(IN, HID, bidirectional=True), [2, 5, 4, 5]),
    "lstm_proj_batch_first": (lambda nn: nn.LSTM(IN, HID, proj_size=2, batch_first=True), [3, 5, 1, 3]),
    "lstm_equal_lengths": (lambda nn: nn.LSTM(IN, HID), [4, 4, 4, 4]),
    "lstm_equal_lengths_bidirectional": (lambda nn: nn.LSTM(IN, HID, 2, bidirectional=True), [5, 5, 5, 5]),
    "gru_2layers": (lambda nn: nn.GRU(IN, HID, 2), [3, 5, 1, 3]),
}

DROPOUT = {
    "rnn_3layers": (lambda nn: nn.RNN(IN, HID, 3, dropout=0.4), S, None),
    "lstm_3layers": (lambda nn: nn.LSTM(IN, HID, 3, dropout=0.4), S, None),
    "lstm_bidirectional_batch_first": (lambda nn: nn.LSTM(IN, HID, 2, dropout=0.5, bidirectional=True,
                                                          batch_first=True), B, None),
    "gru_bidirectional": (lambda nn: nn.GRU(IN, HID, 2, dropout=0.5, bidirectional=True), S, None),
}


def parameters_of(lib, make):
    lib.manual_seed(0)
    return {k: v.detach() for k, v in make(lib.nn).named_parameters()}


@pytest.mark.parametrize("name", list(LAYERS))
def test_initial_weights_are_torchs_bit_for_bit(parity, name):
    parity(lambda lib: parameters_of(lib, LAYERS[name][0]), rtol=0, atol=0)


@pytest.mark.parametrize("dtype", list(TOLERANCES))
@pytest.mark.parametrize("name", list(LAYERS))
def test_values_graph_and_gradients(parity, name, dtype):
    make, shape, hx = LAYERS[name]
    parity(lambda lib: run_layer(lib, make, dtype, shape, hx), **TOLERANCES[dtype])


@pytest.mark.parametrize("dtype", list(TOLERANCES))
@pytest.mark.parametrize("name", list(PACKED))
def test_packed_sequences(parity, name, dtype):
    make, lengths = PACKED[name]
    shape = (4, SEQ, IN) if "batch_first" in name else (SEQ, 4, IN)
    hx = [(2, 4, HID), (2, 4, HID)] if "h0" in name else None
    parity(lambda lib: run_layer(lib, make, dtype, shape, hx, lengths=lengths), **TOLERANCES[dtype])


@pytest.mark.parametrize("dtype", list(TOLERANCES))
@pytest.mark.parametrize("name", list(DROPOUT))
def test_dropout_between_layers_draws_torchs_masks(parity, name, dtype):
    make, shape, hx = DROPOUT[name]
    parity(lambda lib: run_layer(lib, make, dtype, shape, hx, train=True), **TOLERANCES[dtype])


def test_packed_dropout_draws_torchs_masks(parity):
    make = lambda nn: nn.GRU(IN, HID, 2, dropout=0.3, bidirectional=True)
    parity(lambda lib: run_layer(lib, make, "float64", (SEQ, 4, IN), lengths=[3, 5, 1, 3], train=True),
           **TOLERANCES["float64"])


def test_second_derivatives(parity):
    def example(lib):
        lib.manual_seed(0)
        gru = lib.nn.GRU(3, 4, 2, bidirectional=True).double()
        lstm = lib.nn.LSTM(3, 4, proj_size=2).double()
        x = lib.randn(3, 2, 3, dtype=lib.float64, requires_grad=True)
        out, h = gru(x)
        out2, (h2, c2) = lstm(x)
        g, = lib.autograd.grad((out ** 2).sum() + h.sum() + (out2 ** 3).sum() + c2.sum(), x, create_graph=True)
        (g ** 2).sum().backward()
        return [g, x.grad, gru.weight_hh_l1_reverse.grad, lstm.weight_hr_l0.grad]
    parity(example, **TOLERANCES["float64"])


def test_forward_ad(parity):
    def example(lib):
        lib.manual_seed(0)
        x, t = lib.randn(3, 1, 2, dtype=lib.float64), lib.randn(3, 1, 2, dtype=lib.float64)
        fw = lib.autograd.forward_ad
        with fw.dual_level():
            out, (h, c) = lib.nn.LSTM(2, 3, bidirectional=True).double()(fw.make_dual(x, t))
            return [fw.unpack_dual(out).tangent, fw.unpack_dual(c).tangent]
    parity(example, **TOLERANCES["float64"])


def test_forward_ad_through_onednn_is_not_implemented(parity):
    def example(lib):
        fw = lib.autograd.forward_ad
        with fw.dual_level():
            return lib.nn.LSTM(2, 3)(fw.make_dual(lib.randn(3, 1, 2), lib.randn(3, 1, 2)))
    parity(example)


def test_the_lstm_tutorial_prints_torchs_tensors(parity):
    def example(lib):        # "Sequence Models and Long Short-Term Memory Networks": one step at a time, then all
        lib.manual_seed(1)
        lstm = lib.nn.LSTM(3, 3)
        inputs = [lib.randn(1, 3) for _ in range(5)]
        hidden = (lib.randn(1, 1, 3), lib.randn(1, 1, 3))
        for i in inputs:
            out, hidden = lstm(i.view(1, 1, -1), hidden)
        print(out, hidden)
        out, hidden = lstm(lib.cat(inputs).view(len(inputs), 1, -1), (lib.randn(1, 1, 3), lib.randn(1, 1, 3)))
        print(out)
        print(hidden)
    parity(example)


def test_projection_warns_once_per_process_as_torch(parity):
    def example(lib):
        lstm = lib.nn.LSTM(3, 4, proj_size=2)
        for _ in range(2):
            lstm(lib.randn(2, 1, 3))
        return lstm(lib.randn(2, 1, 3))[1][0].shape
    parity(example)
    parity(example)


def test_reprs_names_and_weight_lists(parity):
    def example(lib):
        nn = lib.nn
        layers = [nn.RNN(3, 4), nn.RNN(3, 4, 2, nonlinearity="relu", bias=False, batch_first=True),
                  nn.LSTM(3, 4, 2, proj_size=2, dropout=0.5, bidirectional=True), nn.GRU(3, 4, bidirectional=True),
                  nn.RNN(3, 4, 2, "relu", False, True, 0.25, True), nn.RNNCell(3, 4, nonlinearity="relu", bias=False),
                  nn.LSTMCell(3, 4), nn.GRUCell(3, 4, False), nn.Sequential(nn.LSTM(3, 4), nn.Linear(4, 2))]
        lstm = layers[2]
        return {"reprs": [repr(m) for m in layers], "state_dict": [list(m.state_dict()) for m in layers],
                "flatten": lstm.flatten_parameters(), "flat": lstm._flat_weights_names, "all": lstm._all_weights,
                "all_weights": [[tuple(p.shape) for p in ws] for ws in lstm.all_weights],
                "attributes": [(m.mode, m.input_size, m.hidden_size, m.num_layers, m.bias, m.batch_first,
                                m.dropout, m.bidirectional, m.proj_size) for m in layers[:5]],
                "nonlinearity": [layers[1].nonlinearity, layers[4].nonlinearity, layers[5].nonlinearity]}
    parity(example)


def test_state_dict_copy_and_functional_call(parity):
    def example(lib):
        import copy
        lib.manual_seed(0)
        a, b = lib.nn.LSTM(3, 4, 2, bidirectional=True), lib.nn.LSTM(3, 4, 2, bidirectional=True)
        missing = str(b.load_state_dict(a.state_dict()))
        c = copy.deepcopy(a).double()
        x = lib.randn(2, 1, 3)
        params = {k: v * 2 for k, v in a.named_parameters()}
        return [missing, a(x)[0], b(x)[0], c(x.double())[1][1], lib.func.functional_call(a, params, (x,))[0],
                [str(w.dtype) for w in c._flat_weights]]
    parity(example)


def test_packing_utilities(parity):
    def example(lib):
        R = lib.nn.utils.rnn
        lib.manual_seed(0)
        seqs = [lib.randn(2, 3, requires_grad=True), lib.randn(4, 3, requires_grad=True), lib.randn(1, 3)]
        padded = R.pad_sequence(seqs)
        left = R.pad_sequence(seqs, batch_first=True, padding_value=-1.0, padding_side="left")
        packed = R.pack_sequence(seqs, enforce_sorted=False)
        repacked = R.pack_padded_sequence(padded.transpose(0, 1), [2, 4, 1], batch_first=True, enforce_sorted=False)
        out, lengths = R.pad_packed_sequence(packed, batch_first=True, total_length=6, padding_value=0.5)
        (out * lib.arange(out.numel(), dtype=out.dtype).reshape(out.shape)).sum().backward()
        sorted_pack = R.pack_padded_sequence(lib.ones(3, 2, 2), lib.tensor([3, 1]))
        time_major, _ = R.pad_packed_sequence(R.pack_sequence([seqs[1], seqs[0]]))
        return {"padded": padded, "left": left, "packed": repr(packed), "repacked": list(repacked), "out": out,
                "lengths": lengths, "grads": [s.grad for s in seqs[:2]], "unpacked": R.unpack_sequence(packed),
                "unpadded": R.unpad_sequence(padded.clone(), lengths), "sorted": repr(sorted_pack),
                "time_major": time_major, "inverse": R.invert_permutation(lib.tensor([2, 0, 3, 1])),
                "grad_fns": [f.name() for f, _ in time_major.grad_fn.next_functions],
                "integers": repr(R.pack_sequence([lib.tensor([1, 2, 3]), lib.tensor([4, 5]), lib.tensor([6])]))}
    parity(example)


def test_packing_second_derivative(parity):
    def example(lib):
        R = lib.nn.utils.rnn
        lib.manual_seed(0)
        x = lib.randn(3, 2, 2, dtype=lib.float64, requires_grad=True)
        for batch_first in (False, True):
            g, = lib.autograd.grad((R.pack_padded_sequence(x, [3, 2], batch_first).data ** 3).sum(), x,
                                   create_graph=True)
            g.sum().backward()
        return [g, x.grad]
    parity(example)


def test_packed_sequence_methods(parity):
    def example(lib):
        R = lib.nn.utils.rnn
        lib.manual_seed(0)
        p = R.pack_sequence([lib.randn(2, 3), lib.randn(3, 3)], enforce_sorted=False)
        q = p.to(lib.float64)
        by_hand = R.PackedSequence((lib.ones(3), lib.tensor([2, 1])), sorted_indices=lib.tensor([1, 0]))
        return [type(q).__name__, q, p.to("cpu") is p, p.cpu() is p, p.float() is p, p.is_cuda, p.is_pinned(),
                [str(getattr(p, kind)().data.dtype) for kind in ("double", "half", "long", "int", "short", "char",
                                                                  "byte")],
                p._fields, len(p), repr(by_hand), repr(R.PackedSequence(lib.ones(3), lib.tensor([2, 1])))]
    parity(example)


ERRORS = {
    "input_size": lambda nn, t: nn.RNN(10, 4)(t.randn(5, 2, 5)),
    "dims": lambda nn, t: nn.RNN(3, 4)(t.randn(5)),
    "dims_lstm": lambda nn, t: nn.LSTM(3, 4)(t.randn(5, 2, 2, 3)),
    "dims_gru": lambda nn, t: nn.GRU(3, 4)(t.randn(5)),
    "zero_length": lambda nn, t: nn.GRU(3, 4, bidirectional=True)(t.randn(0, 2, 3)),
    "zero_length_lstm": lambda nn, t: nn.LSTM(3, 4)(t.randn(0, 2, 3)),
    "h0_size": lambda nn, t: nn.RNN(3, 4)(t.randn(5, 2, 3), t.randn(1, 3, 4)),
    "h0_batch_first_size": lambda nn, t: nn.GRU(3, 4, batch_first=True)(t.randn(2, 5, 3), t.randn(1, 5, 4)),
    "h0_batched_dim": lambda nn, t: nn.GRU(3, 4)(t.randn(5, 2, 3), t.randn(3, 4)),
    "h0_unbatched_dim": lambda nn, t: nn.RNN(3, 4)(t.randn(5, 3), t.randn(1, 1, 4)),
    "h0_unbatched_size": lambda nn, t: nn.RNN(3, 4)(t.randn(5, 3), t.randn(1, 5)),
    "h0_tuple": lambda nn, t: nn.RNN(3, 4)(t.randn(5, 2, 3), (t.randn(1, 2, 4),)),
    "c0_size": lambda nn, t: nn.LSTM(3, 4)(t.randn(5, 2, 3), (t.randn(1, 2, 4), t.randn(1, 3, 4))),
    "h0_lstm_size": lambda nn, t: nn.LSTM(3, 4)(t.randn(5, 2, 3), (t.randn(1, 3, 4), t.randn(1, 2, 4))),
    "hc_dims": lambda nn, t: nn.LSTM(3, 4)(t.randn(5, 2, 3), (t.randn(1, 2, 4), t.randn(2, 4))),
    "hc_unbatched_dims": lambda nn, t: nn.LSTM(3, 4)(t.randn(5, 3), (t.randn(1, 2, 4), t.randn(2, 4))),
    "hc_one_state": lambda nn, t: nn.LSTM(3, 4)(t.randn(5, 2, 3), (t.randn(1, 2, 4),)),
    "hc_three_states": lambda nn, t: nn.LSTM(3, 4)(t.randn(5, 2, 3), (t.randn(1, 2, 4),) * 3),
    "hc_tensor": lambda nn, t: nn.LSTM(3, 4)(t.randn(5, 2, 3), t.randn(1, 2, 4)),
    "hc_float64_onednn": lambda nn, t: nn.LSTM(3, 4)(t.randn(5, 2, 3), (t.randn(1, 2, 4),
                                                                        t.randn(1, 2, 4, dtype=t.float64))),
    "h0_dtype": lambda nn, t: nn.RNN(3, 4)(t.randn(5, 2, 3), t.randn(1, 2, 4, dtype=t.float64)),
    "dtype": lambda nn, t: nn.LSTM(3, 4)(t.randn(5, 2, 3, dtype=t.float64)),
    "packed_h0": lambda nn, t: nn.RNN(3, 4)(nn.utils.rnn.pack_sequence([t.randn(2, 3)]), t.randn(1, 2, 4)),
    "packed_dtype": lambda nn, t: nn.GRU(3, 4)(nn.utils.rnn.pack_sequence([t.randn(2, 3, dtype=t.float64)])),
    "packed_lstm_dtype": lambda nn, t: nn.LSTM(3, 4)(nn.utils.rnn.pack_sequence([t.randn(3, 3, dtype=t.float64),
                                                                                 t.randn(2, 3, dtype=t.float64)])),
    "packed_lstm_input_size": lambda nn, t: nn.LSTM(3, 4)(nn.utils.rnn.pack_sequence([t.randn(3, 5),
                                                                                      t.randn(2, 5)])),
    "packed_lstm_one_state": lambda nn, t: nn.LSTM(3, 4)(nn.utils.rnn.pack_sequence([t.randn(2, 3)]),
                                                         (t.randn(1, 1, 4),)),
    "packed_input_dims": lambda nn, t: nn.GRU(3, 4)(nn.utils.rnn.pack_sequence([t.randn(2, 1, 3)])),
    "dropout_value": lambda nn, t: nn.RNN(3, 4, dropout=2),
    "dropout_bool": lambda nn, t: nn.LSTM(3, 4, dropout=True),
    "nonlinearity": lambda nn, t: nn.RNN(3, 4, nonlinearity="x"),
    "proj_gru": lambda nn, t: nn.GRU(3, 4, proj_size=2),
    "proj_big": lambda nn, t: nn.LSTM(3, 4, proj_size=4),
    "proj_negative": lambda nn, t: nn.LSTM(3, 4, proj_size=-1),
    "input_size_type": lambda nn, t: nn.RNN(3.0, 4),
    "hidden_zero": lambda nn, t: nn.RNN(3, 0),
    "layers_zero": lambda nn, t: nn.LSTM(3, 4, 0),
    "bias_type": lambda nn, t: nn.GRU(3, 4, bias=1),
    "batch_first_type": lambda nn, t: nn.GRU(3, 4, batch_first=None),
    "mode": lambda nn, t: nn.RNNBase("FOO", 3, 4),
    "rnnbase_has_no_forward": lambda nn, t: nn.RNNBase("GRU", 3, 4)(t.randn(2, 1, 3)),
    "cuda": lambda nn, t: nn.LSTM(3, 4, device="cuda"),
    "cell_input_size": lambda nn, t: nn.GRUCell(10, 4)(t.randn(3, 5)),
    "cell_batch": lambda nn, t: nn.RNNCell(10, 4)(t.randn(3, 10), t.randn(2, 4)),
    "cell_hidden": lambda nn, t: nn.LSTMCell(3, 4)(t.randn(2, 3), (t.randn(2, 4), t.randn(2, 5))),
    "cell_c_batch": lambda nn, t: nn.LSTMCell(3, 4)(t.randn(2, 3), (t.randn(2, 4), t.randn(3, 4))),
    "cell_dims": lambda nn, t: nn.RNNCell(3, 4)(t.randn(2, 2, 3)),
    "cell_hx_dims": lambda nn, t: nn.LSTMCell(3, 4)(t.randn(2, 3), (t.randn(2, 4), t.randn(2, 2, 4))),
    "cell_gru_hidden_dims": lambda nn, t: nn.GRUCell(3, 4)(t.randn(2, 3), t.randn(1, 2, 4)),
    "cell_unbatched_batched_h": lambda nn, t: nn.GRUCell(3, 4)(t.randn(3), t.randn(2, 4)),
    "cell_batched_unbatched_h": lambda nn, t: nn.GRUCell(3, 4)(t.randn(2, 3), t.randn(4)),
    "cell_one_state": lambda nn, t: nn.LSTMCell(3, 4)(t.randn(2, 3), (t.randn(2, 4),)),
    "cell_dtype": lambda nn, t: nn.GRUCell(3, 4)(t.randn(2, 3, dtype=t.float64)),
    "cell_nonlinearity": lambda nn, t: nn.RNNCell(3, 4, nonlinearity="foo")(t.randn(2, 3)),
    "cell_nonlinearity_before_sizes": lambda nn, t: nn.RNNCell(3, 4, nonlinearity="foo")(t.randn(2, 5)),
    "pack_unsorted": lambda nn, t: nn.utils.rnn.pack_padded_sequence(t.ones(3, 2), [1, 3]),
    "pack_lengths": lambda nn, t: nn.utils.rnn.pack_padded_sequence(t.ones(3, 2), [3, 2, 1]),
    "pack_lengths_2d": lambda nn, t: nn.utils.rnn.pack_padded_sequence(t.ones(3, 2), t.tensor([[3, 2]])),
    "pack_zero": lambda nn, t: nn.utils.rnn.pack_padded_sequence(t.ones(3, 2), [3, 0]),
    "pack_empty": lambda nn, t: nn.utils.rnn.pack_padded_sequence(t.ones(0, 2), [3, 0]),
    "pack_batch_first_type": lambda nn, t: nn.utils.rnn.pack_padded_sequence(t.ones(2, 1), [2], batch_first=2),
    "pack_not_a_tensor": lambda nn, t: nn.utils.rnn.pack_padded_sequence([[1.0]], [1]),
    "pad_total_length": lambda nn, t: nn.utils.rnn.pad_packed_sequence(nn.utils.rnn.pack_sequence([t.ones(3)]),
                                                                       total_length=2),
    "pad_total_length_float": lambda nn, t: nn.utils.rnn.pad_packed_sequence(
        nn.utils.rnn.pack_sequence([t.ones(3)]), total_length=4.0),
    "pad_padding_value_type": lambda nn, t: nn.utils.rnn.pad_packed_sequence(
        nn.utils.rnn.pack_sequence([t.ones(3)]), padding_value="x"),
    "pad_empty": lambda nn, t: nn.utils.rnn.pad_sequence([]),
    "pad_zero_dims": lambda nn, t: nn.utils.rnn.pad_sequence([t.tensor(1.0), t.tensor(2.0)]),
    "pad_not_iterable": lambda nn, t: nn.utils.rnn.pad_sequence(3),
    "pad_not_tensors": lambda nn, t: nn.utils.rnn.pad_sequence([t.ones(2), 3]),
    "pad_batch_first_type": lambda nn, t: nn.utils.rnn.pad_sequence([t.ones(2)], batch_first=1),
    "pad_side": lambda nn, t: nn.utils.rnn.pad_sequence([t.ones(2)], padding_side="mid"),
    "pad_side_type": lambda nn, t: nn.utils.rnn.pad_sequence([t.ones(2)], padding_side=3),
    "unpad_list_lengths": lambda nn, t: nn.utils.rnn.unpad_sequence(t.ones(3, 2), [3, 1]),
    "unpad_too_many_lengths": lambda nn, t: nn.utils.rnn.unpad_sequence(t.ones(3, 2), t.tensor([3, 2, 1])),
    "packed_by_hand": lambda nn, t: nn.utils.rnn.PackedSequence(t.ones(3)),
}


@pytest.mark.parametrize("name", list(ERRORS))
def test_errors_are_torchs(parity, name):
    parity(lambda lib: ERRORS[name](lib.nn, lib))


def test_dropout_with_one_layer_warns(parity):
    parity(lambda lib: repr(lib.nn.GRU(3, 4, dropout=0.5)))
