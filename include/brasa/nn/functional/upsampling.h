#pragma once
// F::interpolate: nearest (1-3 spatial dims), linear (3-D input), bilinear and bicubic (4-D) and
// trilinear (5-D) resampling to `size` or by `scale_factor` (exactly one of them). area and
// nearest-exact throw NotImplementedError; ValueError for inconsistent sizes, align_corners with
// nearest, or a mode that doesn't fit the input's rank; TypeError for a non-floating input to the
// interpolating modes.

#include <optional>
#include <vector>

#include "brasa/core/options_arg.h"
#include "brasa/core/tensor.h"
#include "brasa/nn/enum_variant.h"
#include "brasa/nn/modes.h"

namespace brasa::nn::functional {

struct BRASA_API InterpolateFuncOptions {
  using mode_t =
      EnumVariant<enumtype::kNearest, enumtype::kLinear, enumtype::kBilinear, enumtype::kBicubic,
                  enumtype::kTrilinear, enumtype::kArea, enumtype::kNearestExact>;
  BRASA_ARG(std::optional<std::vector<int64_t>>, size) = std::nullopt;
  BRASA_ARG(std::optional<std::vector<double>>, scale_factor) = std::nullopt;
  BRASA_ARG(mode_t, mode) = enumtype::kNearest{};
  BRASA_ARG(std::optional<bool>, align_corners) = std::nullopt;
  BRASA_ARG(std::optional<bool>, recompute_scale_factor) = std::nullopt;
  BRASA_ARG(bool, antialias) = false;
};

/// [N, C, *in] -> [N, C, *out].
BRASA_API Tensor interpolate(const Tensor& input, const InterpolateFuncOptions& options = {});

}  // namespace brasa::nn::functional
