#pragma once
// Activation functionals (torch::nn::functional spellings) and their option structs. Each returns a
// new tensor of the input's shape and dtype, or writes into the input and returns it when the
// options say `inplace(true)`. Floating inputs only (TypeError otherwise), except relu, relu6 and
// hardtanh, which also take integral inputs.

#include <cstdint>
#include <optional>
#include <string>

#include "brasa/core/options_arg.h"
#include "brasa/core/tensor.h"

namespace brasa::nn {

struct BRASA_API ReLUOptions {
  ReLUOptions(bool inplace = false) : inplace_(inplace) {}  // NOLINT(google-explicit-constructor)
  BRASA_ARG(bool, inplace);
};
struct BRASA_API ReLU6Options {
  ReLU6Options(bool inplace = false) : inplace_(inplace) {}  // NOLINT(google-explicit-constructor)
  BRASA_ARG(bool, inplace);
};
struct BRASA_API SELUOptions {
  SELUOptions(bool inplace = false) : inplace_(inplace) {}  // NOLINT(google-explicit-constructor)
  BRASA_ARG(bool, inplace);
};
struct BRASA_API LeakyReLUOptions {
  BRASA_ARG(double, negative_slope) = 1e-2;
  BRASA_ARG(bool, inplace) = false;
};
struct BRASA_API ELUOptions {
  BRASA_ARG(double, alpha) = 1.0;
  BRASA_ARG(bool, inplace) = false;
};
struct BRASA_API CELUOptions {
  BRASA_ARG(double, alpha) = 1.0;
  BRASA_ARG(bool, inplace) = false;
};
struct BRASA_API GELUOptions {
  /// "none" (exact, with erf) or "tanh".
  BRASA_ARG(std::string, approximate) = "none";
};
struct BRASA_API SoftplusOptions {
  BRASA_ARG(double, beta) = 1.0;
  BRASA_ARG(double, threshold) = 20.0;
};
struct BRASA_API HardtanhOptions {
  BRASA_ARG(double, min_val) = -1.0;
  BRASA_ARG(double, max_val) = 1.0;
  BRASA_ARG(bool, inplace) = false;
};
struct BRASA_API GLUOptions {
  GLUOptions(int64_t dim = -1) : dim_(dim) {}  // NOLINT(google-explicit-constructor)
  BRASA_ARG(int64_t, dim);
};
struct BRASA_API HardshrinkOptions {
  HardshrinkOptions(double lambda = 0.5)
      : lambda_(lambda) {}  // NOLINT(google-explicit-constructor)
  BRASA_ARG(double, lambda);
};
struct BRASA_API SoftshrinkOptions {
  SoftshrinkOptions(double lambda = 0.5)
      : lambda_(lambda) {}  // NOLINT(google-explicit-constructor)
  BRASA_ARG(double, lambda);
};
struct BRASA_API ThresholdOptions {
  ThresholdOptions(double threshold, double value) : threshold_(threshold), value_(value) {}
  BRASA_ARG(double, threshold);
  BRASA_ARG(double, value);
  BRASA_ARG(bool, inplace) = false;
};
struct BRASA_API RReLUOptions {
  BRASA_ARG(double, lower) = 1.0 / 8.0;
  BRASA_ARG(double, upper) = 1.0 / 3.0;
  BRASA_ARG(bool, inplace) = false;
};
/// PReLU's learnable slopes: num_parameters of them (1, or the input's channel count), each
/// initialised to `init`.
struct BRASA_API PReLUOptions {
  BRASA_ARG(int64_t, num_parameters) = 1;
  BRASA_ARG(double, init) = 0.25;
};
struct BRASA_API SoftminOptions {
  SoftminOptions(int64_t dim) : dim_(dim) {}  // NOLINT(google-explicit-constructor)
  BRASA_ARG(int64_t, dim);
};

namespace functional {

using ReLUFuncOptions = ReLUOptions;
using ReLU6FuncOptions = ReLU6Options;
using SELUFuncOptions = SELUOptions;
using LeakyReLUFuncOptions = LeakyReLUOptions;
using ELUFuncOptions = ELUOptions;
using CELUFuncOptions = CELUOptions;
using GELUFuncOptions = GELUOptions;
using SoftplusFuncOptions = SoftplusOptions;
using HardtanhFuncOptions = HardtanhOptions;
using GLUFuncOptions = GLUOptions;
using HardshrinkFuncOptions = HardshrinkOptions;
using SoftshrinkFuncOptions = SoftshrinkOptions;
using ThresholdFuncOptions = ThresholdOptions;

struct BRASA_API RReLUFuncOptions {
  BRASA_ARG(double, lower) = 1.0 / 8.0;
  BRASA_ARG(double, upper) = 1.0 / 3.0;
  /// Random slopes (training) or their mean (evaluation).
  BRASA_ARG(bool, training) = false;
  BRASA_ARG(bool, inplace) = false;
};

struct BRASA_API GumbelSoftmaxFuncOptions {
  BRASA_ARG(double, tau) = 1.0;
  /// One-hot results (the argmax of the soft sample) with the soft sample's gradient.
  BRASA_ARG(bool, hard) = false;
  BRASA_ARG(int, dim) = -1;
};

struct BRASA_API SoftmaxFuncOptions {
  SoftmaxFuncOptions(int64_t dim) : dim_(dim) {}  // NOLINT(google-explicit-constructor)
  BRASA_ARG(int64_t, dim);
  BRASA_ARG(std::optional<ScalarType>, dtype) = std::nullopt;
};
struct BRASA_API SoftminFuncOptions {
  SoftminFuncOptions(int64_t dim) : dim_(dim) {}  // NOLINT(google-explicit-constructor)
  BRASA_ARG(int64_t, dim);
  BRASA_ARG(std::optional<ScalarType>, dtype) = std::nullopt;
};
struct BRASA_API LogSoftmaxFuncOptions {
  LogSoftmaxFuncOptions(int64_t dim) : dim_(dim) {}  // NOLINT(google-explicit-constructor)
  BRASA_ARG(int64_t, dim);
  BRASA_ARG(std::optional<ScalarType>, dtype) = std::nullopt;
};

/// max(x, 0).
BRASA_API Tensor relu(const Tensor& input, const ReLUFuncOptions& options = {});
/// min(max(x, 0), 6).
BRASA_API Tensor relu6(const Tensor& input, const ReLU6FuncOptions& options = {});
/// x for x > 0, negative_slope * x otherwise.
BRASA_API Tensor leaky_relu(const Tensor& input, const LeakyReLUFuncOptions& options = {});
/// x for x > 0, alpha * (exp(x) - 1) otherwise.
BRASA_API Tensor elu(const Tensor& input, const ELUFuncOptions& options = {});
/// scale * elu(x, alpha) with SELU's fixed alpha and scale.
BRASA_API Tensor selu(const Tensor& input, const SELUFuncOptions& options = {});
/// max(0, x) + min(0, alpha * (exp(x / alpha) - 1)); ValueError for alpha 0.
BRASA_API Tensor celu(const Tensor& input, const CELUFuncOptions& options = {});
/// x * Phi(x) (approximate "none") or its tanh approximation; ValueError for another approximate.
BRASA_API Tensor gelu(const Tensor& input, const GELUFuncOptions& options = {});
/// x * sigmoid(x).
BRASA_API Tensor silu(const Tensor& input);
/// x * tanh(softplus(x)).
BRASA_API Tensor mish(const Tensor& input);
/// log(1 + exp(beta * x)) / beta, and x where beta * x > threshold.
BRASA_API Tensor softplus(const Tensor& input, const SoftplusFuncOptions& options = {});
/// x / (1 + |x|).
BRASA_API Tensor softsign(const Tensor& input);
/// clamp(x, min_val, max_val) (max_val where max_val < min_val); integral inputs keep their dtype
/// (limits truncated); ValueError for negative limits on UInt8.
BRASA_API Tensor hardtanh(const Tensor& input, const HardtanhFuncOptions& options = {});
/// relu6(x + 3) / 6.
BRASA_API Tensor hardsigmoid(const Tensor& input, bool inplace = false);
/// x * relu6(x + 3) / 6.
BRASA_API Tensor hardswish(const Tensor& input, bool inplace = false);
/// log(sigmoid(x)), computed without overflow.
BRASA_API Tensor logsigmoid(const Tensor& input);
/// a * sigmoid(b) with (a, b) the halves of `dim`; ValueError for an odd size or a 0-d input,
/// IndexError for a dim out of range.
BRASA_API Tensor glu(const Tensor& input, const GLUFuncOptions& options = {});
/// Softmax / log-softmax along options.dim, in options.dtype if given.
BRASA_API Tensor softmax(const Tensor& input, const SoftmaxFuncOptions& options);
BRASA_API Tensor log_softmax(const Tensor& input, const LogSoftmaxFuncOptions& options);
/// softmax(-x) along options.dim, in options.dtype if given.
BRASA_API Tensor softmin(const Tensor& input, const SoftminFuncOptions& options);
/// x where |x| > lambda, else 0. Floating inputs only (TypeError otherwise).
BRASA_API Tensor hardshrink(const Tensor& input, const HardshrinkFuncOptions& options = {});
/// x - lambda above lambda, x + lambda below -lambda, else 0; ValueError for a negative lambda.
/// Floating inputs only (TypeError otherwise).
BRASA_API Tensor softshrink(const Tensor& input, const SoftshrinkFuncOptions& options = {});
/// x - tanh(x).
BRASA_API Tensor tanhshrink(const Tensor& input);
/// x where x > threshold, else value (NaN stays NaN); any dtype but Bool (TypeError).
BRASA_API Tensor threshold(const Tensor& input, const ThresholdFuncOptions& options);
/// x for x > 0, weight * x otherwise; weight has 1 or C = input.size(1) elements (ValueError
/// otherwise). Floating inputs only.
BRASA_API Tensor prelu(const Tensor& input, const Tensor& weight);
/// leaky_relu with slope (lower + upper) / 2 when not training; in training a slope drawn from
/// U(lower, upper) for each negative element. ValueError when lower > upper.
BRASA_API Tensor rrelu(const Tensor& input, const RReLUFuncOptions& options = {});
/// softmax((logits + g) / tau) along dim with g ~ Gumbel(0, 1) drawn as -log(Exponential(1)) from
/// the default generator (libtorch's draws, in libtorch's order); hard: the one-hot of its argmax
/// plus (soft - soft.detach()). tau is not checked (libtorch divides by it); TypeError for
/// non-floating logits.
BRASA_API Tensor gumbel_softmax(const Tensor& logits, const GumbelSoftmaxFuncOptions& options = {});

}  // namespace functional
}  // namespace brasa::nn
