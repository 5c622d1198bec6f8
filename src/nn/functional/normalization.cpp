// Normalisation and distance functionals, composed from reductions and pointwise ops.

#include "brasa/nn/functional/normalization.h"

#include <limits>
#include <numeric>

#include "brasa/core/empty.h"
#include "brasa/core/error.h"
#include "brasa/dispatch/grad_mode.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/pointwise.h"
#include "brasa/ops/reduce.h"
#include "nn/functional/opmath.h"

namespace brasa::nn::functional {
namespace {

void check_floating(const Tensor& t, const char* op, const char* what) {
  BRASA_CHECK_TYPE(is_floating_type(t.scalar_type()), op, ": expected a floating ", what, ", got ",
                   t.scalar_type());
}

std::vector<int64_t> iota_dims(int64_t from, int64_t to) {
  std::vector<int64_t> d(static_cast<size_t>(to - from));
  std::iota(d.begin(), d.end(), from);
  return d;
}

/// Shape [1, C, 1, ...] for per-channel parameters of a [N, C, *] input.
std::vector<int64_t> channel_shape(const Tensor& input) {
  std::vector<int64_t> s(static_cast<size_t>(input.dim()), 1);
  s[1] = input.size(1);
  return s;
}

void check_param(const Tensor& p, IntArrayRef expected, const char* op, const char* what) {
  if (!p.defined()) return;
  BRASA_CHECK(p.sizes() == expected, op, ": expected ", what, " of shape ", expected, ", got ",
              p.sizes());
}

Tensor affine(Tensor x, const Tensor& weight, const Tensor& bias, IntArrayRef shape) {
  if (weight.defined()) x = x * weight.reshape(shape);
  if (bias.defined()) x = x + bias.reshape(shape);
  return x;
}

void check_batch_input(const Tensor& input, const char* op) {
  check_floating(input, op, "input");
  BRASA_CHECK(input.dim() >= 2, op, ": expected an input of at least 2 dims [N, C, *], got ",
              input.sizes());
}

}  // namespace

static Tensor layer_norm_impl(const Tensor& input, const LayerNormFuncOptions& options) {
  check_floating(input, "layer_norm", "input");
  const auto& shape = options.normalized_shape();
  const auto nd = static_cast<int64_t>(shape.size());
  bool ok = nd >= 1 && nd <= input.dim();
  for (int64_t i = 0; ok && i < nd; ++i) ok = input.size(input.dim() - nd + i) == shape[i];
  BRASA_CHECK(ok, "layer_norm: given normalized_shape=", IntArrayRef(shape),
              ", expected an input of shape [*, ", IntArrayRef(shape), "], got ", input.sizes());
  check_param(options.weight(), shape, "layer_norm", "weight");
  check_param(options.bias(), shape, "layer_norm", "bias");
  const auto dims = iota_dims(input.dim() - nd, input.dim());
  Tensor mean = input.mean(dims, true);
  Tensor var = input.var(dims, false, true);
  Tensor x = (input - mean) * (var + options.eps()).rsqrt();
  return affine(x, options.weight(), options.bias(), shape);
}

static Tensor rms_norm_impl(const Tensor& input, const RMSNormFuncOptions& options) {
  check_floating(input, "rms_norm", "input");
  const auto& shape = options.normalized_shape();
  const auto nd = static_cast<int64_t>(shape.size());
  bool ok = nd >= 1 && nd <= input.dim();
  for (int64_t i = 0; ok && i < nd; ++i) ok = input.size(input.dim() - nd + i) == shape[i];
  BRASA_CHECK(ok, "rms_norm: given normalized_shape=", IntArrayRef(shape),
              ", expected an input of shape [*, ", IntArrayRef(shape), "], got ", input.sizes());
  check_param(options.weight(), shape, "rms_norm", "weight");
  double eps = 0;
  if (options.eps()) {
    eps = *options.eps();
  } else {
    switch (input.scalar_type()) {
      case kHalf: eps = 0.0009765625; break;
      case kBFloat16: eps = 0.0078125; break;
      case kFloat: eps = std::numeric_limits<float>::epsilon(); break;
      default: eps = std::numeric_limits<double>::epsilon(); break;
    }
  }
  const auto dims = iota_dims(input.dim() - nd, input.dim());
  Tensor x = input * ((input * input).mean(dims, true) + eps).rsqrt();
  return affine(x, options.weight(), Tensor(), shape);
}

static Tensor group_norm_impl(const Tensor& input, const GroupNormFuncOptions& options) {
  check_batch_input(input, "group_norm");
  const int64_t n = input.size(0), c = input.size(1), g = options.num_groups();
  BRASA_CHECK(g > 0 && c % g == 0, "group_norm: expected the number of channels of input ",
              input.sizes(), " to be divisible by num_groups=", g);
  check_param(options.weight(), {c}, "group_norm", "weight");
  check_param(options.bias(), {c}, "group_norm", "bias");
  Tensor grouped = input.reshape({n, g, -1});
  Tensor mean = grouped.mean({2}, true);
  Tensor var = grouped.var({2}, false, true);
  Tensor x = ((grouped - mean) * (var + options.eps()).rsqrt()).reshape(input.sizes());
  return affine(x, options.weight(), options.bias(), channel_shape(input));
}

static Tensor batch_norm_impl(const Tensor& input, const Tensor& running_mean,
                              const Tensor& running_var, const BatchNormFuncOptions& options) {
  check_batch_input(input, "batch_norm");
  const int64_t c = input.size(1);
  check_param(running_mean, {c}, "batch_norm", "running_mean");
  check_param(running_var, {c}, "batch_norm", "running_var");
  check_param(options.weight(), {c}, "batch_norm", "weight");
  check_param(options.bias(), {c}, "batch_norm", "bias");
  const auto shape = channel_shape(input);
  Tensor mean, var;
  if (options.training()) {
    const int64_t per_channel = c == 0 ? 0 : input.numel() / c;
    BRASA_CHECK(per_channel > 1,
                "batch_norm: expected more than 1 value per channel when training, got input of "
                "shape ",
                input.sizes());
    std::vector<int64_t> dims{0};
    for (int64_t d = 2; d < input.dim(); ++d) dims.push_back(d);
    mean = input.mean(dims, true);
    var = input.var(dims, false, true);
    if (running_mean.defined() || running_var.defined()) {
      BRASA_CHECK(options.momentum().has_value(),
                  "batch_norm: momentum must be given to update running statistics");
      const double m = *options.momentum();
      const double unbias = static_cast<double>(per_channel) / static_cast<double>(per_channel - 1);
      NoGradGuard no_grad;  // running statistics are buffers, never part of the graph (as PyTorch)
      if (running_mean.defined())
        running_mean.copy_(running_mean * (1 - m) + mean.reshape({c}) * m);
      if (running_var.defined())
        running_var.copy_(running_var * (1 - m) + var.reshape({c}) * (m * unbias));
    }
  } else {
    BRASA_CHECK(running_mean.defined() && running_var.defined(),
                "batch_norm: running_mean and running_var must be defined in evaluation mode");
    mean = running_mean.reshape(shape);
    var = running_var.reshape(shape);
  }
  Tensor x = (input - mean) * (var + options.eps()).rsqrt();
  return affine(x, options.weight(), options.bias(), shape);
}

static Tensor instance_norm_impl(const Tensor& input, const InstanceNormFuncOptions& options) {
  check_batch_input(input, "instance_norm");
  const int64_t c = input.size(1);
  const Tensor& rm = options.running_mean();
  const Tensor& rv = options.running_var();
  check_param(rm, {c}, "instance_norm", "running_mean");
  check_param(rv, {c}, "instance_norm", "running_var");
  check_param(options.weight(), {c}, "instance_norm", "weight");
  check_param(options.bias(), {c}, "instance_norm", "bias");
  const auto shape = channel_shape(input);
  Tensor mean, var;
  if (options.use_input_stats()) {
    const int64_t spatial = c == 0 || input.size(0) == 0 ? 0 : input.numel() / (c * input.size(0));
    BRASA_CHECK(spatial > 1,
                "instance_norm: expected more than 1 spatial element when training, got input of "
                "shape ",
                input.sizes());
    const auto dims = iota_dims(2, input.dim());
    mean = input.mean(dims, true);
    var = input.var(dims, false, true);
    const double m = options.momentum();
    const double unbias = static_cast<double>(spatial) / static_cast<double>(spatial - 1);
    NoGradGuard no_grad;  // running statistics are buffers, never part of the graph (as PyTorch)
    if (rm.defined()) rm.copy_(rm * (1 - m) + mean.mean({0}).reshape({c}) * m);
    if (rv.defined()) rv.copy_(rv * (1 - m) + var.mean({0}).reshape({c}) * (m * unbias));
  } else {
    BRASA_CHECK(rm.defined() && rv.defined(),
                "instance_norm: running_mean and running_var must be defined when "
                "use_input_stats is false");
    mean = rm.reshape(shape);
    var = rv.reshape(shape);
  }
  Tensor x = (input - mean) * (var + options.eps()).rsqrt();
  return affine(x, options.weight(), options.bias(), shape);
}

static Tensor normalize_impl(const Tensor& input, NormalizeFuncOptions options) {
  check_floating(input, "normalize", "input");
  const int64_t dim =
      brasa::detail::wrap_dim(options.dim(), std::max<int64_t>(input.dim(), 1), "normalize");
  Tensor denom = input.norm(options.p(), {dim}, true).clamp_min(options.eps()).expand_as(input);
  Tensor r = input / denom;
  if (options.out()) {
    options.out()->resize_(r.sizes());
    options.out()->copy_(r);
    return *options.out();
  }
  return r;
}

static Tensor local_response_norm_impl(const Tensor& input,
                                       const LocalResponseNormFuncOptions& options) {
  // Integer inputs are PyTorch's too: the squares are averaged as integers (avg_pool of an
  // integer tensor floors), and the scaling by alpha makes the result the default float dtype.
  const bool integral = is_integral_type(input.scalar_type(), /*include_bool=*/false);
  if (!integral) check_floating(input, "local_response_norm", "input");
  BRASA_CHECK(input.dim() >= 3, "local_response_norm: expected an input of 3 or more dims, got ",
              input.sizes());
  const int64_t size = options.size();
  BRASA_CHECK(size > 0, "local_response_norm: size must be positive, got ", size);
  const int64_t c = input.size(1);
  Tensor sq = input * input;
  // Sum of squares over the channel window [ch - size/2, ch + (size-1)/2], zero-padded.
  Tensor acc = zeros_like(input);
  const int64_t lo = size / 2, hi = (size - 1) / 2;
  for (int64_t off = -lo; off <= hi; ++off) {
    const int64_t src0 = std::max<int64_t>(0, off), dst0 = std::max<int64_t>(0, -off);
    const int64_t len = c - std::abs(off);
    if (len <= 0) continue;
    acc.narrow(1, dst0, len).add_(sq.narrow(1, src0, len));
  }
  Tensor avg = integral ? acc.div(Scalar(size), "floor") : acc / static_cast<double>(size);
  Tensor div = (avg * options.alpha() + options.k()).pow(options.beta());
  return input / div;
}

static Tensor cosine_similarity_impl(const Tensor& x1, const Tensor& x2,
                                     const CosineSimilarityFuncOptions& options) {
  check_floating(x1, "cosine_similarity", "x1");
  check_floating(x2, "cosine_similarity", "x2");
  const auto shape = (x1 * x2).sizes().vec();  // broadcast first, like PyTorch
  Tensor a = x1.expand(shape), b = x2.expand(shape);
  const int64_t dim =
      brasa::detail::wrap_dim(options.dim(), std::max<int64_t>(a.dim(), 1), "cosine_similarity");
  Tensor na = a / a.norm(2, {dim}, true).clamp_min(options.eps());
  Tensor nb = b / b.norm(2, {dim}, true).clamp_min(options.eps());
  return (na * nb).sum({dim});
}

static Tensor pairwise_distance_impl(const Tensor& x1, const Tensor& x2,
                                     const PairwiseDistanceFuncOptions& options) {
  check_floating(x1, "pairwise_distance", "x1");
  check_floating(x2, "pairwise_distance", "x2");
  Tensor diff = x1 - x2 + options.eps();
  const int64_t nd = std::max(x1.dim(), x2.dim());
  if (nd == 0) return diff.abs();
  return diff.norm(options.p(), {-1}, options.keepdim());
}

Tensor layer_norm(const Tensor& input, const LayerNormFuncOptions& options) {
  return detail::in_opmath(input, [&](const Tensor& x) { return layer_norm_impl(x, options); });
}

Tensor rms_norm(const Tensor& input, const RMSNormFuncOptions& options) {
  return detail::in_opmath(input, [&](const Tensor& x) { return rms_norm_impl(x, options); });
}

Tensor group_norm(const Tensor& input, const GroupNormFuncOptions& options) {
  return detail::in_opmath(input, [&](const Tensor& x) { return group_norm_impl(x, options); });
}

Tensor batch_norm(const Tensor& input, const Tensor& running_mean, const Tensor& running_var,
                  const BatchNormFuncOptions& options) {
  return detail::in_opmath(input, [&](const Tensor& x) {
    return batch_norm_impl(x, running_mean, running_var, options);
  });
}

Tensor instance_norm(const Tensor& input, const InstanceNormFuncOptions& options) {
  return detail::in_opmath(input, [&](const Tensor& x) { return instance_norm_impl(x, options); });
}

Tensor normalize(const Tensor& input, NormalizeFuncOptions options) {
  return detail::in_opmath(input, [&](const Tensor& x) { return normalize_impl(x, options); });
}

Tensor local_response_norm(const Tensor& input, const LocalResponseNormFuncOptions& options) {
  if (input.defined() && is_integral_type(input.scalar_type(), false))
    return local_response_norm_impl(input, options);
  return detail::in_opmath(input,
                           [&](const Tensor& x) { return local_response_norm_impl(x, options); });
}

Tensor cosine_similarity(const Tensor& x1, const Tensor& x2,
                         const CosineSimilarityFuncOptions& options) {
  return detail::in_opmath2(x1, x2, [&](const Tensor& x, const Tensor& y) {
    return cosine_similarity_impl(x, y, options);
  });
}

Tensor pairwise_distance(const Tensor& x1, const Tensor& x2,
                         const PairwiseDistanceFuncOptions& options) {
  return detail::in_opmath2(x1, x2, [&](const Tensor& x, const Tensor& y) {
    return pairwise_distance_impl(x, y, options);
  });
}

}  // namespace brasa::nn::functional
