// eye(n), eye(n, m): a dispatched factory (the meta function is the shape rule; CPU fills it).
#include "backends/cpu/new_tensor_writes.h"
#include "brasa/core/dispatch_type.h"
#include "brasa/core/empty.h"
#include "brasa/dispatch/dispatcher.h"
#include "brasa/ops/factory.h"
#include "ops/factory/factory_ops.h"

namespace brasa::ops {

BRASA_DEFINE_OP(eye_op)

namespace {
Tensor eye_meta(int64_t n, int64_t m, ScalarType dt, Device device) {
  BRASA_CHECK(n >= 0, "eye: n must be greater or equal to 0, got ", n);
  BRASA_CHECK(m >= 0, "eye: m must be greater or equal to 0, got ", m);
  return detail::empty_generic({n, m}, dt, device);
}

Tensor eye_kernel(int64_t n, int64_t m, ScalarType dt, Device device) {
  Tensor out = eye_meta(n, m, dt, device);
  if (out.numel() == 0) return out;
  cpu::NewTensorWrites new_tensor;  // Note [Version of new tensors]
  out.zero_();
  BRASA_DISPATCH_ALL_TYPES(dt, "eye", [&] {
    scalar_t* p = out.data_ptr<scalar_t>();
    const scalar_t one = scalar_t(1);
    for (int64_t i = 0, k = std::min(n, m); i < k; ++i) p[i * m + i] = one;
  });
  return out;
}
}  // namespace

BRASA_REGISTER_KERNEL(eye_op, eye_kernel, CPU)
BRASA_REGISTER_KERNEL(eye_op, eye_meta, Meta)

}  // namespace brasa::ops

namespace brasa {

Tensor eye(int64_t n, int64_t m, const TensorOptions& o) {
  Tensor t = ops::eye_op().call(n, m, o.dtype(), o.device());
  if (o.requires_grad()) t.set_requires_grad(true);
  return t;
}
Tensor eye(int64_t n, const TensorOptions& o) { return eye(n, n, o); }

}  // namespace brasa
