#pragma once
// BRASA_DISPATCH_*: run a generic lambda with `scalar_t` bound to the C++ type of a runtime dtype.

#include <type_traits>

#include "brasa/core/dtype.h"
#include "brasa/core/error.h"

namespace brasa {
/// True for the C++ types of the floating dtypes (float, double, Half, BFloat16).
template <typename T>
inline constexpr bool is_float_v =
    std::is_floating_point_v<T> || std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>;
}  // namespace brasa

#define BRASA_TYPE_CASE(enum_name, T, ...) \
  case ::brasa::ScalarType::enum_name: {   \
    using scalar_t = T;                    \
    return __VA_ARGS__();                  \
  }

#define BRASA_DISPATCH_FAIL(dtype, name) \
  default: BRASA_THROW(TypeError, name, ": not implemented for dtype ", dtype);

// A kernel file compiled for AVX2/AVX-512 under Note [Capability dtypes] (src/backends/cpu/stub.h)
// compiles no integer or bool case: those dtypes run the DEFAULT build's kernel.
#if defined(BRASA_KERNEL_FLOATING_CAPABILITY) && defined(BRASA_CPU_CAPABILITY) && \
    !defined(BRASA_CPU_CAPABILITY_DEFAULT)
#define BRASA_INTEGER_CASE(enum_name, T, ...)
#else
#define BRASA_INTEGER_CASE(enum_name, T, ...) BRASA_TYPE_CASE(enum_name, T, __VA_ARGS__)
#endif

#define BRASA_DISPATCH_INTEGRAL_CASES(...)        \
  BRASA_INTEGER_CASE(Byte, uint8_t, __VA_ARGS__)  \
  BRASA_INTEGER_CASE(Char, int8_t, __VA_ARGS__)   \
  BRASA_INTEGER_CASE(Short, int16_t, __VA_ARGS__) \
  BRASA_INTEGER_CASE(Int, int32_t, __VA_ARGS__)   \
  BRASA_INTEGER_CASE(Long, int64_t, __VA_ARGS__)

// A kernel file under Note [Reduced floats as float] (src/backends/cpu/reduced_float.h) runs Half
// through its float case (BFloat16 keeps its own: its conversion is a shift, cheaper inline).
#if defined(BRASA_KERNEL_REDUCED_AS_FLOAT)
#define BRASA_DISPATCH_FLOATING_CASES(...)                  \
  BRASA_TYPE_CASE(BFloat16, ::brasa::BFloat16, __VA_ARGS__) \
  case ::brasa::ScalarType::Half:                           \
    BRASA_TYPE_CASE(Float, float, __VA_ARGS__)              \
    BRASA_TYPE_CASE(Double, double, __VA_ARGS__)
#else
#define BRASA_DISPATCH_FLOATING_CASES(...)                  \
  BRASA_TYPE_CASE(Half, ::brasa::Half, __VA_ARGS__)         \
  BRASA_TYPE_CASE(BFloat16, ::brasa::BFloat16, __VA_ARGS__) \
  BRASA_TYPE_CASE(Float, float, __VA_ARGS__)                \
  BRASA_TYPE_CASE(Double, double, __VA_ARGS__)
#endif

/// All ten dtypes.
#define BRASA_DISPATCH_ALL_TYPES(dtype, name, ...) \
  [&] {                                            \
    switch (dtype) {                               \
      BRASA_INTEGER_CASE(Bool, bool, __VA_ARGS__)  \
      BRASA_DISPATCH_INTEGRAL_CASES(__VA_ARGS__)   \
      BRASA_DISPATCH_FLOATING_CASES(__VA_ARGS__)   \
      BRASA_DISPATCH_FAIL(dtype, name)             \
    }                                              \
  }()

/// Every dtype but bool.
#define BRASA_DISPATCH_NUMERIC_TYPES(dtype, name, ...) \
  [&] {                                                \
    switch (dtype) {                                   \
      BRASA_DISPATCH_INTEGRAL_CASES(__VA_ARGS__)       \
      BRASA_DISPATCH_FLOATING_CASES(__VA_ARGS__)       \
      BRASA_DISPATCH_FAIL(dtype, name)                 \
    }                                                  \
  }()

