// Loops of clamp, lerp, where, masked_fill and nan_to_num (compiled once per CPU capability).
// Floating dtypes only in the AVX2/AVX-512 builds (Note [Capability dtypes] in stub.h).
#define BRASA_KERNEL_FLOATING_CAPABILITY
#include "backends/cpu/kernels/ternary_kernels.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "backends/cpu/loops.h"
#include "brasa/core/dispatch_type.h"

namespace brasa::cpu {
namespace {

// Selection ops only move bytes: they run on unsigned integers of the dtype's size.
template <typename F>
void dispatch_by_size(size_t itemsize, const F& f) {
  switch (itemsize) {
    case 1: return f(uint8_t{});
    case 2: return f(uint16_t{});
    case 4: return f(uint32_t{});
    case 8: return f(uint64_t{});
    default: BRASA_THROW(InternalError, "unexpected element size ", itemsize);
  }
}

// ---- clamp ----
void clamp_scalar_kernel(TensorIterator& it, const std::optional<Scalar>& min,
                         const std::optional<Scalar>& max, bool nan_fill) {
  BRASA_DISPATCH_NUMERIC_TYPES(it.common_dtype(), "clamp", [&] {
    using opm = opmath_t<scalar_t>;
    if constexpr (is_float_v<scalar_t>) {
      if (nan_fill) {
        const scalar_t q = std::numeric_limits<scalar_t>::quiet_NaN();
        run_unary<scalar_t, scalar_t>(it, [q](scalar_t) { return q; });
        return;
      }
    }
    const opm lo = min ? min->to<opm>() : opm(0), hi = max ? max->to<opm>() : opm(0);
    // std::max(x, lo) returns x when x is NaN, so NaN inputs stay NaN; lo > hi gives hi.
    if (min && max) {
      run_unary<scalar_t, scalar_t>(
          it, [lo, hi](scalar_t a) { return scalar_t(std::min(std::max(opm(a), lo), hi)); });
    } else if (min) {
      run_unary<scalar_t, scalar_t>(it,
                                    [lo](scalar_t a) { return scalar_t(std::max(opm(a), lo)); });
    } else if (max) {
      run_unary<scalar_t, scalar_t>(it,
                                    [hi](scalar_t a) { return scalar_t(std::min(opm(a), hi)); });
    } else {
      run_unary<scalar_t, scalar_t>(it, [](scalar_t a) { return a; });
    }
  });
}

// NaN-propagating max/min (a NaN input or bound gives NaN).
template <typename T>
inline T max_nan(T x, T lo) {
  return (x != x || x > lo) ? x : lo;
}
template <typename T>
inline T min_nan(T x, T hi) {
  return (x != x || x < hi) ? x : hi;
}

void clamp_tensor_kernel(TensorIterator& it, bool has_min, bool has_max) {
  BRASA_DISPATCH_ALL_TYPES(it.common_dtype(), "clamp", [&] {
    using opm = opmath_t<scalar_t>;
    if (has_min && has_max) {
      run_ternary<scalar_t, scalar_t>(it, [](scalar_t a, scalar_t lo, scalar_t hi) {
        return scalar_t(min_nan(max_nan(opm(a), opm(lo)), opm(hi)));
      });
    } else if (has_min) {
      run_binary<scalar_t, scalar_t>(
          it, [](scalar_t a, scalar_t lo) { return scalar_t(max_nan(opm(a), opm(lo))); });
    } else {
      run_binary<scalar_t, scalar_t>(
          it, [](scalar_t a, scalar_t hi) { return scalar_t(min_nan(opm(a), opm(hi))); });
    }
  });
}

// ---- lerp ----
// Two forms so that both ends are exact: lerp(a, b, 0) == a and lerp(a, b, 1) == b.
template <typename T>
inline T lerp_value(T a, T b, T w) {
  return std::abs(w) < T(0.5) ? a + w * (b - a) : b - (b - a) * (T(1) - w);
}
void lerp_scalar_kernel(TensorIterator& it, const Scalar& weight) {
  BRASA_DISPATCH_FLOATING_TYPES(it.common_dtype(), "lerp", [&] {
    using opm = opmath_t<scalar_t>;
    const opm w = weight.to<opm>();
    run_binary<scalar_t, scalar_t>(
        it, [w](scalar_t a, scalar_t b) { return scalar_t(lerp_value(opm(a), opm(b), w)); });
  });
}
void lerp_tensor_kernel(TensorIterator& it) {
  BRASA_DISPATCH_FLOATING_TYPES(it.common_dtype(), "lerp", [&] {
    using opm = opmath_t<scalar_t>;
    run_ternary<scalar_t, scalar_t>(it, [](scalar_t a, scalar_t b, scalar_t w) {
      return scalar_t(lerp_value(opm(a), opm(b), opm(w)));
    });
  });
}

// ---- where / masked_fill ----
template <typename T>
void where_loop(char** d, const int64_t* s, int64_t n) {
  constexpr int64_t k = sizeof(T);
  T* o = reinterpret_cast<T*>(d[0]);
  const uint8_t* c = reinterpret_cast<const uint8_t*>(d[1]);
  const T* a = reinterpret_cast<const T*>(d[2]);
  const T* b = reinterpret_cast<const T*>(d[3]);
  if (s[0] == k && s[1] == 1 && s[2] == k && s[3] == k) {
    for (int64_t i = 0; i < n; ++i) o[i] = c[i] ? a[i] : b[i];
  } else if (s[0] == k && s[1] == 1 && s[2] == k && s[3] == 0) {
    const T bv = *b;
    for (int64_t i = 0; i < n; ++i) o[i] = c[i] ? a[i] : bv;
  } else if (s[0] == k && s[1] == 1 && s[2] == 0 && s[3] == k) {
    const T av = *a;
    for (int64_t i = 0; i < n; ++i) o[i] = c[i] ? av : b[i];
  } else {
    for (int64_t i = 0; i < n; ++i) {
      const bool take_a = *reinterpret_cast<const uint8_t*>(d[1] + i * s[1]);
      *reinterpret_cast<T*>(d[0] + i * s[0]) =
          *reinterpret_cast<const T*>(take_a ? d[2] + i * s[2] : d[3] + i * s[3]);
    }
  }
}
void where_kernel(TensorIterator& it) {
  dispatch_by_size(it.operand(0).itemsize(), [&](auto zero) {
    it.for_each([](char** d, const int64_t* s, int64_t n) { where_loop<decltype(zero)>(d, s, n); });
  });
}

void masked_fill_kernel(TensorIterator& it, const Scalar& value) {
  uint64_t bits = 0;
  BRASA_DISPATCH_ALL_TYPES(it.common_dtype(), "masked_fill", [&] {
    const scalar_t v = value.to<scalar_t>();
    std::memcpy(&bits, &v, sizeof(v));
  });
  dispatch_by_size(it.operand(0).itemsize(), [&](auto zero) {
    using T = decltype(zero);
    T v;
    std::memcpy(&v, &bits, sizeof(T));
    it.for_each([v](char** d, const int64_t* s, int64_t n) {
      constexpr int64_t k = sizeof(T);
      if (s[0] == k && s[1] == k && s[2] == 1) {
        T* o = reinterpret_cast<T*>(d[0]);
        const T* a = reinterpret_cast<const T*>(d[1]);
        const uint8_t* m = reinterpret_cast<const uint8_t*>(d[2]);
        for (int64_t i = 0; i < n; ++i) o[i] = m[i] ? v : a[i];
        return;
      }
      for (int64_t i = 0; i < n; ++i) {
        const bool fill = *reinterpret_cast<const uint8_t*>(d[2] + i * s[2]);
        *reinterpret_cast<T*>(d[0] + i * s[0]) =
            fill ? v : *reinterpret_cast<const T*>(d[1] + i * s[1]);
      }
    });
  });
}

// ---- nan_to_num ----
void nan_to_num_kernel(TensorIterator& it, double nan, std::optional<double> posinf,
                       std::optional<double> neginf) {
  if (!is_floating_type(it.common_dtype())) {
    dispatch_by_size(it.operand(0).itemsize(), [&](auto zero) {
      using T = decltype(zero);
      run_unary<T, T>(it, [](T a) { return a; });
    });
    return;
  }
  BRASA_DISPATCH_FLOATING_TYPES(it.common_dtype(), "nan_to_num", [&] {
    using opm = opmath_t<scalar_t>;
    using limits = std::numeric_limits<scalar_t>;
    const scalar_t nan_v = scalar_t(nan);
    const scalar_t pos_v = posinf ? scalar_t(*posinf) : limits::max();
    const scalar_t neg_v = neginf ? scalar_t(*neginf) : limits::lowest();
    run_unary<scalar_t, scalar_t>(it, [=](scalar_t a) {
      const opm x = a;
      if (x != x) return nan_v;
      if (x == std::numeric_limits<opm>::infinity()) return pos_v;
      if (x == -std::numeric_limits<opm>::infinity()) return neg_v;
      return a;
    });
  });
}

}  // namespace
}  // namespace brasa::cpu

namespace brasa::ops {
BRASA_REGISTER_STUB(clamp_scalar_stub, ::brasa::cpu::clamp_scalar_kernel);
BRASA_REGISTER_STUB(clamp_tensor_stub, ::brasa::cpu::clamp_tensor_kernel);
BRASA_REGISTER_STUB(lerp_scalar_stub, ::brasa::cpu::lerp_scalar_kernel);
BRASA_REGISTER_STUB(lerp_tensor_stub, ::brasa::cpu::lerp_tensor_kernel);
BRASA_REGISTER_STUB(where_stub, ::brasa::cpu::where_kernel);
BRASA_REGISTER_STUB(masked_fill_stub, ::brasa::cpu::masked_fill_kernel);
BRASA_REGISTER_STUB(nan_to_num_stub, ::brasa::cpu::nan_to_num_kernel);
}  // namespace brasa::ops
