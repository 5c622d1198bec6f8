// embedding_bag: sums, means or maxima of bags of embedding rows, without materialising the bags
// as a padded tensor: each looked-up row gets its bag id (from offsets) and is reduced into its
// bag with index_add / scatter_reduce.
#include <string>

#include "brasa/core/error.h"
#include "brasa/dispatch/dispatcher.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/indexing_ops.h"
#include "ops/index/gather_ops.h"

namespace brasa::ops {
namespace {

Tensor embedding_bag_kernel(const Tensor& weight, const Tensor& indices, const Tensor& offsets,
                            std::string mode, const Tensor& per_sample_weights,
                            bool include_last_offset, std::optional<int64_t> padding_idx) {
  static const char* op = "embedding_bag";
  BRASA_CHECK(mode == "sum" || mode == "mean" || mode == "max", op,
              ": mode has to be one of sum, mean or max, got ", mode);
  BRASA_CHECK(weight.dim() == 2, op, ": weight must be 2-d, got shape ", weight.sizes());
  BRASA_CHECK(!per_sample_weights.defined() || mode == "sum", op,
              ": per_sample_weights is only supported for mode='sum' (got mode='", mode, "')");
  Tensor flat, starts;
  if (indices.dim() == 2) {
    BRASA_CHECK(!offsets.defined(), op, ": offsets has to be absent when input is 2-d");
    const int64_t bags = indices.sizes()[0], per_bag = indices.sizes()[1];
    flat = indices.reshape({-1});
    starts = arange(0, bags * per_bag, std::max<int64_t>(per_bag, 1),
                    TensorOptions(kLong).device(indices.device()))
                 .slice(0, 0, bags);
    include_last_offset = false;
  } else {
    BRASA_CHECK(indices.dim() == 1, op, ": input has to be 1-d or 2-d, got shape ",
                indices.sizes());
    BRASA_CHECK(offsets.defined() && offsets.dim() == 1, op,
                ": offsets has to be a 1-d tensor when input is 1-d");
    BRASA_CHECK_TYPE(offsets.dtype() == kLong || offsets.dtype() == kInt, op,
                     ": offsets must be int64 or int32, got ", offsets.dtype());
    flat = indices;
    starts = offsets.to(kLong);
    if (starts.numel() > 0) {
      int64_t first = starts[0].item<int64_t>();
      BRASA_CHECK(first == 0, op, ": offsets[0] has to be 0, i.e., the first sequence in the ",
                  "mini-batch has to start from position 0. However, got ", first);
    }
  }
  const int64_t n = flat.numel();
  const int64_t dim = weight.sizes()[1];
  int64_t end = n;
  if (include_last_offset) {
    BRASA_CHECK(starts.numel() >= 1, op, ": include_last_offset needs at least one offset");
    end = std::min(n, starts[-1].item<int64_t>());
    starts = starts.slice(0, 0, starts.numel() - 1);
  }
  const int64_t bags = starts.numel();
  Tensor positions = arange(n, TensorOptions(kLong).device(indices.device()));
  Tensor bag = searchsorted(starts, positions, false, true).sub(1);
  Tensor valid = positions.lt(end).logical_and(bag.ge(0));
  if (padding_idx.has_value()) {
    const int64_t rows = weight.sizes()[0];
    const int64_t p = *padding_idx < 0 ? *padding_idx + rows : *padding_idx;
    BRASA_CHECK_INDEX(p >= 0 && p < rows, op, ": padding_idx ", *padding_idx,
                      " is out of range for ", rows, " embeddings");
    valid = valid.logical_and(flat.ne(p));
  }
  Tensor kept = nonzero(valid).view({-1});
  Tensor rows = embedding(weight, flat.index_select(0, kept));
  if (per_sample_weights.defined()) {
    BRASA_CHECK(per_sample_weights.sizes() == flat.sizes(), op,
                ": per_sample_weights must have the shape of the indices ", flat.sizes(), ", got ",
                per_sample_weights.sizes());
    rows = rows.mul(per_sample_weights.reshape({-1}).index_select(0, kept).unsqueeze(1));
  }
  Tensor bag_of_row = bag.index_select(0, kept);
  Tensor out = zeros({bags, dim}, TensorOptions(weight.dtype()).device(weight.device()));
  if (mode == "max") {
    return scatter_reduce(out, 0, bag_of_row.unsqueeze(1).expand({kept.numel(), dim}), rows, "amax",
                          false);
  }
  out = out.index_add(0, bag_of_row, rows.to(weight.dtype()));
  if (mode == "sum") return out;
  const TensorOptions longs = TensorOptions(kLong).device(weight.device());
  Tensor counts = zeros({bags}, longs).index_add(0, bag_of_row, ones({kept.numel()}, longs));
  return out.div(counts.clamp_min(1).unsqueeze(1)).to(weight.dtype());
}

}  // namespace

BRASA_DEFINE_OP(embedding_bag_op)
BRASA_REGISTER_KERNEL(embedding_bag_op, embedding_bag_kernel, CPU, Autograd)

}  // namespace brasa::ops

namespace brasa {

Tensor embedding_bag(const Tensor& weight, const Tensor& indices, const Tensor& offsets,
                     std::string_view mode, const Tensor& per_sample_weights,
                     bool include_last_offset, std::optional<int64_t> padding_idx) {
  return ops::embedding_bag_op().call(weight, indices, offsets, std::string(mode),
                                      per_sample_weights, include_last_offset, padding_idx);
}

}  // namespace brasa