/// Half, BFloat16, Float, Double.
#define BRASA_DISPATCH_FLOATING_TYPES(dtype, name, ...) \
  [&] {                                                 \
    switch (dtype) {                                    \
      BRASA_DISPATCH_FLOATING_CASES(__VA_ARGS__)        \
      BRASA_DISPATCH_FAIL(dtype, name)                  \
    }                                                   \
  }()

/// Bool and the integral dtypes.
#define BRASA_DISPATCH_INTEGRAL_AND_BOOL_TYPES(dtype, name, ...) \
  [&] {                                                          \
    switch (dtype) {                                             \
      BRASA_INTEGER_CASE(Bool, bool, __VA_ARGS__)                \
      BRASA_DISPATCH_INTEGRAL_CASES(__VA_ARGS__)                 \
      BRASA_DISPATCH_FAIL(dtype, name)                           \
    }                                                            \
  }()

// Note [Complex kernels in the default build]
// Complex dtypes are rare next to the floating ones a model computes on, so their loops are
// compiled once, in the DEFAULT capability build of a kernel file (and in files that are not
// kernel files), never in the AVX2/AVX-512 builds: the library stays small. A stub whose AVX2
// build may see a complex dtype forwards it to the DEFAULT build (`floating_or_default` does it
// for files under Note [Capability dtypes]; other kernel files check is_complex_type themselves).
#if defined(BRASA_CPU_CAPABILITY) && !defined(BRASA_CPU_CAPABILITY_DEFAULT)
#define BRASA_COMPLEX_CASE(enum_name, T, ...)
#else
#define BRASA_COMPLEX_CASE(enum_name, T, ...) BRASA_TYPE_CASE(enum_name, T, __VA_ARGS__)
#endif
#define BRASA_DISPATCH_COMPLEX_CASES(...)                                \
  BRASA_COMPLEX_CASE(ComplexFloat, ::brasa::complex<float>, __VA_ARGS__) \
  BRASA_COMPLEX_CASE(ComplexDouble, ::brasa::complex<double>, __VA_ARGS__)

/// ComplexFloat and ComplexDouble.
#define BRASA_DISPATCH_COMPLEX_TYPES(dtype, name, ...) \
  [&] {                                                \
    switch (dtype) {                                   \
      BRASA_DISPATCH_COMPLEX_CASES(__VA_ARGS__)        \
      BRASA_DISPATCH_FAIL(dtype, name)                 \
    }                                                  \
  }()

/// All twelve dtypes.
#define BRASA_DISPATCH_ALL_TYPES_AND_COMPLEX(dtype, name, ...) \
  [&] {                                                        \
    switch (dtype) {                                           \
      BRASA_INTEGER_CASE(Bool, bool, __VA_ARGS__)              \
      BRASA_DISPATCH_INTEGRAL_CASES(__VA_ARGS__)               \
      BRASA_DISPATCH_FLOATING_CASES(__VA_ARGS__)               \
      BRASA_DISPATCH_COMPLEX_CASES(__VA_ARGS__)                \
      BRASA_DISPATCH_FAIL(dtype, name)                         \
    }                                                          \
  }()

/// Every dtype but bool, complex included.
#define BRASA_DISPATCH_NUMERIC_AND_COMPLEX_TYPES(dtype, name, ...) \
  [&] {                                                            \
    switch (dtype) {                                               \
      BRASA_DISPATCH_INTEGRAL_CASES(__VA_ARGS__)                   \
      BRASA_DISPATCH_FLOATING_CASES(__VA_ARGS__)                   \
      BRASA_DISPATCH_COMPLEX_CASES(__VA_ARGS__)                    \
      BRASA_DISPATCH_FAIL(dtype, name)                             \
    }                                                              \
  }()

/// The floating dtypes and the complex ones.
#define BRASA_DISPATCH_FLOATING_AND_COMPLEX_TYPES(dtype, name, ...) \
  [&] {                                                             \
    switch (dtype) {                                                \
      BRASA_DISPATCH_FLOATING_CASES(__VA_ARGS__)                    \
      BRASA_DISPATCH_COMPLEX_CASES(__VA_ARGS__)                     \
      BRASA_DISPATCH_FAIL(dtype, name)                              \
    }                                                               \
  }()
