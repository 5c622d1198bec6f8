// Linear, Bilinear, Identity, Flatten and Unflatten.

#include "brasa/nn/modules/linear.h"

#include <cmath>

#include "brasa/core/error.h"
#include "brasa/nn/init.h"
#include "brasa/ops/attention.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/linalg.h"
#include "brasa/ops/view.h"

namespace brasa::nn {

LinearImpl::LinearImpl(const LinearOptions& options_) : options(options_) { reset(); }

void LinearImpl::reset() {
  BRASA_CHECK(options.in_features() >= 0 && options.out_features() >= 0,
              "Linear: in_features and out_features must be non-negative, got ",
              options.in_features(), " and ", options.out_features());
  weight = register_parameter("weight", empty({options.out_features(), options.in_features()}));
  bias = options.bias() ? register_parameter("bias", empty({options.out_features()}))
                        : register_parameter("bias", Tensor(), false);
  reset_parameters();
}

void LinearImpl::reset_parameters() {
  init::kaiming_uniform_(weight, std::sqrt(5.0));
  if (bias.defined()) {
    const int64_t fan_in = options.in_features();
    const double bound = fan_in > 0 ? 1.0 / std::sqrt(static_cast<double>(fan_in)) : 0.0;
    init::uniform_(bias, -bound, bound);
  }
}

void LinearImpl::pretty_print(std::ostream& stream) const {
  stream << std::boolalpha << "torch::nn::Linear(in_features=" << options.in_features()
         << ", out_features=" << options.out_features() << ", bias=" << options.bias() << ")";
}

Tensor LinearImpl::forward(const Tensor& input) {
  BRASA_CHECK(input.dim() >= 1, "Linear(in=", options.in_features(),
              ", out=", options.out_features(),
              "): input must have at least 1 dim, got a 0-d tensor");
  BRASA_CHECK(input.size(-1) == options.in_features(), "Linear(in=", options.in_features(),
              ", out=", options.out_features(), "): input's last dim is ", input.size(-1),
              ", expected ", options.in_features(), " (input shape ", input.sizes(),
              ", weight shape ", weight.sizes(), ")");
  return linear(input, weight, bias);
}

BilinearImpl::BilinearImpl(const BilinearOptions& options_) : options(options_) { reset(); }

void BilinearImpl::reset() {
  weight = register_parameter(
      "weight", empty({options.out_features(), options.in1_features(), options.in2_features()}));
  bias = options.bias() ? register_parameter("bias", empty({options.out_features()}))
                        : register_parameter("bias", Tensor(), false);
  reset_parameters();
}

void BilinearImpl::reset_parameters() {
  const double bound =
      options.in1_features() > 0 ? 1.0 / std::sqrt(static_cast<double>(options.in1_features())) : 0;
  init::uniform_(weight, -bound, bound);
  if (bias.defined()) init::uniform_(bias, -bound, bound);
}

void BilinearImpl::pretty_print(std::ostream& stream) const {
  stream << std::boolalpha << "torch::nn::Bilinear(in1_features=" << options.in1_features()
         << ", in2_features=" << options.in2_features()
         << ", out_features=" << options.out_features() << ", bias=" << options.bias() << ")";
}

Tensor BilinearImpl::forward(const Tensor& input1, const Tensor& input2) {
  return bilinear(input1, input2, weight, bias);
}

void IdentityImpl::pretty_print(std::ostream& stream) const { stream << "torch::nn::Identity()"; }
Tensor IdentityImpl::forward(const Tensor& input) { return input; }

FlattenImpl::FlattenImpl(const FlattenOptions& options_) : options(options_) {}
void FlattenImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::Flatten(start_dim=" << options.start_dim()
         << ", end_dim=" << options.end_dim() << ")";
}
Tensor FlattenImpl::forward(const Tensor& input) {
  return flatten(input, options.start_dim(), options.end_dim());
}

UnflattenImpl::UnflattenImpl(UnflattenOptions options_) : options(std::move(options_)) {}
void UnflattenImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::Unflatten(dim=" << options.dim() << ", unflattened_size={";
  for (size_t i = 0; i < options.sizes().size(); ++i)
    stream << (i ? ", " : "") << options.sizes()[i];
  stream << "})";
}
Tensor UnflattenImpl::forward(const Tensor& input) {
  return unflatten(input, options.dim(), options.sizes());
}

}  // namespace brasa::nn
