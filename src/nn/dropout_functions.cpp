// at:: dropout functions: libtorch's (p, train) turned into nn::functional's options.

#include "brasa/nn/dropout_functions.h"

#include "brasa/core/error.h"
#include "brasa/dispatch/grad_mode.h"
#include "brasa/nn/functional/dropout.h"
#include "brasa/nn/native_dropout_functions.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/pointwise.h"

namespace brasa {

namespace F = nn::functional;

Tensor dropout(const Tensor& input, double p, bool train) {
  return F::dropout(input, F::DropoutFuncOptions().p(p).training(train));
}

Tensor& dropout_(Tensor& self, double p, bool train) {
  F::dropout(self, F::DropoutFuncOptions().p(p).training(train).inplace(true));
  return self;
}

Tensor feature_dropout(const Tensor& input, double p, bool train) {
  return F::dropout2d(input, F::Dropout2dFuncOptions().p(p).training(train));
}

Tensor& feature_dropout_(Tensor& self, double p, bool train) {
  F::dropout2d(self, F::Dropout2dFuncOptions().p(p).training(train).inplace(true));
  return self;
}

Tensor alpha_dropout(const Tensor& input, double p, bool train) {
  return F::alpha_dropout(input, F::AlphaDropoutFuncOptions().p(p).training(train));
}

Tensor& alpha_dropout_(Tensor& self, double p, bool train) {
  F::alpha_dropout(self, F::AlphaDropoutFuncOptions().p(p).training(train).inplace(true));
  return self;
}

Tensor feature_alpha_dropout(const Tensor& input, double p, bool train) {
  return F::feature_alpha_dropout(input, F::FeatureAlphaDropoutFuncOptions().p(p).training(train));
}

Tensor& feature_alpha_dropout_(Tensor& self, double p, bool train) {
  F::feature_alpha_dropout(self,
                           F::FeatureAlphaDropoutFuncOptions().p(p).training(train).inplace(true));
  return self;
}

std::tuple<Tensor, Tensor> native_dropout(const Tensor& input, double p,
                                          std::optional<bool> train) {
  BRASA_CHECK(p >= 0 && p <= 1, "native_dropout: dropout probability has to be between 0 and 1, ",
              "but got ", p);
  BRASA_CHECK_TYPE(is_floating_type(input.scalar_type()),
                   "native_dropout: expected a floating input, got ", input.scalar_type());
  if (!train.value_or(true)) return {input.clone(), ones_like(input, kBool)};
  // libtorch's draw: a keep-mask of bernoulli_(1 - p) in the input's dtype, then scaled.
  Tensor keep = empty_like(input);
  {
    NoGradGuard no_grad;
    if (p == 1) {
      keep.zero_();
    } else {
      keep.bernoulli_(1 - p);
    }
  }
  const double scale = p == 1 ? 0.0 : 1.0 / (1 - p);
  return {input * keep * scale, keep.to(kBool)};
}

}  // namespace brasa
