// Activation modules: printing (libtorch's format) and forward via torch::nn::functional.

#include "brasa/nn/modules/activation.h"

#include "brasa/core/error.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/pointwise.h"

namespace brasa::nn {
namespace F = functional;
namespace {
void print_inplace(std::ostream& s, bool inplace, bool first) {
  if (inplace) s << (first ? "" : ", ") << "inplace=true";
}
}  // namespace

void ReLUImpl::pretty_print(std::ostream& s) const {
  s << "torch::nn::ReLU(";
  print_inplace(s, options.inplace(), true);
  s << ")";
}
Tensor ReLUImpl::forward(Tensor input) { return F::relu(input, options); }

void ReLU6Impl::pretty_print(std::ostream& s) const {
  s << "torch::nn::ReLU6(";
  print_inplace(s, options.inplace(), true);
  s << ")";
}
Tensor ReLU6Impl::forward(Tensor input) { return F::relu6(input, options); }

void LeakyReLUImpl::pretty_print(std::ostream& s) const {
  s << "torch::nn::LeakyReLU(negative_slope=" << options.negative_slope();
  print_inplace(s, options.inplace(), false);
  s << ")";
}
Tensor LeakyReLUImpl::forward(Tensor input) { return F::leaky_relu(input, options); }

void ELUImpl::pretty_print(std::ostream& s) const {
  s << "torch::nn::ELU(alpha=" << options.alpha();
  print_inplace(s, options.inplace(), false);
  s << ")";
}
Tensor ELUImpl::forward(Tensor input) { return F::elu(input, options); }

void SELUImpl::pretty_print(std::ostream& s) const {
  s << "torch::nn::SELU(";
  print_inplace(s, options.inplace(), true);
  s << ")";
}
Tensor SELUImpl::forward(Tensor input) { return F::selu(input, options); }

void CELUImpl::pretty_print(std::ostream& s) const {
  s << "torch::nn::CELU(alpha=" << options.alpha();
  print_inplace(s, options.inplace(), false);
  s << ")";
}
Tensor CELUImpl::forward(Tensor input) { return F::celu(input, options); }

void GELUImpl::pretty_print(std::ostream& s) const {
  s << "torch::nn::GELU(";
  if (options.approximate() != "none") s << "approximate=" << options.approximate();
  s << ")";
}
Tensor GELUImpl::forward(Tensor input) { return F::gelu(input, options); }

void SoftplusImpl::pretty_print(std::ostream& s) const {
  s << "torch::nn::Softplus(beta=" << options.beta() << ", threshold=" << options.threshold()
    << ")";
}
Tensor SoftplusImpl::forward(Tensor input) { return F::softplus(input, options); }

void HardtanhImpl::pretty_print(std::ostream& s) const {
  s << "torch::nn::Hardtanh(min_val=" << options.min_val() << ", max_val=" << options.max_val();
  print_inplace(s, options.inplace(), false);
  s << ")";
}
HardtanhImpl::HardtanhImpl(const HardtanhOptions& options_) : options(options_) { reset(); }
void HardtanhImpl::reset() {
  BRASA_CHECK(options.max_val() > options.min_val(),
              "Hardtanh: max_val must be greater than min_val, got min_val=", options.min_val(),
              " and max_val=", options.max_val());
}
Tensor HardtanhImpl::forward(Tensor input) { return F::hardtanh(input, options); }

void GLUImpl::pretty_print(std::ostream& s) const {
  s << "torch::nn::GLU(dim=" << options.dim() << ")";
}
Tensor GLUImpl::forward(Tensor input) { return F::glu(input, options); }

#define BRASA_DEFINE_ACTIVATION(Name, expr)                                               \
  void Name##Impl::pretty_print(std::ostream& s) const { s << "torch::nn::" #Name "()"; } \
  Tensor Name##Impl::forward(const Tensor& input) { return expr; }

BRASA_DEFINE_ACTIVATION(SiLU, F::silu(input))
BRASA_DEFINE_ACTIVATION(Mish, F::mish(input))
BRASA_DEFINE_ACTIVATION(Softsign, F::softsign(input))
BRASA_DEFINE_ACTIVATION(Hardsigmoid, F::hardsigmoid(input))
BRASA_DEFINE_ACTIVATION(Hardswish, F::hardswish(input))
BRASA_DEFINE_ACTIVATION(LogSigmoid, F::logsigmoid(input))
BRASA_DEFINE_ACTIVATION(Sigmoid, sigmoid(input))
BRASA_DEFINE_ACTIVATION(Tanh, tanh(input))
BRASA_DEFINE_ACTIVATION(Tanhshrink, F::tanhshrink(input))
#undef BRASA_DEFINE_ACTIVATION

void SoftmaxImpl::pretty_print(std::ostream& s) const {
  s << "torch::nn::Softmax(dim=" << options.dim() << ")";
}
Tensor SoftmaxImpl::forward(const Tensor& input) { return F::softmax(input, options.dim()); }

void LogSoftmaxImpl::pretty_print(std::ostream& s) const {
  s << "torch::nn::LogSoftmax(dim=" << options.dim() << ")";
}
Tensor LogSoftmaxImpl::forward(const Tensor& input) { return F::log_softmax(input, options.dim()); }

void SoftminImpl::pretty_print(std::ostream& s) const {
  s << "torch::nn::Softmin(dim=" << options.dim() << ")";
}
Tensor SoftminImpl::forward(const Tensor& input) { return F::softmin(input, options.dim()); }

void Softmax2dImpl::pretty_print(std::ostream& s) const { s << "torch::nn::Softmax2d()"; }
Tensor Softmax2dImpl::forward(const Tensor& input) {
  BRASA_CHECK(input.dim() == 3 || input.dim() == 4,
              "Softmax2d: expected a 3-D [C, H, W] or 4-D [N, C, H, W] input, got ", input.sizes());
  return F::softmax(input, -3);
}

void HardshrinkImpl::pretty_print(std::ostream& s) const {
  s << "torch::nn::Hardshrink(" << options.lambda() << ")";
}
Tensor HardshrinkImpl::forward(const Tensor& input) { return F::hardshrink(input, options); }

void SoftshrinkImpl::pretty_print(std::ostream& s) const {
  s << "torch::nn::Softshrink(" << options.lambda() << ")";
}
Tensor SoftshrinkImpl::forward(const Tensor& input) { return F::softshrink(input, options); }

void ThresholdImpl::pretty_print(std::ostream& s) const {
  s << "torch::nn::Threshold(threshold=" << options.threshold() << ", value=" << options.value();
  print_inplace(s, options.inplace(), false);
  s << ")";
}
Tensor ThresholdImpl::forward(Tensor input) { return F::threshold(input, options); }

void RReLUImpl::pretty_print(std::ostream& s) const {
  s << "torch::nn::RReLU(lower=" << options.lower() << ", upper=" << options.upper();
  print_inplace(s, options.inplace(), false);
  s << ")";
}
Tensor RReLUImpl::forward(Tensor input) {
  return F::rrelu(input, F::RReLUFuncOptions()
                             .lower(options.lower())
                             .upper(options.upper())
                             .training(is_training())
                             .inplace(options.inplace()));
}

PReLUImpl::PReLUImpl(const PReLUOptions& options_) : options(options_) { reset(); }
void PReLUImpl::reset() {
  BRASA_CHECK(options.num_parameters() >= 1, "PReLU: num_parameters must be at least 1, got ",
              options.num_parameters());
  weight = register_parameter("weight", full({options.num_parameters()}, options.init()));
}
void PReLUImpl::pretty_print(std::ostream& s) const {
  s << "torch::nn::PReLU(num_parameters=" << options.num_parameters() << ")";
}
Tensor PReLUImpl::forward(const Tensor& input) { return F::prelu(input, weight); }

}  // namespace brasa::nn
