#pragma once
// LocalResponseNorm (over F::local_response_norm) and CrossMapLRN2d, the Lua-era cross-channel
// normalisation that libtorch keeps with its own forward and backward (Note [CrossMapLRN2d] in
// src/nn/modules/local_response_norm.cpp).

#include <cstdint>

#include "brasa/core/options_arg.h"
#include "brasa/core/tensor.h"
#include "brasa/nn/cloneable.h"
#include "brasa/nn/functional/normalization.h"
#include "brasa/nn/pimpl.h"

namespace brasa::nn {

/// x / (k + alpha / size * sum of x^2 over `size` neighbouring channels)^beta, [N, C, *]
/// (3 dims or more; ValueError otherwise).
class BRASA_API LocalResponseNormImpl : public Cloneable<LocalResponseNormImpl> {
 public:
  LocalResponseNormImpl(int64_t size)  // NOLINT(google-explicit-constructor)
      : LocalResponseNormImpl(LocalResponseNormOptions(size)) {}
  explicit LocalResponseNormImpl(const LocalResponseNormOptions& options_) : options(options_) {}
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input);
  LocalResponseNormOptions options;
};
BRASA_MODULE(LocalResponseNorm);

struct BRASA_API CrossMapLRN2dOptions {
  CrossMapLRN2dOptions(int64_t size) : size_(size) {}  // NOLINT(google-explicit-constructor)
  BRASA_ARG(int64_t, size);
  BRASA_ARG(double, alpha) = 1e-4;
  BRASA_ARG(double, beta) = 0.75;
  BRASA_ARG(int64_t, k) = 1;
};

/// input [N, C, H, W] (ValueError otherwise, or for size < 1) -> its shape.
class BRASA_API CrossMapLRN2dImpl : public Cloneable<CrossMapLRN2dImpl> {
 public:
  CrossMapLRN2dImpl(int64_t size)  // NOLINT(google-explicit-constructor)
      : CrossMapLRN2dImpl(CrossMapLRN2dOptions(size)) {}
  explicit CrossMapLRN2dImpl(const CrossMapLRN2dOptions& options_) : options(options_) {}
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input);
  CrossMapLRN2dOptions options;
};
BRASA_MODULE(CrossMapLRN2d);

}  // namespace brasa::nn
