#pragma once
// Dropout modules: active in training mode (is_training()), the identity in eval mode.

#include "brasa/core/options_arg.h"
#include "brasa/core/tensor.h"
#include "brasa/nn/cloneable.h"
#include "brasa/nn/pimpl.h"

namespace brasa::nn {

struct BRASA_API DropoutOptions {
  DropoutOptions(double p = 0.5) : p_(p) {}  // NOLINT(google-explicit-constructor)
  BRASA_ARG(double, p);
  BRASA_ARG(bool, inplace) = false;
};
using Dropout2dOptions = DropoutOptions;
using Dropout3dOptions = DropoutOptions;
using AlphaDropoutOptions = DropoutOptions;
using FeatureAlphaDropoutOptions = DropoutOptions;

#define BRASA_DROPOUT_MODULE(Name)                                                            \
  class BRASA_API Name##Impl : public Cloneable<Name##Impl> {                                 \
   public:                                                                                    \
    explicit Name##Impl(const DropoutOptions& options_ = {}) : options(options_) { reset(); } \
    explicit Name##Impl(double p) : Name##Impl(DropoutOptions(p)) {}                          \
    /** ValueError unless 0 <= p <= 1. */                                                     \
    void reset() override;                                                                    \
    void pretty_print(std::ostream& stream) const override;                                   \
    Tensor forward(Tensor input);                                                             \
    DropoutOptions options;                                                                   \
  };                                                                                          \
  BRASA_MODULE(Name)

BRASA_DROPOUT_MODULE(Dropout);
BRASA_DROPOUT_MODULE(Dropout2d);
BRASA_DROPOUT_MODULE(Dropout3d);
BRASA_DROPOUT_MODULE(AlphaDropout);
BRASA_DROPOUT_MODULE(FeatureAlphaDropout);
#undef BRASA_DROPOUT_MODULE

}  // namespace brasa::nn
