// clamp, clamp_min, clamp_max (Scalar and Tensor bounds); loops in
// backends/cpu/kernels/ternary_kernels.cpp.
#include <cmath>

#include "backends/cpu/kernels/ternary_kernels.h"
#include "brasa/core/error.h"
#include "brasa/core/type_promotion.h"
#include "brasa/dispatch/dispatcher.h"
#include "brasa/ops/pointwise.h"
#include "ops/meta.h"
#include "ops/pointwise/ternary_ops.h"

namespace brasa::ops {

BRASA_DEFINE_STUB(clamp_scalar_stub, ClampScalarKernel);
BRASA_DEFINE_STUB(clamp_tensor_stub, ClampTensorKernel);

namespace {

using OptScalar = std::optional<Scalar>;
using OptTensor = std::optional<Tensor>;

bool is_nan(const OptScalar& s) { return s && s->isFloatingPoint() && std::isnan(s->toDouble()); }

void check_out_dtype(const char* name, const Tensor& out, ScalarType dt) {
  BRASA_CHECK_TYPE(!out.defined() || out.dtype() == dt, name, ": result type ", dt,
                   " doesn't match the dtype ", out.dtype(), " of out");
}

// NaN bounds (PyTorch 1.13): clamp with both bounds and clamp_min/clamp_max fill NaN; a lone NaN
// bound of clamp is ignored. Leaves in min/max the bounds the loop uses and in nan_fill whether it
// fills NaN.
cpu::TensorIterator make_clamp_scalar_iterator(const char* name, const Tensor& self, OptScalar& min,
                                               OptScalar& max, const Tensor& out,
                                               bool lone_nan_fills, bool& nan_fill) {
  BRASA_CHECK(self.defined(), name, ": got an undefined tensor");
  BRASA_CHECK(min || max, name, ": at least one of 'min' or 'max' must not be None");
  ResultTypeState st;
  st.add(self);
  if (min) st.add(*min);
  if (max) st.add(*max);
  const ScalarType dt = st.result();
  BRASA_CHECK_TYPE(dt != kBool, name, ": not implemented for dtype Bool");
  check_out_dtype(name, out, dt);
  nan_fill = false;
  if (is_floating_type(dt)) {
    if ((min && max) || lone_nan_fills) {
      nan_fill = is_nan(min) || is_nan(max);
    } else {
      if (is_nan(min)) min.reset();
      if (is_nan(max)) max.reset();
    }
  }
  if (!nan_fill) {
    if (min) detail::check_scalar_fits(*min, dt, name);
    if (max) detail::check_scalar_fits(*max, dt, name);
  }
  cpu::TensorIteratorConfig cfg(name);
  cfg.add_output(out).add_input(self).common_dtype(dt);
  return cfg.build();
}

Tensor clamp_scalar_meta(const char* name, const Tensor& self, OptScalar min, OptScalar max,
                         const Tensor& out, bool lone_nan_fills) {
  bool nan_fill = false;
  return iterator_meta(
      make_clamp_scalar_iterator(name, self, min, max, out, lone_nan_fills, nan_fill));
}

Tensor clamp_scalar_cpu(const char* name, const Tensor& self, OptScalar min, OptScalar max,
                        const Tensor& out, bool lone_nan_fills) {
  bool nan_fill = false;
  cpu::TensorIterator it =
      make_clamp_scalar_iterator(name, self, min, max, out, lone_nan_fills, nan_fill);
  clamp_scalar_stub(it, min, max, nan_fill);
  it.finish();
  return it.output();
}

// The kernels of clamp, clamp_min and clamp_max: `impl` is clamp_scalar_meta (Meta) or
// clamp_scalar_cpu (CPU).
using ClampScalarImpl = Tensor (*)(const char*, const Tensor&, OptScalar, OptScalar, const Tensor&,
                                   bool);
template <ClampScalarImpl impl>
Tensor clamp_scalar_kernel(const Tensor& self, const OptScalar& min, const OptScalar& max,
                           const Tensor& out) {
  return impl("clamp", self, min, max, out, false);
}
template <ClampScalarImpl impl>
Tensor clamp_min_kernel(const Tensor& self, const Scalar& min, const Tensor& out) {
  return impl("clamp_min", self, min, std::nullopt, out, true);
}
template <ClampScalarImpl impl>
Tensor clamp_max_kernel(const Tensor& self, const Scalar& max, const Tensor& out) {
  return impl("clamp_max", self, std::nullopt, max, out, true);
}

cpu::TensorIterator make_clamp_tensor_iterator(const Tensor& self, const OptTensor& min,
                                               const OptTensor& max, const Tensor& out) {
  const bool has_min = min && min->defined(), has_max = max && max->defined();
  BRASA_CHECK(self.defined(), "clamp: got an undefined tensor");
  BRASA_CHECK(has_min || has_max, "clamp: at least one of 'min' or 'max' must not be None");
  ResultTypeState st;
  st.add(self);
  if (has_min) st.add(*min);
  if (has_max) st.add(*max);
  const ScalarType dt = st.result();
  check_out_dtype("clamp", out, dt);
  cpu::TensorIteratorConfig cfg("clamp");
  cfg.add_output(out).add_input(self).common_dtype(dt);
  if (has_min) cfg.add_input(*min);
  if (has_max) cfg.add_input(*max);
  return cfg.build();
}

Tensor clamp_tensor_meta(const Tensor& self, const OptTensor& min, const OptTensor& max,
                         const Tensor& out) {
  return iterator_meta(make_clamp_tensor_iterator(self, min, max, out));
}

Tensor clamp_tensor_kernel(const Tensor& self, const OptTensor& min, const OptTensor& max,
                           const Tensor& out) {
  cpu::TensorIterator it = make_clamp_tensor_iterator(self, min, max, out);
  clamp_tensor_stub(it, min && min->defined(), max && max->defined());
  it.finish();
  return it.output();
}

}  // namespace

BRASA_DEFINE_OP(clamp_op)
BRASA_REGISTER_KERNEL(clamp_op, clamp_scalar_kernel<clamp_scalar_cpu>, CPU)
BRASA_REGISTER_KERNEL(clamp_op, clamp_scalar_kernel<clamp_scalar_meta>, Meta)
BRASA_DEFINE_OP(clamp_tensor_op)
BRASA_REGISTER_KERNEL(clamp_tensor_op, clamp_tensor_kernel, CPU)
BRASA_REGISTER_KERNEL(clamp_tensor_op, clamp_tensor_meta, Meta)
BRASA_DEFINE_OP(clamp_min_op)
BRASA_REGISTER_KERNEL(clamp_min_op, clamp_min_kernel<clamp_scalar_cpu>, CPU)
BRASA_REGISTER_KERNEL(clamp_min_op, clamp_min_kernel<clamp_scalar_meta>, Meta)
BRASA_DEFINE_OP(clamp_max_op)
BRASA_REGISTER_KERNEL(clamp_max_op, clamp_max_kernel<clamp_scalar_cpu>, CPU)
BRASA_REGISTER_KERNEL(clamp_max_op, clamp_max_kernel<clamp_scalar_meta>, Meta)

}  // namespace brasa::ops

