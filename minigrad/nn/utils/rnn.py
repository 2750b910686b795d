"""Variable-length sequences for the recurrent layers: padding and packing. Mirrors `torch.nn.utils.rnn`.

A batch of sequences of different lengths is either *padded* into one (T, B, *) tensor, or *packed*: the time
steps laid end to end, step t holding only the `batch_sizes[t]` sequences still running, longest first:

    >>> seqs = [torch.tensor([1., 2, 3]), torch.tensor([4., 5])]
    >>> pack_sequence(seqs)
    PackedSequence(data=tensor([1., 4., 2., 5., 3.]), batch_sizes=tensor([2, 2, 1]), sorted_indices=None,
    unsorted_indices=None)

An RNN given a PackedSequence runs each step on `batch_sizes[t]` rows only, so padding never enters the
recurrence. With `enforce_sorted=False` the batch is sorted by length first and `sorted_indices` /
`unsorted_indices` remember the permutation.

Packing is one node, PackPaddedSequenceBackward0, as in PyTorch; unpacking copies runs of equally many
sequences into a padded tensor, as ATen's `_pad_packed_sequence` does (its grad_fn is CopySlices).
How it differs from PyTorch: `unpad_sequence` transposes a time-major input without changing it (PyTorch
transposes it in place: minigrad's tensors have no `transpose_`).
"""
from collections.abc import Iterable
from numbers import Number
from typing import NamedTuple

import numpy as np

from ..._tensor import creation as _creation
from ..._tensor.tensor import Tensor
from ...core.dtype import float16, float32, float64, int8, int16, int32, int64, uint8
from ...core.forward_ad import linear
from ...core.function import Function
from ...ops._common import wrap

__all__ = ["PackedSequence", "invert_permutation", "pack_padded_sequence", "pad_packed_sequence", "pad_sequence",
           "unpad_sequence", "pack_sequence", "unpack_sequence"]


class PackedSequence_(NamedTuple):
    data: Tensor
    batch_sizes: Tensor
    sorted_indices: Tensor
    unsorted_indices: Tensor


class PackedSequence(PackedSequence_):
    """Hold a packed batch of sequences: `data` (sum of lengths, *), `batch_sizes` (one int64 per time step),
    and the sorting permutation, if any. Mirrors `torch.nn.utils.rnn.PackedSequence`.

    Build one with `pack_padded_sequence` or `pack_sequence`, not by hand.
    """

    def __new__(cls, data, batch_sizes=None, sorted_indices=None, unsorted_indices=None):
        if unsorted_indices is None:
            unsorted_indices = invert_permutation(sorted_indices)
        if batch_sizes is None:     # PackedSequence((data, batch_sizes), sorted_indices=...)
            if not (isinstance(data, (list, tuple)) and len(data) == 2):
                raise AssertionError("Expected data to be a list or tuple of length 2")
            data, batch_sizes = data
        return super().__new__(cls, data, batch_sizes, sorted_indices, unsorted_indices)

    def to(self, *args, **kwargs):
        """Convert `data` as `Tensor.to` does (the indices follow it to its device); `batch_sizes` stay as they
        are. Returns self if `data` is already so."""
        data = self.data.to(*args, **kwargs)
        if data is self.data:
            return self
        indices = [None if t is None else t.to(data.device) for t in (self.sorted_indices, self.unsorted_indices)]
        return type(self)(data, self.batch_sizes, *indices)

    def cuda(self, *args, **kwargs):
        if _creation.tensor((), dtype=self.data.dtype).to(*args, **kwargs).is_cuda:
            return self.to(*args, **kwargs)
        return self.to(*args, **{**kwargs, "device": "cuda"})

    def cpu(self, *args, **kwargs):
        if _creation.tensor((), dtype=self.data.dtype).to(*args, **kwargs).device.type == "cpu":
            return self.to(*args, **kwargs)
        return self.to(*args, **{**kwargs, "device": "cpu"})

    def pin_memory(self):
        return type(self)(self.data.pin_memory(), self.batch_sizes, self.sorted_indices, self.unsorted_indices)

    def double(self):
        return self.to(dtype=float64)

    def float(self):
        return self.to(dtype=float32)

    def half(self):
        return self.to(dtype=float16)

    def long(self):
        return self.to(dtype=int64)

    def int(self):
        return self.to(dtype=int32)

    def short(self):
        return self.to(dtype=int16)

    def char(self):
        return self.to(dtype=int8)

    def byte(self):
        return self.to(dtype=uint8)

    @property
    def is_cuda(self):
        return self.data.is_cuda

    def is_pinned(self):
        """False: minigrad's memory is never pinned."""
        return False


def invert_permutation(permutation):
    """Return the inverse of a permutation of 0..n-1 (None for None): `out[permutation[i]] = i`."""
    if permutation is None:
        return None
    output = _creation.empty_like(permutation)
    output.scatter_(0, permutation, _creation.arange(0, permutation.numel()))
    return output


# ---- packing: padded (T, B, *) -> data of the running sequences, step after step ------------------------------

