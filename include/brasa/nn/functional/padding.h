#pragma once
// F::pad: constant (any dims; negative pads crop), reflect, replicate and circular (the last 1-3
// dims of an input with one or two more dims). `pad` lists (left, right) pairs from the last dim.

#include <utility>
#include <vector>

#include "brasa/core/options_arg.h"
#include "brasa/core/tensor.h"
#include "brasa/nn/enum_variant.h"
#include "brasa/nn/modes.h"

namespace brasa::nn::functional {

struct BRASA_API PadFuncOptions {
  using mode_t = EnumVariant<enumtype::kConstant, enumtype::kReflect, enumtype::kReplicate,
                             enumtype::kCircular>;
  PadFuncOptions(std::vector<int64_t> pad) : pad_(std::move(pad)) {}  // NOLINT
  BRASA_ARG(std::vector<int64_t>, pad);
  BRASA_ARG(mode_t, mode) = enumtype::kConstant{};
  BRASA_ARG(double, value) = 0;
};

BRASA_API Tensor pad(const Tensor& input, const PadFuncOptions& options);

}  // namespace brasa::nn::functional
