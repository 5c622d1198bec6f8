// var, std, norm and logsumexp (loops in backends/cpu/kernels/reduce_kernels_stats.cpp).
#include <cmath>

#include "brasa/core/error.h"
#include "brasa/ops/reduce.h"
#include "dispatch/node_name.h"
#include "ops/reduce/reduce_common.h"
#include "ops/reduce/reduce_ops.h"

namespace brasa::ops {

BRASA_DEFINE_OP(var_op)
BRASA_DEFINE_OP(std_op)
BRASA_DEFINE_OP(norm_op)
BRASA_DEFINE_OP(logsumexp_op)

namespace {
template <ReduceRunner run>
Tensor var_std(const char* op, const Tensor& self, IntArrayRef dim, int64_t correction,
               bool keepdim, bool take_sqrt) {
  BRASA_CHECK_TYPE(is_floating_type(self.dtype()), op,
                   ": std and var only support floating point dtypes, got ", self.dtype());
  cpu::DimMask mask = cpu::make_dim_mask(dim, self.dim(), op);
  ReduceParams params;
  params.p = static_cast<double>(correction);
  params.flag = take_sqrt;
  return run(var_stub, op, self, mask, keepdim, self.dtype(), {}, params);
}
template <ReduceRunner run>
Tensor var_kernel(const Tensor& self, IntArrayRef dim, int64_t correction, bool keepdim) {
  return var_std<run>("var", self, dim, correction, keepdim, false);
}
template <ReduceRunner run>
Tensor std_kernel(const Tensor& self, IntArrayRef dim, int64_t correction, bool keepdim) {
  return var_std<run>("std", self, dim, correction, keepdim, true);
}

template <ReduceRunner run>
Tensor norm_kernel(const Tensor& self, std::optional<Scalar> p, IntArrayRef dim, bool keepdim) {
  BRASA_CHECK_TYPE(is_floating_type(self.dtype()),
                   "norm(): input dtype should be either floating point or complex. Got ",
                   self.dtype(), " instead.");
  cpu::DimMask mask = cpu::make_dim_mask(dim, self.dim(), "norm");
  ReduceParams params;
  params.p = p ? p->toDouble() : 2.0;
  return run(norm_stub, "norm", self, mask, keepdim, self.dtype(), {}, params);
}

template <ReduceRunner run>
Tensor logsumexp_kernel(const Tensor& self, IntArrayRef dim, bool keepdim) {
  cpu::DimMask mask = cpu::make_dim_mask(dim, self.dim(), "logsumexp");
  Tensor x = is_floating_type(self.dtype()) ? self : self.to(get_default_dtype());
  return run(logsumexp_stub, "logsumexp", x, mask, keepdim, x.dtype(), {}, {});
}
}  // namespace

BRASA_REGISTER_KERNEL(var_op, var_kernel<run_reduction>, CPU)
BRASA_REGISTER_KERNEL(var_op, var_kernel<reduce_meta>, Meta)
BRASA_REGISTER_KERNEL(std_op, std_kernel<run_reduction>, CPU)
BRASA_REGISTER_KERNEL(std_op, std_kernel<reduce_meta>, Meta)
BRASA_REGISTER_KERNEL(norm_op, norm_kernel<run_reduction>, CPU)
BRASA_REGISTER_KERNEL(norm_op, norm_kernel<reduce_meta>, Meta)
BRASA_REGISTER_KERNEL(logsumexp_op, logsumexp_kernel<run_reduction>, CPU)
BRASA_REGISTER_KERNEL(logsumexp_op, logsumexp_kernel<reduce_meta>, Meta)

}  // namespace brasa::ops

namespace brasa {

Tensor var(const Tensor& self, bool unbiased) {
  return ops::var_op().call(self, {}, unbiased, false);
}
Tensor var(const Tensor& self, IntArrayRef dim, bool unbiased, bool keepdim) {
  return ops::var_op().call(self, dim, unbiased, keepdim);
}
Tensor var(const Tensor& self, OptionalIntArrayRef dim, std::optional<int64_t> correction,
           bool keepdim) {
  return ops::var_op().call(self, dim.value_or(IntArrayRef()), correction.value_or(1), keepdim);
}
Tensor std(const Tensor& self, bool unbiased) {
  return ops::std_op().call(self, {}, unbiased, false);
}
Tensor std(const Tensor& self, IntArrayRef dim, bool unbiased, bool keepdim) {
  return ops::std_op().call(self, dim, unbiased, keepdim);
}
Tensor std(const Tensor& self, OptionalIntArrayRef dim, std::optional<int64_t> correction,
           bool keepdim) {
  return ops::std_op().call(self, dim.value_or(IntArrayRef()), correction.value_or(1), keepdim);
}
Tensor norm(const Tensor& self, const Scalar& p) {
  autograd::NodeName node("NormBackward0");  // norm.Scalar (Note [Overload node names])
  return ops::norm_op().call(self, p, {}, false);
}
Tensor norm(const Tensor& self, std::optional<Scalar> p, IntArrayRef dim, bool keepdim) {
  return ops::norm_op().call(self, p, dim, keepdim);
}
Tensor logsumexp(const Tensor& self, IntArrayRef dim, bool keepdim) {
  return ops::logsumexp_op().call(self, dim, keepdim);
}

Tensor Tensor::var(bool unbiased) const { return brasa::var(*this, unbiased); }
Tensor Tensor::var(IntArrayRef dim, bool unbiased, bool keepdim) const {
  return brasa::var(*this, dim, unbiased, keepdim);
}
Tensor Tensor::var(OptionalIntArrayRef dim, std::optional<int64_t> correction, bool keepdim) const {
  return brasa::var(*this, dim, correction, keepdim);
}
Tensor Tensor::std(bool unbiased) const { return brasa::std(*this, unbiased); }
Tensor Tensor::std(IntArrayRef dim, bool unbiased, bool keepdim) const {
  return brasa::std(*this, dim, unbiased, keepdim);
}
Tensor Tensor::std(OptionalIntArrayRef dim, std::optional<int64_t> correction, bool keepdim) const {
  return brasa::std(*this, dim, correction, keepdim);
}
Tensor Tensor::norm(const Scalar& p) const { return brasa::norm(*this, p); }
Tensor Tensor::norm(std::optional<Scalar> p, IntArrayRef dim, bool keepdim) const {
  return brasa::norm(*this, p, dim, keepdim);
}
Tensor Tensor::logsumexp(IntArrayRef dim, bool keepdim) const {
  return brasa::logsumexp(*this, dim, keepdim);
}

}  // namespace brasa
