// at:: normalisation functions: libtorch's positional arguments turned into nn::functional's
// options (one computation for both spellings); the native_ forms add the statistics.

#include "brasa/nn/normalization_functions.h"

#include <numeric>
#include <vector>

#include "brasa/core/empty.h"
#include "brasa/core/error.h"
#include "brasa/dispatch/grad_mode.h"
#include "brasa/nn/functional/normalization.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/pointwise.h"
#include "brasa/ops/reduce.h"
#include "nn/functional/opmath.h"

namespace brasa {
namespace {

namespace F = nn::functional;
using F::detail::in_opmath;

Tensor or_undefined(const std::optional<Tensor>& t) { return t.value_or(Tensor()); }

std::vector<int64_t> dims_from(int64_t from, int64_t to) {
  std::vector<int64_t> d(static_cast<size_t>(std::max<int64_t>(to - from, 0)));
  std::iota(d.begin(), d.end(), from);
  return d;
}

/// (mean, 1 / sqrt(biased var + eps)) of x over dims, kept as size-1 dims. Differentiable;
/// callers whose libtorch statistics have no gradient detach them.
std::tuple<Tensor, Tensor> statistics(const Tensor& input, const std::vector<int64_t>& dims,
                                      double eps) {
  Tensor mean = in_opmath(input, [&](const Tensor& x) { return x.mean(dims, true); });
  Tensor rstd =
      in_opmath(input, [&](const Tensor& x) { return (x.var(dims, false, true) + eps).rsqrt(); });
  return {mean, rstd};
}

}  // namespace

Tensor layer_norm(const Tensor& input, IntArrayRef normalized_shape,
                  const std::optional<Tensor>& weight, const std::optional<Tensor>& bias,
                  double eps, bool /*cudnn_enable*/) {
  return F::layer_norm(input, F::LayerNormFuncOptions(normalized_shape.vec())
                                  .weight(or_undefined(weight))
                                  .bias(or_undefined(bias))
                                  .eps(eps));
}

std::tuple<Tensor, Tensor, Tensor> native_layer_norm(const Tensor& input,
                                                     IntArrayRef normalized_shape,
                                                     const std::optional<Tensor>& weight,
                                                     const std::optional<Tensor>& bias,
                                                     double eps) {
  Tensor out = layer_norm(input, normalized_shape, weight, bias, eps);  // checks the shapes
  const auto nd = static_cast<int64_t>(normalized_shape.size());
  auto [mean, rstd] = statistics(input, dims_from(input.dim() - nd, input.dim()), eps);
  return {out, mean.detach(), rstd.detach()};  // libtorch's have no gradient
}

Tensor group_norm(const Tensor& input, int64_t num_groups, const std::optional<Tensor>& weight,
                  const std::optional<Tensor>& bias, double eps, bool /*cudnn_enabled*/) {
  return F::group_norm(input, F::GroupNormFuncOptions(num_groups)
                                  .weight(or_undefined(weight))
                                  .bias(or_undefined(bias))
                                  .eps(eps));
}

std::tuple<Tensor, Tensor, Tensor> native_group_norm(const Tensor& input,
                                                     const std::optional<Tensor>& weight,
                                                     const std::optional<Tensor>& bias, int64_t N,
                                                     int64_t C, int64_t HxW, int64_t group,
                                                     double eps) {
  BRASA_CHECK(input.defined() && input.dim() >= 2 && input.size(0) == N && input.size(1) == C &&
                  input.numel() == N * C * HxW,
              "native_group_norm: expected an input [N=", N, ", C=", C,
              ", *] of N * C * HxW = ", N * C * HxW, " elements, got ",
              input.defined() ? input.sizes() : IntArrayRef{});
  Tensor out = group_norm(input, group, weight, bias, eps);  // checks group and the parameters
  // These statistics have a gradient in libtorch too.
  auto [mean, rstd] = statistics(input.reshape({N, group, -1}), {2}, eps);
  return {out, mean.reshape({N, group}), rstd.reshape({N, group})};
}

Tensor batch_norm(const Tensor& input, const std::optional<Tensor>& weight,
                  const std::optional<Tensor>& bias, const std::optional<Tensor>& running_mean,
                  const std::optional<Tensor>& running_var, bool training, double momentum,
                  double eps, bool /*cudnn_enabled*/) {
  return F::batch_norm(input, or_undefined(running_mean), or_undefined(running_var),
                       F::BatchNormFuncOptions()
                           .weight(or_undefined(weight))
                           .bias(or_undefined(bias))
                           .training(training)
                           .momentum(momentum)
                           .eps(eps));
}

std::tuple<Tensor, Tensor, Tensor> native_batch_norm(const Tensor& input,
                                                     const std::optional<Tensor>& weight,
                                                     const std::optional<Tensor>& bias,
                                                     const std::optional<Tensor>& running_mean,
                                                     const std::optional<Tensor>& running_var,
                                                     bool training, double momentum, double eps) {
  Tensor out =
      batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps, false);
  if (!training) {
    Tensor none = empty({0}, input.options());
    return {out, none, none.clone()};
  }
  std::vector<int64_t> dims{0};
  for (int64_t d = 2; d < input.dim(); ++d) dims.push_back(d);
  auto [mean, rstd] = statistics(input, dims, eps);
  const int64_t c = input.size(1);  // libtorch's statistics have no gradient
  return {out, mean.detach().reshape({c}), rstd.detach().reshape({c})};
}

