// at:: dropout functions: libtorch's (p, train) turned into nn::functional's options.

#include "brasa/nn/dropout_functions.h"

#include "brasa/nn/functional/dropout.h"

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

}  // namespace brasa
