#pragma once
// Activation modules (torch::nn::ReLU, ...): each calls its torch::nn::functional counterpart with
// the options it was built with; shapes and dtypes as the functional.

#include <cstdint>

#include "brasa/core/tensor.h"
#include "brasa/nn/cloneable.h"
#include "brasa/nn/functional/activation.h"
#include "brasa/nn/pimpl.h"

namespace brasa::nn {

struct BRASA_API SoftmaxOptions {
  SoftmaxOptions(int64_t dim) : dim_(dim) {}  // NOLINT(google-explicit-constructor)
  BRASA_ARG(int64_t, dim);
};
using LogSoftmaxOptions = SoftmaxOptions;

/// A module class `Name##Impl` with `Options options` and forward(input).
#define BRASA_ACTIVATION_WITH_OPTIONS(Name, Options)                         \
  class BRASA_API Name##Impl : public Cloneable<Name##Impl> {                \
   public:                                                                   \
    explicit Name##Impl(const Options& options_ = {}) : options(options_) {} \
    void reset() override {}                                                 \
    void pretty_print(std::ostream& stream) const override;                  \
    Tensor forward(Tensor input);                                            \
    Options options;                                                         \
  };                                                                         \
  BRASA_MODULE(Name)

#define BRASA_ACTIVATION(Name)                                \
  class BRASA_API Name##Impl : public Cloneable<Name##Impl> { \
   public:                                                    \
    void reset() override {}                                  \
    void pretty_print(std::ostream& stream) const override;   \
    Tensor forward(const Tensor& input);                      \
  };                                                          \
  BRASA_MODULE(Name)

BRASA_ACTIVATION_WITH_OPTIONS(ReLU, ReLUOptions);
BRASA_ACTIVATION_WITH_OPTIONS(ReLU6, ReLU6Options);
BRASA_ACTIVATION_WITH_OPTIONS(LeakyReLU, LeakyReLUOptions);
BRASA_ACTIVATION_WITH_OPTIONS(ELU, ELUOptions);
BRASA_ACTIVATION_WITH_OPTIONS(SELU, SELUOptions);
BRASA_ACTIVATION_WITH_OPTIONS(CELU, CELUOptions);
BRASA_ACTIVATION_WITH_OPTIONS(GELU, GELUOptions);
BRASA_ACTIVATION_WITH_OPTIONS(Softplus, SoftplusOptions);
/// clamp(x, min_val, max_val). Construction and reset() throw ValueError unless
/// max_val > min_val (libtorch's check).
class BRASA_API HardtanhImpl : public Cloneable<HardtanhImpl> {
 public:
  explicit HardtanhImpl(const HardtanhOptions& options_ = {});
  void reset() override;
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(Tensor input);
  HardtanhOptions options;
};
BRASA_MODULE(Hardtanh);
BRASA_ACTIVATION_WITH_OPTIONS(GLU, GLUOptions);
BRASA_ACTIVATION(SiLU);
BRASA_ACTIVATION(Mish);
BRASA_ACTIVATION(Softsign);
BRASA_ACTIVATION(Hardsigmoid);
BRASA_ACTIVATION(Hardswish);
BRASA_ACTIVATION(LogSigmoid);
BRASA_ACTIVATION(Sigmoid);
BRASA_ACTIVATION(Tanh);

/// Softmax / LogSoftmax along options.dim (no default dim, as in libtorch).
class BRASA_API SoftmaxImpl : public Cloneable<SoftmaxImpl> {
 public:
  explicit SoftmaxImpl(int64_t dim) : options(dim) {}
  explicit SoftmaxImpl(const SoftmaxOptions& options_) : options(options_) {}
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input);
  SoftmaxOptions options;
};
BRASA_MODULE(Softmax);

class BRASA_API LogSoftmaxImpl : public Cloneable<LogSoftmaxImpl> {
 public:
  explicit LogSoftmaxImpl(int64_t dim) : options(dim) {}
  explicit LogSoftmaxImpl(const LogSoftmaxOptions& options_) : options(options_) {}
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input);
  LogSoftmaxOptions options;
};
BRASA_MODULE(LogSoftmax);

/// softmax(-x) along options.dim.
class BRASA_API SoftminImpl : public Cloneable<SoftminImpl> {
 public:
  explicit SoftminImpl(int64_t dim) : options(dim) {}
  explicit SoftminImpl(const SoftminOptions& options_) : options(options_) {}
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input);
  SoftminOptions options;
};
BRASA_MODULE(Softmin);

/// Softmax over the channels (dim -3) of a [C, H, W] or [N, C, H, W] input; ValueError for
/// another rank.
BRASA_ACTIVATION(Softmax2d);
BRASA_ACTIVATION(Tanhshrink);

/// Hardshrink / Softshrink with options.lambda (Softshrink: ValueError for a negative lambda).
class BRASA_API HardshrinkImpl : public Cloneable<HardshrinkImpl> {
 public:
  explicit HardshrinkImpl(const HardshrinkOptions& options_ = {}) : options(options_) {}
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input);
  HardshrinkOptions options;
};
BRASA_MODULE(Hardshrink);

class BRASA_API SoftshrinkImpl : public Cloneable<SoftshrinkImpl> {
 public:
  explicit SoftshrinkImpl(const SoftshrinkOptions& options_ = {}) : options(options_) {}
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input);
  SoftshrinkOptions options;
};
BRASA_MODULE(Softshrink);

/// x where x > threshold, else value.
class BRASA_API ThresholdImpl : public Cloneable<ThresholdImpl> {
 public:
  ThresholdImpl(double threshold, double value) : options(threshold, value) {}
  explicit ThresholdImpl(const ThresholdOptions& options_) : options(options_) {}
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(Tensor input);
  ThresholdOptions options;
};
BRASA_MODULE(Threshold);

/// Randomized leaky ReLU: random slopes in U(lower, upper) in training, their mean in eval().
BRASA_ACTIVATION_WITH_OPTIONS(RReLU, RReLUOptions);

/// Parametric ReLU: parameter `weight` [num_parameters] filled with options.init; forward is
/// F::prelu(input, weight).
class BRASA_API PReLUImpl : public Cloneable<PReLUImpl> {
 public:
  explicit PReLUImpl(const PReLUOptions& options_ = {});
  void reset() override;
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input);
  PReLUOptions options;
  Tensor weight;
};
BRASA_MODULE(PReLU);

#undef BRASA_ACTIVATION
#undef BRASA_ACTIVATION_WITH_OPTIONS

}  // namespace brasa::nn
