// Dropout functionals: a Bernoulli keep-mask times the input.

#include "brasa/nn/functional/dropout.h"

#include <cmath>
#include <vector>

#include "brasa/core/error.h"
#include "brasa/nn/native_dropout_functions.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/pointwise.h"

namespace brasa::nn::functional {
namespace {

void check(const Tensor& input, double p, const char* op) {
  BRASA_CHECK(p >= 0 && p <= 1, op, ": dropout probability has to be between 0 and 1, but got ", p);
  BRASA_CHECK_TYPE(is_floating_type(input.scalar_type()), op, ": expected a floating input, got ",
                   input.scalar_type());
}

Tensor finish(const Tensor& input, const Tensor& result, bool inplace) {
  if (!inplace) return result;
  input.copy_(result);
  return input;
}

/// mask of `shape` (broadcast against input): 1 / (1 - p) with probability 1 - p, else 0. Drawn
/// and scaled as libtorch does (a contiguous mask, bernoulli_(1 - p), then div_(1 - p)), so the
/// same seed gives libtorch's mask and products (Note [Generator kinds]).
Tensor scaled_mask(const Tensor& input, IntArrayRef shape, double p,
                   const std::optional<Generator>& gen) {
  Tensor keep = empty(shape, input.options());  // on the input's device
  if (p == 1) return keep.zero_();
  keep.bernoulli_(1 - p, gen);
  return keep.div_(1 - p);
}

Tensor feature_dropout(const Tensor& input, const DropoutFuncOptions& options,
                       const std::optional<Generator>& gen, const char* op) {
  check(input, options.p(), op);
  // Outside training (or with p == 0) the input comes back whatever its shape, as libtorch's.
  if (!options.training() || options.p() == 0) return input;
  BRASA_CHECK(input.dim() >= 2, op, ": expected an input of at least 2 dims [N, C, *], got ",
              input.sizes());
  std::vector<int64_t> shape(static_cast<size_t>(input.dim()), 1);
  shape[0] = input.size(0);
  shape[1] = input.size(1);
  return finish(input, input * scaled_mask(input, shape, options.p(), gen), options.inplace());
}

}  // namespace

Tensor dropout(const Tensor& input, const DropoutFuncOptions& options,
               std::optional<Generator> generator) {
  check(input, options.p(), "dropout");
  if (!options.training() || options.p() == 0) return input;
  Tensor r = input * scaled_mask(input, input.sizes(), options.p(), generator);
  return finish(input, r, options.inplace());
}

Tensor dropout2d(const Tensor& input, const Dropout2dFuncOptions& options,
                 std::optional<Generator> generator) {
  return feature_dropout(input, options, generator, "dropout2d");
}

Tensor dropout3d(const Tensor& input, const Dropout3dFuncOptions& options,
                 std::optional<Generator> generator) {
  return feature_dropout(input, options, generator, "dropout3d");
}

namespace {

/// Alpha dropout with one draw per element, or per (N, C) channel of an input [N, C, *] when
/// `feature`.
Tensor alpha_dropout_impl(const Tensor& input, const AlphaDropoutFuncOptions& options,
                          const std::optional<Generator>& generator, bool feature, const char* op) {
  const double p = options.p();
  check(input, p, op);
  if (!options.training() || p == 0) return input;
  std::vector<int64_t> shape = input.sizes().vec();
  if (feature) {
    BRASA_CHECK(input.dim() >= 2, op, ": expected an input of at least 2 dims [N, C, *], got ",
                input.sizes());
    for (size_t d = 2; d < shape.size(); ++d) shape[d] = 1;
  }
  if (p == 1) return finish(input, zeros_like(input), options.inplace());
  constexpr double kAlpha = 1.7580993408473766;  // SELU's scale * alpha
  const double a = 1.0 / std::sqrt((kAlpha * kAlpha * p + 1) * (1 - p));
  Tensor keep = empty(shape, input.options());
  keep.bernoulli_(1 - p, generator);
  // libtorch's order of operations: input * (keep * a) + ((keep - 1) * alpha * a + alpha * a * p).
  Tensor shift = (keep - 1).mul_(kAlpha * a).add_(kAlpha * a * p);
  Tensor r = input * keep.mul_(a) + shift;
  return finish(input, r, options.inplace());
}

}  // namespace

Tensor alpha_dropout(const Tensor& input, const AlphaDropoutFuncOptions& options,
                     std::optional<Generator> generator) {
  return alpha_dropout_impl(input, options, generator, false, "alpha_dropout");
}

Tensor feature_alpha_dropout(const Tensor& input, const FeatureAlphaDropoutFuncOptions& options,
                             std::optional<Generator> generator) {
  return alpha_dropout_impl(input, options, generator, true, "feature_alpha_dropout");
}

}  // namespace brasa::nn::functional
