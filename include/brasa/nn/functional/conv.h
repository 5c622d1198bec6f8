#pragma once
// torch::nn::functional convolutions with libtorch's option structs:
// `F::conv2d(x, w, F::Conv2dFuncOptions().stride(2).padding(1))`, `.padding(torch::kSame)`.
// Errors as for brasa::conv2d (brasa/ops/conv.h).

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <vector>

#include "brasa/core/error.h"
#include "brasa/core/options_arg.h"
#include "brasa/core/tensor.h"
#include "brasa/nn/enum_variant.h"
#include "brasa/nn/expanding_array.h"

namespace brasa {
namespace enumtype {
struct kValid {};
struct kSame {};
}  // namespace enumtype
inline constexpr enumtype::kValid kValid{};
inline constexpr enumtype::kSame kSame{};

namespace nn {
namespace detail {
template <size_t D>
using conv_padding_t = EnumVariant<ExpandingArray<D>, enumtype::kValid, enumtype::kSame>;
}  // namespace detail

namespace functional {

template <size_t D>
struct ConvFuncOptions {
  using padding_t = detail::conv_padding_t<D>;
  BRASA_ARG(Tensor, bias) = {};
  BRASA_ARG(ExpandingArray<D>, stride) = 1;
  BRASA_ARG(padding_t, padding) = ExpandingArray<D>(0);
  BRASA_ARG(ExpandingArray<D>, dilation) = 1;
  BRASA_ARG(int64_t, groups) = 1;
};
using Conv1dFuncOptions = ConvFuncOptions<1>;
using Conv2dFuncOptions = ConvFuncOptions<2>;
using Conv3dFuncOptions = ConvFuncOptions<3>;

template <size_t D>
struct ConvTransposeFuncOptions {
  BRASA_ARG(Tensor, bias) = {};
  BRASA_ARG(ExpandingArray<D>, stride) = 1;
  BRASA_ARG(ExpandingArray<D>, padding) = 0;
  BRASA_ARG(ExpandingArray<D>, output_padding) = 0;
  BRASA_ARG(int64_t, groups) = 1;
  BRASA_ARG(ExpandingArray<D>, dilation) = 1;
};
using ConvTranspose1dFuncOptions = ConvTransposeFuncOptions<1>;
using ConvTranspose2dFuncOptions = ConvTransposeFuncOptions<2>;
using ConvTranspose3dFuncOptions = ConvTransposeFuncOptions<3>;

/// [N, C_in, L] (or unbatched [C_in, L]) -> [N, C_out, L_out].
BRASA_API Tensor conv1d(const Tensor& input, const Tensor& weight,
                        const Conv1dFuncOptions& options = {});
/// [N, C_in, H, W] (or unbatched [C_in, H, W]) -> [N, C_out, H_out, W_out].
BRASA_API Tensor conv2d(const Tensor& input, const Tensor& weight,
                        const Conv2dFuncOptions& options = {});
/// [N, C_in, D, H, W] (or unbatched) -> [N, C_out, D_out, H_out, W_out].
BRASA_API Tensor conv3d(const Tensor& input, const Tensor& weight,
                        const Conv3dFuncOptions& options = {});
/// The transposed convolutions (brasa::conv_transpose1d/2d/3d) with the options' arguments.
BRASA_API Tensor conv_transpose1d(const Tensor& input, const Tensor& weight,
                                  const ConvTranspose1dFuncOptions& options = {});
BRASA_API Tensor conv_transpose2d(const Tensor& input, const Tensor& weight,
                                  const ConvTranspose2dFuncOptions& options = {});
BRASA_API Tensor conv_transpose3d(const Tensor& input, const Tensor& weight,
                                  const ConvTranspose3dFuncOptions& options = {});

}  // namespace functional
}  // namespace nn
}  // namespace brasa
