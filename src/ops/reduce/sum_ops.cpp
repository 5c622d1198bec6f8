// sum, mean and prod: dispatched ops, free functions and Tensor methods (loops in
// backends/cpu/kernels/reduce_kernels.cpp).
#include "brasa/core/error.h"
#include "brasa/ops/reduce.h"
#include "ops/reduce/reduce_common.h"
#include "ops/reduce/reduce_ops.h"

namespace brasa::ops {

BRASA_DEFINE_OP(sum_op)
BRASA_DEFINE_OP(mean_op)
BRASA_DEFINE_OP(prod_op)

namespace {
// Integral and bool inputs accumulate and return int64 unless a dtype is given (like PyTorch).
ScalarType sum_dtype(const Tensor& self, std::optional<ScalarType> dtype) {
  if (dtype) return *dtype;
  return is_integral_type(self.dtype(), true) ? kLong : self.dtype();
}

template <ReduceRunner run>
Tensor sum_kernel(const Tensor& self, IntArrayRef dim, bool keepdim,
                  std::optional<ScalarType> dtype, const Tensor& out) {
  ScalarType dt = sum_dtype(self, dtype);
  cpu::DimMask mask = cpu::make_dim_mask(dim, self.dim(), "sum");
  return run(sum_stub, "sum", self.to(dt), mask, keepdim, dt, out, {});
}

template <ReduceRunner run>
Tensor prod_kernel(const Tensor& self, IntArrayRef dim, bool keepdim,
                   std::optional<ScalarType> dtype, const Tensor& out) {
  ScalarType dt = sum_dtype(self, dtype);
  cpu::DimMask mask = cpu::make_dim_mask(dim, self.dim(), "prod");
  return run(prod_stub, "prod", self.to(dt), mask, keepdim, dt, out, {});
}

template <ReduceRunner run>
Tensor mean_kernel(const Tensor& self, IntArrayRef dim, bool keepdim,
                   std::optional<ScalarType> dtype, const Tensor& out) {
  ScalarType dt = dtype.value_or(self.dtype());
  BRASA_CHECK_TYPE(is_floating_type(dt),
                   "mean(): could not infer output dtype. Input dtype must be either a floating "
                   "point or complex dtype. Got: ",
                   dt);
  cpu::DimMask mask = cpu::make_dim_mask(dim, self.dim(), "mean");
  ReduceParams params;
  params.p = 1;
  for (int64_t d = 0; d < self.dim(); ++d)
    if (mask >> d & 1) params.p *= static_cast<double>(self.size(d));
  return run(mean_stub, "mean", self.to(dt), mask, keepdim, dt, out, params);
}
}  // namespace

BRASA_REGISTER_KERNEL(sum_op, sum_kernel<run_reduction>, CPU)
BRASA_REGISTER_KERNEL(sum_op, sum_kernel<reduce_meta>, Meta)
BRASA_REGISTER_KERNEL(mean_op, mean_kernel<run_reduction>, CPU)
BRASA_REGISTER_KERNEL(mean_op, mean_kernel<reduce_meta>, Meta)
BRASA_REGISTER_KERNEL(prod_op, prod_kernel<run_reduction>, CPU)
BRASA_REGISTER_KERNEL(prod_op, prod_kernel<reduce_meta>, Meta)

}  // namespace brasa::ops

namespace brasa {
namespace {
const Tensor kNoOut;
}

Tensor sum(const Tensor& self, std::optional<ScalarType> dtype) {
  return ops::sum_op().call(self, {}, false, dtype, kNoOut);
}
Tensor sum(const Tensor& self, IntArrayRef dim, bool keepdim, std::optional<ScalarType> dtype) {
  return ops::sum_op().call(self, dim, keepdim, dtype, kNoOut);
}
Tensor& sum_out(Tensor& out, const Tensor& self, IntArrayRef dim, bool keepdim,
                std::optional<ScalarType> dtype) {
  ops::sum_op().call(self, dim, keepdim, dtype, out);
  return out;
}
Tensor mean(const Tensor& self, std::optional<ScalarType> dtype) {
  return ops::mean_op().call(self, {}, false, dtype, kNoOut);
}
Tensor mean(const Tensor& self, IntArrayRef dim, bool keepdim, std::optional<ScalarType> dtype) {
  return ops::mean_op().call(self, dim, keepdim, dtype, kNoOut);
}
Tensor& mean_out(Tensor& out, const Tensor& self, IntArrayRef dim, bool keepdim,
                 std::optional<ScalarType> dtype) {
  ops::mean_op().call(self, dim, keepdim, dtype, out);
  return out;
}
Tensor prod(const Tensor& self, std::optional<ScalarType> dtype) {
  return ops::prod_op().call(self, {}, false, dtype, kNoOut);
}
Tensor prod(const Tensor& self, int64_t dim, bool keepdim, std::optional<ScalarType> dtype) {
  return ops::prod_op().call(self, dim, keepdim, dtype, kNoOut);
}
Tensor& prod_out(Tensor& out, const Tensor& self, int64_t dim, bool keepdim,
                 std::optional<ScalarType> dtype) {
  ops::prod_op().call(self, dim, keepdim, dtype, out);
  return out;
}

Tensor Tensor::sum(std::optional<ScalarType> dtype) const { return brasa::sum(*this, dtype); }
Tensor Tensor::sum(IntArrayRef dim, bool keepdim, std::optional<ScalarType> dtype) const {
  return brasa::sum(*this, dim, keepdim, dtype);
}
Tensor Tensor::mean(std::optional<ScalarType> dtype) const { return brasa::mean(*this, dtype); }
Tensor Tensor::mean(IntArrayRef dim, bool keepdim, std::optional<ScalarType> dtype) const {
  return brasa::mean(*this, dim, keepdim, dtype);
}
Tensor Tensor::prod(std::optional<ScalarType> dtype) const { return brasa::prod(*this, dtype); }
Tensor Tensor::prod(int64_t dim, bool keepdim, std::optional<ScalarType> dtype) const {
  return brasa::prod(*this, dim, keepdim, dtype);
}

}  // namespace brasa
