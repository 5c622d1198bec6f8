#pragma once
// The activation functions of libtorch's at:: / torch:: namespace (`torch::gelu(x, "tanh")`,
// `at::leaky_relu_(x, 0.2)`): libtorch 1.13's signatures and defaults. Those that
// torch::nn::functional also has are the same computation (nn/functional/activation.h: floating
// inputs only, TypeError otherwise, except relu6 and hardtanh; derivatives as PyTorch's). The `_`
// forms write the result into self and return it.

#include <cstdint>
#include <optional>
#include <string_view>
#include <tuple>

#include "brasa/core/generator.h"
#include "brasa/core/scalar.h"
#include "brasa/core/tensor.h"

namespace brasa {

/// min(max(x, 0), 6).
BRASA_API Tensor relu6(const Tensor& self);
BRASA_API Tensor& relu6_(Tensor& self);
/// scale * (x > 0 ? x : alpha * (exp(x * input_scale) - 1)).
BRASA_API Tensor elu(const Tensor& self, const Scalar& alpha = 1, const Scalar& scale = 1,
                     const Scalar& input_scale = 1);
BRASA_API Tensor& elu_(Tensor& self, const Scalar& alpha = 1, const Scalar& scale = 1,
                       const Scalar& input_scale = 1);
/// elu with SELU's alpha and scale.
BRASA_API Tensor selu(const Tensor& self);
BRASA_API Tensor& selu_(Tensor& self);
/// max(0, x) + min(0, alpha * (exp(x / alpha) - 1)); ValueError for alpha 0.
BRASA_API Tensor celu(const Tensor& self, const Scalar& alpha = 1.0);
BRASA_API Tensor& celu_(Tensor& self, const Scalar& alpha = 1.0);
/// x * sigmoid(x).
BRASA_API Tensor silu(const Tensor& self);
BRASA_API Tensor& silu_(Tensor& self);
/// x * tanh(softplus(x)).
BRASA_API Tensor mish(const Tensor& self);
BRASA_API Tensor& mish_(Tensor& self);
/// x * Phi(x) ("none") or its "tanh" approximation; ValueError for another approximate.
BRASA_API Tensor gelu(const Tensor& self, std::string_view approximate = "none");
BRASA_API Tensor& gelu_(Tensor& self, std::string_view approximate = "none");
/// x where |x| > lambd, else 0.
BRASA_API Tensor hardshrink(const Tensor& self, const Scalar& lambd = 0.5);
/// x - lambd above lambd, x + lambd below -lambd, else 0; ValueError for a negative lambd.
BRASA_API Tensor softshrink(const Tensor& self, const Scalar& lambd = 0.5);
/// relu6(x + 3) / 6.
BRASA_API Tensor hardsigmoid(const Tensor& self);
BRASA_API Tensor& hardsigmoid_(Tensor& self);
/// x * relu6(x + 3) / 6.
BRASA_API Tensor hardswish(const Tensor& self);
BRASA_API Tensor& hardswish_(Tensor& self);
/// clamp(x, min_val, max_val); integral inputs keep their dtype.
BRASA_API Tensor hardtanh(const Tensor& self, const Scalar& min_val = -1,
                          const Scalar& max_val = 1);
BRASA_API Tensor& hardtanh_(Tensor& self, const Scalar& min_val = -1, const Scalar& max_val = 1);
/// x for x > 0, negative_slope * x otherwise.
BRASA_API Tensor leaky_relu(const Tensor& self, const Scalar& negative_slope = 0.01);
BRASA_API Tensor& leaky_relu_(Tensor& self, const Scalar& negative_slope = 0.01);
/// log(sigmoid(x)) without overflow.
BRASA_API Tensor log_sigmoid(const Tensor& self);
/// (log_sigmoid(x), exp(-|x|)): libtorch's CPU output and the buffer its backward reads.
BRASA_API std::tuple<Tensor, Tensor> log_sigmoid_forward(const Tensor& self);
/// logit (brasa/ops/special.h) in place.
BRASA_API Tensor& logit_(Tensor& self, std::optional<double> eps = std::nullopt);
/// x for x > 0, weight * x otherwise; weight is 0-d or 1-d with 1 or C (= self.size(1)) elements.
BRASA_API Tensor prelu(const Tensor& self, const Tensor& weight);
/// leaky_relu with slope (lower + upper) / 2 when not training; training: a slope drawn from
/// U(lower, upper) for each negative element (from `generator`, or the default one).
BRASA_API Tensor rrelu(const Tensor& self, const Scalar& lower = 0.125,
                       const Scalar& upper = 0.3333333333333333, bool training = false,
                       std::optional<Generator> generator = std::nullopt);
BRASA_API Tensor& rrelu_(Tensor& self, const Scalar& lower = 0.125,
                         const Scalar& upper = 0.3333333333333333, bool training = false,
                         std::optional<Generator> generator = std::nullopt);
/// rrelu that writes the slopes it used into `noise` (self's shape; 1 for positive elements).
BRASA_API Tensor rrelu_with_noise(const Tensor& self, const Tensor& noise,
                                  const Scalar& lower = 0.125,
                                  const Scalar& upper = 0.3333333333333333, bool training = false,
                                  std::optional<Generator> generator = std::nullopt);
BRASA_API Tensor& rrelu_with_noise_(Tensor& self, const Tensor& noise, const Scalar& lower = 0.125,
                                    const Scalar& upper = 0.3333333333333333, bool training = false,
                                    std::optional<Generator> generator = std::nullopt);
/// log(1 + exp(beta * x)) / beta, and x where beta * x > threshold.
BRASA_API Tensor softplus(const Tensor& self, const Scalar& beta = 1, const Scalar& threshold = 20);
/// x where x > threshold, else value.
BRASA_API Tensor threshold(const Tensor& self, const Scalar& threshold, const Scalar& value);
BRASA_API Tensor& threshold_(Tensor& self, const Scalar& threshold, const Scalar& value);
/// a * sigmoid(b) with (a, b) the halves of `dim`.
BRASA_API Tensor glu(const Tensor& self, int64_t dim = -1);
/// The forward-mode derivative of glu at x in direction dx, given glu = glu(x, dim):
/// sigmoid(b) * da + glu * (1 - sigmoid(b)) * db.
BRASA_API Tensor glu_jvp(const Tensor& glu, const Tensor& x, const Tensor& dx, int64_t dim);

}  // namespace brasa
