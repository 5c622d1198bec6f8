// Derivative of convolution: the dispatched convolution_backward, asked only for the gradients
// needed. convolution_backward itself has no derivative (double backward through a convolution
// throws "derivative for convolution_backward is not implemented").

#include <vector>

#include "autograd/function_node.h"
#include "brasa/ops/conv.h"

namespace brasa::ops {

BRASA_DECLARE_OP(convolution_op, Tensor(const Tensor&, const Tensor&, const Tensor&, IntArrayRef,
                                        IntArrayRef, IntArrayRef, bool, IntArrayRef, int64_t))

namespace {

using autograd::BackwardContext;
using autograd::BelowAutograd;
using autograd::SavedVariable;
using autograd::variable_list;

using Ints = std::vector<int64_t>;

Ints to_vec(IntArrayRef a) { return Ints(a.begin(), a.end()); }

Tensor convolution_ag(const Tensor& input, const Tensor& weight, const Tensor& bias,
                      IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation,
                      bool transposed, IntArrayRef output_padding, int64_t groups) {
  if (!autograd::any_requires_grad({&input, &weight, &bias})) {
    BelowAutograd below;
    return convolution_op().call(input, weight, bias, stride, padding, dilation, transposed,
                                 output_padding, groups);
  }
  auto node = autograd::make_function_node(
      "ConvolutionBackward0", "convolution", {&input, &weight, &bias},
      [si = SavedVariable(input), sw = SavedVariable(weight), stride = to_vec(stride),
       padding = to_vec(padding), dilation = to_vec(dilation), transposed,
       output_padding = to_vec(output_padding), groups](BackwardContext& ctx) -> variable_list {
        auto [gi, gw, gb] = convolution_backward(
            ctx.grad(0).contiguous(), ctx.unpack(si), ctx.unpack(sw), stride, padding, dilation,
            transposed, output_padding, groups, {ctx.needs(0), ctx.needs(1), ctx.needs(2)});
        return {gi, gw, gb};
      });
  Tensor r;
  {
    BelowAutograd below;
    r = convolution_op().call(input, weight, bias, stride, padding, dilation, transposed,
                              output_padding, groups);
  }
  autograd::set_history(r, node);
  return r;
}

}  // namespace

BRASA_REGISTER_KERNEL(convolution_op, convolution_ag, Autograd)

}  // namespace brasa::ops
