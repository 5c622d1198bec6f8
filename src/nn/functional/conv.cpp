// torch::nn::functional convolutions (brasa/nn/functional/conv.h): the options' fields passed to
// the brasa:: convolutions, a "valid" or "same" padding as its string form.

#include "brasa/nn/functional/conv.h"

#include <string_view>

#include "brasa/ops/conv.h"

namespace brasa::nn::functional {
namespace {

template <size_t D, typename Conv>
Tensor conv(const Tensor& x, const Tensor& w, const ConvFuncOptions<D>& o, Conv f) {
  const auto& pad = o.padding();
  if (holds_alternative<enumtype::kValid>(pad))
    return f(x, w, o.bias(), o.stride(), std::string_view("valid"), o.dilation(), o.groups());
  if (holds_alternative<enumtype::kSame>(pad))
    return f(x, w, o.bias(), o.stride(), std::string_view("same"), o.dilation(), o.groups());
  return f(x, w, o.bias(), o.stride(), IntArrayRef(get<ExpandingArray<D>>(pad)), o.dilation(),
           o.groups());
}

}  // namespace

Tensor conv1d(const Tensor& input, const Tensor& weight, const Conv1dFuncOptions& options) {
  return conv<1>(input, weight, options, [](auto&&... a) { return brasa::conv1d(a...); });
}
Tensor conv2d(const Tensor& input, const Tensor& weight, const Conv2dFuncOptions& options) {
  return conv<2>(input, weight, options, [](auto&&... a) { return brasa::conv2d(a...); });
}
Tensor conv3d(const Tensor& input, const Tensor& weight, const Conv3dFuncOptions& options) {
  return conv<3>(input, weight, options, [](auto&&... a) { return brasa::conv3d(a...); });
}

Tensor conv_transpose1d(const Tensor& input, const Tensor& weight,
                        const ConvTranspose1dFuncOptions& o) {
  return brasa::conv_transpose1d(input, weight, o.bias(), o.stride(), o.padding(),
                                 o.output_padding(), o.groups(), o.dilation());
}
Tensor conv_transpose2d(const Tensor& input, const Tensor& weight,
                        const ConvTranspose2dFuncOptions& o) {
  return brasa::conv_transpose2d(input, weight, o.bias(), o.stride(), o.padding(),
                                 o.output_padding(), o.groups(), o.dilation());
}
Tensor conv_transpose3d(const Tensor& input, const Tensor& weight,
                        const ConvTranspose3dFuncOptions& o) {
  return brasa::conv_transpose3d(input, weight, o.bias(), o.stride(), o.padding(),
                                 o.output_padding(), o.groups(), o.dilation());
}

}  // namespace brasa::nn::functional
