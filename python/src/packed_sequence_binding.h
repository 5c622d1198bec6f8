#pragma once
// brasa.nn.utils.rnn's packing over the C++ functions (brasa/nn/utils/rnn.h). The Python
// PackedSequence is a namedtuple (data, batch_sizes, sorted_indices, unsorted_indices), as torch's
// is, so the bindings take and return those four tensors (None for absent permutations).

#include <nanobind/nanobind.h>

namespace brasa::python {

/// Adds _pack_padded_sequence, _pad_packed_sequence and _invert_permutation to `nn` (brasa._C._nn).
void bind_packed_sequence(nanobind::module_& nn);

}  // namespace brasa::python
