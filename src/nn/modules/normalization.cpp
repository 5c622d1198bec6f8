// LayerNorm, RMSNorm and GroupNorm.

#include "brasa/nn/modules/normalization.h"

#include "brasa/autograd/grad_mode.h"
#include "brasa/core/error.h"
#include "brasa/ops/factory.h"

namespace brasa::nn {

LayerNormImpl::LayerNormImpl(LayerNormOptions options_) : options(std::move(options_)) { reset(); }

void LayerNormImpl::reset() {
  if (options.elementwise_affine()) {
    weight = register_parameter("weight", brasa::empty(options.normalized_shape()));
    bias = register_parameter("bias", brasa::empty(options.normalized_shape()));
  } else {
    weight = register_parameter("weight", Tensor(), false);
    bias = register_parameter("bias", Tensor(), false);
  }
  reset_parameters();
}

void LayerNormImpl::reset_parameters() {
  if (!options.elementwise_affine()) return;
  NoGradGuard no_grad;
  weight.fill_(1);
  bias.zero_();
}

void LayerNormImpl::pretty_print(std::ostream& stream) const {
  stream << std::boolalpha << "torch::nn::LayerNorm(" << IntArrayRef(options.normalized_shape())
         << ", eps=" << options.eps() << ", elementwise_affine=" << options.elementwise_affine()
         << ")";
}

Tensor LayerNormImpl::forward(const Tensor& input) {
  return functional::layer_norm(input, functional::LayerNormFuncOptions(options.normalized_shape())
                                           .weight(weight)
                                           .bias(bias)
                                           .eps(options.eps()));
}

RMSNormImpl::RMSNormImpl(RMSNormOptions options_) : options(std::move(options_)) { reset(); }

void RMSNormImpl::reset() {
  weight = options.elementwise_affine()
               ? register_parameter("weight", brasa::empty(options.normalized_shape()))
               : register_parameter("weight", Tensor(), false);
  reset_parameters();
}

void RMSNormImpl::reset_parameters() {
  if (!options.elementwise_affine()) return;
  NoGradGuard no_grad;
  weight.fill_(1);
}

void RMSNormImpl::pretty_print(std::ostream& stream) const {
  stream << std::boolalpha << "torch::nn::RMSNorm(" << IntArrayRef(options.normalized_shape())
         << ", eps=";
  if (options.eps())
    stream << *options.eps();
  else
    stream << "None";
  stream << ", elementwise_affine=" << options.elementwise_affine() << ")";
}

Tensor RMSNormImpl::forward(const Tensor& input) {
  return functional::rms_norm(
      input,
      functional::RMSNormFuncOptions(options.normalized_shape()).weight(weight).eps(options.eps()));
}

GroupNormImpl::GroupNormImpl(const GroupNormOptions& options_) : options(options_) { reset(); }

void GroupNormImpl::reset() {
  BRASA_CHECK(options.num_groups() > 0 && options.num_channels() % options.num_groups() == 0,
              "GroupNorm(", options.num_groups(), ", ", options.num_channels(),
              "): num_channels must be divisible by num_groups");
  if (options.affine()) {
    weight = register_parameter("weight", brasa::empty({options.num_channels()}));
    bias = register_parameter("bias", brasa::empty({options.num_channels()}));
  } else {
    weight = register_parameter("weight", Tensor(), false);
    bias = register_parameter("bias", Tensor(), false);
  }
  reset_parameters();
}

void GroupNormImpl::reset_parameters() {
  if (!options.affine()) return;
  NoGradGuard no_grad;
  weight.fill_(1);
  bias.zero_();
}

void GroupNormImpl::pretty_print(std::ostream& stream) const {
  stream << std::boolalpha << "torch::nn::GroupNorm(" << options.num_groups() << ", "
         << options.num_channels() << ", eps=" << options.eps() << ", affine=" << options.affine()
         << ")";
}

Tensor GroupNormImpl::forward(const Tensor& input) {
  BRASA_CHECK(input.dim() >= 2 && input.size(1) == options.num_channels(), "GroupNorm(",
              options.num_groups(), ", ", options.num_channels(), "): expected input with ",
              options.num_channels(), " channels, got ", input.sizes());
  return functional::group_norm(input, functional::GroupNormFuncOptions(options.num_groups())
                                           .weight(weight)
                                           .bias(bias)
                                           .eps(options.eps()));
}

}  // namespace brasa::nn
