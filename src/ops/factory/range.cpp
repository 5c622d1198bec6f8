// arange, linspace and logspace: dispatched factories (the meta function is the shape rule; CPU
// fills its result).
#include <cmath>
#include <limits>

#include "backends/cpu/kernels/range_kernels.h"
#include "brasa/core/dispatch_type.h"
#include "brasa/core/empty.h"
#include "brasa/dispatch/dispatcher.h"
#include "brasa/ops/factory.h"
#include "ops/factory/factory_ops.h"

namespace brasa::ops {

BRASA_DEFINE_STUB(arange_stub, ArangeKernel);
BRASA_DEFINE_STUB(linspace_stub, LinspaceKernel);
BRASA_DEFINE_STUB(logspace_stub, LogspaceKernel);

BRASA_DEFINE_OP(arange_op)
BRASA_DEFINE_OP(linspace_op)
BRASA_DEFINE_OP(logspace_op)

namespace {

// Number of elements of arange, with PyTorch's checks done in the dtype's accumulate type.
int64_t arange_size(const Scalar& start, const Scalar& end, const Scalar& step, ScalarType dt) {
  BRASA_CHECK(std::isfinite(start.toDouble()) && std::isfinite(end.toDouble()),
              "arange: unsupported range: ", start, " -> ", end);
  return BRASA_DISPATCH_NUMERIC_TYPES(dt, "arange", [&]() -> int64_t {
    using acc = range_acc_t<scalar_t>;
    const acc s = start.to<acc>(), e = end.to<acc>(), st = step.to<acc>();
    BRASA_CHECK(st > acc(0) || st < acc(0), "arange: step must be nonzero");
    BRASA_CHECK((st > acc(0) && e >= s) || (st < acc(0) && e <= s),
                "arange: upper bound and larger bound inconsistent with step sign");
    double size_d;
    if constexpr (std::is_same_v<scalar_t, int64_t>) {
      const int64_t sgn = (st > 0) - (st < 0);
      size_d = std::ceil(double((e - s + st - sgn) / st));
    } else {
      size_d = std::ceil((end.toDouble() - start.toDouble()) / step.toDouble());
    }
    BRASA_CHECK(size_d >= 0 && size_d <= double(std::numeric_limits<int64_t>::max()),
                "arange: invalid size ", size_d, ", possible overflow?");
    return static_cast<int64_t>(size_d);
  });
}

Tensor arange_meta(const Scalar& start, const Scalar& end, const Scalar& step, ScalarType dt,
                   Device device) {
  return detail::empty_generic({arange_size(start, end, step, dt)}, dt, device);
}

Tensor arange_kernel(const Scalar& start, const Scalar& end, const Scalar& step, ScalarType dt,
                     Device device) {
  Tensor out = arange_meta(start, end, step, dt, device);
  if (out.numel() > 0) arange_stub(out.data_ptr(), dt, out.numel(), start, step);
  return out;
}

void check_steps(int64_t steps, ScalarType dt, const char* op) {
  BRASA_CHECK(steps >= 0, op, ": number of steps must be non-negative, got ", steps);
  BRASA_CHECK_TYPE(dt != kBool, op, ": not implemented for dtype Bool");
}

Tensor linspace_meta(const Scalar&, const Scalar&, int64_t steps, ScalarType dt, Device device) {
  check_steps(steps, dt, "linspace");
  return detail::empty_generic({steps}, dt, device);
}

Tensor linspace_kernel(const Scalar& start, const Scalar& end, int64_t steps, ScalarType dt,
                       Device device) {
  Tensor out = linspace_meta(start, end, steps, dt, device);
  if (steps > 0) linspace_stub(out.data_ptr(), dt, steps, start, end);
  return out;
}

Tensor logspace_meta(const Scalar&, const Scalar&, int64_t steps, double, ScalarType dt,
                     Device device) {
  check_steps(steps, dt, "logspace");
  return detail::empty_generic({steps}, dt, device);
}

Tensor logspace_kernel(const Scalar& start, const Scalar& end, int64_t steps, double base,
                       ScalarType dt, Device device) {
  Tensor out = logspace_meta(start, end, steps, base, dt, device);
  if (steps > 0) logspace_stub(out.data_ptr(), dt, steps, start, end, base);
  return out;
}

Tensor finish(Tensor t, const TensorOptions& o) {
  if (o.requires_grad()) t.set_requires_grad(true);
  return t;
}

}  // namespace

BRASA_REGISTER_KERNEL(arange_op, arange_kernel, CPU)
BRASA_REGISTER_KERNEL(arange_op, arange_meta, Meta)
BRASA_REGISTER_KERNEL(linspace_op, linspace_kernel, CPU)
BRASA_REGISTER_KERNEL(linspace_op, linspace_meta, Meta)
BRASA_REGISTER_KERNEL(logspace_op, logspace_kernel, CPU)
BRASA_REGISTER_KERNEL(logspace_op, logspace_meta, Meta)

}  // namespace brasa::ops

namespace brasa {

Tensor arange(const Scalar& start, const Scalar& end, const Scalar& step, const TensorOptions& o) {
  ScalarType dt = o.dtype();
  // Like libtorch: without a dtype, all-integral bounds give Long, anything else the default float.
  if (!o.has_dtype())
    dt = start.isIntegral(true) && end.isIntegral(true) && step.isIntegral(true)
             ? kLong
             : get_default_dtype();
  return ops::finish(ops::arange_op().call(start, end, step, dt, o.device()), o);
}
Tensor arange(const Scalar& start, const Scalar& end, const TensorOptions& o) {
  return arange(start, end, 1, o);
}
Tensor arange(const Scalar& end, const TensorOptions& o) { return arange(0, end, 1, o); }

Tensor linspace(const Scalar& start, const Scalar& end, int64_t steps, const TensorOptions& o) {
  return ops::finish(ops::linspace_op().call(start, end, steps, o.dtype(), o.device()), o);
}
Tensor logspace(const Scalar& start, const Scalar& end, int64_t steps, double base,
                const TensorOptions& o) {
  return ops::finish(ops::logspace_op().call(start, end, steps, base, o.dtype(), o.device()), o);
}

}  // namespace brasa
