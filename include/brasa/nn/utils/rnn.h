#pragma once
// torch::nn::utils::rnn: PackedSequence and the packing functions, as libtorch spells them
// (`auto packed = pack_padded_sequence(x, lengths, /*batch_first=*/true, /*enforce_sorted=*/false);
// auto [out, state] = lstm->forward_with_packed_input(packed);`). A PackedSequence holds the
// valid rows of every time step one after another (data), the number of rows per step
// (batch_sizes, a Long CPU tensor), and the permutations that sorted the batch by decreasing
// length (undefined when it came sorted). brasa has no pinned memory: pin_memory() and
// is_pinned() are absent.

#include <cstdint>
#include <optional>
#include <tuple>

#include "brasa/core/array_ref.h"
#include "brasa/core/tensor.h"
#include "brasa/core/tensor_options.h"

namespace brasa::nn::utils::rnn {

/// The inverse of a permutation (undefined for an undefined one).
BRASA_API Tensor invert_permutation(const Tensor& permutation);

class BRASA_API PackedSequence {
 public:
  /// unsorted_indices defaults to the inverse of sorted_indices; ValueError unless batch_sizes
  /// is on the CPU.
  explicit PackedSequence(Tensor data, Tensor batch_sizes, Tensor sorted_indices = {},
                          Tensor unsorted_indices = {});
  const Tensor& data() const { return data_; }
  const Tensor& batch_sizes() const { return batch_sizes_; }
  const Tensor& sorted_indices() const { return sorted_indices_; }
  const Tensor& unsorted_indices() const { return unsorted_indices_; }
  /// data (and the permutations, to data's device) converted; batch_sizes stays on the CPU.
  PackedSequence to(TensorOptions options) const;
  PackedSequence cuda() const;
  PackedSequence cpu() const;
  bool is_cuda() const;

 private:
  Tensor data_;
  Tensor batch_sizes_;
  Tensor sorted_indices_;
  Tensor unsorted_indices_;
};

/// input [T, B, *] ([B, T, *] when batch_first) and the B lengths (any integral tensor) -> the
/// pack. Without enforce_sorted the batch is sorted by decreasing length first (and unsorted by
/// pad_packed_sequence); with it, ValueError for lengths out of order.
BRASA_API PackedSequence pack_padded_sequence(Tensor input, Tensor lengths,
                                              bool batch_first = false, bool enforce_sorted = true);
/// The pack back as (padded [T, B, *] (or [B, T, *]), lengths Long [B]) in the original batch
/// order; total_length pads to that many steps (ValueError when below the longest length).
BRASA_API std::tuple<Tensor, Tensor> pad_packed_sequence(
    PackedSequence sequence, bool batch_first = false, double padding_value = 0.0,
    std::optional<int64_t> total_length = std::nullopt);
/// Sequences [L_i, *] padded to the longest and stacked: [L, B, *] ([B, L, *] when batch_first).
BRASA_API Tensor pad_sequence(ArrayRef<Tensor> sequences, bool batch_first = false,
                              double padding_value = 0);
/// pack_padded_sequence of pad_sequence(sequences) with their lengths.
BRASA_API PackedSequence pack_sequence(ArrayRef<Tensor> sequences, bool enforce_sorted = true);

}  // namespace brasa::nn::utils::rnn
