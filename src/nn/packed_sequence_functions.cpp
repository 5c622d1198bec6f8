// at::_pack_padded_sequence and at::_pad_packed_sequence: the batch sizes are read on the host,
// the data moved with narrow / cat / stack (differentiable).

#include "brasa/nn/packed_sequence_functions.h"

#include <vector>

#include "brasa/core/error.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/indexing_ops.h"
#include "brasa/ops/tensor_data.h"

namespace brasa {
namespace {

std::vector<int64_t> host_longs(const Tensor& t, const char* op, const char* what) {
  BRASA_CHECK(t.defined() && t.dim() == 1 && t.device().is_cpu() && t.scalar_type() == kLong, op,
              ": '", what, "' argument should be a 1D CPU int64 tensor, but got ",
              t.defined() ? t.sizes() : IntArrayRef{}, " ", t.defined() ? t.scalar_type() : kLong);
  Tensor c = t.contiguous();
  return std::vector<int64_t>(c.data_ptr<int64_t>(), c.data_ptr<int64_t>() + c.numel());
}

}  // namespace

std::tuple<Tensor, Tensor> _pack_padded_sequence(const Tensor& input, const Tensor& lengths,
                                                 bool batch_first) {
  const char* op = "_pack_padded_sequence";
  std::vector<int64_t> len = host_longs(lengths, op, "lengths");
  BRASA_CHECK(input.defined() && input.dim() >= 2, op,
              ": expected an input [T, B, *] of 2 or more dims, got ",
              input.defined() ? input.sizes() : IntArrayRef{});
  Tensor x = batch_first ? input.transpose(0, 1) : input;
  const auto batch = static_cast<int64_t>(len.size());
  BRASA_CHECK(x.size(1) == batch, op, ": expected ", x.size(1), " lengths for input ",
              input.sizes(), (batch_first ? " (batch_first)" : ""), ", got ", batch);
  BRASA_CHECK(batch > 0, op, ": cannot pack an empty tensor (a batch of 0 sequences)");
  BRASA_CHECK(len.back() > 0, op,
              ": Length of all samples has to be greater than 0, but found an element in "
              "'lengths' that is <= 0: ",
              IntArrayRef(len));
  for (size_t b = 1; b < len.size(); ++b)
    BRASA_CHECK(len[b] <= len[b - 1], op,
                ": `lengths` array must be sorted in decreasing order when `enforce_sorted` is "
                "True. You can pass `enforce_sorted=False` to pack_padded_sequence and/or "
                "pack_sequence to sidestep this requirement; got ",
                IntArrayRef(len));
  BRASA_CHECK(len[0] <= x.size(0), op, ": the longest length ", len[0], " exceeds the input's ",
              x.size(0), " time steps");
  std::vector<int64_t> sizes;
  std::vector<Tensor> rows;
  for (int64_t t = 0; t < len[0]; ++t) {
    int64_t active = 0;
    while (active < batch && len[static_cast<size_t>(active)] > t) ++active;
    sizes.push_back(active);
    rows.push_back(x.select(0, t).narrow(0, 0, active));
  }
  Tensor batch_sizes =
      detail::tensor_from_array(sizes.data(), static_cast<int64_t>(sizes.size()), kLong);
  return {cat(rows, 0), batch_sizes};
}

std::tuple<Tensor, Tensor> _pad_packed_sequence(const Tensor& data, const Tensor& batch_sizes,
                                                bool batch_first, const Scalar& padding_value,
                                                int64_t total_length) {
  const char* op = "_pad_packed_sequence";
  std::vector<int64_t> sizes = host_longs(batch_sizes, op, "batch_sizes");
  BRASA_CHECK(!sizes.empty() && sizes[0] > 0, op, ": expected non-empty batch_sizes, got ",
              IntArrayRef(sizes));
  BRASA_CHECK(data.defined() && data.dim() >= 1, op, ": expected data [sum(batch_sizes), *]");
  const int64_t batch = sizes[0], steps = static_cast<int64_t>(sizes.size());
  int64_t total = 0;
  for (size_t t = 0; t < sizes.size(); ++t) {
    BRASA_CHECK(sizes[t] > 0 && (t == 0 || sizes[t] <= sizes[t - 1]), op,
                ": expected positive, non-increasing batch_sizes, got ", IntArrayRef(sizes));
    total += sizes[t];
  }
  BRASA_CHECK(data.size(0) == total, op, ": expected data of ", total,
              " rows (the sum of batch_sizes), got ", data.sizes());
  BRASA_CHECK(total_length >= steps, op,
              ": Expected total_length to be at least the length of the longest sequence in "
              "input, but got total_length=",
              total_length, " and max sequence length being ", steps);
  std::vector<int64_t> row_shape(data.sizes().begin(), data.sizes().end());
  auto padding = [&](int64_t n) {
    row_shape[0] = n;
    return full(row_shape, padding_value, data.options());
  };
  std::vector<Tensor> steps_out;
  int64_t offset = 0;
  for (int64_t t = 0; t < total_length; ++t) {
    const int64_t active = t < steps ? sizes[static_cast<size_t>(t)] : 0;
    Tensor rows = data.narrow(0, offset, active);
    steps_out.push_back(active == batch ? rows : cat({rows, padding(batch - active)}, 0));
    offset += active;
  }
  Tensor output = stack(steps_out, 0);
  std::vector<int64_t> lengths(static_cast<size_t>(batch), 0);
  for (int64_t s : sizes)
    for (int64_t b = 0; b < s; ++b) ++lengths[static_cast<size_t>(b)];
  Tensor length_tensor =
      detail::tensor_from_array(lengths.data(), static_cast<int64_t>(lengths.size()), kLong);
  return {batch_first ? output.transpose(0, 1) : output, length_tensor};
}

}  // namespace brasa
