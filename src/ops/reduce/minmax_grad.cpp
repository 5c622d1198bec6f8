// Derivatives of amax/amin (and so max()/min()): the gradient is split evenly among the elements
// equal to the result, like PyTorch. max.dim/min.dim/sort/topk values get the gradient scattered
// back to their indices; index outputs and argmax/argmin have no history.

#include "brasa/ops/factory.h"
#include "brasa/ops/indexing_ops.h"
#include "brasa/ops/pointwise.h"
#include "brasa/ops/reduce.h"
#include "ops/reduce/reduce_grad.h"
#include "ops/reduce/reduce_ops.h"

namespace brasa::ops {

namespace {

template <bool kMax>
Tensor aminmax_ag(const Tensor& self, IntArrayRef dim, bool keepdim, const Tensor& out) {
  auto& op = kMax ? amax_op() : amin_op();
  Tensor r;
  {
    autograd::BelowAutograd below;
    r = op.call(self, dim, keepdim, out);
  }
  if (!autograd::any_requires_grad({&self})) return r;
  if (out.defined()) autograd::throw_out_with_grad(op.name().c_str());
  const int64_t ndim = self.dim();
  autograd::record_unary(
      kMax ? "AmaxBackward0" : "AminBackward0", op.name().c_str(), self, r, true, true,
      [dims = DimVector(dim), keepdim, ndim](const Tensor& g, const Tensor& x, const Tensor& y) {
        Tensor hit = x.eq(unsqueeze_reduced(y, ndim, dims, keepdim)).to(g.dtype());
        Tensor count = dims.empty() ? hit.sum() : hit.sum(dims, true);
        return hit * (unsqueeze_reduced(g, ndim, dims, keepdim) / count);
      });
  return r;
}

}  // namespace

Tensor select_backward(const Tensor& g, const Tensor& indices, IntArrayRef sizes, int64_t dim,
                       bool keepdim) {
  if (sizes.empty()) return g;
  Tensor gk = keepdim ? g : g.unsqueeze(dim);
  Tensor ik = keepdim ? indices : indices.unsqueeze(dim);
  return zeros(sizes, g.options()).scatter(dim, ik, gk);
}

namespace {

template <bool kMax>
std::tuple<Tensor, Tensor> minmax_dim_ag(const Tensor& self, int64_t dim, bool keepdim) {
  auto& op = kMax ? max_dim_op() : min_dim_op();
  std::tuple<Tensor, Tensor> r;
  {
    autograd::BelowAutograd below;
    r = op.call(self, dim, keepdim);
  }
  if (!autograd::any_requires_grad({&self})) return r;
  const int64_t d = self.dim() == 0 ? 0 : detail::wrap_dim(dim, self.dim(), op.name().c_str());
  auto fn = autograd::make_function_node(
      kMax ? "MaxBackward0" : "MinBackward0", op.name().c_str(), {&self},
      [indices = autograd::SavedVariable(std::get<1>(r)), sizes = DimVector(self.sizes()), d,
       keepdim](autograd::BackwardContext& ctx) -> autograd::variable_list {
        return {select_backward(ctx.grad(0), ctx.unpack(indices), sizes, d, keepdim)};
      });
  autograd::set_history(std::get<0>(r), fn);
  return r;
}

}  // namespace

BRASA_REGISTER_KERNEL(amax_op, aminmax_ag<true>, Autograd)
BRASA_REGISTER_KERNEL(amin_op, aminmax_ag<false>, Autograd)
BRASA_REGISTER_KERNEL(max_dim_op, minmax_dim_ag<true>, Autograd)
BRASA_REGISTER_KERNEL(min_dim_op, minmax_dim_ag<false>, Autograd)
BRASA_NON_DIFFERENTIABLE(argmax_op)
BRASA_NON_DIFFERENTIABLE(argmin_op)

}  // namespace brasa::ops
