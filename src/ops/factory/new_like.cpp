// Tensor::new_empty / new_empty_strided / new_zeros / new_ones / new_full: factories that take
// this tensor's dtype and device unless `options` sets them (never its requires_grad).
#include "brasa/core/tensor.h"
#include "brasa/ops/factory.h"

namespace brasa {

namespace {
TensorOptions like(const Tensor& self, const TensorOptions& options) {
  return options.merge_in(TensorOptions().dtype(self.scalar_type()).device(self.device()));
}
}  // namespace

Tensor Tensor::new_empty(IntArrayRef size, const TensorOptions& options) const {
  return empty(size, like(*this, options));
}
Tensor Tensor::new_empty_strided(IntArrayRef size, IntArrayRef stride,
                                 const TensorOptions& options) const {
  return empty_strided(size, stride, like(*this, options));
}
Tensor Tensor::new_zeros(IntArrayRef size, const TensorOptions& options) const {
  return zeros(size, like(*this, options));
}
Tensor Tensor::new_ones(IntArrayRef size, const TensorOptions& options) const {
  return ones(size, like(*this, options));
}
Tensor Tensor::new_full(IntArrayRef size, const Scalar& fill_value,
                        const TensorOptions& options) const {
  return full(size, fill_value, like(*this, options));
}

}  // namespace brasa