std::tuple<Tensor, Tensor> batch_norm_update_stats(const Tensor& input,
                                                   const std::optional<Tensor>& running_mean,
                                                   const std::optional<Tensor>& running_var,
                                                   double momentum) {
  BRASA_CHECK(input.defined() && input.dim() >= 2,
              "batch_norm_update_stats: expected an input of at least 2 dims [N, C, *], got ",
              input.defined() ? input.sizes() : IntArrayRef{});
  BRASA_CHECK_TYPE(is_floating_type(input.scalar_type()),
                   "batch_norm_update_stats: expected a floating input, got ", input.scalar_type());
  const int64_t c = input.size(1);
  std::vector<int64_t> dims{0};
  for (int64_t d = 2; d < input.dim(); ++d) dims.push_back(d);
  NoGradGuard no_grad;  // statistics and buffers (libtorch's outputs have no gradient)
  Tensor mean = in_opmath(input, [&](const Tensor& x) { return x.mean(dims); });
  Tensor var = in_opmath(input, [&](const Tensor& x) { return x.var(dims, false); });
  const int64_t n = c == 0 ? 0 : input.numel() / c;
  for (const auto* stat : {&running_mean, &running_var})
    if (*stat && (*stat)->defined())
      BRASA_CHECK((*stat)->sizes() == IntArrayRef({c}), "batch_norm_update_stats: expected ",
                  "running statistics of shape [", c, "], got ", (*stat)->sizes());
  if (running_mean && running_mean->defined())
    running_mean->copy_(*running_mean * (1 - momentum) + mean * momentum);
  if (running_var && running_var->defined()) {
    const double unbias = n > 1 ? static_cast<double>(n) / static_cast<double>(n - 1) : 1.0;
    running_var->copy_(*running_var * (1 - momentum) + var * (momentum * unbias));
  }
  return {mean, var};
}

std::tuple<Tensor, Tensor> batch_norm_stats(const Tensor& input, double eps) {
  BRASA_CHECK(input.defined() && input.dim() >= 2,
              "batch_norm_stats: expected an input of at least 2 dims [N, C, *], got ",
              input.defined() ? input.sizes() : IntArrayRef{});
  BRASA_CHECK_TYPE(is_floating_type(input.scalar_type()),
                   "batch_norm_stats: expected a floating input, got ", input.scalar_type());
  std::vector<int64_t> dims{0};
  for (int64_t d = 2; d < input.dim(); ++d) dims.push_back(d);
  auto [mean, invstd] = statistics(input, dims, eps);
  return {mean.reshape({input.size(1)}), invstd.reshape({input.size(1)})};
}

std::tuple<Tensor, Tensor> batch_norm_gather_stats_with_counts(
    const Tensor& input, const Tensor& mean, const Tensor& invstd,
    const std::optional<Tensor>& running_mean, const std::optional<Tensor>& running_var,
    double momentum, double eps, const Tensor& counts) {
  const char* op = "batch_norm_gather_stats_with_counts";
  BRASA_CHECK(mean.dim() == 2 && invstd.sizes() == mean.sizes() && counts.dim() == 1 &&
                  counts.size(0) == mean.size(0),
              op, ": expected mean and invstd [replicas, C] and counts [replicas], got ",
              mean.sizes(), ", ", invstd.sizes(), " and ", counts.sizes());
  NoGradGuard no_grad;                                    // statistics and buffers
  Tensor n = counts.to(mean.scalar_type()).unsqueeze(1);  // [R, 1]
  Tensor total = n.sum();
  Tensor global_mean = (mean * n).sum({0}) / total;
  Tensor var = (invstd * invstd).reciprocal() - eps;  // each replica's biased variance
  Tensor global_var = ((var + (mean - global_mean).square()) * n).sum({0}) / total;
  if (running_mean && running_mean->defined())
    running_mean->copy_(*running_mean * (1 - momentum) + global_mean * momentum);
  if (running_var && running_var->defined())
    running_var->copy_(*running_var * (1 - momentum) +
                       global_var * (total / (total - 1)) * momentum);
  return {global_mean.to(input.scalar_type()), (global_var + eps).rsqrt().to(input.scalar_type())};
}

std::tuple<Tensor, Tensor> batch_norm_gather_stats(const Tensor& input, const Tensor& mean,
                                                   const Tensor& invstd,
                                                   const std::optional<Tensor>& running_mean,
                                                   const std::optional<Tensor>& running_var,
                                                   double momentum, double eps, int64_t count) {
  return batch_norm_gather_stats_with_counts(
      input, mean, invstd, running_mean, running_var, momentum, eps,
      full({mean.dim() == 2 ? mean.size(0) : 0}, count, mean.options()));
}

Tensor instance_norm(const Tensor& input, const std::optional<Tensor>& weight,
                     const std::optional<Tensor>& bias, const std::optional<Tensor>& running_mean,
                     const std::optional<Tensor>& running_var, bool use_input_stats,
                     double momentum, double eps, bool /*cudnn_enabled*/) {
  return F::instance_norm(input, F::InstanceNormFuncOptions()
                                     .running_mean(or_undefined(running_mean))
                                     .running_var(or_undefined(running_var))
                                     .weight(or_undefined(weight))
                                     .bias(or_undefined(bias))
                                     .use_input_stats(use_input_stats)
                                     .momentum(momentum)
                                     .eps(eps));
}

}  // namespace brasa
