// Diagonals and writes into a copy's view: diag, diag_embed, diagflat and the *_scatter ops.
// Each copies into a view of a fresh tensor, so autograd's in-place-on-view rule differentiates
// them (the gradient of src is the same view of the output's gradient).
#include <algorithm>
#include <cstdlib>

#include "brasa/core/empty.h"
#include "brasa/core/error.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/shaping.h"
#include "brasa/ops/view.h"

namespace brasa {
namespace {

/// src must have exactly the shape of the view it is written into (copy_ would broadcast).
void check_src(const Tensor& view, const Tensor& src, const char* op) {
  BRASA_CHECK(view.sizes() == src.sizes(), op,
              ": expected src to have a size equal to the slice of ",
              "self. src size = ", src.sizes(), ", slice size = ", view.sizes());
}

}  // namespace

Tensor diag_embed(const Tensor& self, int64_t offset, int64_t dim1, int64_t dim2) {
  BRASA_CHECK(self.dim() >= 1, "diag_embed: expected a tensor of at least 1 dimension, got ",
              self.sizes());
  const int64_t out_dim = self.dim() + 1;
  const int64_t d1 = detail::wrap_dim(dim1, out_dim, "diag_embed");
  const int64_t d2 = detail::wrap_dim(dim2, out_dim, "diag_embed");
  BRASA_CHECK(d1 != d2, "diag_embed: diagonal dimensions cannot be identical ", dim1, ", ", dim2);
  const int64_t n = self.size(-1) + std::abs(offset);
  std::vector<int64_t> shape(self.sizes().begin(), self.sizes().end() - 1);
  // The two new dims go in ascending order so that each lands at its requested position.
  shape.insert(shape.begin() + std::min(d1, d2), n);
  shape.insert(shape.begin() + std::max(d1, d2), n);
  Tensor out = zeros(shape, self.options());
  out.diagonal(offset, d1, d2).copy_(self);
  return out;
}

Tensor diag(const Tensor& self, int64_t diagonal) {
  BRASA_CHECK(self.dim() == 1 || self.dim() == 2, "diag(): Supports 1D or 2D tensors. Got ",
              self.dim(), "D");
  if (self.dim() == 1) return diag_embed(self, diagonal, 0, 1);
  return self.diagonal(diagonal, 0, 1).clone();
}

Tensor diagflat(const Tensor& self, int64_t offset) {
  return diag_embed(self.reshape({-1}), offset, 0, 1);
}

Tensor diagonal_scatter(const Tensor& self, const Tensor& src, int64_t offset, int64_t dim1,
                        int64_t dim2) {
  Tensor out = self.clone();
  Tensor view = out.diagonal(offset, dim1, dim2);
  check_src(view, src, "diagonal_scatter");
  view.copy_(src);
  return out;
}

Tensor select_scatter(const Tensor& self, const Tensor& src, int64_t dim, int64_t index) {
  Tensor out = self.clone();
  Tensor view = out.select(dim, index);
  check_src(view, src, "select_scatter");
  view.copy_(src);
  return out;
}

Tensor slice_scatter(const Tensor& self, const Tensor& src, int64_t dim,
                     std::optional<int64_t> start, std::optional<int64_t> end, int64_t step) {
  Tensor out = self.clone();
  Tensor view = out.slice(dim, start, end, step);
  check_src(view, src, "slice_scatter");
  view.copy_(src);
  return out;
}

Tensor as_strided_scatter(const Tensor& self, const Tensor& src, IntArrayRef size,
                          IntArrayRef stride, std::optional<int64_t> storage_offset) {
  Tensor out = self.clone();
  Tensor view = out.as_strided(size, stride, storage_offset);
  check_src(view, src, "as_strided_scatter");
  view.copy_(src);
  return out;
}

}  // namespace brasa
