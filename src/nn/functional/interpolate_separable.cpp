#include "nn/functional/interpolate_separable.h"

#include <cmath>
#include <vector>

#include "brasa/ops/factory.h"
#include "brasa/ops/indexing_ops.h"
#include "brasa/ops/pointwise.h"
#include "brasa/ops/tensor_data.h"
#include "brasa/ops/view.h"

namespace brasa::nn::functional::detail {
namespace {

// PyTorch's area_pixel_compute_scale and area_pixel_compute_source_index.
double source_scale(int64_t in, int64_t out, bool align_corners, std::optional<double> scale) {
  if (align_corners)
    return out > 1 ? static_cast<double>(in - 1) / static_cast<double>(out - 1) : 0;
  if (scale && *scale > 0) return 1.0 / *scale;
  return static_cast<double>(in) / static_cast<double>(out);
}
double source_index(double scale, int64_t dst, bool align_corners, bool cubic) {
  if (align_corners) return scale * static_cast<double>(dst);
  const double src = scale * (static_cast<double>(dst) + 0.5) - 0.5;
  return !cubic && src < 0 ? 0 : src;
}

// Cubic convolution weights of the four taps at offsets -1, 0, 1, 2 for fraction t.
void cubic_weights(double t, double w[4]) {
  constexpr double A = -0.75;
  auto near = [](double x) { return ((A + 2) * x - (A + 3)) * x * x + 1; };
  auto far = [](double x) { return ((A * x - 5 * A) * x + 8 * A) * x - 4 * A; };
  w[0] = far(t + 1);
  w[1] = near(t);
  w[2] = near(1 - t);
  w[3] = far(2 - t);
}

// x resized along dim to `out` points: sum over taps k of x.index_select(dim, idx_k) * w_k.
Tensor along(const Tensor& x, int64_t dim, int64_t out, bool align_corners,
             std::optional<double> scale_factor, bool cubic) {
  const int64_t in = x.size(dim);
  const int64_t taps = cubic ? 4 : 2;
  std::vector<std::vector<int64_t>> idx(static_cast<size_t>(taps), std::vector<int64_t>(out));
  std::vector<std::vector<double>> wt(static_cast<size_t>(taps), std::vector<double>(out));
  const double scale = source_scale(in, out, align_corners, scale_factor);
  for (int64_t o = 0; o < out; ++o) {
    const double real = source_index(scale, o, align_corners, cubic);
    const auto j = static_cast<size_t>(o);
    if (cubic) {
      const double base = std::floor(real);
      double w[4];
      cubic_weights(real - base, w);
      for (int64_t k = 0; k < 4; ++k) {
        const auto i = static_cast<int64_t>(base) - 1 + k;
        idx[static_cast<size_t>(k)][j] = std::min(std::max<int64_t>(i, 0), in - 1);
        wt[static_cast<size_t>(k)][j] = w[k];
      }
    } else {
      const int64_t i0 = std::min(static_cast<int64_t>(std::floor(real)), in - 1);
      const double lambda = std::min(std::max(real - static_cast<double>(i0), 0.0), 1.0);
      idx[0][j] = i0;
      idx[1][j] = i0 + (i0 < in - 1 ? 1 : 0);
      wt[0][j] = 1 - lambda;
      wt[1][j] = lambda;
    }
  }
  std::vector<int64_t> weight_shape(static_cast<size_t>(x.dim()), 1);
  weight_shape[static_cast<size_t>(dim)] = out;
  const TensorOptions long_opts = TensorOptions(kLong).device(x.device());
  Tensor result;
  for (size_t k = 0; k < static_cast<size_t>(taps); ++k) {
    Tensor index = brasa::detail::tensor_from_array(idx[k].data(), out, kLong).to(long_opts);
    Tensor weight = brasa::detail::tensor_from_array(wt[k].data(), out, kDouble)
                        .to(TensorOptions(x.scalar_type()).device(x.device()))
                        .view(weight_shape);
    Tensor term = x.index_select(dim, index) * weight;
    result = result.defined() ? result + term : term;
  }
  return result;
}

}  // namespace

Tensor interpolate_separable(const Tensor& input, IntArrayRef output_size, bool align_corners,
                             const std::vector<std::optional<double>>& scales, bool cubic) {
  Tensor x = input;
  for (size_t i = 0; i < output_size.size(); ++i)
    x = along(x, static_cast<int64_t>(i) + 2, output_size[i], align_corners, scales[i], cubic);
  return x;
}

}  // namespace brasa::nn::functional::detail
