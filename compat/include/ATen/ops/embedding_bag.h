#pragma once
// at::embedding_bag in aten's form: mode as an int (0 sum, 1 mean, 2 max) and four results.
//
// Note [aten's embedding_bag results]
// brasa's embedding_bag (brasa/ops/indexing_ops.h) returns the reduced bags only; aten's also
// returns the bookkeeping its backward uses, which this adapter computes as aten 1.13's CPU
// kernel returns it: offset2bag (the bag of each index), bag_size (how many indices each bag
// reduced, padding_idx excluded) and max_indices (in max mode the index whose row gave each bag's
// maximum per column, the first on ties, 0 for an empty bag; in mean mode bag_size again). In sum
// mode aten leaves bag_size and max_indices zero, and offset2bag empty unless padding_idx is
// given; so does this. The gradient flows through the first result, which is brasa's op.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string_view>
#include <tuple>

#include "brasa/core/error.h"
#include "brasa/functions.h"
#include "c10/brasa_namespaces.h"

namespace at {

inline std::tuple<Tensor, Tensor, Tensor, Tensor> embedding_bag(
    const Tensor& weight, const Tensor& indices, const Tensor& offsets, bool scale_grad_by_freq,
    int64_t mode, bool sparse, const std::optional<Tensor>& per_sample_weights,
    bool include_last_offset, std::optional<int64_t> padding_idx) {
  BRASA_CHECK(mode >= 0 && mode <= 2,
              "embedding_bag: mode has to be 0 (sum), 1 (mean) or 2 (max), got ", mode);
  BRASA_CHECK_NOT_IMPLEMENTED(!scale_grad_by_freq && !sparse,
                              "embedding_bag: brasa has no scale_grad_by_freq or sparse gradients "
                              "for bags (got scale_grad_by_freq=",
                              scale_grad_by_freq, ", sparse=", sparse, ")");
  static constexpr std::string_view names[] = {"sum", "mean", "max"};
  const Tensor psw = per_sample_weights.value_or(Tensor());
  Tensor output = ::brasa::embedding_bag(weight, indices, offsets, names[mode], psw,
                                         include_last_offset, padding_idx);
  // The bag of each index, as brasa's kernel assigns them (a 2-d input is a bag per row).
  const TensorOptions longs = TensorOptions(kLong).device(indices.device());
  const Tensor flat = indices.reshape({-1});
  const int64_t n = flat.numel(), bags = output.size(0);
  const Tensor positions = ::brasa::arange(n, longs);
  Tensor offset2bag, end_ok;
  if (indices.dim() == 2) {
    offset2bag = positions.div(std::max<int64_t>(indices.size(1), 1), "floor");
    end_ok = ::brasa::ones({n}, longs.dtype(kBool));
  } else {
    Tensor starts = offsets.to(kLong);
    int64_t end = n;
    if (include_last_offset && starts.numel() > 0) {
      end = std::min(n, starts[-1].item<int64_t>());
      starts = starts.slice(0, 0, starts.numel() - 1);
    }
    offset2bag = ::brasa::searchsorted(starts, positions, false, true).sub(1).clamp_min(0);
    end_ok = positions.lt(end);
  }
  Tensor counted = end_ok;
  if (padding_idx.has_value()) {
    const int64_t p = *padding_idx < 0 ? *padding_idx + weight.size(0) : *padding_idx;
    counted = counted.logical_and(flat.ne(p));
  }
  const Tensor kept = ::brasa::nonzero(counted).view({-1});
  const Tensor kept_bag = offset2bag.index_select(0, kept);
  const Tensor bag_size =
      ::brasa::zeros({bags}, longs).index_add(0, kept_bag, ::brasa::ones({kept.numel()}, longs));
  if (mode == 0) {
    const Tensor none = ::brasa::zeros({bags}, longs);
    return {output, padding_idx.has_value() ? offset2bag : ::brasa::zeros({0}, longs), none, none};
  }
  Tensor max_indices = bag_size;
  if (mode == 2) {
    // The first kept position whose row equals its bag's maximum, per column.
    const int64_t dim = weight.size(1);
    const Tensor rows = weight.detach().index_select(0, flat.index_select(0, kept));
    const Tensor hit = rows.eq(output.detach().index_select(0, kept_bag));
    const Tensor pos = ::brasa::where(hit, kept.unsqueeze(1).expand({kept.numel(), dim}),
                                      ::brasa::full({kept.numel(), dim}, n, longs));
    const Tensor first = ::brasa::full({bags, dim}, n, longs)
                             .scatter_reduce(0, kept_bag.unsqueeze(1).expand({kept.numel(), dim}),
                                             pos, "amin", true);
    // An empty bag has no index: 0 there, as aten's.
    const Tensor padded = ::brasa::cat({flat.to(kLong), ::brasa::zeros({1}, longs)});
    max_indices = padded.index_select(0, first.reshape({-1})).reshape({bags, dim});
  }
  return {output, offset2bag, bag_size, max_indices};
}

inline std::tuple<Tensor, Tensor, Tensor, Tensor> embedding_bag(
    const Tensor& weight, const Tensor& indices, const Tensor& offsets,
    bool scale_grad_by_freq = false, int64_t mode = 0, bool sparse = false,
    const std::optional<Tensor>& per_sample_weights = {}, bool include_last_offset = false) {
  return ::at::embedding_bag(weight, indices, offsets, scale_grad_by_freq, mode, sparse,
                             per_sample_weights, include_last_offset, std::nullopt);
}

}  // namespace at
namespace torch {
using ::at::embedding_bag;
}  // namespace torch
