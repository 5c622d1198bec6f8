// cumsum and cumprod (loops in backends/cpu/kernels/scan_kernels.cpp); also the LineShape helper
// shared with softmax and sort.
#include "backends/cpu/kernels/scan_softmax_sort_kernels.h"
#include "brasa/core/empty.h"
#include "brasa/core/error.h"
#include "brasa/dispatch/dispatcher.h"
#include "brasa/ops/reduce.h"
#include "ops/reduce/reduce_ops.h"

namespace brasa::ops {

BRASA_DEFINE_STUB(scan_stub, ScanKernel);

LineShape line_shape(IntArrayRef sizes, int64_t dim) {
  LineShape s;
  for (int64_t d = 0; d < static_cast<int64_t>(sizes.size()); ++d) {
    if (d < dim)
      s.outer *= sizes[d];
    else if (d == dim)
      s.n = sizes[d];
    else
      s.inner *= sizes[d];
  }
  return s;
}

BRASA_DEFINE_OP(cumsum_op)
BRASA_DEFINE_OP(cumprod_op)

namespace {
Tensor scan_meta(const char* op, const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  BRASA_CHECK(self.defined(), op, ": got an undefined tensor");
  detail::wrap_dim(dim, self.dim(), op);
  ScalarType dt = dtype ? *dtype : (is_integral_type(self.dtype(), true) ? kLong : self.dtype());
  return detail::empty_generic(self.sizes(), dt, self.device());
}
Tensor scan(const char* op, const Tensor& self, int64_t dim, std::optional<ScalarType> dtype,
            bool prod) {
  Tensor out = scan_meta(op, self, dim, dtype);
  if (out.numel() == 0) return out;
  Tensor in = self.to(out.dtype()).contiguous();
  int64_t d = self.dim() == 0 ? -1 : detail::wrap_dim(dim, self.dim(), op);
  scan_stub(out, in, line_shape(self.sizes(), d), prod);
  return out;
}
Tensor cumsum_meta(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  return scan_meta("cumsum", self, dim, dtype);
}
Tensor cumprod_meta(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  return scan_meta("cumprod", self, dim, dtype);
}
Tensor cumsum_kernel(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  return scan("cumsum", self, dim, dtype, false);
}
Tensor cumprod_kernel(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  return scan("cumprod", self, dim, dtype, true);
}
}  // namespace

BRASA_REGISTER_KERNEL(cumsum_op, cumsum_kernel, CPU)
BRASA_REGISTER_KERNEL(cumsum_op, cumsum_meta, Meta)
BRASA_REGISTER_KERNEL(cumprod_op, cumprod_kernel, CPU)
BRASA_REGISTER_KERNEL(cumprod_op, cumprod_meta, Meta)

}  // namespace brasa::ops

namespace brasa {
Tensor cumsum(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  return ops::cumsum_op().call(self, dim, dtype);
}
Tensor cumprod(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  return ops::cumprod_op().call(self, dim, dtype);
}
Tensor Tensor::cumsum(int64_t dim, std::optional<ScalarType> dtype) const {
  return brasa::cumsum(*this, dim, dtype);
}
Tensor Tensor::cumprod(int64_t dim, std::optional<ScalarType> dtype) const {
  return brasa::cumprod(*this, dim, dtype);
}
}  // namespace brasa
