// The complex family: view_as_real / view_as_complex (dispatched views) and the composites built
// on them (real, imag, angle, conj, complex, polar) with their Tensor methods.
#include "ops/complex/complex_ops.h"

#include <numbers>

#include "backends/cpu/tensor_iterator.h"
#include "brasa/core/empty.h"
#include "brasa/core/error.h"
#include "brasa/ops/complex.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/indexing_ops.h"
#include "brasa/ops/pointwise.h"
#include "brasa/ops/view.h"

namespace brasa::ops {

BRASA_DEFINE_OP(view_as_real_op)
BRASA_DEFINE_OP(view_as_complex_op)

namespace {
// Note [Complex views]
// A ComplexFloat element is two adjacent floats (complex.h), so a complex tensor of sizes s and
// strides t (in complex elements) is the Float tensor of sizes s + [2] and strides 2t + [1] over
// the same storage, at twice the storage offset; view_as_complex is the inverse and so needs that
// layout. One kernel serves CPU and Meta: no data is touched.
Tensor view_as_real_kernel(const Tensor& self) {
  BRASA_CHECK_TYPE(self.is_complex(),
                   "view_as_real: only supported for complex tensors, got a tensor of dtype ",
                   self.dtype());
  DimVector sizes(self.sizes()), strides;
  for (int64_t s : self.strides()) strides.push_back(2 * s);
  sizes.push_back(2);
  strides.push_back(1);
  Tensor r = detail::make_view(self, sizes, strides, 2 * self.storage_offset());
  r.unsafeGetTensorImpl()->set_dtype(to_real_value_type(self.dtype()));
  r.unsafeGetTensorImpl()->set_sizes_and_strides(sizes, strides, 2 * self.storage_offset());
  return r;
}

Tensor view_as_complex_kernel(const Tensor& self) {
  BRASA_CHECK_TYPE(self.dtype() == kFloat || self.dtype() == kDouble,
                   "view_as_complex: only supported for Float and Double tensors, got a tensor "
                   "of dtype ",
                   self.dtype());
  BRASA_CHECK(self.dim() > 0, "view_as_complex: the input tensor must have one or more dims");
  BRASA_CHECK(self.size(-1) == 2, "view_as_complex: the last dim must have size 2, got shape ",
              self.sizes());
  BRASA_CHECK(self.stride(-1) == 1,
              "view_as_complex: the last dim must have stride 1, got strides ", self.strides());
  DimVector sizes, strides;
  for (int64_t d = 0; d + 1 < self.dim(); ++d) {
    BRASA_CHECK(self.stride(d) % 2 == 0,
                "view_as_complex: every stride but the last must be divisible by 2, got strides ",
                self.strides());
    sizes.push_back(self.size(d));
    strides.push_back(self.stride(d) / 2);
  }
  BRASA_CHECK(self.storage_offset() % 2 == 0,
              "view_as_complex: the storage offset must be divisible by 2, got ",
              self.storage_offset());
  Tensor r = detail::make_view(self, self.sizes(), self.strides(), self.storage_offset());
  r.unsafeGetTensorImpl()->set_dtype(to_complex_type(self.dtype()));
  r.unsafeGetTensorImpl()->set_sizes_and_strides(sizes, strides, self.storage_offset() / 2);
  return r;
}
}  // namespace

BRASA_REGISTER_KERNEL(view_as_real_op, view_as_real_kernel, CPU, Meta, PrivateUse1)
BRASA_REGISTER_KERNEL(view_as_complex_op, view_as_complex_kernel, CPU, Meta, PrivateUse1)

}  // namespace brasa::ops

namespace brasa {

Tensor view_as_real(const Tensor& self) { return ops::view_as_real_op().call(self); }
Tensor view_as_complex(const Tensor& self) { return ops::view_as_complex_op().call(self); }

Tensor real(const Tensor& self) {
  return self.is_complex() ? view_as_real(self).select(-1, 0) : self;
}
Tensor imag(const Tensor& self) {
  BRASA_CHECK_TYPE(self.is_complex(), "imag: not implemented for tensors with non-complex dtypes (",
                   self.dtype(), ")");
  return view_as_real(self).select(-1, 1);
}
Tensor conj(const Tensor& self) { return self.is_complex() ? conj_physical(self) : self; }

Tensor angle(const Tensor& self) {
  if (self.is_complex()) return atan2(imag(self), real(self));
  BRASA_CHECK_TYPE(self.dtype() != kBool, "angle: not implemented for dtype Bool");
  const Tensor x = is_integral_type(self.dtype(), false) ? self.to(get_default_dtype()) : self;
  return where(isnan(x), x, where(x.lt(0), Scalar(std::numbers::pi), zeros_like(x)));
}

Tensor complex_from(const Tensor& real, const Tensor& imag) {
  BRASA_CHECK_TYPE(
      real.dtype() == imag.dtype() && (real.dtype() == kFloat || real.dtype() == kDouble),
      "complex: expected real and imag to be both Float or both Double, got ", real.dtype(),
      " and ", imag.dtype());
  const DimVector shape = cpu::broadcast_shapes(real.sizes(), imag.sizes(), "complex");
  return view_as_complex(stack({broadcast_to(real, shape), broadcast_to(imag, shape)}, -1));
}
Tensor polar(const Tensor& abs, const Tensor& angle) {
  return complex_from(abs * angle.cos(), abs * angle.sin());
}

Tensor Tensor::real() const { return brasa::real(*this); }
Tensor Tensor::imag() const { return brasa::imag(*this); }
Tensor Tensor::conj() const { return brasa::conj(*this); }
Tensor Tensor::angle() const { return brasa::angle(*this); }

}  // namespace brasa
