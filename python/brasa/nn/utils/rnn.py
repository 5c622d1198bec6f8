"""pad_sequence (C++'s brasa::pad_sequence). PackedSequence is not available yet."""
from ... import _C


def pad_sequence(sequences, batch_first=False, padding_value=0.0):
    return _C._nn.pad_sequence(list(sequences), batch_first, float(padding_value))
