#pragma once
// BRASA_DISPATCH_*: run a generic lambda with `scalar_t` bound to the C++ type of a runtime dtype.

#include "brasa/core/dtype.h"
#include "brasa/core/error.h"

#define BRASA_TYPE_CASE(enum_name, T, ...) \
  case ::brasa::ScalarType::enum_name: {   \
    using scalar_t = T;                    \
    return __VA_ARGS__();                  \
  }

#define BRASA_DISPATCH_FAIL(dtype, name) \
  default:                               \
    BRASA_THROW(TypeError, name, ": not implemented for dtype ", dtype);

#define BRASA_DISPATCH_INTEGRAL_CASES(...)     \
  BRASA_TYPE_CASE(Byte, uint8_t, __VA_ARGS__)  \
  BRASA_TYPE_CASE(Char, int8_t, __VA_ARGS__)   \
  BRASA_TYPE_CASE(Short, int16_t, __VA_ARGS__) \
  BRASA_TYPE_CASE(Int, int32_t, __VA_ARGS__)   \
  BRASA_TYPE_CASE(Long, int64_t, __VA_ARGS__)

#define BRASA_DISPATCH_FLOATING_CASES(...)                  \
  BRASA_TYPE_CASE(Half, ::brasa::Half, __VA_ARGS__)         \
  BRASA_TYPE_CASE(BFloat16, ::brasa::BFloat16, __VA_ARGS__) \
  BRASA_TYPE_CASE(Float, float, __VA_ARGS__)                \
  BRASA_TYPE_CASE(Double, double, __VA_ARGS__)

/// All ten dtypes.
#define BRASA_DISPATCH_ALL_TYPES(dtype, name, ...) \
  [&] {                                            \
    switch (dtype) {                               \
      BRASA_TYPE_CASE(Bool, bool, __VA_ARGS__)     \
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
      BRASA_TYPE_CASE(Bool, bool, __VA_ARGS__)                   \
      BRASA_DISPATCH_INTEGRAL_CASES(__VA_ARGS__)                 \
      BRASA_DISPATCH_FAIL(dtype, name)                           \
    }                                                            \
  }()
