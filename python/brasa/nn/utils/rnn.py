"""torch.nn.utils.rnn: PackedSequence and pack_padded_sequence, pad_packed_sequence,
pad_sequence, pack_sequence, unpack_sequence, over C++'s brasa::nn::utils::rnn (the packing and
padding record autograd, so gradients flow through them). RNN, LSTM and GRU accept a
PackedSequence and return one."""
import collections

from ... import _C

_nn = _C._nn


def _long(lengths):
    from ... import int64, tensor
    if isinstance(lengths, _C.Tensor):
        return lengths.to(int64)
    return tensor([int(n) for n in lengths], dtype=int64)


class PackedSequence(collections.namedtuple(
        "PackedSequence", ["data", "batch_sizes", "sorted_indices", "unsorted_indices"])):
    """The valid rows of every time step one after another (data), the number of rows per step
    (batch_sizes) and the permutation that sorted the batch by decreasing length (None when it
    came sorted). Build one with pack_padded_sequence or pack_sequence."""

    def __new__(cls, data, batch_sizes=None, sorted_indices=None, unsorted_indices=None):
        if batch_sizes is None:  # PackedSequence(*tuple)
            data, batch_sizes = data[0], data[1]
        if unsorted_indices is None:
            unsorted_indices = _nn._invert_permutation(sorted_indices)
        return super().__new__(cls, data, batch_sizes, sorted_indices, unsorted_indices)

    def _with_data(self, data):
        return type(self)(data, self.batch_sizes, self.sorted_indices, self.unsorted_indices)

    def to(self, *args, **kwargs):
        data = self.data.to(*args, **kwargs)
        return self if data is self.data else self._with_data(data)

    def cpu(self):
        return self

    def double(self):
        return self._with_data(self.data.double())

    def float(self):
        return self._with_data(self.data.float())

    def half(self):
        return self._with_data(self.data.half())

    @property
    def is_cuda(self):
        return False

    def is_pinned(self):
        return False


def pack_padded_sequence(input, lengths, batch_first=False, enforce_sorted=True):
    """input [T, B, *] ([B, T, *] when batch_first) and the B lengths (a list or a tensor)."""
    return PackedSequence(*_nn._pack_padded_sequence(input, _long(lengths), batch_first,
                                                     enforce_sorted))


def pad_packed_sequence(sequence, batch_first=False, padding_value=0.0, total_length=None):
    """(padded [T, B, *] (or [B, T, *]), lengths) in the original batch order."""
    return _nn._pad_packed_sequence(sequence.data, sequence.batch_sizes, sequence.sorted_indices,
                                    sequence.unsorted_indices, batch_first, float(padding_value),
                                    total_length)


def pad_sequence(sequences, batch_first=False, padding_value=0.0):
    """Sequences [L_i, *] padded to the longest and stacked: [L, B, *] ([B, L, *])."""
    return _nn.pad_sequence(list(sequences), batch_first, float(padding_value))


def pack_sequence(sequences, enforce_sorted=True):
    """pack_padded_sequence of pad_sequence(sequences) with their lengths."""
    sequences = list(sequences)
    return pack_padded_sequence(pad_sequence(sequences), [len(s) for s in sequences],
                                enforce_sorted=enforce_sorted)


def unpad_sequence(padded_sequences, lengths, batch_first=False):
    """The list of sequences [L_i, *] of a padded batch."""
    if not batch_first:
        padded_sequences = padded_sequences.transpose(0, 1)
    return [padded_sequences[i, :int(n)] for i, n in enumerate(_long(lengths).tolist())]


def unpack_sequence(packed_sequences):
    """The list of sequences of a PackedSequence, in the original order."""
    padded, lengths = pad_packed_sequence(packed_sequences, batch_first=True)
    return unpad_sequence(padded, lengths, batch_first=True)
