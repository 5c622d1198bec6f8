// lerp (Scalar and Tensor weight); loops in backends/cpu/kernels/ternary_kernels.cpp.
#include "backends/cpu/kernels/ternary_kernels.h"
#include "brasa/core/error.h"
#include "brasa/dispatch/dispatcher.h"
#include "brasa/ops/pointwise.h"
#include "ops/meta.h"
#include "ops/pointwise/ternary_ops.h"

namespace brasa::ops {

BRASA_DEFINE_STUB(lerp_scalar_stub, LerpScalarKernel);
BRASA_DEFINE_STUB(lerp_tensor_stub, LerpTensorKernel);

namespace {

// No type promotion: end and weight must have self's dtype, which must be floating.
cpu::TensorIterator make_lerp_iterator(const Tensor& self, const Tensor& end, const Tensor* weight,
                                       const Tensor& out) {
  BRASA_CHECK(self.defined() && end.defined(), "lerp: got an undefined tensor");
  BRASA_CHECK_TYPE(is_floating_type(self.dtype()), "lerp: not implemented for dtype ",
                   self.dtype());
  BRASA_CHECK_TYPE(end.dtype() == self.dtype(), "lerp: expected dtype ", self.dtype(),
                   " for `end` but got dtype ", end.dtype());
  cpu::TensorIteratorConfig cfg("lerp");
  cfg.add_output(out).add_input(self).add_input(end).common_dtype(self.dtype());
  if (weight) {
    BRASA_CHECK(weight->defined(), "lerp: got an undefined weight");
    BRASA_CHECK_TYPE(weight->dtype() == self.dtype(), "lerp: expected dtype ", self.dtype(),
                     " for `weight` but got dtype ", weight->dtype());
    cfg.add_input(*weight);
  }
  return cfg.build();
}

Tensor lerp_scalar_meta(const Tensor& self, const Tensor& end, const Scalar&, const Tensor& out) {
  return iterator_meta(make_lerp_iterator(self, end, nullptr, out));
}
Tensor lerp_tensor_meta(const Tensor& self, const Tensor& end, const Tensor& weight,
                        const Tensor& out) {
  return iterator_meta(make_lerp_iterator(self, end, &weight, out));
}

Tensor lerp_scalar_kernel(const Tensor& self, const Tensor& end, const Scalar& weight,
                          const Tensor& out) {
  cpu::TensorIterator it = make_lerp_iterator(self, end, nullptr, out);
  lerp_scalar_stub(it, weight);
  it.finish();
  return it.output();
}
Tensor lerp_tensor_kernel(const Tensor& self, const Tensor& end, const Tensor& weight,
                          const Tensor& out) {
  cpu::TensorIterator it = make_lerp_iterator(self, end, &weight, out);
  lerp_tensor_stub(it);
  it.finish();
  return it.output();
}

}  // namespace

BRASA_DEFINE_OP(lerp_scalar_op)
BRASA_REGISTER_KERNEL(lerp_scalar_op, lerp_scalar_kernel, CPU)
BRASA_REGISTER_KERNEL(lerp_scalar_op, lerp_scalar_meta, Meta)
BRASA_DEFINE_OP(lerp_tensor_op)
BRASA_REGISTER_KERNEL(lerp_tensor_op, lerp_tensor_kernel, CPU)
BRASA_REGISTER_KERNEL(lerp_tensor_op, lerp_tensor_meta, Meta)

}  // namespace brasa::ops

namespace brasa {
namespace {
const Tensor kNoOut;
}  // namespace

Tensor lerp(const Tensor& self, const Tensor& end, const Scalar& weight) {
  return ops::lerp_scalar_op().call(self, end, weight, kNoOut);
}
Tensor lerp(const Tensor& self, const Tensor& end, const Tensor& weight) {
  return ops::lerp_tensor_op().call(self, end, weight, kNoOut);
}
Tensor& lerp_out(Tensor& out, const Tensor& self, const Tensor& end, const Scalar& weight) {
  ops::lerp_scalar_op().call(self, end, weight, out);
  return out;
}
Tensor& lerp_out(Tensor& out, const Tensor& self, const Tensor& end, const Tensor& weight) {
  ops::lerp_tensor_op().call(self, end, weight, out);
  return out;
}
Tensor Tensor::lerp(const Tensor& end, const Scalar& weight) const {
  return brasa::lerp(*this, end, weight);
}
Tensor Tensor::lerp(const Tensor& end, const Tensor& weight) const {
  return brasa::lerp(*this, end, weight);
}
const Tensor& Tensor::lerp_(const Tensor& end, const Scalar& weight) const {
  ops::lerp_scalar_op().call(*this, end, weight, *this);
  return *this;
}
const Tensor& Tensor::lerp_(const Tensor& end, const Tensor& weight) const {
  ops::lerp_tensor_op().call(*this, end, weight, *this);
  return *this;
}

}  // namespace brasa
