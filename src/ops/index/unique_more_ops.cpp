// unique_consecutive, unique_dim_consecutive and unique_dim, from comparisons of neighbours,
// cumsum and index_select. Slices along dim are compared whole; unique_dim sorts them
// lexicographically with one stable argsort per element of a slice (last element first).
// Not differentiable: every result is computed from a detached input.
#include "brasa/core/empty.h"
#include "brasa/core/error.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/indexing_ops.h"
#include "brasa/ops/reduce.h"
#include "brasa/ops/shaping.h"
#include "brasa/ops/view.h"

namespace brasa {
namespace {

using Unique = std::tuple<Tensor, Tensor, Tensor>;

/// Index tensors live on the input's device.
Tensor empty_long(const Tensor& like) {
  return empty({0}, TensorOptions(kLong).device(like.device()));
}

/// Run starts (Bool [n]: true where a row differs from the one before, and at 0) of the rows of
/// the 2-d `rows`.
Tensor run_starts(const Tensor& rows) {
  const int64_t n = rows.size(0);
  Tensor differs = rows.narrow(0, 1, n - 1).ne(rows.narrow(0, 0, n - 1));
  const TensorOptions flags = TensorOptions(kBool).device(rows.device());
  differs = rows.size(1) == 0 ? zeros({n - 1}, flags) : differs.any(1);
  return cat({ones({1}, flags), differs}, 0);
}

/// (start positions, inverse, counts) of the runs marked by `starts`.
std::tuple<Tensor, Tensor, Tensor> runs(const Tensor& starts) {
  const int64_t n = starts.size(0);
  const Tensor pos = nonzero(starts).reshape({-1});
  const Tensor inverse = cumsum(starts, 0).sub(1);
  const Tensor ends = cat({pos.narrow(0, 1, pos.size(0) - 1),
                           full({1}, n, TensorOptions(kLong).device(starts.device()))},
                          0);
  return {pos, inverse, ends.sub(pos)};
}

/// The slices of self along d as the rows of a 2-d tensor.
Tensor as_rows(const Tensor& self, int64_t d) {
  return self.movedim(d, 0).reshape({self.size(d), -1});
}

/// unique_dim's answer for an input without elements.
Unique empty_unique(const Tensor& self, int64_t d, const char* op) {
  BRASA_CHECK(self.size(d) == 0, op, ": There are 0 sized dimensions, and they aren't selected, ",
              "so unique cannot be applied (shape ", self.sizes(), ", dim ", d, ")");
  return {self.clone(), empty_long(self), empty_long(self)};
}

}  // namespace

std::tuple<Tensor, Tensor, Tensor> unique_dim_consecutive(const Tensor& self_in, int64_t dim, bool,
                                                          bool) {
  const Tensor self = self_in.detach();
  const int64_t d = detail::wrap_dim(dim, std::max<int64_t>(self.dim(), 1), "unique_consecutive");
  if (self.numel() == 0) return empty_unique(self, d, "unique_dim_consecutive");
  auto [pos, inverse, counts] = runs(run_starts(as_rows(self, d)));
  return {self.index_select(d, pos), inverse, counts};
}

std::tuple<Tensor, Tensor, Tensor> unique_consecutive(const Tensor& self_in, bool return_inverse,
                                                      bool return_counts,
                                                      std::optional<int64_t> dim) {
  if (dim && !(self_in.dim() == 1 && detail::wrap_dim(*dim, 1, "unique_consecutive") == 0)) {
    return unique_dim_consecutive(self_in, *dim, return_inverse, return_counts);
  }
  const Tensor flat = self_in.detach().reshape({-1});
  if (flat.numel() == 0) {
    return {flat.clone(),
            return_inverse ? empty(self_in.sizes(), TensorOptions(kLong).device(flat.device()))
                           : empty_long(flat),
            empty_long(flat)};
  }
  auto [pos, inverse, counts] = runs(run_starts(flat.unsqueeze(1)));
  return {flat.index_select(0, pos),
          return_inverse ? inverse.reshape(self_in.sizes()) : empty_long(flat),
          return_counts ? counts : empty_long(flat)};
}

std::tuple<Tensor, Tensor, Tensor> unique_dim(const Tensor& self_in, int64_t dim, bool, bool,
                                              bool) {
  const Tensor self = self_in.detach();
  const int64_t d = detail::wrap_dim(dim, std::max<int64_t>(self.dim(), 1), "unique_dim");
  if (self.numel() == 0) return empty_unique(self, d, "unique_dim");
  const Tensor rows = as_rows(self, d);
  const int64_t n = rows.size(0);
  const TensorOptions index_options = TensorOptions(kLong).device(self.device());
  Tensor perm = arange(n, index_options);
  for (int64_t c = rows.size(1) - 1; c >= 0; --c) {
    const Tensor key = rows.select(1, c).index_select(0, perm);
    perm = perm.index_select(0, std::get<1>(sort(key, std::optional<bool>(true), 0)));
  }
  auto [pos, sorted_inverse, counts] = runs(run_starts(rows.index_select(0, perm)));
  const Tensor inverse = zeros({n}, index_options).scatter(0, perm, sorted_inverse);
  return {self.index_select(d, perm.index_select(0, pos)), inverse, counts};
}

}  // namespace brasa
