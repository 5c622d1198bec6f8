#pragma once
// libtorch's at::_pack_padded_sequence / at::_pad_packed_sequence, on which
// torch::nn::utils::rnn's packing is built (brasa/nn/utils/rnn.h). Composites of slicing and
// concatenation, so their gradients are autograd's.

#include <cstdint>
#include <tuple>

#include "brasa/core/scalar.h"
#include "brasa/core/tensor.h"

namespace brasa {

/// input [T, B, *] ([B, T, *] when batch_first) and lengths, a 1-D Long CPU tensor of B
/// lengths in decreasing order, each in [1, T] -> (data [sum(lengths), *]: the steps' valid rows
/// one time step after another, batch_sizes Long [lengths[0]]: rows per step). ValueError
/// otherwise, naming the lengths.
BRASA_API std::tuple<Tensor, Tensor> _pack_padded_sequence(const Tensor& input,
                                                           const Tensor& lengths, bool batch_first);
/// The inverse: data and batch_sizes of a pack -> (output [total_length, B, *] (or [B, T, *]) with
/// padding_value after each sequence's end, lengths Long [B]). total_length >= the number of
/// steps (ValueError otherwise).
BRASA_API std::tuple<Tensor, Tensor> _pad_packed_sequence(const Tensor& data,
                                                          const Tensor& batch_sizes,
                                                          bool batch_first,
                                                          const Scalar& padding_value,
                                                          int64_t total_length);

}  // namespace brasa
