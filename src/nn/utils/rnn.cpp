// torch::nn::utils::rnn: PackedSequence and packing, over at::_pack_padded_sequence /
// _pad_packed_sequence (nn/packed_sequence_functions.cpp).

#include "brasa/nn/utils/rnn.h"

#include <vector>

#include "brasa/core/error.h"
#include "brasa/nn/packed_sequence_functions.h"
#include "brasa/nn/rearrange_functions.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/indexing_ops.h"
#include "brasa/ops/reduce.h"
#include "brasa/ops/tensor_data.h"

namespace brasa::nn::utils::rnn {

Tensor invert_permutation(const Tensor& permutation) {
  if (!permutation.defined()) return Tensor();
  return empty_like(permutation)
      .scatter_(0, permutation, arange(permutation.numel(), permutation.options().dtype(kLong)));
}

PackedSequence::PackedSequence(Tensor data, Tensor batch_sizes, Tensor sorted_indices,
                               Tensor unsorted_indices)
    : data_(std::move(data)),
      batch_sizes_(std::move(batch_sizes)),
      sorted_indices_(std::move(sorted_indices)),
      unsorted_indices_(std::move(unsorted_indices)) {
  if (!unsorted_indices_.defined()) unsorted_indices_ = invert_permutation(sorted_indices_);
  BRASA_CHECK(batch_sizes_.defined() && batch_sizes_.device().is_cpu(),
              "PackedSequence: batch_sizes should always be on CPU; build packs with "
              "pack_sequence or pack_padded_sequence");
}

PackedSequence PackedSequence::to(TensorOptions options) const {
  Tensor data = data_.to(options);
  if (data.is_same(data_)) return *this;
  auto move = [&](const Tensor& t) {
    return t.defined() ? t.to(TensorOptions().device(data.device()).dtype(t.scalar_type()))
                       : Tensor();
  };
  return PackedSequence(data, batch_sizes_, move(sorted_indices_), move(unsorted_indices_));
}

PackedSequence PackedSequence::cuda() const { return to(TensorOptions().device(kCUDA)); }
PackedSequence PackedSequence::cpu() const { return to(TensorOptions().device(kCPU)); }
bool PackedSequence::is_cuda() const { return data_.is_cuda(); }

PackedSequence pack_padded_sequence(Tensor input, Tensor lengths, bool batch_first,
                                    bool enforce_sorted) {
  BRASA_CHECK(lengths.defined() && input.defined(),
              "pack_padded_sequence: got an undefined input or lengths");
  lengths = lengths.to(kLong);
  Tensor sorted_indices;
  if (!enforce_sorted) {
    std::tie(lengths, sorted_indices) = lengths.sort(-1, /*descending=*/true);
    sorted_indices = sorted_indices.to(input.device());
    input = input.index_select(batch_first ? 0 : 1, sorted_indices);
  }
  auto [data, batch_sizes] = _pack_padded_sequence(input, lengths, batch_first);
  return PackedSequence(data, batch_sizes, sorted_indices, {});
}

std::tuple<Tensor, Tensor> pad_packed_sequence(PackedSequence sequence, bool batch_first,
                                               double padding_value,
                                               std::optional<int64_t> total_length) {
  const int64_t steps = sequence.batch_sizes().size(0);
  BRASA_CHECK(!total_length || *total_length >= steps,
              "pad_packed_sequence: Expected total_length to be at least the length of the "
              "longest sequence in input, but got total_length=",
              total_length.value_or(0), " and max sequence length being ", steps);
  auto [padded, lengths] =
      _pad_packed_sequence(sequence.data(), sequence.batch_sizes(), batch_first, padding_value,
                           total_length.value_or(steps));
  const Tensor& unsorted = sequence.unsorted_indices();
  if (!unsorted.defined()) return {padded, lengths};
  return {padded.index_select(batch_first ? 0 : 1, unsorted),
          lengths.index_select(0, unsorted.to(Device(kCPU)))};
}

Tensor pad_sequence(ArrayRef<Tensor> sequences, bool batch_first, double padding_value) {
  return brasa::pad_sequence(sequences, batch_first, padding_value);
}

PackedSequence pack_sequence(ArrayRef<Tensor> sequences, bool enforce_sorted) {
  std::vector<int64_t> lengths;
  for (const Tensor& s : sequences) {
    BRASA_CHECK(s.defined() && s.dim() >= 1,
                "pack_sequence: expected sequences of 1 or more dims [L, *]");
    lengths.push_back(s.size(0));
  }
  Tensor length_tensor =
      brasa::detail::tensor_from_array(lengths.data(), static_cast<int64_t>(lengths.size()), kLong);
  return pack_padded_sequence(brasa::pad_sequence(sequences), length_tensor, false, enforce_sorted);
}

}  // namespace brasa::nn::utils::rnn
