#pragma once
// Tags for nn::init and the embedding-bag mode in libtorch's spelling (`torch::kFanIn`,
// `torch::kReLU`, `torch::kMax`), alternatives of the EnumVariant options
// (brasa/nn/enum_variant.h).

namespace brasa {
namespace enumtype {
struct kFanIn {};
struct kFanOut {};
struct kConv1D {};
struct kConv2D {};
struct kConv3D {};
struct kConvTranspose1D {};
struct kConvTranspose2D {};
struct kConvTranspose3D {};
struct kSigmoid {};
struct kTanh {};
struct kReLU {};
struct kLeakyReLU {};
struct kGELU {};
struct kMax {};
}  // namespace enumtype
inline constexpr enumtype::kFanIn kFanIn{};
inline constexpr enumtype::kFanOut kFanOut{};
inline constexpr enumtype::kConv1D kConv1D{};
inline constexpr enumtype::kConv2D kConv2D{};
inline constexpr enumtype::kConv3D kConv3D{};
inline constexpr enumtype::kConvTranspose1D kConvTranspose1D{};
inline constexpr enumtype::kConvTranspose2D kConvTranspose2D{};
inline constexpr enumtype::kConvTranspose3D kConvTranspose3D{};
inline constexpr enumtype::kSigmoid kSigmoid{};
inline constexpr enumtype::kTanh kTanh{};
inline constexpr enumtype::kReLU kReLU{};
inline constexpr enumtype::kLeakyReLU kLeakyReLU{};
inline constexpr enumtype::kGELU kGELU{};
inline constexpr enumtype::kMax kMax{};
}  // namespace brasa
