// F::affine_grid and F::grid_sample: libtorch's checks and option translation in front of
// affine_grid_generator and the grid_sampler ops.

#include "brasa/nn/functional/vision.h"

#include <algorithm>
#include <cctype>
#include <string>

#include "brasa/core/error.h"
#include "brasa/core/warning.h"
#include "brasa/nn/resample_functions.h"

namespace brasa::nn::functional {

Tensor affine_grid(const Tensor& theta, IntArrayRef size, bool align_corners) {
  const char* op = "affine_grid";
  BRASA_CHECK(theta.defined(), op, ": theta must be defined");
  if (!is_floating_type(theta.scalar_type())) {
    // libtorch's words, with the dtype's name in lower case ("but got int").
    std::string name = to_string(theta.scalar_type());
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    BRASA_THROW(TypeError, op, ": Expected theta to have floating point type, but got ", name);
  }
  BRASA_CHECK(size.size() == 4 || size.size() == 5, op,
              " only supports 4D and 5D sizes, for 2D and 3D affine transforms, respectively. "
              "Got size ",
              size, ".");
  const int64_t dims = static_cast<int64_t>(size.size()) - 2;
  BRASA_CHECK(theta.dim() == 3 && theta.size(1) == dims && theta.size(2) == dims + 1, op,
              ": Expected a batch of ", dims, "D affine matrices of shape Nx", dims, "x", dims + 1,
              " for size ", size, ". Got ", theta.sizes(), ".");
  BRASA_CHECK(*std::min_element(size.begin(), size.end()) > 0, op,
              ": Expected non-zero, positive output size. Got ", size);
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
