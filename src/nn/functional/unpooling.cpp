// Max unpooling and fractional max pooling functionals: the output size is worked out from the
// options here, the values by the at:: ops (brasa/nn/resample_functions.h).

#include "brasa/nn/functional/unpooling.h"

#include "brasa/core/error.h"
#include "brasa/nn/resample_functions.h"
#include "brasa/ops/factory.h"

namespace brasa::nn::functional {
namespace {

/// The unpooled spatial sizes: options.output_size (its last D entries when it has D + 2), each
/// within a stride of the default (in - 1) * stride + kernel_size - 2 * padding.
template <size_t D>
std::vector<int64_t> unpool_size(const char* op, const Tensor& input, const Tensor& indices,
                                 const MaxUnpoolFuncOptions<D>& o) {
  const auto dims = static_cast<int64_t>(D);
  BRASA_CHECK(input.defined() && indices.defined(), op, ": got an undefined input or indices");
  BRASA_CHECK(input.dim() == dims + 1 || input.dim() == dims + 2, op, ": expected an input of ",
              dims + 1, " or ", dims + 2, " dims, got ", input.sizes());
  BRASA_CHECK(indices.sizes() == input.sizes(), op, ": expected indices of the input's shape ",
              input.sizes(), ", got ", indices.sizes());
  std::vector<int64_t> size;
  for (size_t d = 0; d < D; ++d) {
    const int64_t in = input.size(input.dim() - dims + static_cast<int64_t>(d));
    size.push_back((in - 1) * o.stride()[d] + o.kernel_size()[d] - 2 * o.padding()[d]);
  }
  if (!o.output_size()) return size;
  std::vector<int64_t> wanted = *o.output_size();
  if (wanted.size() == D + 2) wanted.erase(wanted.begin(), wanted.begin() + 2);
  BRASA_CHECK(wanted.size() == D, op, ": output_size should have ", D, " or ", D + 2,
              " elements, got ", o.output_size()->size());
  for (size_t d = 0; d < D; ++d) {
    const int64_t lo = size[d] - o.stride()[d], hi = size[d] + o.stride()[d];
    BRASA_CHECK(lo <= wanted[d] && wanted[d] <= hi, op, ": invalid output_size ",
                IntArrayRef(wanted), " (dim ", d, " must be between ", lo, " and ", hi,
                ") for input ", input.sizes());
  }
  return wanted;
}

/// output_size, or the input's trailing sizes times output_ratio (truncated, as libtorch).
template <size_t D>
std::vector<int64_t> fractional_size(const char* op, const Tensor& input,
                                     const FractionalMaxPoolOptions<D>& o) {
  BRASA_CHECK(o.output_size() || o.output_ratio(), op,
              ": requires specifying either an output_size or an output_ratio");
  BRASA_CHECK(input.defined() && input.dim() >= static_cast<int64_t>(D), op,
              ": expected an input of ", D + 1, " or ", D + 2, " dims, got ",
              input.defined() ? input.sizes() : IntArrayRef{});
  std::vector<int64_t> size;
  for (size_t d = 0; d < D; ++d) {
    if (o.output_size()) {
      size.push_back((*o.output_size())[d]);
    } else {
      const int64_t in = input.size(input.dim() - static_cast<int64_t>(D - d));
      size.push_back(static_cast<int64_t>(static_cast<double>(in) * (*o.output_ratio())[d]));
    }
  }
  return size;
}

/// The given samples, or rand [N, C, D] in the input's dtype (N = 1 for an unbatched input).
template <size_t D>
Tensor samples_for(const Tensor& input, const FractionalMaxPoolOptions<D>& o) {
  if (o._random_samples().defined()) return o._random_samples();
  const auto dims = static_cast<int64_t>(D);
  const int64_t n = input.dim() == dims + 1 ? 1 : input.size(0);
  return rand({n, input.size(-dims - 1), dims}, input.options());
}

}  // namespace

Tensor max_unpool1d(const Tensor& input, const Tensor& indices,
                    const MaxUnpool1dFuncOptions& options) {
  auto size = unpool_size("max_unpool1d", input, indices, options);
  return brasa::max_unpool2d(input.unsqueeze(-1), indices.unsqueeze(-1), {size[0], 1}).squeeze(-1);
}

Tensor max_unpool2d(const Tensor& input, const Tensor& indices,
                    const MaxUnpool2dFuncOptions& options) {
  return brasa::max_unpool2d(input, indices, unpool_size("max_unpool2d", input, indices, options));
}

Tensor max_unpool3d(const Tensor& input, const Tensor& indices,
                    const MaxUnpool3dFuncOptions& options) {
  return brasa::max_unpool3d(input, indices, unpool_size("max_unpool3d", input, indices, options),
                             options.stride(), options.padding());
}

std::tuple<Tensor, Tensor> fractional_max_pool2d_with_indices(
    const Tensor& input, const FractionalMaxPool2dFuncOptions& options) {
  auto size = fractional_size("fractional_max_pool2d", input, options);
  return brasa::fractional_max_pool2d(input, options.kernel_size(), size,
                                      samples_for(input, options));
}

Tensor fractional_max_pool2d(const Tensor& input, const FractionalMaxPool2dFuncOptions& options) {
  return std::get<0>(fractional_max_pool2d_with_indices(input, options));
}

std::tuple<Tensor, Tensor> fractional_max_pool3d_with_indices(
    const Tensor& input, const FractionalMaxPool3dFuncOptions& options) {
  auto size = fractional_size("fractional_max_pool3d", input, options);
  return brasa::fractional_max_pool3d(input, options.kernel_size(), size,
                                      samples_for(input, options));
}

Tensor fractional_max_pool3d(const Tensor& input, const FractionalMaxPool3dFuncOptions& options) {
  return std::get<0>(fractional_max_pool3d_with_indices(input, options));
}

}  // namespace brasa::nn::functional
