// Loops of arange, linspace and logspace (compiled once per CPU capability).
#include "backends/cpu/kernels/range_kernels.h"

#include <cmath>
#include <type_traits>

#include "brasa/core/dispatch_type.h"
#include "brasa/core/parallel.h"

namespace brasa::cpu {
namespace {

constexpr int64_t kGrain = 32768;

template <typename T, typename V>
inline T cast_to(V v) {
  if constexpr (std::is_integral_v<T>)
    return static_cast<T>(v);
  else
    return T(static_cast<opmath_t<T>>(v));
}

// Element i is start + i * step, computed in range_acc_t.
void arange_kernel(void* data, ScalarType dt, int64_t n, const Scalar& start, const Scalar& step) {
  BRASA_DISPATCH_NUMERIC_TYPES(dt, "arange", [&] {
    using acc = ops::range_acc_t<scalar_t>;
    scalar_t* out = static_cast<scalar_t*>(data);
    const acc s = start.to<acc>(), st = step.to<acc>();
    parallel_for(0, n, kGrain, [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) out[i] = cast_to<scalar_t>(s + st * acc(i));
    });
  });
}

// The first half counts up from start, the second half down from end, so both ends are exact.
void linspace_kernel(void* data, ScalarType dt, int64_t n, const Scalar& start, const Scalar& end) {
  BRASA_DISPATCH_NUMERIC_TYPES(dt, "linspace", [&] {
    using opm = opmath_t<scalar_t>;
    using step_t = std::conditional_t<std::is_integral_v<scalar_t>, double, opm>;
    scalar_t* out = static_cast<scalar_t*>(data);
    const opm s = opm(start.to<scalar_t>()), e = opm(end.to<scalar_t>());
    if (n == 1) {
      out[0] = cast_to<scalar_t>(s);
      return;
    }
    const step_t step = (step_t(e) - step_t(s)) / step_t(n - 1);
    const int64_t halfway = n / 2;
    parallel_for(0, n, kGrain, [&](int64_t b, int64_t en) {
      for (int64_t i = b; i < en; ++i)
        out[i] = i < halfway ? cast_to<scalar_t>(s + step * step_t(i))
                             : cast_to<scalar_t>(e - step * step_t(n - 1 - i));
    });
  });
}

void logspace_kernel(void* data, ScalarType dt, int64_t n, const Scalar& start, const Scalar& end,
                     double base) {
  BRASA_DISPATCH_NUMERIC_TYPES(dt, "logspace", [&] {
    using opm = std::conditional_t<std::is_integral_v<scalar_t>, int64_t, opmath_t<scalar_t>>;
    scalar_t* out = static_cast<scalar_t*>(data);
    const opm s = start.to<opm>(), e = end.to<opm>();
    if (n == 1) {
      out[0] = cast_to<scalar_t>(std::pow(base, double(s)));
      return;
    }
    const double step = double(e - s) / double(n - 1);
    const int64_t halfway = n / 2;
    parallel_for(0, n, kGrain, [&](int64_t b, int64_t en) {
      for (int64_t i = b; i < en; ++i) {
        const double x =
            i < halfway ? double(s) + step * double(i) : double(e) - step * double(n - 1 - i);
        out[i] = cast_to<scalar_t>(std::pow(base, x));
      }
    });
  });
}

}  // namespace

BRASA_REGISTER_STUB(ops::arange_stub, arange_kernel);
BRASA_REGISTER_STUB(ops::linspace_stub, linspace_kernel);
BRASA_REGISTER_STUB(ops::logspace_stub, logspace_kernel);

}  // namespace brasa::cpu
