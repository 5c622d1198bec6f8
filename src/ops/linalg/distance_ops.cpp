// bilinear and cdist, composites of matmul and pointwise ops (so they differentiate for free).
#include <cmath>
#include <limits>
#include <vector>

#include "brasa/core/error.h"
#include "brasa/dispatch/autocast_mode.h"
#include "brasa/ops/attention.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/indexing_ops.h"
#include "brasa/ops/linalg.h"
#include "brasa/ops/pointwise.h"
#include "brasa/ops/reduce.h"

namespace brasa {

Tensor bilinear(const Tensor& input1, const Tensor& input2, const Tensor& weight,
                const Tensor& bias) {
  BRASA_CHECK(input1.dim() == input2.dim(), "bilinear(): input dimensions do not match: got ",
              input1.dim(), " and ", input2.dim());
  BRASA_CHECK(input1.dim() >= 1, "bilinear(): expected inputs of at least 1 dim, got 0-d");
  for (int64_t d = 0; d < input1.dim() - 1; ++d)
    BRASA_CHECK(input1.size(d) == input2.size(d),
                "bilinear(): input batch dimensions do not match at dim ", d, ": got ",
                input1.size(d), " and ", input2.size(d));
  BRASA_CHECK(weight.dim() == 3, "bilinear(): expected a 3-D weight [out, in1, in2], got ",
              weight.sizes());
  BRASA_CHECK(input1.size(-1) == weight.size(1),
              "bilinear(): input1 size does not match weight size: got ", input1.size(-1),
              " but expected ", weight.size(1));
  BRASA_CHECK(input2.size(-1) == weight.size(2),
              "bilinear(): input2 size does not match weight size: got ", input2.size(-1),
              " but expected ", weight.size(2));
  BRASA_CHECK(!bias.defined() || (bias.dim() == 1 && bias.size(0) == weight.size(0)),
              "bilinear(): bias size does not match weight size: got ",
              bias.defined() ? bias.size(-1) : 0, " but expected ", weight.size(0));
  BRASA_CHECK_TYPE(input1.scalar_type() == weight.scalar_type() &&
                       input2.scalar_type() == weight.scalar_type() &&
                       (!bias.defined() || bias.scalar_type() == weight.scalar_type()),
                   "bilinear(): expected inputs, weight and bias of one dtype, got ",
                   input1.scalar_type(), ", ", input2.scalar_type(), ", ", weight.scalar_type());
  const int64_t out = weight.size(0), in1 = weight.size(1), in2 = weight.size(2);
  // y[n, o] = sum_j (x1 @ W[o])[n, j] * x2[n, j], with x1 @ W[o] for all o as one matmul.
  Tensor x1 = input1.reshape({-1, in1}), x2 = input2.reshape({-1, in2});
  Tensor w = weight.permute({1, 0, 2}).reshape({in1, out * in2});
  Tensor y = (matmul(x1, w).reshape({x1.size(0), out, in2}) * x2.unsqueeze(1)).sum({2});
  if (bias.defined()) y = y + bias;
  std::vector<int64_t> shape(input1.sizes().begin(), input1.sizes().end());
  shape.back() = out;
  return y.reshape(shape);
}

namespace {

// ||a - b|| by expanding a^2 + b^2 - 2ab into one matmul (PyTorch's "mm" mode for p = 2).
Tensor euclidean_by_mm(const Tensor& x1, const Tensor& x2) {
  Tensor n1 = (x1 * x1).sum({-1}, true), n2 = (x2 * x2).sum({-1}, true);
  Tensor a = cat({x1 * -2.0, n1, ones_like(n1)}, -1);
  Tensor b = cat({x2, ones_like(n2), n2}, -1);
  return matmul(a, b.transpose(-2, -1)).clamp_min(0.0).sqrt();
}

}  // namespace

Tensor cdist(const Tensor& x1, const Tensor& x2, double p, std::optional<int64_t> compute_mode) {
  if (BRASA_UNLIKELY(autocast::is_active())) {  // Note [Autocast]: a float32 op
    autocast::AutocastExclude exclude;
    return cdist(autocast::cached_cast(kFloat, x1), autocast::cached_cast(kFloat, x2), p,
                 compute_mode);
  }
  BRASA_CHECK(x1.dim() >= 2, "cdist only supports at least 2D tensors, X1 got: ", x1.dim(), "D");
  BRASA_CHECK(x2.dim() >= 2, "cdist only supports at least 2D tensors, X2 got: ", x2.dim(), "D");
  BRASA_CHECK_TYPE(
      x1.scalar_type() == kFloat || x1.scalar_type() == kDouble,
      "cdist only supports floating-point dtypes (float, double), X1 got: ", x1.scalar_type());
  BRASA_CHECK_TYPE(x1.scalar_type() == x2.scalar_type(), "cdist: X1 (", x1.scalar_type(),
                   ") and X2 (", x2.scalar_type(), ") must have the same dtype");
  BRASA_CHECK(x1.size(-1) == x2.size(-1),
              "X1 and X2 must have the same number of columns. X1: ", x1.size(-1),
              " X2: ", x2.size(-1));
  BRASA_CHECK(p >= 0, "cdist only supports non-negative p values, got ", p);
  const int64_t mode = compute_mode.value_or(0);
  BRASA_CHECK(mode >= 0 && mode <= 2, "cdist: ", mode, " is not a valid value for compute_mode");
  const int64_t P = x1.size(-2), R = x2.size(-2);
  if (p == 2 && (mode == 1 || (mode == 0 && (P > 25 || R > 25)))) return euclidean_by_mm(x1, x2);
  Tensor diff = (x1.unsqueeze(-2) - x2.unsqueeze(-3)).abs();  // [..., P, R, M]
  if (x1.size(-1) == 0) return diff.sum({-1});
  if (p == 0) return diff.sign().sum({-1});  // sign: a zero gradient, as PyTorch's
  if (std::isinf(p)) return diff.amax({-1});
  if (p == 1) return diff.sum({-1});
  if (p == 2) return (diff * diff).sum({-1}).sqrt();
  return diff.pow(p).sum({-1}).pow(1.0 / p);
}

}  // namespace brasa
