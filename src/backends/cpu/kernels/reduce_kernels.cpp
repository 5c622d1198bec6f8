// Loops of sum, mean, prod, amax, amin, all, any, count_nonzero and isclose (compiled once per CPU
// capability; the engine is backends/cpu/reduce_loops.h).
// Floating dtypes only in the AVX2/AVX-512 builds (Note [Capability dtypes] in stub.h).
#define BRASA_KERNEL_FLOATING_CAPABILITY
#define BRASA_KERNEL_REDUCED_AS_FLOAT
#include "backends/cpu/kernels/reduce_kernels.h"

#include <cmath>
#include <limits>
#include <type_traits>

#include "backends/cpu/loops.h"
#include "backends/cpu/reduce_loops.h"
#include "brasa/core/dispatch_type.h"

namespace brasa::cpu {
namespace {

using ops::ReduceParams;

// Floats (and complex) accumulate in their opmath type, integers and bool in int64.
template <typename T>
using sum_acc_t = std::conditional_t<is_float_v<T> || is_complex_v<T>, opmath_t<T>, int64_t>;
// Enough independent accumulators to fill four 512-bit registers.
template <typename acc_t>
constexpr int lanes_for = int(256 / sizeof(acc_t));

template <typename T>
struct SumOps {
  using in_t = T;
  using acc_t = sum_acc_t<T>;
  static constexpr int kLanes = lanes_for<acc_t>;
  static constexpr bool kCascade = is_float_v<T>;
  acc_t identity() const { return acc_t(0); }
  acc_t reduce(acc_t a, T x, int64_t) const { return a + widen<acc_t>(x); }
  acc_t combine(acc_t a, acc_t b) const { return a + b; }
  void store(acc_t a, char* o, char*) const { *reinterpret_cast<T*>(o) = T(a); }
};

template <typename T>
struct MeanOps : SumOps<T> {
  using acc_t = sum_acc_t<T>;
  double count = 0;
  void store(acc_t a, char* o, char*) const {
    *reinterpret_cast<T*>(o) = T(static_cast<acc_t>(static_cast<double>(a) / count));
  }
};

template <typename T>
struct ProdOps {
  using in_t = T;
  using acc_t = sum_acc_t<T>;
  static constexpr int kLanes = lanes_for<acc_t>;
  static constexpr bool kCascade = false;
  acc_t identity() const { return acc_t(1); }
  acc_t reduce(acc_t a, T x, int64_t) const { return a * widen<acc_t>(x); }
  acc_t combine(acc_t a, acc_t b) const { return a * b; }
  void store(acc_t a, char* o, char*) const { *reinterpret_cast<T*>(o) = T(a); }
};

// NaN propagates: once an accumulator holds NaN, `x > a` and `x < a` stay false.
template <typename T, bool kMax>
struct MinMaxOps {
  using in_t = T;
  using acc_t = opmath_t<T>;
  static constexpr int kLanes = lanes_for<acc_t>;
  static constexpr bool kCascade = false;
  acc_t identity() const {
    if constexpr (std::is_floating_point_v<acc_t>)
      return kMax ? -std::numeric_limits<acc_t>::infinity()
                  : std::numeric_limits<acc_t>::infinity();
    else
      return kMax ? std::numeric_limits<acc_t>::lowest() : std::numeric_limits<acc_t>::max();
  }
  acc_t reduce(acc_t a, T xt, int64_t) const { return combine(a, widen<acc_t>(xt)); }
  acc_t combine(acc_t a, acc_t x) const {
    if constexpr (kMax)
      return (x > a || x != x) ? x : a;
    else
      return (x < a || x != x) ? x : a;
  }
  void store(acc_t a, char* o, char*) const { *reinterpret_cast<T*>(o) = T(a); }
};

// Note [Logical reductions on bits]
// all, any and count_nonzero only ask whether an element is zero. An integer or bool is zero when
// all its bits are; a float (Half, BFloat16, float, double) when all but its sign bit are, so -0.0
// is zero and NaN is not. The Ops therefore read the data as unsigned integers of the element's
// width with a mask: four instantiations per reduction instead of one per dtype.
enum class Logical { All, Any, Count };
template <typename U, Logical kKind>
struct LogicalOps {
  using in_t = U;
  using acc_t = std::conditional_t<kKind == Logical::Count, int64_t, uint8_t>;
  static constexpr int kLanes = lanes_for<acc_t>;
  static constexpr bool kCascade = false;
  U mask;
  acc_t identity() const { return kKind == Logical::All ? 1 : 0; }
  acc_t reduce(acc_t a, U x, int64_t) const { return combine(a, acc_t((x & mask) != 0)); }
  acc_t combine(acc_t a, acc_t b) const {
    if constexpr (kKind == Logical::All)
      return a & b;
    else if constexpr (kKind == Logical::Any)
      return a | b;
    else
      return a + b;
  }
  void store(acc_t a, char* o, char*) const {
    if constexpr (kKind == Logical::Count)
      *reinterpret_cast<int64_t*>(o) = a;
    else
      *reinterpret_cast<uint8_t*>(o) = a;
  }
};
template <typename U, Logical kKind>
void run_logical_as(const ReduceIter& it, bool floating) {
  const U all_bits = static_cast<U>(~U(0));
  const U mask = floating ? static_cast<U>(all_bits >> 1) : all_bits;
  run_reduce(LogicalOps<U, kKind>{mask}, it);
}
template <Logical kKind>
void run_logical(const ReduceIter& it, const char* name) {
  const ScalarType t = it.in_dtype();
  BRASA_CHECK_TYPE(!is_complex_type(t), name, ": not implemented for dtype ", t);
  const bool floating = is_floating_type(t);
  switch (element_size(t)) {
    case 1: return run_logical_as<uint8_t, kKind>(it, floating);
    case 2: return run_logical_as<uint16_t, kKind>(it, floating);
    case 4: return run_logical_as<uint32_t, kKind>(it, floating);
    case 8: return run_logical_as<uint64_t, kKind>(it, floating);
    default: BRASA_THROW(TypeError, name, ": not implemented for dtype ", t);
  }
}

void sum_kernel(const ReduceIter& it, const ReduceParams&) {
  if (is_complex_type(it.in_dtype())) {
    // Note [Complex kernels in the default build]
    BRASA_DISPATCH_COMPLEX_TYPES(it.in_dtype(), "sum", [&] { run_reduce(SumOps<scalar_t>{}, it); });
    return;
  }
  BRASA_DISPATCH_ALL_TYPES(it.in_dtype(), "sum", [&] { run_reduce(SumOps<scalar_t>{}, it); });
}
void mean_kernel(const ReduceIter& it, const ReduceParams& p) {
  BRASA_DISPATCH_FLOATING_TYPES(it.in_dtype(), "mean", [&] {
    MeanOps<scalar_t> ops;
    ops.count = p.p;
    run_reduce(ops, it);
  });
}
void prod_kernel(const ReduceIter& it, const ReduceParams&) {
  BRASA_DISPATCH_ALL_TYPES(it.in_dtype(), "prod", [&] { run_reduce(ProdOps<scalar_t>{}, it); });
}
void amax_kernel(const ReduceIter& it, const ReduceParams&) {
  BRASA_DISPATCH_ALL_TYPES(it.in_dtype(), "amax",
                           [&] { run_reduce(MinMaxOps<scalar_t, true>{}, it); });
}
void amin_kernel(const ReduceIter& it, const ReduceParams&) {
  BRASA_DISPATCH_ALL_TYPES(it.in_dtype(), "amin",
                           [&] { run_reduce(MinMaxOps<scalar_t, false>{}, it); });
}
void all_kernel(const ReduceIter& it, const ReduceParams&) { run_logical<Logical::All>(it, "all"); }
void any_kernel(const ReduceIter& it, const ReduceParams&) { run_logical<Logical::Any>(it, "any"); }
void count_nonzero_kernel(const ReduceIter& it, const ReduceParams&) {
  run_logical<Logical::Count>(it, "count_nonzero");
}

// |a - b| <= atol + rtol * |b|, for floating dtypes in their own precision (float's in float:
// rtol and atol rounded to it, as aten's isclose computes with tensors of the inputs' dtype, so
// allclose(0.1f, 0.0f, rtol, 0.1) holds); integers in double.
void isclose_kernel(TensorIterator& it, double rtol, double atol, bool equal_nan) {
  BRASA_DISPATCH_ALL_TYPES(it.common_dtype(), "allclose", [&] {
    using op_t = std::conditional_t<is_float_v<scalar_t>, opmath_t<scalar_t>, double>;
    const op_t r = static_cast<op_t>(rtol), t = static_cast<op_t>(atol);
    run_binary<bool, scalar_t>(it, [=](scalar_t at, scalar_t bt) -> bool {
      op_t a = static_cast<op_t>(static_cast<opmath_t<scalar_t>>(at));
      op_t b = static_cast<op_t>(static_cast<opmath_t<scalar_t>>(bt));
      if (a == b) return true;
      if (std::isnan(a) || std::isnan(b)) return equal_nan && std::isnan(a) && std::isnan(b);
      if (!std::isfinite(a) || !std::isfinite(b)) return false;
      return std::abs(a - b) <= t + std::abs(r * b);
    });
  });
}

}  // namespace

BRASA_REGISTER_STUB(ops::sum_stub, sum_kernel);
BRASA_REGISTER_STUB(ops::mean_stub, mean_kernel);
BRASA_REGISTER_STUB(ops::prod_stub, prod_kernel);
BRASA_REGISTER_STUB(ops::amax_stub, amax_kernel);
BRASA_REGISTER_STUB(ops::amin_stub, amin_kernel);
BRASA_REGISTER_STUB(ops::all_stub, all_kernel);
BRASA_REGISTER_STUB(ops::any_stub, any_kernel);
BRASA_REGISTER_STUB(ops::count_nonzero_stub, count_nonzero_kernel);
BRASA_REGISTER_STUB(ops::isclose_stub, isclose_kernel);

}  // namespace brasa::cpu
