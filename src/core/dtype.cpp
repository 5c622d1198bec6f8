#include "brasa/core/dtype.h"

#include "brasa/core/error.h"

namespace brasa {

const char* to_string(ScalarType t) {
  switch (t) {
    case kBool: return "Bool";
    case kByte: return "Byte";
    case kChar: return "Char";
    case kShort: return "Short";
    case kInt: return "Int";
    case kLong: return "Long";
    case kHalf: return "Half";
    case kBFloat16: return "BFloat16";
    case kFloat: return "Float";
    case kDouble: return "Double";
    case kComplexFloat: return "ComplexFloat";
    case kComplexDouble: return "ComplexDouble";
    default: return "Undefined";
  }
}

std::ostream& operator<<(std::ostream& os, ScalarType t) { return os << to_string(t); }

namespace {
int lattice_index(ScalarType t) {
  switch (t) {
    case kBool: return 0;
    case kByte: return 1;
    case kChar: return 2;
    case kShort: return 3;
    case kInt: return 4;
    case kLong: return 5;
    case kHalf: return 6;
    case kBFloat16: return 7;
    case kFloat: return 8;
    case kDouble: return 9;
    default: return -1;
  }
}
}  // namespace

ScalarType promote_types(ScalarType a, ScalarType b) {
  if (a == b) return a;
  if (a == ScalarType::Undefined) return b;
  if (b == ScalarType::Undefined) return a;
  // Complex beats every real dtype; the result is ComplexDouble when either side is Double or
  // ComplexDouble (PyTorch 1.13's table; ComplexHalf, which brasa lacks, is never the result of
  // two brasa dtypes).
  if (is_complex_type(a) || is_complex_type(b)) {
    BRASA_CHECK_TYPE(lattice_index(a) >= 0 || is_complex_type(a), "promote_types: unknown dtype ",
                     a);
    BRASA_CHECK_TYPE(lattice_index(b) >= 0 || is_complex_type(b), "promote_types: unknown dtype ",
                     b);
    const bool wide = a == kDouble || b == kDouble || a == kComplexDouble || b == kComplexDouble;
    return wide ? kComplexDouble : kComplexFloat;
  }
  // PyTorch's lattice: order b1 u1 i1 i2 i4 i8 f2 bf f4 f8.
  constexpr ScalarType b1 = kBool, u1 = kByte, i1 = kChar, i2 = kShort, i4 = kInt, i8 = kLong,
                       f2 = kHalf, bf = kBFloat16, f4 = kFloat, f8 = kDouble;
  static constexpr ScalarType table[10][10] = {
      /*        b1  u1  i1  i2  i4  i8  f2  bf  f4  f8 */
      /* b1 */ {b1, u1, i1, i2, i4, i8, f2, bf, f4, f8},
      /* u1 */ {u1, u1, i2, i2, i4, i8, f2, bf, f4, f8},
      /* i1 */ {i1, i2, i1, i2, i4, i8, f2, bf, f4, f8},
      /* i2 */ {i2, i2, i2, i2, i4, i8, f2, bf, f4, f8},
      /* i4 */ {i4, i4, i4, i4, i4, i8, f2, bf, f4, f8},
      /* i8 */ {i8, i8, i8, i8, i8, i8, f2, bf, f4, f8},
      /* f2 */ {f2, f2, f2, f2, f2, f2, f2, f4, f4, f8},
      /* bf */ {bf, bf, bf, bf, bf, bf, f4, bf, f4, f8},
      /* f4 */ {f4, f4, f4, f4, f4, f4, f4, f4, f4, f8},
      /* f8 */ {f8, f8, f8, f8, f8, f8, f8, f8, f8, f8},
  };
  int ia = lattice_index(a), ib = lattice_index(b);
  BRASA_CHECK_TYPE(ia >= 0 && ib >= 0, "promote_types: unknown dtype ", a, " or ", b);
  return table[ia][ib];
}

namespace {
ScalarType g_default_dtype = kFloat;
}
ScalarType get_default_dtype() { return g_default_dtype; }
// Any dtype, as libtorch's C++ set_default_dtype (its tests make Int the default); Python's
// set_default_dtype keeps to Float and Double (python/src/module.cpp).
void set_default_dtype(ScalarType t) {
  BRASA_CHECK_TYPE(t != ScalarType::Undefined, "set_default_dtype: got an undefined dtype");
  g_default_dtype = t;
}

}  // namespace brasa
