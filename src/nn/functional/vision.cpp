// F::affine_grid and F::grid_sample: libtorch's checks and option translation in front of
// affine_grid_generator and the grid_sampler ops.

#include "brasa/nn/functional/vision.h"

#include <algorithm>

#include "brasa/core/error.h"
#include "brasa/core/warning.h"
#include "brasa/nn/resample_functions.h"

namespace brasa::nn::functional {

Tensor affine_grid(const Tensor& theta, IntArrayRef size, bool align_corners) {
  const char* op = "affine_grid";
  BRASA_CHECK(theta.defined(), op, ": theta must be defined");
  BRASA_CHECK_TYPE(is_floating_type(theta.scalar_type()), op,
                   ": expected theta to have a floating point type, got ", theta.scalar_type());
  BRASA_CHECK(size.size() == 4 || size.size() == 5, op,
              ": only supports 4-d and 5-d sizes, for 2-d and 3-d affine transforms, got size ",
              size);
  const int64_t dims = static_cast<int64_t>(size.size()) - 2;
  BRASA_CHECK(theta.dim() == 3 && theta.size(1) == dims && theta.size(2) == dims + 1, op,
              ": expected a batch of ", dims, "-d affine matrices of shape Nx", dims, "x", dims + 1,
              " for size ", size, ", got ", theta.sizes());
  BRASA_CHECK(*std::min_element(size.begin(), size.end()) > 0, op,
              ": expected a positive output size, got ", size);
  return affine_grid_generator(theta, size, align_corners);
}

Tensor grid_sample(const Tensor& input, const Tensor& grid, const GridSampleFuncOptions& options) {
  const int64_t mode = nn::holds_alternative<enumtype::kNearest>(options.mode()) ? 1 : 0;
  int64_t padding = 0;
  if (nn::holds_alternative<enumtype::kBorder>(options.padding_mode())) padding = 1;
  if (nn::holds_alternative<enumtype::kReflection>(options.padding_mode())) padding = 2;
  if (!options.align_corners()) {
    warn(
        "grid_sample: align_corners not given, using false (the default since PyTorch 1.3.0); "
        "pass align_corners(true) for the behaviour before it");
  }
  return grid_sampler(input, grid, mode, padding, options.align_corners().value_or(false));
}

}  // namespace brasa::nn::functional
