#pragma once
// Printing of option values the way libtorch's pretty_print writes them: an ExpandingArray of one
// value as that value, otherwise `[a, b]`; absent elements as `None`; enum tags as `kReflect`.

#include <optional>
#include <ostream>

#include "brasa/nn/enum_variant.h"
#include "brasa/nn/expanding_array.h"
#include "brasa/nn/modes.h"

namespace brasa::nn::detail {

template <size_t D>
struct PrintArray {
  const ExpandingArray<D>& a;
};
template <size_t D>
std::ostream& operator<<(std::ostream& os, PrintArray<D> p) {
  if (D == 1) return os << p.a[0];
  os << "[";
  for (size_t i = 0; i < D; ++i) os << (i ? ", " : "") << p.a[i];
  return os << "]";
}
template <size_t D>
PrintArray<D> print(const ExpandingArray<D>& a) {
  return {a};
}

template <size_t D>
struct PrintOptArray {
  const ExpandingArrayWithOptionalElem<D>& a;
};
template <size_t D>
std::ostream& operator<<(std::ostream& os, PrintOptArray<D> p) {
  auto one = [&](const std::optional<int64_t>& v) {
    if (v)
      os << *v;
    else
      os << "None";
  };
  if (D == 1) {
    one((*p.a)[0]);
    return os;
  }
  os << "[";
  for (size_t i = 0; i < D; ++i) {
    if (i) os << ", ";
    one((*p.a)[i]);
  }
  return os << "]";
}
template <size_t D>
PrintOptArray<D> print(const ExpandingArrayWithOptionalElem<D>& a) {
  return {a};
}

inline const char* enum_name(enumtype::kReflect) { return "kReflect"; }
inline const char* enum_name(enumtype::kReplicate) { return "kReplicate"; }
inline const char* enum_name(enumtype::kCircular) { return "kCircular"; }
inline const char* enum_name(enumtype::kConstant) { return "kConstant"; }
inline const char* enum_name(enumtype::kNearest) { return "kNearest"; }
inline const char* enum_name(enumtype::kNearestExact) { return "kNearestExact"; }
inline const char* enum_name(enumtype::kLinear) { return "kLinear"; }
inline const char* enum_name(enumtype::kBilinear) { return "kBilinear"; }
inline const char* enum_name(enumtype::kBicubic) { return "kBicubic"; }
inline const char* enum_name(enumtype::kTrilinear) { return "kTrilinear"; }
inline const char* enum_name(enumtype::kArea) { return "kArea"; }
template <typename... Ts>
const char* enum_name(const EnumVariant<Ts...>& v) {
  return nn::visit([](auto tag) { return enum_name(tag); }, v);
}

}  // namespace brasa::nn::detail
