#pragma once
// ScalarType (dtype): the element types brasa has, their sizes, names and PyTorch's promotion
// lattice.

#include <cstdint>
#include <ostream>

#include "brasa/core/complex.h"
#include "brasa/core/half.h"
#include "brasa/core/macros.h"

namespace brasa {

/// Element types. Values match c10::ScalarType so serialized enums stay compatible.
enum class ScalarType : int8_t {
  Byte = 0,
  Char = 1,
  Short = 2,
  Int = 3,
  Long = 4,
  Half = 5,
  Float = 6,
  Double = 7,
  ComplexFloat = 9,
  ComplexDouble = 10,
  Bool = 11,
  BFloat16 = 15,
  Undefined = -1,
};
using Dtype = ScalarType;

constexpr ScalarType kByte = ScalarType::Byte, kUInt8 = ScalarType::Byte;
constexpr ScalarType kChar = ScalarType::Char, kInt8 = ScalarType::Char;
constexpr ScalarType kShort = ScalarType::Short, kInt16 = ScalarType::Short;
constexpr ScalarType kInt = ScalarType::Int, kInt32 = ScalarType::Int;
constexpr ScalarType kLong = ScalarType::Long, kInt64 = ScalarType::Long;
constexpr ScalarType kHalf = ScalarType::Half, kFloat16 = ScalarType::Half;
constexpr ScalarType kFloat = ScalarType::Float, kFloat32 = ScalarType::Float;
constexpr ScalarType kDouble = ScalarType::Double, kFloat64 = ScalarType::Double;
constexpr ScalarType kBool = ScalarType::Bool;
constexpr ScalarType kBFloat16 = ScalarType::BFloat16;
constexpr ScalarType kComplexFloat = ScalarType::ComplexFloat, kCFloat = kComplexFloat,
                     kComplex64 = kComplexFloat;
constexpr ScalarType kComplexDouble = ScalarType::ComplexDouble, kCDouble = kComplexDouble,
                     kComplex128 = kComplexDouble;

/// Every real dtype (complex ones are kComplexScalarTypes), in promotion-table order.
constexpr ScalarType kAllScalarTypes[] = {kBool, kByte, kChar,     kShort, kInt,
                                          kLong, kHalf, kBFloat16, kFloat, kDouble};
constexpr ScalarType kComplexScalarTypes[] = {kComplexFloat, kComplexDouble};

constexpr size_t element_size(ScalarType t) {
  switch (t) {
    case kBool:
    case kByte:
    case kChar: return 1;
    case kShort:
    case kHalf:
    case kBFloat16: return 2;
    case kInt:
    case kFloat: return 4;
    case kLong:
    case kDouble:
    case kComplexFloat: return 8;
    case kComplexDouble: return 16;
    default: return 0;
  }
}
constexpr bool is_floating_type(ScalarType t) {
  return t == kHalf || t == kBFloat16 || t == kFloat || t == kDouble;
}
/// Integral types; bool counts only when include_bool.
constexpr bool is_integral_type(ScalarType t, bool include_bool) {
  return t == kByte || t == kChar || t == kShort || t == kInt || t == kLong ||
         (include_bool && t == kBool);
}
constexpr bool is_complex_type(ScalarType t) { return t == kComplexFloat || t == kComplexDouble; }
/// Float for ComplexFloat, Double for ComplexDouble, t itself otherwise.
constexpr ScalarType to_real_value_type(ScalarType t) {
  return t == kComplexFloat ? kFloat : t == kComplexDouble ? kDouble : t;
}
/// The complex dtype with t's precision: ComplexDouble for Double, ComplexFloat for the other
/// floating dtypes (there is no ComplexHalf), t itself when already complex.
constexpr ScalarType to_complex_type(ScalarType t) {
  return t == kDouble || t == kComplexDouble ? kComplexDouble : kComplexFloat;
}
constexpr bool is_signed_type(ScalarType t) { return t != kBool && t != kByte; }
constexpr bool is_reduced_floating_type(ScalarType t) { return t == kHalf || t == kBFloat16; }

/// "Float", "Long", ... as libtorch names them.
BRASA_API const char* to_string(ScalarType t);
BRASA_API std::ostream& operator<<(std::ostream& os, ScalarType t);

/// PyTorch's promotion lattice for two dtypes (no 0-d / scalar rules; see result_type).
BRASA_API ScalarType promote_types(ScalarType a, ScalarType b);

/// The default floating dtype used for Python-style float scalars and int-to-float ops.
BRASA_API ScalarType get_default_dtype();
BRASA_API void set_default_dtype(ScalarType t);

/// Maps C++ types to dtypes and back.
template <typename T>
struct CppTypeToScalarType;
#define BRASA_FORALL_SCALAR_TYPES(_) \
  _(bool, Bool)                      \
  _(uint8_t, Byte)                   \
  _(int8_t, Char)                    \
  _(int16_t, Short)                  \
  _(int32_t, Int)                    \
  _(int64_t, Long)                   \
  _(Half, Half)                      \
  _(BFloat16, BFloat16)              \
  _(float, Float)                    \
  _(double, Double)                  \
  _(complex<float>, ComplexFloat)    \
  _(complex<double>, ComplexDouble)
#define BRASA_DEFINE_TYPE_MAP(T, name)                    \
  template <>                                             \
  struct CppTypeToScalarType<T> {                         \
    static constexpr ScalarType value = ScalarType::name; \
  };
BRASA_FORALL_SCALAR_TYPES(BRASA_DEFINE_TYPE_MAP)
#undef BRASA_DEFINE_TYPE_MAP
template <typename T>
constexpr ScalarType dtype_of = CppTypeToScalarType<T>::value;

/// The type arithmetic on T is carried out in: float for Half/BFloat16, T otherwise (complex
/// included).
template <typename T>
struct OpMath {
  using type = T;
};
template <>
struct OpMath<Half> {
  using type = float;
};
template <>
struct OpMath<BFloat16> {
  using type = float;
};
template <typename T>
using opmath_t = typename OpMath<T>::type;

}  // namespace brasa
