// Derivatives of cummax/cummin (the gradient of each running extreme is added to the element it
// came from) and logcumsumexp, written with ops so that higher orders work.

#include <limits>

#include "autograd/function_node.h"
#include "brasa/core/empty.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/indexing_ops.h"
#include "brasa/ops/pointwise.h"
#include "brasa/ops/statistics.h"
#include "ops/reduce/cumulative_ops.h"

namespace brasa::ops {
namespace {

using PairSig = std::tuple<Tensor, Tensor>;

template <bool kMin>
PairSig cum_extreme_ag(const Tensor& self, int64_t dim) {
  PairSig r;
  {
    autograd::BelowAutograd below;
    r = (kMin ? cummin_op() : cummax_op()).call(self, dim);
  }
  if (!autograd::any_requires_grad({&self})) return r;
  const char* op = kMin ? "cummin" : "cummax";
  const int64_t d = self.dim() == 0 ? 0 : detail::wrap_dim(dim, self.dim(), op);
  auto fn =
      autograd::make_function_node(kMin ? "CumminBackward0" : "CummaxBackward0", op, {&self},
                                   [indices = autograd::SavedVariable(std::get<1>(r)),
                                    d](autograd::BackwardContext& ctx) -> autograd::variable_list {
                                     const Tensor& g = ctx.grad(0);
                                     if (g.dim() == 0) return {g};
                                     return {zeros_like(g).scatter_add(d, ctx.unpack(indices), g)};
                                   });
  autograd::set_history(std::get<0>(r), fn);
  return r;
}

// x_i's gradient is sum_{j >= i} g_j exp(x_i - y_j): split into the positive and negative parts of
// g, each a reversed logcumsumexp of log|g_j| - y_j, so nothing overflows.
Tensor reverse_logcumsumexp(const Tensor& t, int64_t d) {
  return logcumsumexp(t.flip(IntArrayRef{d}), d).flip(IntArrayRef{d});
}
Tensor logcumsumexp_backward(const Tensor& g, const Tensor& x, const Tensor& y, int64_t d) {
  const double neg_inf = -std::numeric_limits<double>::infinity();
  Tensor pos = where(g.gt(0), g.log(), full_like(g, neg_inf)) - y;
  Tensor neg = where(g.lt(0), (-g).log(), full_like(g, neg_inf)) - y;
  return (reverse_logcumsumexp(pos, d) + x).exp() - (reverse_logcumsumexp(neg, d) + x).exp();
}

Tensor logcumsumexp_ag(const Tensor& self, int64_t dim) {
  Tensor r;
  {
    autograd::BelowAutograd below;
    r = logcumsumexp_op().call(self, dim);
  }
  if (!autograd::any_requires_grad({&self})) return r;
  const int64_t d = self.dim() == 0 ? 0 : detail::wrap_dim(dim, self.dim(), "logcumsumexp");
  autograd::record_unary("LogcumsumexpBackward0", "logcumsumexp", self, r, true, true,
                         [d](const Tensor& g, const Tensor& x, const Tensor& y) {
                           if (g.dim() == 0) return g;
                           return logcumsumexp_backward(g, x, y, d);
                         });
  return r;
}

}  // namespace

BRASA_REGISTER_KERNEL(cummax_op, cum_extreme_ag<false>, Autograd)
BRASA_REGISTER_KERNEL(cummin_op, cum_extreme_ag<true>, Autograd)
BRASA_REGISTER_KERNEL(logcumsumexp_op, logcumsumexp_ag, Autograd)

}  // namespace brasa::ops
