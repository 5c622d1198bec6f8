#pragma once
// AT_DISPATCH_*: run a lambda with `scalar_t` bound to the C++ type of a runtime dtype, with
// libtorch's type lists (FLOATING = Double, Float; ALL = the integral types and Double, Float;
// `_AND*` add the named dtypes). An unlisted dtype throws c10::NotImplementedError naming the
// dispatch and the dtype. brasa has no complex or quantized dtypes, so those variants are absent.

#include "brasa/core/error.h"
#include "c10/core/ScalarType.h"

#define AT_DISPATCH_CASE(enum_type, ...)                                            \
  case enum_type: {                                                                 \
    using scalar_t [[maybe_unused]] = ::c10::impl::ScalarTypeToCPPTypeT<enum_type>; \
    return __VA_ARGS__();                                                           \
  }

#define AT_DISPATCH_SWITCH(TYPE, NAME, ...)                                     \
  [&] {                                                                         \
    const ::brasa::ScalarType brasa_dispatch_type_ = TYPE;                      \
    switch (brasa_dispatch_type_) {                                             \
      __VA_ARGS__                                                               \
      default:                                                                  \
        BRASA_THROW(NotImplementedError, '"', NAME, "\" not implemented for '", \
                    ::brasa::to_string(brasa_dispatch_type_), "'");             \
    }                                                                           \
  }()

#define AT_DISPATCH_CASE_FLOATING_TYPES(...)                 \
  AT_DISPATCH_CASE(::brasa::ScalarType::Double, __VA_ARGS__) \
  AT_DISPATCH_CASE(::brasa::ScalarType::Float, __VA_ARGS__)
#define AT_DISPATCH_CASE_INTEGRAL_TYPES(...)               \
  AT_DISPATCH_CASE(::brasa::ScalarType::Byte, __VA_ARGS__) \
  AT_DISPATCH_CASE(::brasa::ScalarType::Char, __VA_ARGS__) \
  AT_DISPATCH_CASE(::brasa::ScalarType::Int, __VA_ARGS__)  \
  AT_DISPATCH_CASE(::brasa::ScalarType::Long, __VA_ARGS__) \
  AT_DISPATCH_CASE(::brasa::ScalarType::Short, __VA_ARGS__)
#define AT_DISPATCH_CASE_ALL_TYPES(...)        \
  AT_DISPATCH_CASE_INTEGRAL_TYPES(__VA_ARGS__) \
  AT_DISPATCH_CASE_FLOATING_TYPES(__VA_ARGS__)

#define AT_DISPATCH_FLOATING_TYPES(TYPE, NAME, ...) \
  AT_DISPATCH_SWITCH(TYPE, NAME, AT_DISPATCH_CASE_FLOATING_TYPES(__VA_ARGS__))
#define AT_DISPATCH_FLOATING_TYPES_AND_HALF(TYPE, NAME, ...)      \
  AT_DISPATCH_SWITCH(TYPE, NAME,                                  \
                     AT_DISPATCH_CASE_FLOATING_TYPES(__VA_ARGS__) \
                         AT_DISPATCH_CASE(::brasa::ScalarType::Half, __VA_ARGS__))
#define AT_DISPATCH_FLOATING_TYPES_AND(T1, TYPE, NAME, ...) \
  AT_DISPATCH_SWITCH(                                       \
      TYPE, NAME, AT_DISPATCH_CASE_FLOATING_TYPES(__VA_ARGS__) AT_DISPATCH_CASE(T1, __VA_ARGS__))
#define AT_DISPATCH_FLOATING_TYPES_AND2(T1, T2, TYPE, NAME, ...)  \
  AT_DISPATCH_SWITCH(TYPE, NAME,                                  \
                     AT_DISPATCH_CASE_FLOATING_TYPES(__VA_ARGS__) \
                         AT_DISPATCH_CASE(T1, __VA_ARGS__) AT_DISPATCH_CASE(T2, __VA_ARGS__))
#define AT_DISPATCH_INTEGRAL_TYPES(TYPE, NAME, ...) \
  AT_DISPATCH_SWITCH(TYPE, NAME, AT_DISPATCH_CASE_INTEGRAL_TYPES(__VA_ARGS__))
#define AT_DISPATCH_INTEGRAL_TYPES_AND(T1, TYPE, NAME, ...) \
  AT_DISPATCH_SWITCH(                                       \
      TYPE, NAME, AT_DISPATCH_CASE_INTEGRAL_TYPES(__VA_ARGS__) AT_DISPATCH_CASE(T1, __VA_ARGS__))
#define AT_DISPATCH_ALL_TYPES(TYPE, NAME, ...) \
  AT_DISPATCH_SWITCH(TYPE, NAME, AT_DISPATCH_CASE_ALL_TYPES(__VA_ARGS__))
#define AT_DISPATCH_ALL_TYPES_AND(T1, TYPE, NAME, ...) \
  AT_DISPATCH_SWITCH(TYPE, NAME,                       \
                     AT_DISPATCH_CASE_ALL_TYPES(__VA_ARGS__) AT_DISPATCH_CASE(T1, __VA_ARGS__))
#define AT_DISPATCH_ALL_TYPES_AND2(T1, T2, TYPE, NAME, ...)                                    \
  AT_DISPATCH_SWITCH(TYPE, NAME,                                                               \
                     AT_DISPATCH_CASE_ALL_TYPES(__VA_ARGS__) AT_DISPATCH_CASE(T1, __VA_ARGS__) \
                         AT_DISPATCH_CASE(T2, __VA_ARGS__))
#define AT_DISPATCH_ALL_TYPES_AND3(T1, T2, T3, TYPE, NAME, ...)                                \
  AT_DISPATCH_SWITCH(TYPE, NAME,                                                               \
                     AT_DISPATCH_CASE_ALL_TYPES(__VA_ARGS__) AT_DISPATCH_CASE(T1, __VA_ARGS__) \
                         AT_DISPATCH_CASE(T2, __VA_ARGS__) AT_DISPATCH_CASE(T3, __VA_ARGS__))
