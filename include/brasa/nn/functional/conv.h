#pragma once
// torch::nn::functional convolutions with libtorch's option structs:
// `F::conv2d(x, w, F::Conv2dFuncOptions().stride(2).padding(1))`, `.padding(torch::kSame)`.
// Errors as for brasa::conv2d (brasa/ops/conv.h).

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <variant>
#include <vector>

#include "brasa/core/error.h"
#include "brasa/core/options_arg.h"
#include "brasa/nn/expanding_array.h"
#include "brasa/ops/conv.h"

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
using conv_padding_t = std::variant<ExpandingArray<D>, enumtype::kValid, enumtype::kSame>;
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

namespace detail {
template <size_t D, typename Conv, typename ConvStr>
Tensor conv(const Tensor& x, const Tensor& w, const ConvFuncOptions<D>& o, Conv f, ConvStr fs) {
  const auto& pad = o.padding();
  if (std::holds_alternative<enumtype::kValid>(pad))
    return fs(x, w, o.bias(), o.stride(), "valid", o.dilation(), o.groups());
  if (std::holds_alternative<enumtype::kSame>(pad))
    return fs(x, w, o.bias(), o.stride(), "same", o.dilation(), o.groups());
  return f(x, w, o.bias(), o.stride(), IntArrayRef(std::get<ExpandingArray<D>>(pad)), o.dilation(),
           o.groups());
}
}  // namespace detail

/// [N, C_in, L] (or unbatched [C_in, L]) -> [N, C_out, L_out].
inline Tensor conv1d(const Tensor& input, const Tensor& weight,
                     const Conv1dFuncOptions& options = {}) {
  return detail::conv<1>(
      input, weight, options, [](auto&&... a) { return brasa::conv1d(a...); },
      [](const Tensor& x, const Tensor& w, const Tensor& b, IntArrayRef s, const char* p,
         IntArrayRef d,
         int64_t g) { return brasa::conv1d(x, w, b, s, std::string_view(p), d, g); });
}
/// [N, C_in, H, W] (or unbatched [C_in, H, W]) -> [N, C_out, H_out, W_out].
inline Tensor conv2d(const Tensor& input, const Tensor& weight,
                     const Conv2dFuncOptions& options = {}) {
  return detail::conv<2>(
      input, weight, options, [](auto&&... a) { return brasa::conv2d(a...); },
      [](const Tensor& x, const Tensor& w, const Tensor& b, IntArrayRef s, const char* p,
         IntArrayRef d,
         int64_t g) { return brasa::conv2d(x, w, b, s, std::string_view(p), d, g); });
}
/// [N, C_in, D, H, W] (or unbatched) -> [N, C_out, D_out, H_out, W_out].
inline Tensor conv3d(const Tensor& input, const Tensor& weight,
                     const Conv3dFuncOptions& options = {}) {
  return detail::conv<3>(
      input, weight, options, [](auto&&... a) { return brasa::conv3d(a...); },
      [](const Tensor& x, const Tensor& w, const Tensor& b, IntArrayRef s, const char* p,
         IntArrayRef d,
         int64_t g) { return brasa::conv3d(x, w, b, s, std::string_view(p), d, g); });
}
inline Tensor conv_transpose1d(const Tensor& input, const Tensor& weight,
                               const ConvTranspose1dFuncOptions& o = {}) {
  return brasa::conv_transpose1d(input, weight, o.bias(), o.stride(), o.padding(),
                                 o.output_padding(), o.groups(), o.dilation());
}
inline Tensor conv_transpose2d(const Tensor& input, const Tensor& weight,
                               const ConvTranspose2dFuncOptions& o = {}) {
  return brasa::conv_transpose2d(input, weight, o.bias(), o.stride(), o.padding(),
                                 o.output_padding(), o.groups(), o.dilation());
}
inline Tensor conv_transpose3d(const Tensor& input, const Tensor& weight,
                               const ConvTranspose3dFuncOptions& o = {}) {
  return brasa::conv_transpose3d(input, weight, o.bias(), o.stride(), o.padding(),
                                 o.output_padding(), o.groups(), o.dilation());
}

}  // namespace functional
}  // namespace nn
}  // namespace brasa
