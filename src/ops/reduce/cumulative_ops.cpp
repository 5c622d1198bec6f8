// cummax, cummin and logcumsumexp (cumulative_ops.h; loops in
// backends/cpu/kernels/cumulative_kernels.cpp).
#include "ops/reduce/cumulative_ops.h"

#include "backends/cpu/kernels/cumulative_kernels.h"
#include "brasa/core/empty.h"
#include "brasa/core/error.h"
#include "brasa/ops/statistics.h"

namespace brasa::ops {

BRASA_DEFINE_STUB(cum_extreme_stub, CumExtremeKernel);
BRASA_DEFINE_STUB(logcumsumexp_stub, LogCumSumExpKernel);
BRASA_DEFINE_OP(cummax_op)
BRASA_DEFINE_OP(cummin_op)
BRASA_DEFINE_OP(logcumsumexp_op)

namespace {

// The dim wrapped (0-d tensors scan their one element).
int64_t scan_dim(const char* op, const Tensor& self, int64_t dim) {
  BRASA_CHECK(self.defined(), op, ": got an undefined tensor");
  BRASA_CHECK_TYPE(!self.is_complex(), op, ": complex inputs are not supported, got ",
                   self.scalar_type());
  const int64_t d = detail::wrap_dim(dim, std::max<int64_t>(self.dim(), 1), op);
  return self.dim() == 0 ? -1 : d;
}

template <bool kMin>
std::tuple<Tensor, Tensor> cum_extreme_meta(const Tensor& self, int64_t dim) {
  scan_dim(kMin ? "cummin" : "cummax", self, dim);
  return {detail::empty_generic(self.sizes(), self.dtype(), self.device()),
          detail::empty_generic(self.sizes(), kLong, self.device())};
}
template <bool kMin>
std::tuple<Tensor, Tensor> cum_extreme_kernel(const Tensor& self, int64_t dim) {
  const int64_t d = scan_dim(kMin ? "cummin" : "cummax", self, dim);
  auto [values, indices] = cum_extreme_meta<kMin>(self, dim);
  if (self.numel() > 0)
    cum_extreme_stub(values, indices, self.contiguous(), line_shape(self.sizes(), d), kMin);
  return {values, indices};
}

Tensor logcumsumexp_meta(const Tensor& self, int64_t dim) {
  scan_dim("logcumsumexp", self, dim);
  BRASA_CHECK_TYPE(is_floating_type(self.dtype()), "logcumsumexp: expected a floating input, got ",
                   self.dtype());
  return detail::empty_generic(self.sizes(), self.dtype(), self.device());
}
Tensor logcumsumexp_kernel(const Tensor& self, int64_t dim) {
  const int64_t d = scan_dim("logcumsumexp", self, dim);
  Tensor out = logcumsumexp_meta(self, dim);
  if (self.numel() > 0) logcumsumexp_stub(out, self.contiguous(), line_shape(self.sizes(), d));
  return out;
}

}  // namespace

BRASA_REGISTER_KERNEL(cummax_op, cum_extreme_kernel<false>, CPU)
BRASA_REGISTER_KERNEL(cummax_op, cum_extreme_meta<false>, Meta)
BRASA_REGISTER_KERNEL(cummin_op, cum_extreme_kernel<true>, CPU)
BRASA_REGISTER_KERNEL(cummin_op, cum_extreme_meta<true>, Meta)
BRASA_REGISTER_KERNEL(logcumsumexp_op, logcumsumexp_kernel, CPU)
BRASA_REGISTER_KERNEL(logcumsumexp_op, logcumsumexp_meta, Meta)

}  // namespace brasa::ops

namespace brasa {
std::tuple<Tensor, Tensor> cummax(const Tensor& self, int64_t dim) {
  return ops::cummax_op().call(self, dim);
}
std::tuple<Tensor, Tensor> cummin(const Tensor& self, int64_t dim) {
  return ops::cummin_op().call(self, dim);
}
Tensor logcumsumexp(const Tensor& self, int64_t dim) {
  return ops::logcumsumexp_op().call(self, dim);
}
}  // namespace brasa
