// frobenius_norm, nuclear_norm and norm_except_dim: libtorch 1.13's older norm functions as
// torch.linalg norms (their derivatives are those norms').

#include "brasa/ops/legacy_norms.h"

#include <optional>
#include <vector>

#include "brasa/core/error.h"
#include "brasa/ops/linalg_decomp.h"

namespace brasa {
namespace {

/// The 2-norm over dims runs on |x| for complex x (same value, and abs's derivative).
Tensor real_magnitude(const Tensor& self) { return self.is_complex() ? self.abs() : self; }

}  // namespace

Tensor frobenius_norm(const Tensor& self) { return linalg_vector_norm(real_magnitude(self), 2); }

Tensor frobenius_norm(const Tensor& self, IntArrayRef dim, bool keepdim) {
  BRASA_CHECK(dim.size() <= 2, "frobenius_norm: expected at most 2 dims, got ", dim.size(), " (",
              dim, ")");
  if (dim.empty()) {
    Tensor all = frobenius_norm(self);
    if (!keepdim) return all;
    return all.reshape(std::vector<int64_t>(static_cast<size_t>(self.dim()), 1));
  }
  return linalg_vector_norm(real_magnitude(self), 2, dim, keepdim);
}

Tensor nuclear_norm(const Tensor& self, bool keepdim) {
  BRASA_CHECK(self.dim() == 2, "nuclear_norm: expected a 2-d tensor, got shape ", self.sizes());
  return linalg_matrix_norm(self, "nuc", {0, 1}, keepdim);
}

Tensor nuclear_norm(const Tensor& self, IntArrayRef dim, bool keepdim) {
  BRASA_CHECK(dim.size() == 2, "nuclear_norm: expected 2 dims, got ", dim.size(), " (", dim, ")");
  return linalg_matrix_norm(self, "nuc", dim, keepdim);
}

Tensor norm_except_dim(const Tensor& v, int64_t pow, int64_t dim) {
  BRASA_CHECK(v.defined(), "norm_except_dim: v must be defined");
  if (dim == -1) return linalg_vector_norm(v, static_cast<double>(pow));
  BRASA_CHECK_INDEX(v.dim() > 0 && dim >= -v.dim() && dim < v.dim(), "norm_except_dim: dim ", dim,
                    " is out of range for a tensor of shape ", v.sizes());
  const int64_t last = v.dim() - 1;
  std::vector<int64_t> shape(static_cast<size_t>(v.dim()), 1);
  if (dim == 0) {
    shape[0] = v.size(0);
    return linalg_vector_norm(v.contiguous().view({v.size(0), -1}), static_cast<double>(pow),
                              IntArrayRef{1})
        .view(shape);
  }
  if (dim == last) {
    shape[static_cast<size_t>(last)] = v.size(last);
    return linalg_vector_norm(v.contiguous().view({-1, v.size(last)}), static_cast<double>(pow),
                              IntArrayRef{0})
        .view(shape);
  }
  return norm_except_dim(v.transpose(0, dim), pow, 0).transpose(0, dim);
}

}  // namespace brasa
