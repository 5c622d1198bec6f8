// Loops of cummax/cummin and logcumsumexp (cumulative_kernels.h). Compiled for DEFAULT only: each
// line is a sequential dependency chain that wider vectors do not shorten (Note [Capability builds
// per file] in cmake/BrasaKernels.cmake).
#define BRASA_KERNEL_DEFAULT_ONLY
#include "backends/cpu/kernels/cumulative_kernels.h"

#include <cmath>
#include <limits>
#include <type_traits>

#include "brasa/core/dispatch_type.h"
#include "brasa/core/parallel.h"

namespace brasa::cpu {
namespace {

// Calls f(offset of the line's first element, stride between its elements) for every line.
template <typename F>
void for_each_line(ops::LineShape s, const F& f) {
  parallel_for(0, s.outer * s.inner, std::max<int64_t>(1, 32768 / std::max<int64_t>(s.n, 1)),
               [&](int64_t b, int64_t e) {
                 for (int64_t l = b; l < e; ++l)
                   f((l / s.inner) * s.n * s.inner + l % s.inner, s.inner);
               });
}

// As PyTorch: a NaN, once met, is kept (with its index); among equal values the later index wins.
template <typename T>
void cum_extreme(T* values, int64_t* indices, const T* in, ops::LineShape s, bool is_min) {
  for_each_line(s, [&](int64_t base, int64_t stride) {
    T best = in[base];
    int64_t at = 0;
    for (int64_t i = 0; i < s.n; ++i) {
      const T x = in[base + i * stride];
      bool take;
      if constexpr (is_float_v<T>) {
        const bool best_nan = std::isnan(float(best)), x_nan = std::isnan(float(x));
        take = x_nan || (!best_nan && (is_min ? x <= best : x >= best));
      } else {
        take = is_min ? x <= best : x >= best;
      }
      if (take) {
        best = x;
        at = i;
      }
      values[base + i * stride] = best;
      indices[base + i * stride] = at;
    }
  });
}

void cum_extreme_kernel(const Tensor& values, const Tensor& indices, const Tensor& in,
                        ops::LineShape s, bool is_min) {
  BRASA_DISPATCH_ALL_TYPES(in.dtype(), is_min ? "cummin" : "cummax", [&] {
    cum_extreme<scalar_t>(values.data_ptr<scalar_t>(), indices.data_ptr<int64_t>(),
                          in.data_ptr<scalar_t>(), s, is_min);
  });
}

// log(exp(a) + exp(b)) = max + log1p(exp(min - max)), accumulated in double; -inf + -inf stays
// -inf, and +inf absorbs everything but NaN.
double log_add_exp(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<double>::quiet_NaN();
  const double hi = std::max(a, b), lo = std::min(a, b);
  if (std::isinf(hi)) return hi;
  return hi + std::log1p(std::exp(lo - hi));
}

void logcumsumexp_kernel(const Tensor& out, const Tensor& in, ops::LineShape s) {
  BRASA_DISPATCH_FLOATING_TYPES(in.dtype(), "logcumsumexp", [&] {
    const scalar_t* x = in.data_ptr<scalar_t>();
    scalar_t* y = out.data_ptr<scalar_t>();
    for_each_line(s, [&](int64_t base, int64_t stride) {
      double acc = -std::numeric_limits<double>::infinity();
      for (int64_t i = 0; i < s.n; ++i) {
        acc = log_add_exp(acc, double(x[base + i * stride]));
        y[base + i * stride] = scalar_t(acc);
      }
    });
  });
}

}  // namespace

BRASA_REGISTER_STUB(ops::cum_extreme_stub, cum_extreme_kernel);
BRASA_REGISTER_STUB(ops::logcumsumexp_stub, logcumsumexp_kernel);

}  // namespace brasa::cpu
