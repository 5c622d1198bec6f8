// at:: upsamplers (interpolate's separable composites), max unpooling (a scatter into zeros) and
// the affine grid generator (a batched product with a base grid).

#include "brasa/nn/resample_functions.h"

#include <cmath>
#include <vector>

#include "brasa/core/error.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/indexing_ops.h"
#include "brasa/ops/linalg.h"
#include "brasa/ops/pointwise.h"
#include "brasa/ops/reduce.h"
#include "nn/functional/interpolate_separable.h"

namespace brasa {
namespace {

Tensor upsample(const char* op, const Tensor& self, IntArrayRef output_size, bool align_corners,
                std::vector<std::optional<double>> scales, bool cubic) {
  const auto dims = static_cast<int64_t>(scales.size());
  BRASA_CHECK(self.defined() && self.dim() == dims + 2, op, ": expected a ", dims + 2,
              "-d input [N, C, *], got ", self.defined() ? self.sizes() : IntArrayRef{});
  BRASA_CHECK(static_cast<int64_t>(output_size.size()) == dims, op, ": expected output_size of ",
              dims, " elements, got ", output_size);
  for (int64_t s : output_size)
    BRASA_CHECK(s > 0, op, ": expected positive output sizes, got ", output_size);
  BRASA_CHECK_TYPE(is_floating_type(self.scalar_type()), op, ": expected a floating input, got ",
                   self.scalar_type());
  return nn::functional::detail::interpolate_separable(self, output_size, align_corners, scales,
                                                       cubic);
}

/// The vec overloads: output_size, or input sizes times scale_factors.
Tensor upsample_vec(const char* op, const Tensor& input, OptionalIntArrayRef output_size,
                    bool align_corners, OptionalArrayRef<double> scale_factors, int64_t dims,
                    bool cubic) {
  BRASA_CHECK(output_size.has_value() != scale_factors.has_value(), op,
              ": exactly one of output_size and scale_factors must be given");
  BRASA_CHECK(input.defined() && input.dim() == dims + 2, op, ": expected a ", dims + 2,
              "-d input [N, C, *], got ", input.defined() ? input.sizes() : IntArrayRef{});
  std::vector<std::optional<double>> scales(static_cast<size_t>(dims));
  if (output_size) return upsample(op, input, *output_size, align_corners, scales, cubic);
  BRASA_CHECK(static_cast<int64_t>(scale_factors->size()) == dims, op, ": expected ", dims,
              " scale factors, got ", scale_factors->size());
  std::vector<int64_t> out;
  for (int64_t d = 0; d < dims; ++d) {
    const double s = (*scale_factors)[static_cast<size_t>(d)];
    out.push_back(static_cast<int64_t>(std::floor(static_cast<double>(input.size(2 + d)) * s)));
    scales[static_cast<size_t>(d)] = s;
  }
  return upsample(op, input, out, align_corners, scales, cubic);
}

Tensor max_unpool(const char* op, const Tensor& self, const Tensor& indices,
                  IntArrayRef output_size, int64_t dims) {
  BRASA_CHECK(self.defined() && (self.dim() == dims + 1 || self.dim() == dims + 2), op,
              ": expected an input of ", dims + 1, " or ", dims + 2, " dims, got ",
              self.defined() ? self.sizes() : IntArrayRef{});
  BRASA_CHECK_TYPE(indices.scalar_type() == kLong, op, ": expected Long indices, got ",
                   indices.scalar_type());
  BRASA_CHECK(indices.sizes() == self.sizes(), op, ": expected indices of the input's shape ",
              self.sizes(), ", got ", indices.sizes());
  BRASA_CHECK(static_cast<int64_t>(output_size.size()) == dims, op, ": expected output_size of ",
              dims, " elements, got ", output_size);
  int64_t plane = 1;
  for (int64_t s : output_size) plane *= s;
  const bool batched = self.dim() == dims + 2;
  Tensor x = batched ? self : self.unsqueeze(0);
  Tensor idx = (batched ? indices : indices.unsqueeze(0)).flatten(2);
  if (idx.numel() > 0) {
    BRASA_CHECK_INDEX(idx.min().item<int64_t>() >= 0 && idx.max().item<int64_t>() < plane, op,
                      ": found an index out of the output planes of size ", output_size);
  }
  Tensor out = zeros({x.size(0), x.size(1), plane}, x.options()).scatter(2, idx, x.flatten(2));
  std::vector<int64_t> shape{x.size(0), x.size(1)};
  shape.insert(shape.end(), output_size.begin(), output_size.end());
  out = out.reshape(shape);
  return batched ? out : out.squeeze(0);
}

/// linspace(-1, 1, n), scaled by (n - 1) / n without align_corners (pixel centres).
Tensor base_coords(int64_t n, bool align_corners, const TensorOptions& options) {
  if (n <= 1) return zeros({n}, options);
  Tensor r = linspace(-1, 1, n, options);
  return align_corners ? r : r * (static_cast<double>(n - 1) / static_cast<double>(n));
}

}  // namespace

Tensor upsample_linear1d(const Tensor& self, IntArrayRef output_size, bool align_corners,
                         std::optional<double> scales) {
  return upsample("upsample_linear1d", self, output_size, align_corners, {scales}, false);
}
Tensor upsample_linear1d(const Tensor& input, OptionalIntArrayRef output_size, bool align_corners,
                         OptionalArrayRef<double> scale_factors) {
  return upsample_vec("upsample_linear1d", input, output_size, align_corners, scale_factors, 1,
                      false);
}

Tensor upsample_bicubic2d(const Tensor& self, IntArrayRef output_size, bool align_corners,
                          std::optional<double> scales_h, std::optional<double> scales_w) {
  return upsample("upsample_bicubic2d", self, output_size, align_corners, {scales_h, scales_w},
                  true);
}
Tensor upsample_bicubic2d(const Tensor& input, OptionalIntArrayRef output_size, bool align_corners,
                          OptionalArrayRef<double> scale_factors) {
  return upsample_vec("upsample_bicubic2d", input, output_size, align_corners, scale_factors, 2,
                      true);
}

Tensor upsample_trilinear3d(const Tensor& self, IntArrayRef output_size, bool align_corners,
                            std::optional<double> scales_d, std::optional<double> scales_h,
                            std::optional<double> scales_w) {
  return upsample("upsample_trilinear3d", self, output_size, align_corners,
                  {scales_d, scales_h, scales_w}, false);
}
Tensor upsample_trilinear3d(const Tensor& input, OptionalIntArrayRef output_size,
                            bool align_corners, OptionalArrayRef<double> scale_factors) {
  return upsample_vec("upsample_trilinear3d", input, output_size, align_corners, scale_factors, 3,
                      false);
}

Tensor max_unpool2d(const Tensor& self, const Tensor& indices, IntArrayRef output_size) {
  return max_unpool("max_unpool2d", self, indices, output_size, 2);
}

Tensor max_unpool3d(const Tensor& self, const Tensor& indices, IntArrayRef output_size,
                    IntArrayRef stride, IntArrayRef padding) {
  BRASA_CHECK(stride.size() == 3 && padding.size() == 3,
              "max_unpool3d: expected stride and padding of 3 elements, got ", stride, " and ",
              padding);
  for (int64_t s : stride)
    BRASA_CHECK(s > 0, "max_unpool3d: expected positive strides, got ", stride);
  return max_unpool("max_unpool3d", self, indices, output_size, 3);
}

Tensor affine_grid_generator(const Tensor& theta, IntArrayRef size, bool align_corners) {
  const char* op = "affine_grid_generator";
  BRASA_CHECK(size.size() == 4 || size.size() == 5, op,
              ": expected size [N, C, H, W] or [N, C, D, H, W], got ", size);
  const int64_t dims = static_cast<int64_t>(size.size()) - 2;
  BRASA_CHECK(theta.defined() && theta.dim() == 3 && theta.size(0) == size[0] &&
                  theta.size(1) == dims && theta.size(2) == dims + 1,
              op, ": expected theta of shape [", size[0], ", ", dims, ", ", dims + 1, "] for size ",
              size, ", got ", theta.defined() ? theta.sizes() : IntArrayRef{});
  BRASA_CHECK_TYPE(is_floating_type(theta.scalar_type()), op, ": expected a floating theta, got ",
                   theta.scalar_type());
  // base [*spatial, dims + 1]: (x, y[, z], 1), x varying along the last spatial dim.
  std::vector<int64_t> spatial(size.begin() + 2, size.end());
  std::vector<Tensor> columns;
  const TensorOptions o = theta.options();
  for (int64_t c = 0; c < dims; ++c) {
    const auto axis = static_cast<size_t>(dims - 1 - c);  // x is W, y is H, z is D
    std::vector<int64_t> view(static_cast<size_t>(dims), 1);
    view[axis] = spatial[axis];
    columns.push_back(base_coords(spatial[axis], align_corners, o).reshape(view).expand(spatial));
  }
  columns.push_back(ones(spatial, o));
  Tensor base = stack(columns, -1).reshape({1, -1, dims + 1});  // [1, P, dims + 1]
  Tensor grid = base.matmul(theta.transpose(1, 2));             // [N, P, dims]
  std::vector<int64_t> shape{size[0]};
  shape.insert(shape.end(), spatial.begin(), spatial.end());
  shape.push_back(dims);
  return grid.reshape(shape);
}

}  // namespace brasa
