// The dispatched convolution and convolution_backward ops. A transposed convolution is computed
// as the input gradient of the regular convolution it transposes, and its gradients as a regular
// forward (input) and weight gradient with the roles of input and grad_output swapped.
#include <utility>

#include "brasa/core/empty.h"
#include "brasa/core/error.h"
#include "brasa/dispatch/dispatcher.h"
#include "brasa/ops/conv.h"
#include "ops/conv/conv_ops.h"
#include "ops/conv/conv_params.h"

namespace brasa::ops {
namespace {

using conv::ConvParams;

Tensor bias_view(const Tensor& bias, int64_t nsp) {
  DimVector shape(static_cast<size_t>(nsp + 2), 1);
  shape[1] = bias.size(0);
  return bias.view(shape);
}

// The shape rule: the checked parameters and the empty result.
std::pair<ConvParams, Tensor> convolution_rule(const Tensor& input, const Tensor& weight,
                                               const Tensor& bias, IntArrayRef stride,
                                               IntArrayRef padding, IntArrayRef dilation,
                                               bool transposed, IntArrayRef output_padding,
                                               int64_t groups) {
  ConvParams p = conv::check_conv("convolution", input, weight, bias, stride, padding, dilation,
                                  transposed, output_padding, groups);
  Tensor y = detail::empty_generic(conv::conv_output_shape(p, input.sizes(), weight.sizes()),
                                   input.dtype(), input.device());
  return {p, y};
}

Tensor convolution_meta(const Tensor& input, const Tensor& weight, const Tensor& bias,
                        IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation,
                        bool transposed, IntArrayRef output_padding, int64_t groups) {
  return convolution_rule(input, weight, bias, stride, padding, dilation, transposed,
                          output_padding, groups)
      .second;
}

Tensor convolution_kernel(const Tensor& input, const Tensor& weight, const Tensor& bias,
                          IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation,
                          bool transposed, IntArrayRef output_padding, int64_t groups) {
  auto [p, y] = convolution_rule(input, weight, bias, stride, padding, dilation, transposed,
                                 output_padding, groups);
  if (y.numel() == 0) return y;
  if (!transposed) {
    conv::conv_forward(y, input, weight, bias, p);
  } else {
    conv::conv_backward_data(y, input, weight, p);
    if (bias.defined()) y.add_(bias_view(bias, p.nsp));
  }
  return y;
}

using Triple = std::tuple<Tensor, Tensor, Tensor>;

// The shape rule of the backward: the checked parameters and the empty gradients asked for.
std::pair<ConvParams, Triple> convolution_backward_rule(
    const Tensor& grad_output, const Tensor& input, const Tensor& weight, IntArrayRef stride,
    IntArrayRef padding, IntArrayRef dilation, bool transposed, IntArrayRef output_padding,
    int64_t groups, bool need_input, bool need_weight, bool need_bias) {
  const char* op = "convolution_backward";
  ConvParams p = conv::check_conv(op, input, weight, Tensor(), stride, padding, dilation,
                                  transposed, output_padding, groups);
  BRASA_CHECK(grad_output.defined(), op, ": grad_output is undefined");
  BRASA_CHECK_TYPE(grad_output.dtype() == input.dtype(), op, ": grad_output type (",
                   grad_output.dtype(), ") and input type (", input.dtype(),
                   ") should be the same");
  const DimVector out_shape = conv::conv_output_shape(p, input.sizes(), weight.sizes());
  BRASA_CHECK(grad_output.sizes() == IntArrayRef(out_shape), op, ": expected grad_output of size ",
              conv::shape_str(out_shape), ", but got ", conv::shape_str(grad_output.sizes()));
  const ScalarType dt = input.dtype();
  const Device dev = input.device();
  Tensor gi, gw, gb;
  if (need_input) gi = detail::empty_generic(input.sizes(), dt, dev);
  if (need_weight) gw = detail::empty_generic(weight.sizes(), dt, dev);
  if (need_bias) gb = detail::empty_generic({out_shape[1]}, dt, dev);
  return {p, {gi, gw, gb}};
}

Triple convolution_backward_meta(const Tensor& grad_output, const Tensor& input,
                                 const Tensor& weight, IntArrayRef stride, IntArrayRef padding,
                                 IntArrayRef dilation, bool transposed, IntArrayRef output_padding,
                                 int64_t groups, bool need_input, bool need_weight,
                                 bool need_bias) {
  return convolution_backward_rule(grad_output, input, weight, stride, padding, dilation,
                                   transposed, output_padding, groups, need_input, need_weight,
                                   need_bias)
      .second;
}

Triple convolution_backward_kernel(const Tensor& grad_output, const Tensor& input,
                                   const Tensor& weight, IntArrayRef stride, IntArrayRef padding,
                                   IntArrayRef dilation, bool transposed,
                                   IntArrayRef output_padding, int64_t groups, bool need_input,
                                   bool need_weight, bool need_bias) {
  auto [p, grads] =
      convolution_backward_rule(grad_output, input, weight, stride, padding, dilation, transposed,
                                output_padding, groups, need_input, need_weight, need_bias);
  auto& [gi, gw, gb] = grads;
  const ScalarType dt = input.dtype();
  const Device dev = input.device();
  if (need_bias) {
    DimVector dims{0};
    for (int64_t i = 0; i < p.nsp; ++i) dims.push_back(i + 2);
    gb.copy_(grad_output.sum(dims));
  }
  if (!transposed) {
    if (need_input) conv::conv_backward_data(gi, grad_output, weight, p);
    if (need_weight) conv::conv_backward_weight(gw, grad_output, input, p);
    return {gi, gw, gb};
  }
  ConvParams regular = p;
  regular.transposed = false;
  if (need_input && gi.numel() > 0) {
    // With output_padding >= stride the regular convolution of grad_output is longer than input.
    const DimVector full = conv::conv_output_shape(regular, grad_output.sizes(), weight.sizes());
    if (IntArrayRef(full) == input.sizes()) {
      conv::conv_forward(gi, grad_output, weight, Tensor(), regular);
    } else {
      Tensor tmp = detail::empty_generic(full, dt, dev);
      conv::conv_forward(tmp, grad_output, weight, Tensor(), regular);
      for (int64_t i = 0; i < p.nsp; ++i) tmp = tmp.narrow(i + 2, 0, input.size(i + 2));
      gi.copy_(tmp);
    }
  }
  if (need_weight) conv::conv_backward_weight(gw, input, grad_output, regular);
  return {gi, gw, gb};
}

}  // namespace

BRASA_DEFINE_OP(convolution_op)
BRASA_REGISTER_KERNEL(convolution_op, convolution_kernel, CPU)
BRASA_REGISTER_KERNEL(convolution_op, convolution_meta, Meta)

BRASA_DEFINE_OP(convolution_backward_op)
BRASA_REGISTER_KERNEL(convolution_backward_op, convolution_backward_kernel, CPU)
BRASA_REGISTER_KERNEL(convolution_backward_op, convolution_backward_meta, Meta)

}  // namespace brasa::ops

namespace brasa {

Tensor convolution(const Tensor& input, const Tensor& weight, const Tensor& bias,
                   IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation, bool transposed,
                   IntArrayRef output_padding, int64_t groups) {
  return ops::convolution_op().call(input, weight, bias, stride, padding, dilation, transposed,
                                    output_padding, groups);
}

std::tuple<Tensor, Tensor, Tensor> convolution_backward(const Tensor& grad_output,
                                                        const Tensor& input, const Tensor& weight,
                                                        IntArrayRef stride, IntArrayRef padding,
                                                        IntArrayRef dilation, bool transposed,
                                                        IntArrayRef output_padding, int64_t groups,
                                                        std::array<bool, 3> output_mask) {
  return ops::convolution_backward_op().call(grad_output, input, weight, stride, padding, dilation,
                                             transposed, output_padding, groups, output_mask[0],
                                             output_mask[1], output_mask[2]);
}

}  // namespace brasa
