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

#undef BRASA_ACTIVATION
#undef BRASA_ACTIVATION_WITH_OPTIONS

}  // namespace brasa::nn
