#pragma once
// Pooling functionals (torch::nn::functional spellings) over brasa's pooling ops
// (brasa/ops/pool.h): `F::max_pool2d(x, F::MaxPool2dFuncOptions(3).stride(2).padding(1))`. Errors
// as the ops.

#include <optional>
#include <tuple>

#include "brasa/core/options_arg.h"
#include "brasa/core/tensor.h"
#include "brasa/nn/expanding_array.h"

namespace brasa::nn {

template <size_t D>
struct MaxPoolOptions {
  MaxPoolOptions(ExpandingArray<D> kernel_size)
      : kernel_size_(kernel_size), stride_(kernel_size) {}  // NOLINT
  BRASA_ARG(ExpandingArray<D>, kernel_size);
  BRASA_ARG(ExpandingArray<D>, stride);
  BRASA_ARG(ExpandingArray<D>, padding) = 0;
  BRASA_ARG(ExpandingArray<D>, dilation) = 1;
  BRASA_ARG(bool, ceil_mode) = false;
};

template <size_t D>
struct AvgPoolOptions {
  AvgPoolOptions(ExpandingArray<D> kernel_size)
      : kernel_size_(kernel_size), stride_(kernel_size) {}  // NOLINT
  BRASA_ARG(ExpandingArray<D>, kernel_size);
  BRASA_ARG(ExpandingArray<D>, stride);
  BRASA_ARG(ExpandingArray<D>, padding) = 0;
  BRASA_ARG(bool, ceil_mode) = false;
  BRASA_ARG(bool, count_include_pad) = true;
  BRASA_ARG(std::optional<int64_t>, divisor_override) = std::nullopt;
};

/// Power-average pooling: (sum over the window of x^norm_type)^(1 / norm_type).
template <size_t D>
struct LPPoolOptions {
  LPPoolOptions(double norm_type, ExpandingArray<D> kernel_size)
      : norm_type_(norm_type), kernel_size_(kernel_size), stride_(kernel_size) {}
  BRASA_ARG(double, norm_type);
  BRASA_ARG(ExpandingArray<D>, kernel_size);
  BRASA_ARG(ExpandingArray<D>, stride);
  BRASA_ARG(bool, ceil_mode) = false;
};

template <typename OutputSize>
struct AdaptivePoolOptions {
  AdaptivePoolOptions(OutputSize output_size) : output_size_(output_size) {}  // NOLINT
  BRASA_ARG(OutputSize, output_size);
};

using MaxPool1dOptions = MaxPoolOptions<1>;
using MaxPool2dOptions = MaxPoolOptions<2>;
using MaxPool3dOptions = MaxPoolOptions<3>;
using AvgPool1dOptions = AvgPoolOptions<1>;
using AvgPool2dOptions = AvgPoolOptions<2>;
using AvgPool3dOptions = AvgPoolOptions<3>;
using LPPool1dOptions = LPPoolOptions<1>;
using LPPool2dOptions = LPPoolOptions<2>;
using AdaptiveAvgPool1dOptions = AdaptivePoolOptions<ExpandingArray<1>>;
using AdaptiveAvgPool2dOptions = AdaptivePoolOptions<ExpandingArrayWithOptionalElem<2>>;
using AdaptiveAvgPool3dOptions = AdaptivePoolOptions<ExpandingArrayWithOptionalElem<3>>;
using AdaptiveMaxPool1dOptions = AdaptivePoolOptions<ExpandingArray<1>>;
using AdaptiveMaxPool2dOptions = AdaptivePoolOptions<ExpandingArrayWithOptionalElem<2>>;
using AdaptiveMaxPool3dOptions = AdaptivePoolOptions<ExpandingArrayWithOptionalElem<3>>;

namespace functional {

using MaxPool1dFuncOptions = MaxPoolOptions<1>;
using MaxPool2dFuncOptions = MaxPoolOptions<2>;
using MaxPool3dFuncOptions = MaxPoolOptions<3>;
using AvgPool1dFuncOptions = AvgPoolOptions<1>;
using AvgPool2dFuncOptions = AvgPoolOptions<2>;
using AvgPool3dFuncOptions = AvgPoolOptions<3>;
using LPPool1dFuncOptions = LPPoolOptions<1>;
using LPPool2dFuncOptions = LPPoolOptions<2>;
using AdaptiveAvgPool1dFuncOptions = AdaptivePoolOptions<ExpandingArray<1>>;
using AdaptiveAvgPool2dFuncOptions = AdaptivePoolOptions<ExpandingArrayWithOptionalElem<2>>;
using AdaptiveAvgPool3dFuncOptions = AdaptivePoolOptions<ExpandingArrayWithOptionalElem<3>>;
using AdaptiveMaxPool1dFuncOptions = AdaptivePoolOptions<ExpandingArray<1>>;
using AdaptiveMaxPool2dFuncOptions = AdaptivePoolOptions<ExpandingArrayWithOptionalElem<2>>;
using AdaptiveMaxPool3dFuncOptions = AdaptivePoolOptions<ExpandingArrayWithOptionalElem<3>>;

/// [N, C, L] or [C, L] -> max over windows.
BRASA_API Tensor max_pool1d(const Tensor& input, const MaxPool1dFuncOptions& options);
BRASA_API Tensor max_pool2d(const Tensor& input, const MaxPool2dFuncOptions& options);
BRASA_API Tensor max_pool3d(const Tensor& input, const MaxPool3dFuncOptions& options);
/// (values, int64 indices: flat offsets within each input plane).
BRASA_API std::tuple<Tensor, Tensor> max_pool1d_with_indices(const Tensor& input,
                                                             const MaxPool1dFuncOptions& options);
BRASA_API std::tuple<Tensor, Tensor> max_pool2d_with_indices(const Tensor& input,
                                                             const MaxPool2dFuncOptions& options);
BRASA_API std::tuple<Tensor, Tensor> max_pool3d_with_indices(const Tensor& input,
                                                             const MaxPool3dFuncOptions& options);
/// Window means.
BRASA_API Tensor avg_pool1d(const Tensor& input, const AvgPool1dFuncOptions& options);
BRASA_API Tensor avg_pool2d(const Tensor& input, const AvgPool2dFuncOptions& options);
BRASA_API Tensor avg_pool3d(const Tensor& input, const AvgPool3dFuncOptions& options);
/// (sum of x^p over each window)^(1/p), p = norm_type: avg_pool of x^p (no padding) times the
/// window size, its sign kept, to the power 1/p. [N, C, L] / [C, L] (1d) or [N, C, H, W] /
/// [C, H, W] (2d); errors as avg_pool.
BRASA_API Tensor lp_pool1d(const Tensor& input, const LPPool1dFuncOptions& options);
BRASA_API Tensor lp_pool2d(const Tensor& input, const LPPool2dFuncOptions& options);
/// Adaptive pooling; a nullopt output size keeps that input dim.
BRASA_API Tensor adaptive_avg_pool1d(const Tensor& input,
                                     const AdaptiveAvgPool1dFuncOptions& options);
BRASA_API Tensor adaptive_avg_pool2d(const Tensor& input,
                                     const AdaptiveAvgPool2dFuncOptions& options);
BRASA_API Tensor adaptive_avg_pool3d(const Tensor& input,
                                     const AdaptiveAvgPool3dFuncOptions& options);
BRASA_API Tensor adaptive_max_pool1d(const Tensor& input,
                                     const AdaptiveMaxPool1dFuncOptions& options);
BRASA_API Tensor adaptive_max_pool2d(const Tensor& input,
                                     const AdaptiveMaxPool2dFuncOptions& options);
BRASA_API Tensor adaptive_max_pool3d(const Tensor& input,
                                     const AdaptiveMaxPool3dFuncOptions& options);
BRASA_API std::tuple<Tensor, Tensor> adaptive_max_pool1d_with_indices(
    const Tensor& input, const AdaptiveMaxPool1dFuncOptions& options);
BRASA_API std::tuple<Tensor, Tensor> adaptive_max_pool2d_with_indices(
    const Tensor& input, const AdaptiveMaxPool2dFuncOptions& options);
BRASA_API std::tuple<Tensor, Tensor> adaptive_max_pool3d_with_indices(
    const Tensor& input, const AdaptiveMaxPool3dFuncOptions& options);

}  // namespace functional
}  // namespace brasa::nn
