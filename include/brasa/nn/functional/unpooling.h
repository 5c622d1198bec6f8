#pragma once
// Max unpooling and fractional max pooling (torch::nn::functional spellings) with libtorch's
// option structs: `F::max_unpool2d(x, idx, F::MaxUnpool2dFuncOptions(2).stride(2))`,
// `F::fractional_max_pool2d(x, F::FractionalMaxPool2dFuncOptions(3).output_ratio(0.5))`. They call
// the at:: ops of brasa/nn/resample_functions.h; errors name the functional.

#include <optional>
#include <tuple>
#include <vector>

#include "brasa/core/options_arg.h"
#include "brasa/core/tensor.h"
#include "brasa/nn/expanding_array.h"

namespace brasa::nn {

/// Options of the MaxUnpool{1,2,3}d modules: the max pool's kernel_size, stride (default: the
/// kernel size) and padding.
template <size_t D>
struct MaxUnpoolOptions {
  MaxUnpoolOptions(ExpandingArray<D> kernel_size)  // NOLINT(google-explicit-constructor)
      : kernel_size_(kernel_size), stride_(kernel_size) {}
  BRASA_ARG(ExpandingArray<D>, kernel_size);
  BRASA_ARG(ExpandingArray<D>, stride);
  BRASA_ARG(ExpandingArray<D>, padding) = 0;
};
using MaxUnpool1dOptions = MaxUnpoolOptions<1>;
using MaxUnpool2dOptions = MaxUnpoolOptions<2>;
using MaxUnpool3dOptions = MaxUnpoolOptions<3>;

/// Options of FractionalMaxPool{2,3}d: exactly one of output_size and output_ratio (each ratio
/// in (0, 1)); _random_samples [N, C, D] in [0, 1) places the windows (drawn with rand when
/// undefined).
template <size_t D>
struct FractionalMaxPoolOptions {
  FractionalMaxPoolOptions(ExpandingArray<D> kernel_size)  // NOLINT(google-explicit-constructor)
      : kernel_size_(kernel_size) {}
  using ExpandingArrayDouble = ExpandingArray<D, double>;
  BRASA_ARG(ExpandingArray<D>, kernel_size);
  BRASA_ARG(std::optional<ExpandingArray<D>>, output_size) = std::nullopt;
  BRASA_ARG(std::optional<ExpandingArrayDouble>, output_ratio) = std::nullopt;
  BRASA_ARG(Tensor, _random_samples) = Tensor();
};
using FractionalMaxPool2dOptions = FractionalMaxPoolOptions<2>;
using FractionalMaxPool3dOptions = FractionalMaxPoolOptions<3>;

namespace functional {

/// MaxUnpoolOptions plus the output_size of the unpooled input (D or D + 2 entries; default
/// (in - 1) * stride + kernel_size - 2 * padding per spatial dim).
template <size_t D>
struct MaxUnpoolFuncOptions {
  MaxUnpoolFuncOptions(ExpandingArray<D> kernel_size)  // NOLINT(google-explicit-constructor)
      : kernel_size_(kernel_size), stride_(kernel_size) {}
  BRASA_ARG(ExpandingArray<D>, kernel_size);
  BRASA_ARG(ExpandingArray<D>, stride);
  BRASA_ARG(ExpandingArray<D>, padding) = 0;
  BRASA_ARG(std::optional<std::vector<int64_t>>, output_size) = std::nullopt;
};
using MaxUnpool1dFuncOptions = MaxUnpoolFuncOptions<1>;
using MaxUnpool2dFuncOptions = MaxUnpoolFuncOptions<2>;
using MaxUnpool3dFuncOptions = MaxUnpoolFuncOptions<3>;
using FractionalMaxPool2dFuncOptions = FractionalMaxPool2dOptions;
using FractionalMaxPool3dFuncOptions = FractionalMaxPool3dOptions;

/// Inverse of max_pool{1,2,3}d: input and indices [N, C, *D] (or [C, *D]) -> the values put
/// at their indices in zero planes of the output size. ValueError for an output_size out of
/// (default - stride, default + stride) or of the wrong length.
BRASA_API Tensor max_unpool1d(const Tensor& input, const Tensor& indices,
                              const MaxUnpool1dFuncOptions& options);
BRASA_API Tensor max_unpool2d(const Tensor& input, const Tensor& indices,
                              const MaxUnpool2dFuncOptions& options);
BRASA_API Tensor max_unpool3d(const Tensor& input, const Tensor& indices,
                              const MaxUnpool3dFuncOptions& options);

/// Fractional max pooling of [N, C, H, W] (or [C, H, W]); (output, indices into each plane).
/// ValueError when neither output_size nor output_ratio is given.
BRASA_API std::tuple<Tensor, Tensor> fractional_max_pool2d_with_indices(
    const Tensor& input, const FractionalMaxPool2dFuncOptions& options);
BRASA_API Tensor fractional_max_pool2d(const Tensor& input,
                                       const FractionalMaxPool2dFuncOptions& options);
/// The same for [N, C, D, H, W] (or [C, D, H, W]).
BRASA_API std::tuple<Tensor, Tensor> fractional_max_pool3d_with_indices(
    const Tensor& input, const FractionalMaxPool3dFuncOptions& options);
BRASA_API Tensor fractional_max_pool3d(const Tensor& input,
                                       const FractionalMaxPool3dFuncOptions& options);

}  // namespace functional
}  // namespace brasa::nn
