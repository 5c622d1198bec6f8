// Index-producing and index-consuming composites: repeat_interleave, one_hot, searchsorted,
// bucketize, unique, embedding, masked_scatter. Built from index_select / index_copy / sort /
// comparisons, so they inherit those ops' checks and (later) their derivatives.
#include <tuple>

#include "brasa/core/empty.h"
#include "brasa/core/error.h"
#include "brasa/dispatch/dispatcher.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/indexing_ops.h"
#include "brasa/ops/pointwise.h"
#include "brasa/ops/reduce.h"
#include "ops/index/gather_ops.h"

namespace brasa::ops {
namespace {

Tensor repeat_interleave_counts_kernel(const Tensor& repeats) {
  BRASA_CHECK(repeats.dim() == 1, "repeat_interleave: repeats must be 1-d, got shape ",
              repeats.sizes());
  BRASA_CHECK_TYPE(repeats.dtype() == kLong || repeats.dtype() == kInt,
                   "repeat_interleave: repeats must be an int32 or int64 tensor, got ",
                   repeats.dtype());
  const TensorOptions on = TensorOptions(repeats.dtype()).device(repeats.device());
  if (repeats.numel() == 0) return empty({0}, on);
  BRASA_CHECK(repeats.min().item<int64_t>() >= 0, "repeat_interleave: repeats can not be negative");
  Tensor ends = repeats.to(kLong).cumsum(0);
  const int64_t total = ends[-1].item<int64_t>();
  return searchsorted(ends, arange(total, on.dtype(kLong)), false, true).to(repeats.dtype());
}

Tensor repeat_interleave_kernel(const Tensor& self, const Tensor& repeats,
                                std::optional<int64_t> dim) {
  Tensor input = dim.has_value() ? self : self.reshape({-1});
  const int64_t d = dim.has_value() ? detail::wrap_dim(*dim, std::max<int64_t>(self.dim(), 1),
                                                       "repeat_interleave")
                                    : 0;
  const int64_t n = input.dim() == 0 ? 1 : input.sizes()[d];
  Tensor reps = repeats.dim() == 0 ? repeats.reshape({1}).expand({n}) : repeats;
  BRASA_CHECK(reps.dim() == 1 && reps.sizes()[0] == n,
              "repeat_interleave: repeats must have the same size as input along dim (", n,
              "), got shape ", repeats.sizes());
  return input.index_select(d, repeat_interleave_counts_kernel(reps.contiguous()));
}

Tensor one_hot_kernel(const Tensor& self, int64_t num_classes) {
  BRASA_CHECK_TYPE(self.dtype() == kLong, "one_hot: is only applicable to index tensor (int64), ",
                   "got ", self.dtype());
  if (num_classes == -1) {
    BRASA_CHECK(self.numel() > 0, "one_hot: can not infer total number of classes from empty ",
                "tensor");
    num_classes = self.max().item<int64_t>() + 1;
  }
  BRASA_CHECK(num_classes >= 0, "one_hot: num_classes must be -1 or non-negative, got ",
              num_classes);
  if (self.numel() > 0) {
    BRASA_CHECK(self.min().item<int64_t>() >= 0, "one_hot: class values must be non-negative");
    BRASA_CHECK(self.max().item<int64_t>() < num_classes,
                "one_hot: class values must be smaller than num_classes (", num_classes, ")");
  }
  return arange(num_classes, TensorOptions(kLong).device(self.device()))
      .eq(self.unsqueeze(-1))
      .to(kLong);
}

/// Note [searchsorted by counting]: the insertion point of v is the number of boundaries < v
/// (<= v with right); counted with a broadcast comparison, O(boundaries x values) work.
Tensor searchsorted_kernel(const Tensor& sorted_sequence, const Tensor& values, bool out_int32,
                           bool right) {
  const Tensor& seq = sorted_sequence;
  BRASA_CHECK(seq.dim() >= 1, "searchsorted: boundaries tensor must have at least 1 dim");
  Tensor cmp;
  if (seq.dim() == 1) {
    Tensor v = values.unsqueeze(-1);
    cmp = right ? v.ge(seq) : v.gt(seq);
  } else {
    BRASA_CHECK(values.dim() == seq.dim() &&
                    values.sizes().slice(0, seq.dim() - 1) == seq.sizes().slice(0, seq.dim() - 1),
                "searchsorted: boundaries tensor should be 1 dimension or the first N-1 ",
                "dimensions of boundaries tensor and input value tensor must match, but we got ",
                "boundaries tensor ", seq.sizes(), " and input value tensor ", values.sizes());
    Tensor v = values.unsqueeze(-1);
    Tensor s = seq.unsqueeze(-2);
    cmp = right ? v.ge(s) : v.gt(s);
  }
  Tensor out = cmp.sum({-1}, false, kLong);
  return out_int32 ? out.to(kInt) : out;
}

std::tuple<Tensor, Tensor, Tensor> unique_kernel(const Tensor& self, bool, bool return_inverse,
                                                 bool return_counts) {
  Tensor flat = self.reshape({-1});
  const TensorOptions longs = TensorOptions(kLong).device(self.device());
  if (flat.numel() == 0) {
    return {flat.clone(), return_inverse ? empty(self.sizes(), longs) : empty({0}, longs),
            empty({0}, longs)};
  }
  auto [sorted, perm] = flat.sort(true, 0, false);
  Tensor change = sorted.slice(0, 1).ne(sorted.slice(0, 0, -1));
  Tensor starts = cat({ones({1}, TensorOptions(kBool).device(self.device())), change});
  Tensor uniques = masked_select(sorted, starts);
  Tensor group = starts.cumsum(0, kLong).sub(1);
  Tensor inverse = empty({0}, longs), counts = empty({0}, longs);
  if (return_inverse)
    inverse = empty({flat.numel()}, longs).index_copy(0, perm, group).view(self.sizes());
  if (return_counts) {
    counts = zeros({uniques.numel()}, longs).index_add(0, group, ones({flat.numel()}, longs));
  }
  return {uniques, inverse, counts};
}

Tensor embedding_kernel(const Tensor& weight, const Tensor& indices, int64_t, bool, bool) {
  BRASA_CHECK(weight.dim() == 2, "embedding: weight must be 2-d, got shape ", weight.sizes());
  BRASA_CHECK_TYPE(indices.dtype() == kLong || indices.dtype() == kInt,
                   "embedding: expected indices of dtype int64 or int32, got ", indices.dtype());
  DimVector shape(indices.sizes());
  shape.push_back(weight.sizes()[1]);
  return weight.index_select(0, indices.reshape({-1})).view(shape);
}

Tensor embedding_renorm_kernel(const Tensor& weight, const Tensor& indices, double max_norm,
                               double norm_type) {
  BRASA_CHECK(weight.dim() == 2, "embedding_renorm_: weight must be 2-d, got shape ",
              weight.sizes());
  Tensor rows_index = std::get<0>(unique(indices.to(kLong)));
  Tensor rows = weight.index_select(0, rows_index);
  Tensor norms = rows.norm(norm_type, {1}, false);
  Tensor scale =
      where(norms.gt(max_norm), norms.add(1e-7).reciprocal().mul(max_norm), ones_like(norms));
  weight.index_copy_(0, rows_index, rows.mul(scale.unsqueeze(1)).to(weight.dtype()));
  return weight;
}

Tensor masked_scatter_kernel(const Tensor& self, const Tensor& mask, const Tensor& source) {
  BRASA_CHECK_TYPE(mask.dtype() == kBool, "masked_scatter: expected a Bool mask, got ",
                   mask.dtype());
  BRASA_CHECK_TYPE(source.dtype() == self.dtype(), "masked_scatter: expected self and source ",
                   "to have the same dtype, got ", self.dtype(), " and ", source.dtype());
  Tensor out = self.clone().contiguous();
  Tensor positions = nonzero(mask.expand(self.sizes()).reshape({-1})).view({-1});
  const int64_t count = positions.numel();
  BRASA_CHECK(source.numel() >= count, "masked_scatter: number of elements of source (",
              source.numel(), ") < number of ones in mask (", count, ")");
  out.view({-1}).index_copy_(0, positions, source.reshape({-1}).slice(0, 0, count));
  return out;
}

}  // namespace

BRASA_DEFINE_OP(repeat_interleave_counts_op)
BRASA_DEFINE_OP(repeat_interleave_op)
BRASA_DEFINE_OP(one_hot_op)
BRASA_DEFINE_OP(searchsorted_op)
BRASA_DEFINE_OP(unique_op)
BRASA_DEFINE_OP(embedding_op)
BRASA_DEFINE_OP(masked_scatter_op)
BRASA_REGISTER_KERNEL(repeat_interleave_counts_op, repeat_interleave_counts_kernel, CPU)
BRASA_REGISTER_KERNEL(repeat_interleave_op, repeat_interleave_kernel, CPU, Autograd)
BRASA_REGISTER_KERNEL(one_hot_op, one_hot_kernel, CPU)
BRASA_REGISTER_KERNEL(searchsorted_op, searchsorted_kernel, CPU, Meta)
BRASA_REGISTER_KERNEL(unique_op, unique_kernel, CPU)
BRASA_REGISTER_KERNEL(embedding_op, embedding_kernel, CPU, Meta)
BRASA_DEFINE_OP(embedding_renorm_op)
BRASA_REGISTER_KERNEL(embedding_renorm_op, embedding_renorm_kernel, CPU)
BRASA_REGISTER_KERNEL(masked_scatter_op, masked_scatter_kernel, CPU, Autograd)

}  // namespace brasa::ops

