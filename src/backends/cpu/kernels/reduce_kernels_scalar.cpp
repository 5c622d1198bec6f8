// Loops of max(dim)/min(dim) with indices, argmax/argmin and logsumexp (the engine is
// backends/cpu/reduce_loops.h). Compiled for DEFAULT only: each keeps one accumulator per line
// whose steps depend on each other (an index beside the value, or a running max rescaling the sum),
// and the AVX2/AVX-512 builds measured no faster, argmax over contiguous rows 20% slower
// (bench/capability_bench.py; Note [Capability builds per file] in cmake/BrasaKernels.cmake).
#define BRASA_KERNEL_DEFAULT_ONLY
#define BRASA_KERNEL_REDUCED_AS_FLOAT
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
void logsumexp_kernel(const ReduceIter& it, const ReduceParams&) {
  BRASA_DISPATCH_FLOATING_TYPES(it.in_dtype(), "logsumexp",
                                [&] { run_reduce(LogSumExpOps<scalar_t>{}, it); });
}

}  // namespace

BRASA_REGISTER_STUB(ops::max_dim_stub, max_dim_kernel);
BRASA_REGISTER_STUB(ops::min_dim_stub, min_dim_kernel);
BRASA_REGISTER_STUB(ops::argmax_stub, argmax_kernel);
BRASA_REGISTER_STUB(ops::argmin_stub, argmin_kernel);
BRASA_REGISTER_STUB(ops::logsumexp_stub, logsumexp_kernel);

}  // namespace brasa::cpu
