#pragma once
// Loss reductions in libtorch's spelling: `reduction_t` holds kNone, kMean or kSum
// (`MSELossFuncOptions(torch::kSum)`, `.reduction(torch::kNone)`).

#include <variant>

#include "brasa/core/macros.h"

namespace brasa {
namespace enumtype {
struct kNone {};
struct kMean {};
struct kSum {};
struct kBatchMean {};
}  // namespace enumtype
inline constexpr enumtype::kNone kNone{};
inline constexpr enumtype::kMean kMean{};
inline constexpr enumtype::kSum kSum{};
inline constexpr enumtype::kBatchMean kBatchMean{};

namespace nn {
using reduction_t = std::variant<enumtype::kNone, enumtype::kMean, enumtype::kSum>;
}  // namespace nn
}  // namespace brasa