namespace brasa {
namespace {
const Tensor kNoOut;
}  // namespace

Tensor clamp(const Tensor& self, const std::optional<Scalar>& min,
             const std::optional<Scalar>& max) {
  return ops::clamp_op().call(self, min, max, kNoOut);
}
Tensor clamp(const Tensor& self, const std::optional<Tensor>& min,
             const std::optional<Tensor>& max) {
  return ops::clamp_tensor_op().call(self, min, max, kNoOut);
}
Tensor& clamp_out(Tensor& out, const Tensor& self, const std::optional<Scalar>& min,
                  const std::optional<Scalar>& max) {
  ops::clamp_op().call(self, min, max, out);
  return out;
}
Tensor& clamp_out(Tensor& out, const Tensor& self, const std::optional<Tensor>& min,
                  const std::optional<Tensor>& max) {
  ops::clamp_tensor_op().call(self, min, max, out);
  return out;
}
Tensor clip(const Tensor& self, const std::optional<Scalar>& min,
            const std::optional<Scalar>& max) {
  return clamp(self, min, max);
}
Tensor clamp_min(const Tensor& self, const Scalar& min) {
  return ops::clamp_min_op().call(self, min, kNoOut);
}
Tensor clamp_min(const Tensor& self, const Tensor& min) { return clamp(self, min, std::nullopt); }
Tensor& clamp_min_out(Tensor& out, const Tensor& self, const Scalar& min) {
  ops::clamp_min_op().call(self, min, out);
  return out;
}
Tensor clamp_max(const Tensor& self, const Scalar& max) {
  return ops::clamp_max_op().call(self, max, kNoOut);
}
Tensor clamp_max(const Tensor& self, const Tensor& max) {
  return ops::clamp_tensor_op().call(self, std::nullopt, max, kNoOut);
}
Tensor& clamp_max_out(Tensor& out, const Tensor& self, const Scalar& max) {
  ops::clamp_max_op().call(self, max, out);
  return out;
}

Tensor Tensor::clamp(std::optional<Scalar> min, std::optional<Scalar> max) const {
  return brasa::clamp(*this, min, max);
}
Tensor Tensor::clamp(const std::optional<Tensor>& min, const std::optional<Tensor>& max) const {
  return brasa::clamp(*this, min, max);
}
const Tensor& Tensor::clamp_(std::optional<Scalar> min, std::optional<Scalar> max) const {
  ops::clamp_op().call(*this, min, max, *this);
  return *this;
}
const Tensor& Tensor::clamp_(const std::optional<Tensor>& min,
                             const std::optional<Tensor>& max) const {
  ops::clamp_tensor_op().call(*this, min, max, *this);
  return *this;
}
Tensor Tensor::clamp_min(const Scalar& min) const { return brasa::clamp_min(*this, min); }
Tensor Tensor::clamp_max(const Scalar& max) const { return brasa::clamp_max(*this, max); }
const Tensor& Tensor::clamp_min_(const Scalar& min) const {
  ops::clamp_min_op().call(*this, min, *this);
  return *this;
}
const Tensor& Tensor::clamp_max_(const Scalar& max) const {
  ops::clamp_max_op().call(*this, max, *this);
  return *this;
}

}  // namespace brasa