def pack_padded_sequence(input, lengths, batch_first=False, enforce_sorted=True):
    """Pack a padded batch (T, B, *) (or (B, T, *) with batch_first) whose sequences have these `lengths`.

    With `enforce_sorted=True` the lengths must be in decreasing order; otherwise the batch is sorted here and
    the permutation kept in the result. Returns a PackedSequence.
    """
    if not isinstance(lengths, Tensor):
        lengths = _creation.as_tensor(lengths, dtype=int64)
    else:
        lengths = lengths.to(dtype=int64)
    if enforce_sorted:
        sorted_indices = None
    else:
        lengths, sorted_indices = lengths.sort(descending=True)
        input = input.index_select(0 if batch_first else 1, sorted_indices)
    data, batch_sizes = _pack_padded_sequence(input, lengths, batch_first)
    return PackedSequence(data, batch_sizes, sorted_indices, None)


def _pack_padded_sequence(input, lengths, batch_first):
    """ATen's `_pack_padded_sequence`: check the lengths, count the sequences running at each step, pack."""
    _expect("_pack_padded_sequence", 1, "input", input, Tensor, "Tensor")
    _expect("_pack_padded_sequence", 3, "batch_first", batch_first, bool, "bool")
    if input.numel() == 0:
        raise RuntimeError("Cannot pack empty tensors.")
    if lengths.dim() != 1:
        raise RuntimeError(f"'lengths' argument should be a 1D CPU int64 tensor, but got {lengths.dim()}D cpu Long "
                           "tensor")
    batch_size = (input.transpose(0, 1) if batch_first else input).size(1)
    lengths = lengths.tolist()
    if len(lengths) != batch_size:
        raise RuntimeError(f"Expected `len(lengths)` to be equal to batch_size, but got {len(lengths)} "
                           f"(batch_size={batch_size})")
    if lengths[-1] <= 0:
        raise RuntimeError("Length of all samples has to be greater than 0, but found an element in 'lengths' "
                           "that is <= 0")
    if any(a < b for a, b in zip(lengths, lengths[1:])):
        raise RuntimeError("`lengths` array must be sorted in decreasing order when `enforce_sorted` is True. "
                           "You can pass `enforce_sorted=False` to pack_padded_sequence and/or pack_sequence to "
                           "sidestep this requirement if you do not need ONNX exportability.")
    batch_sizes = [sum(length > t for length in lengths) for t in range(lengths[0])]
    return PackPaddedSequence.apply(input, batch_sizes, batch_first), _creation.tensor(batch_sizes, dtype=int64)


class PackPaddedSequence(Function):
    """z = the steps of a padded batch x (T, B, *), each cut to its batch_sizes[t] running sequences, end to end;
    dz/dx = the gradient put back in place, zeros in the padding (ATen's `_pack_padded_sequence_backward`)."""
    node_name = "PackPaddedSequenceBackward0"

    @staticmethod
    def forward(input, batch_sizes, batch_first):
        x = input._data.swapaxes(0, 1) if batch_first else input._data
        # a step beyond T (a length longer than the input) contributes nothing, as ATen's slices do
        return wrap(np.concatenate([x[start:stop, :batch].reshape(-1, *x.shape[2:])
                                    for start, stop, batch in _runs(batch_sizes)]))

    @staticmethod
    def setup_context(ctx, inputs, output):
        input, ctx.batch_sizes, ctx.batch_first = inputs
        ctx.input_shape = tuple(input.shape)

    @staticmethod
    def backward(ctx, grad):
        shape = list(ctx.input_shape)
        if ctx.batch_first:
            shape[0], shape[1] = shape[1], shape[0]
        grad_input = _creation.zeros(*shape, dtype=grad.dtype)
        offset = 0
        for t, batch in enumerate(ctx.batch_sizes):
            grad_input[t, :batch] = grad[offset:offset + batch]
            offset += batch
        return (grad_input.transpose(0, 1) if ctx.batch_first else grad_input), None, None

    jvp = linear


def _runs(batch_sizes):
    """The runs of steps with equally many sequences: (first step, step after the last, how many)."""
    start = 0
    for t in range(1, len(batch_sizes) + 1):
        if t == len(batch_sizes) or batch_sizes[t] != batch_sizes[start]:
            yield start, t, batch_sizes[start]
            start = t


# ---- unpacking: data -> padded (T, B, *) and the lengths ---------------------------------------------------------

def pad_packed_sequence(sequence, batch_first=False, padding_value=0.0, total_length=None):
    """Undo `pack_padded_sequence`: return (padded, lengths), padded (T, B, *) filled with `padding_value`
    (or (B, T, *) with batch_first), T = `total_length` if given, and the int64 lengths, in the original order.
    """
    max_seq_length = sequence.batch_sizes.size(0)
    if total_length is not None:
        if total_length < max_seq_length:
            raise ValueError("Expected total_length to be at least the length of the longest sequence in input, "
                             f"but got total_length={total_length} and max sequence length being {max_seq_length}")
        max_seq_length = total_length
    padded_output, lengths = _pad_packed_sequence(sequence.data, sequence.batch_sizes, batch_first, padding_value,
                                                  max_seq_length)
    if sequence.unsorted_indices is not None:
        batch_dim = 0 if batch_first else 1
        return padded_output.index_select(batch_dim, sequence.unsorted_indices), lengths[sequence.unsorted_indices]
    return padded_output, lengths


