// Loops of var/std and norm (compiled once per CPU capability; the engine is
// backends/cpu/reduce_loops.h). max/min with indices, argmax/argmin and logsumexp are in
// reduce_kernels_scalar.cpp.
// Floating dtypes only in the AVX2/AVX-512 builds (Note [Capability dtypes] in stub.h).
#define BRASA_KERNEL_FLOATING_CAPABILITY
#define BRASA_KERNEL_REDUCED_AS_FLOAT
#include <algorithm>
#include <cmath>
#include <limits>

#include "backends/cpu/kernels/reduce_kernels.h"
#include "backends/cpu/reduce_loops.h"
#include "brasa/core/dispatch_type.h"

namespace brasa::cpu {
namespace {

using ops::ReduceParams;

// Welford's running mean and sum of squared deviations, in double; partials merge with Chan's rule.
template <typename T>
struct VarOps {
  using in_t = T;
  struct acc_t {
    double mean, m2, n;
  };
  // Independent Welford chains per contiguous run: their divisions overlap instead of waiting on
  // each other (var over rows of 1K: 4.9 ms -> 0.63 ms per 1M floats; 8 lanes: 1.13, 64: 0.74).
  static constexpr int kLanes = 32;
  static constexpr bool kCascade = false;
  double correction = 1;
  bool take_sqrt = false;
  acc_t identity() const { return {0, 0, 0}; }
  acc_t reduce(acc_t a, T xt, int64_t) const {
    double x = static_cast<double>(widen<opmath_t<T>>(xt));
    double n = a.n + 1, d = x - a.mean, mean = a.mean + d / n;
    return {mean, a.m2 + d * (x - mean), n};
  }
  acc_t combine(acc_t a, acc_t b) const {
    if (a.n == 0) return b;
    if (b.n == 0) return a;
    double n = a.n + b.n, d = b.mean - a.mean;
    return {a.mean + d * b.n / n, a.m2 + b.m2 + d * d * a.n * b.n / n, n};
  }
  void store(acc_t a, char* o, char*) const {
    double v = a.m2 / std::max(0.0, a.n - correction);
    *reinterpret_cast<T*>(o) = T(static_cast<opmath_t<T>>(take_sqrt ? std::sqrt(v) : v));
  }
};

enum class NormKind { Two, One, Other };
template <typename T, NormKind kKind>
struct NormOps {
  using in_t = T;
  using acc_t = opmath_t<T>;
  static constexpr int kLanes = kKind == NormKind::Other ? 1 : int(256 / sizeof(acc_t));
  static constexpr bool kCascade = kKind != NormKind::Other;
  acc_t p = 2;
  bool is_max() const { return p == std::numeric_limits<acc_t>::infinity(); }
  bool is_min() const { return p == -std::numeric_limits<acc_t>::infinity(); }
  acc_t identity() const { return kKind == NormKind::Other && is_min() ? -p : acc_t(0); }
  acc_t reduce(acc_t a, T xt, int64_t) const {
    acc_t v = std::abs(widen<acc_t>(xt));
    if constexpr (kKind == NormKind::Two)
      return a + v * v;
    else if constexpr (kKind == NormKind::One)
      return a + v;
    else if (is_max() || is_min())
      return combine(a, v);
    else if (p == 0)
      return a + acc_t(v != 0);
    else
      return a + std::pow(v, p);
  }
  acc_t combine(acc_t a, acc_t b) const {
    if constexpr (kKind == NormKind::Other) {
      if (is_max()) return (b > a || b != b) ? b : a;
      if (is_min()) return (b < a || b != b) ? b : a;
    }
    return a + b;
  }
  void store(acc_t a, char* o, char*) const {
    acc_t r = a;
    if constexpr (kKind == NormKind::Two)
      r = std::sqrt(a);
    else if constexpr (kKind == NormKind::Other)
      if (!is_max() && !is_min() && p != 0) r = std::pow(a, acc_t(1) / p);
    *reinterpret_cast<T*>(o) = T(r);
  }
};

void var_kernel(const ReduceIter& it, const ReduceParams& p) {
  BRASA_DISPATCH_FLOATING_TYPES(it.in_dtype(), "var", [&] {
    VarOps<scalar_t> ops;
    ops.correction = p.p;
    ops.take_sqrt = p.flag;
    run_reduce(ops, it);
  });
}
void norm_kernel(const ReduceIter& it, const ReduceParams& p) {
  BRASA_DISPATCH_FLOATING_TYPES(it.in_dtype(), "norm", [&] {
    if (p.p == 2) {
      run_reduce(NormOps<scalar_t, NormKind::Two>{}, it);
    } else if (p.p == 1) {
      run_reduce(NormOps<scalar_t, NormKind::One>{}, it);
    } else {
      NormOps<scalar_t, NormKind::Other> ops;
      ops.p = static_cast<opmath_t<scalar_t>>(p.p);
      run_reduce(ops, it);
    }
  });
}
}  // namespace

BRASA_REGISTER_STUB(ops::var_stub, var_kernel);
BRASA_REGISTER_STUB(ops::norm_stub, norm_kernel);

}  // namespace brasa::cpu
