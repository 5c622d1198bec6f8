#pragma once
// caffe2::TypeMeta: libtorch's run-time element type, here a thin wrapper over brasa's
// ScalarType (brasa's tensors only hold the ScalarType dtypes, so that is all a TypeMeta can
// name). Converts with c10::scalarTypeToTypeMeta / typeMetaToScalarType and compares equal to
// the ScalarType it wraps.
#include <cstddef>
#include <ostream>
#include <string_view>

#include "brasa/core/dtype.h"
#include "brasa/core/error.h"
#include "c10/brasa_namespaces.h"

namespace caffe2 {

class TypeMeta {
 public:
  /// An uninitialized TypeMeta (ScalarType::Undefined), as libtorch's default.
  constexpr TypeMeta() noexcept = default;

  /// The TypeMeta of the C++ element type T (one of brasa's dtypes).
  template <typename T>
  static constexpr TypeMeta Make() noexcept {
    return TypeMeta(::brasa::dtype_of<T>);
  }
  static constexpr TypeMeta fromScalarType(::brasa::ScalarType t) noexcept { return TypeMeta(t); }

  template <typename T>
  constexpr bool Match() const noexcept {
    return type_ == ::brasa::dtype_of<T>;
  }
  constexpr bool isScalarType() const noexcept { return type_ != ::brasa::ScalarType::Undefined; }
  constexpr bool isScalarType(::brasa::ScalarType t) const noexcept { return type_ == t; }
  ::brasa::ScalarType toScalarType() const {
    BRASA_CHECK_TYPE(isScalarType(),
                     "TypeMeta::toScalarType: an uninitialized TypeMeta has no "
                     "ScalarType");
    return type_;
  }
  constexpr size_t itemsize() const noexcept {
    return isScalarType() ? ::brasa::element_size(type_) : 0;
  }
  /// The element type's C++ name, as libtorch's TypeMeta prints it ("int", "float",
  /// "c10::Half", ...).
  std::string_view name() const noexcept {
    using ::brasa::ScalarType;
    switch (type_) {
      case ScalarType::Bool: return "bool";
      case ScalarType::Byte: return "unsigned char";
      case ScalarType::Char: return "signed char";
      case ScalarType::Short: return "short int";
      case ScalarType::Int: return "int";
      case ScalarType::Long: return "long int";
      case ScalarType::Half: return "c10::Half";
      case ScalarType::BFloat16: return "c10::BFloat16";
      case ScalarType::Float: return "float";
      case ScalarType::Double: return "double";
      case ScalarType::ComplexFloat: return "c10::complex<float>";
      case ScalarType::ComplexDouble: return "c10::complex<double>";
      default: return isScalarType() ? ::brasa::to_string(type_) : "nullptr (uninitialized)";
    }
  }

  friend constexpr bool operator==(TypeMeta a, TypeMeta b) noexcept { return a.type_ == b.type_; }
  friend constexpr bool operator!=(TypeMeta a, TypeMeta b) noexcept { return a.type_ != b.type_; }
  // A TypeMeta and a ScalarType compare by the dtype they name, as libtorch's do.
  friend constexpr bool operator==(TypeMeta m, ::brasa::ScalarType t) noexcept {
    return m.type_ == t;
  }
  friend constexpr bool operator==(::brasa::ScalarType t, TypeMeta m) noexcept {
    return m.type_ == t;
  }
  friend constexpr bool operator!=(TypeMeta m, ::brasa::ScalarType t) noexcept {
    return m.type_ != t;
  }
  friend constexpr bool operator!=(::brasa::ScalarType t, TypeMeta m) noexcept {
    return m.type_ != t;
  }
  friend std::ostream& operator<<(std::ostream& os, TypeMeta m) { return os << m.name(); }

 private:
  constexpr explicit TypeMeta(::brasa::ScalarType t) noexcept : type_(t) {}
  ::brasa::ScalarType type_ = ::brasa::ScalarType::Undefined;
};

}  // namespace caffe2

namespace c10 {
using ::caffe2::TypeMeta;

inline TypeMeta scalarTypeToTypeMeta(ScalarType t) { return TypeMeta::fromScalarType(t); }
inline ScalarType typeMetaToScalarType(TypeMeta m) { return m.toScalarType(); }

/// set_default_dtype in libtorch's TypeMeta spelling; brasa's takes the ScalarType.
inline void set_default_dtype(TypeMeta m) { ::brasa::set_default_dtype(m.toScalarType()); }
using ::brasa::set_default_dtype;
}  // namespace c10

namespace at {
using ::c10::scalarTypeToTypeMeta;
using ::c10::set_default_dtype;
using ::c10::typeMetaToScalarType;
}  // namespace at
namespace torch {
using ::c10::scalarTypeToTypeMeta;
using ::c10::set_default_dtype;
using ::c10::typeMetaToScalarType;
}  // namespace torch
