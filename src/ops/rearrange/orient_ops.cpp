// Flips, rotations and reshapes built from flip, transpose and reshape (fliplr, flipud, rot90,
// ravel, adjoint, msort, resolve_neg) and two predicates (is_same_size, is_nonzero).
#include "brasa/core/empty.h"
#include "brasa/core/error.h"
#include "brasa/ops/complex.h"
#include "brasa/ops/indexing_ops.h"
#include "brasa/ops/reduce.h"
#include "brasa/ops/shaping.h"
#include "brasa/ops/view.h"

namespace brasa {

Tensor fliplr(const Tensor& self) {
  BRASA_CHECK(self.dim() >= 2, "fliplr: Input must be >= 2-d, got ", self.sizes());
  return flip(self, {1});
}

Tensor flipud(const Tensor& self) {
  BRASA_CHECK(self.dim() >= 1, "flipud: Input must be >= 1-d, got ", self.sizes());
  return flip(self, {0});
}

Tensor rot90(const Tensor& self, int64_t k, IntArrayRef dims) {
  BRASA_CHECK(dims.size() == 2,
              "rot90: expected total rotation dims == 2, but got dims = ", dims.size());
  BRASA_CHECK(self.dim() >= 2,
              "rot90: expected total dims >= 2, but got total dims = ", self.dim());
  const int64_t d0 = detail::wrap_dim(dims[0], self.dim(), "rot90");
  const int64_t d1 = detail::wrap_dim(dims[1], self.dim(), "rot90");
  BRASA_CHECK(d0 != d1, "rot90: expected rotation dims to be different, but got dim0 = ", d0,
              " and dim1 = ", d1);
  switch (((k % 4) + 4) % 4) {
    case 1: return flip(self, {d1}).transpose(d0, d1);
    case 2: return flip(self, {d0, d1});
    case 3: return flip(self, {d0}).transpose(d0, d1);
    default: return self.clone(MemoryFormat::Contiguous);
  }
}

Tensor ravel(const Tensor& self) { return self.reshape({-1}); }

Tensor adjoint(const Tensor& self) {
  BRASA_CHECK(self.dim() >= 2, "tensor.adjoint() is only supported on matrices or batches of ",
              "matrices. Got ", self.dim(), "-D tensor.");
  const Tensor t = self.transpose(-2, -1);
  return self.is_complex() ? conj(t) : t;
}

Tensor resolve_neg(const Tensor& self) { return self; }

Tensor msort(const Tensor& self) { return std::get<0>(sort(self, 0)); }

bool is_same_size(const Tensor& self, const Tensor& other) { return self.sizes() == other.sizes(); }

bool is_nonzero(const Tensor& self) {
  BRASA_CHECK_TYPED(RuntimeError, self.numel() != 0,
                    "Boolean value of Tensor with no values is ambiguous");
  BRASA_CHECK_TYPED(RuntimeError, self.numel() == 1,
                    "Boolean value of Tensor with more than one value is ambiguous");
  return self.item().to<double>() != 0 || self.item().to<bool>();
}

}  // namespace brasa
