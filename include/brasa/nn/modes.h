#pragma once
// Mode tags of padding and interpolation in libtorch's spelling (`torch::kReflect`,
// `torch::kBilinear`, grid_sample's `torch::kBorder`), alternatives of the EnumVariant options
// (brasa/nn/enum_variant.h).

namespace brasa {
namespace enumtype {
struct kConstant {};
struct kReflect {};
struct kReplicate {};
struct kCircular {};
struct kNearest {};
struct kNearestExact {};
struct kLinear {};
struct kBilinear {};
struct kBicubic {};
struct kTrilinear {};
struct kArea {};
struct kZeros {};
struct kBorder {};
struct kReflection {};
}  // namespace enumtype
inline constexpr enumtype::kConstant kConstant{};
inline constexpr enumtype::kReflect kReflect{};
inline constexpr enumtype::kReplicate kReplicate{};
inline constexpr enumtype::kCircular kCircular{};
inline constexpr enumtype::kNearest kNearest{};
inline constexpr enumtype::kNearestExact kNearestExact{};
inline constexpr enumtype::kLinear kLinear{};
inline constexpr enumtype::kBilinear kBilinear{};
inline constexpr enumtype::kBicubic kBicubic{};
inline constexpr enumtype::kTrilinear kTrilinear{};
inline constexpr enumtype::kArea kArea{};
inline constexpr enumtype::kZeros kZeros{};
inline constexpr enumtype::kBorder kBorder{};
inline constexpr enumtype::kReflection kReflection{};
}  // namespace brasa
