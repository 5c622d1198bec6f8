#pragma once
// Upsample module (libtorch's UpsampleOptions) over F::interpolate.

#include <optional>
#include <vector>

#include "brasa/core/options_arg.h"
#include "brasa/core/tensor.h"
#include "brasa/nn/cloneable.h"
#include "brasa/nn/enum_variant.h"
#include "brasa/nn/functional/upsampling.h"
#include "brasa/nn/modes.h"
#include "brasa/nn/pimpl.h"

namespace brasa::nn {

struct BRASA_API UpsampleOptions {
  using mode_t = EnumVariant<enumtype::kNearest, enumtype::kLinear, enumtype::kBilinear,
                             enumtype::kBicubic, enumtype::kTrilinear>;
  BRASA_ARG(std::optional<std::vector<int64_t>>, size) = std::nullopt;
  BRASA_ARG(std::optional<std::vector<double>>, scale_factor) = std::nullopt;
  BRASA_ARG(mode_t, mode) = enumtype::kNearest{};
  BRASA_ARG(std::optional<bool>, align_corners) = std::nullopt;
};

/// [N, C, *in] -> [N, C, *out] resampled to `size` or by `scale_factor`; errors as
/// F::interpolate.
class BRASA_API UpsampleImpl : public Cloneable<UpsampleImpl> {
 public:
  explicit UpsampleImpl(const UpsampleOptions& options_ = {}) : options(options_) {}
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input);

  UpsampleOptions options;
};
BRASA_MODULE(Upsample);

}  // namespace brasa::nn
