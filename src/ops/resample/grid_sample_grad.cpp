// Derivatives of grid_sampler_2d / 3d: their backward ops give the gradients of input and grid.
// As in PyTorch 1.13, the backward ops themselves have no derivative: differentiating them (a
// second backward through create_graph) raises NotImplementedError.

#include <tuple>

#include "autograd/function_node.h"
#include "autograd/no_derivative.h"
#include "ops/resample/grid_sample_ops.h"

namespace brasa::ops {
namespace {

using autograd::BackwardContext;
using autograd::BelowAutograd;
using autograd::SavedVariable;
using autograd::variable_list;

using Backward = Op<std::tuple<Tensor, Tensor>(const Tensor&, const Tensor&, const Tensor&, int64_t,
                                               int64_t, bool)>;
using Forward = Op<Tensor(const Tensor&, const Tensor&, int64_t, int64_t, bool)>;

struct SamplerClosure {
  SavedVariable input, grid;
  int64_t mode, padding;
  bool align_corners;
  Backward* backward;
  variable_list operator()(BackwardContext& ctx) const {
    auto [gi, gg] = backward->call(ctx.grad(0), ctx.unpack(input), ctx.unpack(grid), mode, padding,
                                   align_corners);
    return {ctx.needs(0) ? gi : Tensor(), ctx.needs(1) ? gg : Tensor()};
  }
};

Tensor sample(Forward& op, Backward& backward, const char* node_name, const Tensor& input,
              const Tensor& grid, int64_t mode, int64_t padding, bool align_corners) {
  if (!autograd::any_requires_grad({&input, &grid})) {
    BelowAutograd below;
    return op.call(input, grid, mode, padding, align_corners);
  }
  SamplerClosure c{
      SavedVariable(input), SavedVariable(grid), mode, padding, align_corners, &backward};
  return autograd::record(node_name, op.name().c_str(), {&input, &grid}, input, Tensor(),
                          std::move(c),
                          [&] { return op.call(input, grid, mode, padding, align_corners); })
      .first;
}

Tensor sampler_2d_ag(const Tensor& input, const Tensor& grid, int64_t mode, int64_t padding,
                     bool align_corners) {
  return sample(grid_sampler_2d_op(), grid_sampler_2d_backward_op(), "GridSampler2DBackward0",
                input, grid, mode, padding, align_corners);
}

Tensor sampler_3d_ag(const Tensor& input, const Tensor& grid, int64_t mode, int64_t padding,
                     bool align_corners) {
  return sample(grid_sampler_3d_op(), grid_sampler_3d_backward_op(), "GridSampler3DBackward0",
                input, grid, mode, padding, align_corners);
}

using autograd::NoDerivative;

std::tuple<Tensor, Tensor> backward_ag(Backward& op, const char* node_name, const Tensor& go,
                                       const Tensor& input, const Tensor& grid, int64_t mode,
                                       int64_t padding, bool align_corners) {
  std::tuple<Tensor, Tensor> r;
  {
    BelowAutograd below;
    r = op.call(go, input, grid, mode, padding, align_corners);
  }
  if (!autograd::any_requires_grad({&go, &input, &grid})) return r;
  auto node = autograd::make_function_node(node_name, op.name().c_str(), {&go, &input, &grid},
                                           NoDerivative{op.name().c_str()}, false);
  autograd::set_history(std::get<0>(r), node);
  autograd::set_history(std::get<1>(r), node);
  return r;
}

std::tuple<Tensor, Tensor> sampler_2d_backward_ag(const Tensor& go, const Tensor& input,
                                                  const Tensor& grid, int64_t mode, int64_t padding,
                                                  bool align_corners) {
  return backward_ag(grid_sampler_2d_backward_op(), "GridSampler2DBackwardBackward0", go, input,
                     grid, mode, padding, align_corners);
}

std::tuple<Tensor, Tensor> sampler_3d_backward_ag(const Tensor& go, const Tensor& input,
                                                  const Tensor& grid, int64_t mode, int64_t padding,
                                                  bool align_corners) {
  return backward_ag(grid_sampler_3d_backward_op(), "GridSampler3DBackwardBackward0", go, input,
                     grid, mode, padding, align_corners);
}

}  // namespace

BRASA_REGISTER_KERNEL(grid_sampler_2d_op, sampler_2d_ag, Autograd)
BRASA_REGISTER_KERNEL(grid_sampler_3d_op, sampler_3d_ag, Autograd)
BRASA_REGISTER_KERNEL(grid_sampler_2d_backward_op, sampler_2d_backward_ag, Autograd)
BRASA_REGISTER_KERNEL(grid_sampler_3d_backward_op, sampler_3d_backward_ag, Autograd)

}  // namespace brasa::ops
