#pragma once
// c10::ScalarType and its libtorch helper spellings over brasa's dtype.

#include "brasa/core/dtype.h"
#include "c10/brasa_namespaces.h"

namespace c10 {

inline const char* toString(ScalarType t) { return ::brasa::to_string(t); }
constexpr size_t elementSize(ScalarType t) { return ::brasa::element_size(t); }
constexpr bool isFloatingType(ScalarType t) { return ::brasa::is_floating_type(t); }
constexpr bool isIntegralType(ScalarType t, bool include_bool) {
  return ::brasa::is_integral_type(t, include_bool);
}
constexpr bool isReducedFloatingType(ScalarType t) { return ::brasa::is_reduced_floating_type(t); }
constexpr bool isComplexType(ScalarType t) { return ::brasa::is_complex_type(t); }
constexpr ScalarType toRealValueType(ScalarType t) { return ::brasa::to_real_value_type(t); }
constexpr ScalarType toComplexType(ScalarType t) { return ::brasa::to_complex_type(t); }
inline ScalarType promoteTypes(ScalarType a, ScalarType b) { return ::brasa::promote_types(a, b); }

namespace impl {
/// The C++ type of a dtype known at compile time (used by AT_DISPATCH_*).
template <ScalarType T>
struct ScalarTypeToCPPType;
#define BRASA_COMPAT_REVERSE_TYPE_MAP(cpp_type, name) \
  template <>                                         \
  struct ScalarTypeToCPPType<ScalarType::name> {      \
    using type = cpp_type;                            \
  };
BRASA_FORALL_SCALAR_TYPES(BRASA_COMPAT_REVERSE_TYPE_MAP)
#undef BRASA_COMPAT_REVERSE_TYPE_MAP
template <ScalarType T>
using ScalarTypeToCPPTypeT = typename ScalarTypeToCPPType<T>::type;
}  // namespace impl

}  // namespace c10

namespace at {
using ::c10::elementSize;
using ::c10::isComplexType;
using ::c10::isFloatingType;
using ::c10::isIntegralType;
using ::c10::promoteTypes;
using ::c10::toString;
}  // namespace at
