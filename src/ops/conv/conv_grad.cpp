// Derivatives of convolution (the dispatched convolution_backward, asked only for the gradients
// needed) and of convolution_backward (double backward). For the latter: a convolution C(x, w) is
// bilinear, and its gradients are gi = d<go, C(x, w)>/dx, gw = d<go, C(x, w)>/dw, gb = sum(go);
// so with incoming ggi, ggw, ggb:
//   d/dgo = C(ggi, w) + C(x, ggw) + ggb,  d/dx = d<go, C(x, ggw)>/dx,  d/dw = d<go, C(ggi, w)>/dw,
// the last two being convolution_backward again (any order of derivatives).

#include <array>
#include <vector>

#include "autograd/function_node.h"
#include "brasa/ops/conv.h"
#include "ops/conv/conv_ops.h"

namespace brasa::ops {

using Triple = std::tuple<Tensor, Tensor, Tensor>;

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

struct ConvArgs {
  Ints stride, padding, dilation;
  bool transposed;
  Ints output_padding;
  int64_t groups;

  Tensor conv(const Tensor& x, const Tensor& w) const {
    return convolution(x, w, Tensor(), stride, padding, dilation, transposed, output_padding,
                       groups);
  }
  Triple backward(const Tensor& go, const Tensor& x, const Tensor& w,
                  std::array<bool, 3> mask) const {
    return convolution_backward(go, x, w, stride, padding, dilation, transposed, output_padding,
                                groups, mask);
  }
};

Tensor add_defined(const Tensor& a, const Tensor& b) {
  if (!a.defined()) return b;
  return b.defined() ? a + b : a;
}

struct BackwardClosure {
  SavedVariable go, x, w;
  ConvArgs args;
  std::array<int, 3> slot;  // slot[output_nr]: which of (gi, gw, gb) that output is
  variable_list operator()(BackwardContext& ctx) const {
    std::array<Tensor, 3> gg;
    for (size_t i = 0; i < ctx.num_grads(); ++i) gg[size_t(slot[i])] = ctx.grad(i);
    const Tensor tgo = ctx.unpack(go), tx = ctx.unpack(x), tw = ctx.unpack(w);
    Tensor d_go, d_x, d_w;
    if (ctx.needs(0)) {
      if (gg[0].defined()) d_go = args.conv(gg[0], tw);
      if (gg[1].defined()) d_go = add_defined(d_go, args.conv(tx, gg[1]));
      if (gg[2].defined()) {
        DimVector shape(size_t(tgo.dim()), 1);
        shape[1] = gg[2].size(0);
        d_go = add_defined(d_go, gg[2].view(shape).expand(tgo.sizes()));
      }
    }
    if (ctx.needs(1) && gg[1].defined())
      d_x = std::get<0>(args.backward(tgo, tx, gg[1], {true, false, false}));
    if (ctx.needs(2) && gg[0].defined())
      d_w = std::get<1>(args.backward(tgo, gg[0], tw, {false, true, false}));
    return {d_go, d_x, d_w};
  }
};

Triple convolution_backward_ag(const Tensor& go, const Tensor& x, const Tensor& w,
                               IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation,
                               bool transposed, IntArrayRef output_padding, int64_t groups,
                               bool need_x, bool need_w, bool need_b) {
  Triple r;
  {
    BelowAutograd below;
    r = convolution_backward_op().call(go, x, w, stride, padding, dilation, transposed,
                                       output_padding, groups, need_x, need_w, need_b);
  }
  if (!autograd::any_requires_grad({&go, &x, &w})) return r;
  ConvArgs args{to_vec(stride), to_vec(padding),        to_vec(dilation),
                transposed,     to_vec(output_padding), groups};
  auto node = autograd::make_function_node(
      "ConvolutionBackwardBackward0", "convolution_backward", {&go, &x, &w},
      BackwardClosure{
          SavedVariable(go), SavedVariable(x), SavedVariable(w), std::move(args), {0, 0, 0}});
  int nr = 0;
  auto& [gi, gw, gb] = r;
  for (int i = 0; i < 3; ++i) {
    const Tensor& t = i == 0 ? gi : i == 1 ? gw : gb;
    if (!t.defined()) continue;
    node->closure().slot[size_t(nr++)] = i;
    autograd::set_history(t, node);
  }
  return r;
}

}  // namespace

BRASA_REGISTER_KERNEL(convolution_op, convolution_ag, Autograd)
BRASA_REGISTER_KERNEL(convolution_backward_op, convolution_backward_ag, Autograd)

}  // namespace brasa::ops
