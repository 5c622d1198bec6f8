// where and masked_fill (selection by a Bool/Byte condition); loops in
// backends/cpu/kernels/ternary_kernels.cpp.
#include <cmath>
#include <limits>

#include "backends/cpu/kernels/ternary_kernels.h"
#include "brasa/core/dispatch_type.h"
#include "brasa/core/empty.h"
#include "brasa/core/error.h"
#include "brasa/core/type_promotion.h"
#include "brasa/dispatch/dispatcher.h"
#include "brasa/dispatch/grad_mode.h"
#include "brasa/ops/pointwise.h"
#include "dispatch/inplace_name.h"
#include "dispatch/node_name.h"
#include "ops/meta.h"
#include "ops/pointwise/ternary_ops.h"

namespace brasa::ops {

BRASA_DEFINE_STUB(where_stub, WhereKernel);
BRASA_DEFINE_STUB(masked_fill_stub, MaskedFillKernel);

namespace {

void check_condition(const Tensor& cond, const char* op, const char* what) {
  BRASA_CHECK(cond.defined(), op, ": got an undefined ", what);
  BRASA_CHECK_TYPE(cond.dtype() == kBool || cond.dtype() == kByte, op, ": expected ", what,
                   " to be a boolean tensor, but got a tensor with dtype ", cond.dtype());
}

cpu::TensorIterator make_where_iterator(const Tensor& cond, const Tensor& self, const Tensor& other,
                                        const Tensor& out) {
  check_condition(cond, "where", "condition");
  BRASA_CHECK(self.defined() && other.defined(), "where: got an undefined tensor");
  const ScalarType dt = result_type(self, other);
  auto promote = [&](const Tensor& t) { return t.dtype() == dt ? t : t.to(dt); };
  cpu::TensorIteratorConfig cfg("where");
  cfg.add_output(out).add_input(cond).add_input(promote(self)).add_input(promote(other));
  cfg.promote_inputs_to_common_dtype(false).common_dtype(dt);
  return cfg.build();
}

Tensor where_meta(const Tensor& cond, const Tensor& self, const Tensor& other, const Tensor& out) {
  return iterator_meta(make_where_iterator(cond, self, other, out));
}

Tensor where_kernel(const Tensor& cond, const Tensor& self, const Tensor& other,
                    const Tensor& out) {
  cpu::TensorIterator it = make_where_iterator(cond, self, other, out);
  where_stub(it);
  it.finish();
  return it.output();
}

cpu::TensorIterator make_masked_fill_iterator(const Tensor& self, const Tensor& mask,
                                              const Scalar& value, const Tensor& out) {
  BRASA_CHECK(self.defined(), "masked_fill: got an undefined tensor");
  check_condition(mask, "masked_fill", "mask");
  detail::check_scalar_fits(value, self.dtype(), "masked_fill");
  cpu::TensorIteratorConfig cfg("masked_fill");
  cfg.add_output(out).add_input(self).add_input(mask);
  cfg.promote_inputs_to_common_dtype(false).common_dtype(self.dtype());
  return cfg.build();
}

Tensor masked_fill_meta(const Tensor& self, const Tensor& mask, const Scalar& value,
                        const Tensor& out) {
  return iterator_meta(make_masked_fill_iterator(self, mask, value, out));
}

Tensor masked_fill_kernel(const Tensor& self, const Tensor& mask, const Scalar& value,
                          const Tensor& out) {
  cpu::TensorIterator it = make_masked_fill_iterator(self, mask, value, out);
  masked_fill_stub(it, value);
  it.finish();
  return it.output();
}

}  // namespace

BRASA_DEFINE_OP(where_op)
BRASA_REGISTER_KERNEL(where_op, where_kernel, CPU)
BRASA_REGISTER_KERNEL(where_op, where_meta, Meta)
BRASA_DEFINE_OP(masked_fill_op)
BRASA_REGISTER_KERNEL(masked_fill_op, masked_fill_kernel, CPU)
BRASA_REGISTER_KERNEL(masked_fill_op, masked_fill_meta, Meta)

}  // namespace brasa::ops

namespace brasa {
namespace {
const Tensor kNoOut;

// A Scalar operand of where becomes a wrapped number; it must fit the result dtype.
Tensor wrap_checked(const Scalar& s, ScalarType result) {
  detail::check_scalar_fits(s, result, "where");
  return detail::wrap_scalar(s);
}

Scalar masked_fill_value(const Tensor& value) {
  BRASA_CHECK(value.defined(), "masked_fill: got an undefined value");
  BRASA_CHECK(value.dim() == 0,
              "masked_fill: only supports a 0-dimensional value tensor, but got tensor with ",
              value.dim(), " dimension(s)");
  return value.item();
}
}  // namespace

Tensor where(const Tensor& condition, const Tensor& self, const Tensor& other) {
  return ops::where_op().call(condition, self, other, kNoOut);
}
Tensor where(const Tensor& condition, const Scalar& self, const Tensor& other) {
  Tensor a = detail::wrap_scalar(self);
  return where(condition, wrap_checked(self, result_type(a, other)), other);
}
Tensor where(const Tensor& condition, const Tensor& self, const Scalar& other) {
  Tensor b = detail::wrap_scalar(other);
  return where(condition, self, wrap_checked(other, result_type(self, b)));
}
Tensor where(const Tensor& condition, const Scalar& self, const Scalar& other) {
  Tensor a = detail::wrap_scalar(self), b = detail::wrap_scalar(other);
  const ScalarType dt = result_type(a, b);
  return where(condition, wrap_checked(self, dt), wrap_checked(other, dt));
}
Tensor& where_out(Tensor& out, const Tensor& condition, const Tensor& self, const Tensor& other) {
  ops::where_op().call(condition, self, other, out);
  return out;
}
Tensor Tensor::where(const Tensor& condition, const Tensor& other) const {
  return brasa::where(condition, *this, other);
}

Tensor masked_fill(const Tensor& self, const Tensor& mask, const Scalar& value) {
  return ops::masked_fill_op().call(self, mask, value, kNoOut);
}
Tensor masked_fill(const Tensor& self, const Tensor& mask, const Tensor& value) {
  const Scalar v = masked_fill_value(value);
  // A value that requires grad gets the sum of the filled positions' gradients (through where).
  if (will_record_grad({&value})) return where(mask, value.to(self.dtype()), self);
  autograd::NodeName node("MaskedFillBackward1");  // Note [Overload node names]
  return masked_fill(self, mask, v);
}
Tensor Tensor::masked_fill(const Tensor& mask, const Scalar& value) const {
  return brasa::masked_fill(*this, mask, value);
}
Tensor Tensor::masked_fill(const Tensor& mask, const Tensor& value) const {
  return brasa::masked_fill(*this, mask, value);
}
const Tensor& Tensor::masked_fill_(const Tensor& mask, const Scalar& value) const {
  ops::masked_fill_op().call(*this, mask, value, *this);
  return *this;
}
const Tensor& Tensor::masked_fill_(const Tensor& mask, const Tensor& value) const {
  const Scalar v = masked_fill_value(value);
  if (will_record_grad({&value})) {
    Tensor result = brasa::masked_fill(*this, mask, value);
    autograd::InplaceName name("masked_fill_");  // Note [In-place op names]
    return copy_(result);
  }
  return masked_fill_(mask, v);
}

}  // namespace brasa
