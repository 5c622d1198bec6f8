// empty / empty_strided (dispatched on the device) and the fill-based factories built on them.
#include "brasa/core/empty.h"

#include "backends/cpu/new_tensor_writes.h"
#include "brasa/core/error.h"
#include "brasa/dispatch/dispatcher.h"
#include "brasa/ops/factory.h"
#include "ops/factory/factory_ops.h"

namespace brasa {
namespace ops {

BRASA_DEFINE_OP(empty_op)
BRASA_DEFINE_OP(empty_strided_op)

namespace {
Tensor empty_kernel(IntArrayRef size, ScalarType dtype, Device device) {
  for (int64_t s : size)
    BRASA_CHECK(s >= 0, "empty: trying to create tensor with negative dimension ", s, ": ", size);
  return detail::empty_generic(size, dtype, device);
}
Tensor empty_strided_kernel(IntArrayRef size, IntArrayRef stride, ScalarType dtype, Device device) {
  BRASA_CHECK(size.size() == stride.size(), "empty_strided: got ", size.size(), " sizes but ",
              stride.size(), " strides");
  return detail::empty_strided_generic(size, stride, dtype, device);
}
}  // namespace
// One kernel serves every backend: it allocates through the device's registered allocator.
BRASA_REGISTER_KERNEL(empty_op, empty_kernel, CPU, Meta, PrivateUse1, CUDA)
BRASA_REGISTER_KERNEL(empty_strided_op, empty_strided_kernel, CPU, Meta, PrivateUse1, CUDA)

}  // namespace ops

namespace {
Tensor finish_factory(Tensor t, const TensorOptions& options) {
  if (options.requires_grad()) t.set_requires_grad(true);
  return t;
}
}  // namespace

Tensor empty(IntArrayRef size, const TensorOptions& o) {
  return finish_factory(ops::empty_op().call(size, o.dtype(), o.device()), o);
}
Tensor empty_strided(IntArrayRef size, IntArrayRef stride, const TensorOptions& o) {
  return finish_factory(ops::empty_strided_op().call(size, stride, o.dtype(), o.device()), o);
}
Tensor full(IntArrayRef size, const Scalar& v, const TensorOptions& o) {
  TensorOptions opts = o;
  // Like libtorch: full() without a dtype takes the fill value's kind (bool, Long, default float,
  // the default float's complex type).
  if (!o.has_dtype())
    opts = o.dtype(v.isFloatingPoint() ? get_default_dtype()
                   : v.isComplex()     ? to_complex_type(get_default_dtype())
                                       : v.type());
  Tensor t = ops::empty_op().call(size, opts.dtype(), opts.device());
  cpu::NewTensorWrites new_tensor;  // Note [Version of new tensors]
  t.fill_(v);
  return finish_factory(t, o);
}
Tensor zeros(IntArrayRef size, const TensorOptions& o) {
  Tensor t = ops::empty_op().call(size, o.dtype(), o.device());
  cpu::NewTensorWrites new_tensor;
  t.fill_(0);
  return finish_factory(t, o);
}
Tensor ones(IntArrayRef size, const TensorOptions& o) {
  Tensor t = ops::empty_op().call(size, o.dtype(), o.device());
  cpu::NewTensorWrites new_tensor;
  t.fill_(1);
  return finish_factory(t, o);
}
Tensor empty_like(const Tensor& self, const TensorOptions& o) {
  return empty_strided(self.sizes(), detail::dense_strides_like(self), o.merge_in(self.options()));
}
// The _like forms keep self's memory layout (PyTorch's preserve_format) through empty_like.
Tensor zeros_like(const Tensor& self, const TensorOptions& o) { return full_like(self, 0, o); }
Tensor ones_like(const Tensor& self, const TensorOptions& o) { return full_like(self, 1, o); }
Tensor full_like(const Tensor& self, const Scalar& v, const TensorOptions& o) {
  Tensor t = empty_like(self, o);
  cpu::NewTensorWrites new_tensor;
  t.fill_(v);
  return t;
}
Tensor scalar_tensor(const Scalar& s, const TensorOptions& o) {
  return full({}, s, o.has_dtype() ? o : o.dtype(get_default_dtype()));
}

}  // namespace brasa
