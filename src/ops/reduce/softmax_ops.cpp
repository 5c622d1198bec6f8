// softmax and log_softmax (loops in backends/cpu/kernels/softmax_kernels.cpp).
#include "backends/cpu/kernels/scan_softmax_sort_kernels.h"
#include "brasa/core/empty.h"
#include "brasa/core/error.h"
#include "brasa/dispatch/dispatcher.h"
#include "brasa/ops/reduce.h"
#include "ops/reduce/reduce_ops.h"

namespace brasa::ops {

BRASA_DEFINE_STUB(softmax_stub, SoftmaxKernel);

BRASA_DEFINE_OP(softmax_op)
BRASA_DEFINE_OP(log_softmax_op)

namespace {
Tensor softmax_result(const char* op, const Tensor& self, int64_t dim,
                      std::optional<ScalarType> dtype) {
  BRASA_CHECK(self.defined(), op, ": got an undefined tensor");
  detail::wrap_dim(dim, self.dim(), op);
  ScalarType dt = dtype.value_or(self.dtype());
  BRASA_CHECK_TYPE(is_floating_type(dt), op, ": expected a floating dtype (pass dtype= for ",
                   "integral inputs), got ", dt);
  return detail::empty_generic(self.sizes(), dt, self.device());
}
Tensor softmax_impl(const char* op, const Tensor& self, int64_t dim,
                    std::optional<ScalarType> dtype, bool log) {
  Tensor out = softmax_result(op, self, dim, dtype);
  if (out.numel() == 0) return out;
  Tensor in = self.to(out.dtype()).contiguous();
  int64_t d = self.dim() == 0 ? -1 : detail::wrap_dim(dim, self.dim(), op);
  softmax_stub(out, in, line_shape(self.sizes(), d), log);
  return out;
}
Tensor softmax_meta(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  return softmax_result("softmax", self, dim, dtype);
}
Tensor log_softmax_meta(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  return softmax_result("log_softmax", self, dim, dtype);
}
Tensor softmax_kernel(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  return softmax_impl("softmax", self, dim, dtype, false);
}
Tensor log_softmax_kernel(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  return softmax_impl("log_softmax", self, dim, dtype, true);
}
}  // namespace

BRASA_REGISTER_KERNEL(softmax_op, softmax_kernel, CPU)
BRASA_REGISTER_KERNEL(softmax_op, softmax_meta, Meta)
BRASA_REGISTER_KERNEL(log_softmax_op, log_softmax_kernel, CPU)
BRASA_REGISTER_KERNEL(log_softmax_op, log_softmax_meta, Meta)

}  // namespace brasa::ops

namespace brasa {
Tensor softmax(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  return ops::softmax_op().call(self, dim, dtype);
}
Tensor log_softmax(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  return ops::log_softmax_op().call(self, dim, dtype);
}
Tensor Tensor::softmax(int64_t dim, std::optional<ScalarType> dtype) const {
  return brasa::softmax(*this, dim, dtype);
}
Tensor Tensor::log_softmax(int64_t dim, std::optional<ScalarType> dtype) const {
  return brasa::log_softmax(*this, dim, dtype);
}
}  // namespace brasa