namespace brasa {

Tensor repeat_interleave(const Tensor& repeats) {
  return ops::repeat_interleave_counts_op().call(repeats);
}
Tensor repeat_interleave(const Tensor& self, const Tensor& repeats, std::optional<int64_t> dim) {
  return ops::repeat_interleave_op().call(self, repeats, dim);
}
Tensor repeat_interleave(const Tensor& self, int64_t repeats, std::optional<int64_t> dim) {
  BRASA_CHECK(repeats >= 0, "repeat_interleave: repeats can not be negative, got ", repeats);
  return repeat_interleave(self, full({}, repeats, TensorOptions(kLong).device(self.device())),
                           dim);
}
Tensor one_hot(const Tensor& self, int64_t num_classes) {
  return ops::one_hot_op().call(self, num_classes);
}
Tensor searchsorted(const Tensor& sorted_sequence, const Tensor& values, bool out_int32, bool right,
                    std::optional<std::string_view> side) {
  if (side.has_value()) {
    BRASA_CHECK(*side == "left" || *side == "right",
                "searchsorted: side can only be 'left' or 'right' but got ", *side);
    BRASA_CHECK(!right || *side == "right", "searchsorted: side and right can't be set to ",
                "opposites, got side of ", *side, " while right was true");
    right = *side == "right";
  }
  return ops::searchsorted_op().call(sorted_sequence, values, out_int32, right);
}
Tensor bucketize(const Tensor& self, const Tensor& boundaries, bool out_int32, bool right) {
  BRASA_CHECK(boundaries.dim() == 1, "bucketize: boundaries tensor must be 1 dimension, but got ",
              "dim(", boundaries.dim(), ")");
  return ops::searchsorted_op().call(boundaries, self, out_int32, right);
}
std::tuple<Tensor, Tensor, Tensor> unique(const Tensor& self, bool sorted, bool return_inverse,
                                          bool return_counts) {
  return ops::unique_op().call(self, sorted, return_inverse, return_counts);
}
Tensor embedding(const Tensor& weight, const Tensor& indices, int64_t padding_idx,
                 bool scale_grad_by_freq, bool sparse) {
  return ops::embedding_op().call(weight, indices, padding_idx, scale_grad_by_freq, sparse);
}
const Tensor& embedding_renorm_(const Tensor& weight, const Tensor& indices, double max_norm,
                                double norm_type) {
  ops::embedding_renorm_op().call(weight, indices, max_norm, norm_type);
  return weight;
}
Tensor masked_scatter(const Tensor& self, const Tensor& mask, const Tensor& source) {
  return ops::masked_scatter_op().call(self, mask, source);
}

}  // namespace brasa
