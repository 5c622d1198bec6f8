// Loops of max(dim)/min(dim), argmax/argmin, var/std, norm and logsumexp (compiled once per CPU
// capability; the engine is backends/cpu/reduce_loops.h).
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

template <typename T>
constexpr opmath_t<T> lowest_or_neg_inf() {
  if constexpr (std::is_floating_point_v<opmath_t<T>>)
    return -std::numeric_limits<opmath_t<T>>::infinity();
  else
    return std::numeric_limits<T>::lowest();
}
template <typename T>
constexpr opmath_t<T> max_or_inf() {
  if constexpr (std::is_floating_point_v<opmath_t<T>>)
    return std::numeric_limits<opmath_t<T>>::infinity();
  else
    return std::numeric_limits<T>::max();
}

// Value and index of the max (or min). The first NaN wins; ties keep the smaller index. The
// identity carries index 0: it can only survive when every element equals the extreme value, and
// then index 0 is the right answer. max/min over a dim (values and indices) and argmax/argmin
// (indices only) share one instantiation: they differ only in what store writes.
template <typename T, bool kMax>
struct ArgOps {
  using in_t = T;
  using val_t = opmath_t<T>;
  struct acc_t {
    val_t v;
    int64_t i;
  };
  static constexpr int kLanes = 1;
  static constexpr bool kCascade = false;
  bool values = false;
  static bool better(val_t x, val_t a) { return kMax ? x > a : x < a; }
  acc_t identity() const { return {kMax ? lowest_or_neg_inf<T>() : max_or_inf<T>(), 0}; }
  acc_t reduce(acc_t a, T xt, int64_t idx) const {
    val_t x = widen<val_t>(xt);
    if (better(x, a.v) || (x != x && a.v == a.v)) return {x, idx};
    return a;
  }
  acc_t combine(acc_t a, acc_t b) const {
    if (a.v != a.v) return a;
    if (b.v != b.v) return b;
    if (better(b.v, a.v) || (b.v == a.v && b.i < a.i)) return b;
    return a;
  }
  void store(acc_t a, char* o0, char* o1) const {
    if (values) {
      *reinterpret_cast<T*>(o0) = T(a.v);
      *reinterpret_cast<int64_t*>(o1) = a.i;
    } else {
      *reinterpret_cast<int64_t*>(o0) = a.i;
    }
  }
};

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

// Online log-sum-exp: (running max m, sum of exp(x - m)); NaN sticks in m.
template <typename T>
struct LogSumExpOps {
  using in_t = T;
  using val_t = opmath_t<T>;
  struct acc_t {
    val_t m, s;
  };
  static constexpr int kLanes = 1;
  static constexpr bool kCascade = false;
  acc_t identity() const { return {-std::numeric_limits<val_t>::infinity(), 0}; }
  acc_t reduce(acc_t a, T xt, int64_t) const { return combine(a, {widen<val_t>(xt), 1}); }
  acc_t combine(acc_t a, acc_t b) const {
    if (a.m != a.m) return a;
    if (b.m != b.m) return b;
    if (b.m == -std::numeric_limits<val_t>::infinity()) return a;
    if (a.m == -std::numeric_limits<val_t>::infinity()) return b;
    if (a.m == b.m) return {a.m, a.s + b.s};
    if (a.m > b.m) return {a.m, a.s + b.s * std::exp(b.m - a.m)};
    return {b.m, b.s + a.s * std::exp(a.m - b.m)};
  }
  void store(acc_t a, char* o, char*) const {
    val_t r = a.m == -std::numeric_limits<val_t>::infinity() || std::isinf(a.m) || a.m != a.m
                  ? a.m
                  : a.m + std::log(a.s);
    *reinterpret_cast<T*>(o) = T(r);
  }
};

void max_dim_kernel(const ReduceIter& it, const ReduceParams&) {
  BRASA_DISPATCH_ALL_TYPES(it.in_dtype(), "max",
                           [&] { run_reduce(ArgOps<scalar_t, true>{true}, it); });
}
void min_dim_kernel(const ReduceIter& it, const ReduceParams&) {
  BRASA_DISPATCH_ALL_TYPES(it.in_dtype(), "min",
                           [&] { run_reduce(ArgOps<scalar_t, false>{true}, it); });
}
void argmax_kernel(const ReduceIter& it, const ReduceParams&) {
  BRASA_DISPATCH_NUMERIC_TYPES(it.in_dtype(), "argmax",
                               [&] { run_reduce(ArgOps<scalar_t, true>{false}, it); });
}
void argmin_kernel(const ReduceIter& it, const ReduceParams&) {
  BRASA_DISPATCH_NUMERIC_TYPES(it.in_dtype(), "argmin",
                               [&] { run_reduce(ArgOps<scalar_t, false>{false}, it); });
}
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
void logsumexp_kernel(const ReduceIter& it, const ReduceParams&) {
  BRASA_DISPATCH_FLOATING_TYPES(it.in_dtype(), "logsumexp",
                                [&] { run_reduce(LogSumExpOps<scalar_t>{}, it); });
}

}  // namespace

BRASA_REGISTER_STUB(ops::max_dim_stub, max_dim_kernel);
BRASA_REGISTER_STUB(ops::min_dim_stub, min_dim_kernel);
BRASA_REGISTER_STUB(ops::argmax_stub, argmax_kernel);
BRASA_REGISTER_STUB(ops::argmin_stub, argmin_kernel);
BRASA_REGISTER_STUB(ops::var_stub, var_kernel);
BRASA_REGISTER_STUB(ops::norm_stub, norm_kernel);
BRASA_REGISTER_STUB(ops::logsumexp_stub, logsumexp_kernel);

}  // namespace brasa::cpu