def _pad_packed_sequence(data, batch_sizes, batch_first, padding_value, total_length):
    """ATen's `_pad_packed_sequence`: copy each run of steps with equally many sequences into a padded tensor."""
    _expect("_pad_packed_sequence", 3, "batch_first", batch_first, bool, "bool")
    _expect("_pad_packed_sequence", 4, "padding_value", padding_value, Number, "Number")
    _expect("_pad_packed_sequence", 5, "total_length", total_length, int, "int")
    batch_sizes = batch_sizes.tolist()
    trailing = tuple(data.shape[1:])
    output = _creation.full((total_length, batch_sizes[0]) + trailing, padding_value, dtype=data.dtype)
    offset = 0
    for start, stop, batch in _runs(batch_sizes):
        size = (stop - start) * batch
        output[start:stop, :batch] = data[offset:offset + size].view(stop - start, batch, *trailing)
        offset += size
    lengths = _creation.tensor([sum(b > i for b in batch_sizes) for i in range(batch_sizes[0])], dtype=int64)
    return (output.transpose(0, 1) if batch_first else output), lengths


# ---- padding a list of tensors, and back -----------------------------------------------------------------------

def pad_sequence(sequences, batch_first=False, padding_value=0.0, padding_side="right"):
    """Stack tensors of shapes (L_i, *) into one (max L, B, *) tensor (or (B, max L, *) with batch_first),
    filling the gap with `padding_value` on the right (or left) of each sequence."""
    if not isinstance(sequences, Iterable):
        raise RuntimeError("pad_sequence: Expected iterable for input sequences, but got arg of type: "
                           f"{type(sequences)}")
    sequences = tuple(sequences)
    padding_value = _check_pad_arguments(sequences, batch_first, padding_value, padding_side)
    if not sequences:
        raise RuntimeError("received an empty list of sequences")
    if sequences[0].dim() == 0:
        raise RuntimeError("ArrayRef: invalid slice, N = 1; size = 0")
    max_len = max(s.size(0) for s in sequences)
    trailing = tuple(sequences[0].shape[1:])
    shape = (len(sequences), max_len) + trailing if batch_first else (max_len, len(sequences)) + trailing
    out = _creation.full(shape, padding_value, dtype=sequences[0].dtype)
    if padding_side not in ("left", "right"):
        raise RuntimeError(f"Expected padding_side to be one of left or right, but got {padding_side}.")
    for i, seq in enumerate(sequences):
        length = seq.size(0)
        start = max_len - length if padding_side == "left" else 0
        if batch_first:
            out.select(0, i).narrow(0, start, length).copy_(seq)
        else:
            out.narrow(0, start, length).select(1, i).copy_(seq)
    return out


def unpad_sequence(padded_sequences, lengths, batch_first=False):
    """Split a padded batch back into a list of tensors, sequence i cut to `lengths[i]`."""
    if not batch_first:
        padded_sequences = padded_sequences.transpose(0, 1)
    idx = _creation.arange(padded_sequences.shape[1], device=lengths.device)
    return [seq[idx < length] for seq, length in zip(padded_sequences, lengths, strict=True)]


def pack_sequence(sequences, enforce_sorted=True):
    """Pack a list of tensors of shapes (L_i, *): `pack_padded_sequence(pad_sequence(sequences), lengths)`."""
    lengths = _creation.as_tensor([v.size(0) for v in sequences])
    return pack_padded_sequence(pad_sequence(sequences), lengths, enforce_sorted=enforce_sorted)


def unpack_sequence(packed_sequences):
    """Undo `pack_sequence`: return the list of tensors, in their original order."""
    padded_sequences, lengths = pad_packed_sequence(packed_sequences, batch_first=True)
    return unpad_sequence(padded_sequences, lengths, batch_first=True)


# ---- the argument checks of PyTorch's C++ functions, with their messages ---------------------------------------

def _expect(function, position, name, value, kind, kind_name):
    if not isinstance(value, kind):
        raise TypeError(f"{function}(): argument '{name}' (position {position}) must be {kind_name}, not "
                        f"{type(value).__name__}")


def _check_pad_arguments(sequences, batch_first, padding_value, padding_side):
    for i, seq in enumerate(sequences):
        if not isinstance(seq, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got {type(seq).__name__}")
    _expect("pad_sequence", 2, "batch_first", batch_first, bool, "bool")
    if isinstance(padding_value, Tensor) and padding_value.numel() == 1:
        padding_value = padding_value.item()
    _expect("pad_sequence", 3, "padding_value", padding_value, Number, "float")
    _expect("pad_sequence", 4, "padding_side", padding_side, str, "str")
    return float(padding_value)
