#pragma once
// Loss reductions in libtorch's spellings: `reduction_t` holds kNone, kMean or kSum
// (`MSELossFuncOptions(torch::kSum)`, `.reduction(torch::kNone)`); `Reduction::Mean` is the int64_t
// of the at:: loss functions.

#include "brasa/core/macros.h"
#include "brasa/nn/enum_variant.h"

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

/// The reductions of the at:: loss functions (`torch::mse_loss(x, y, at::Reduction::Sum)`), which
/// take them as int64_t like libtorch's; kNone / kMean / kSum above are the nn::functional ones.
namespace Reduction {
enum Reduction { None, Mean, Sum, END };
}  // namespace Reduction

namespace nn {
using reduction_t = EnumVariant<enumtype::kNone, enumtype::kMean, enumtype::kSum>;
}  // namespace nn
}  // namespace brasa
