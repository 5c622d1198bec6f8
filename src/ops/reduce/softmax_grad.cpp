// Derivatives of softmax and log_softmax (written with differentiable ops: double backward works).

#include "brasa/ops/pointwise.h"
#include "brasa/ops/reduce.h"
#include "ops/reduce/reduce_grad.h"
#include "ops/reduce/reduce_ops.h"

namespace brasa::ops {

namespace {

Tensor sum_line(const Tensor& t, int64_t dim) {
  return t.dim() == 0 ? t : t.sum(IntArrayRef{dim}, true);
}

template <bool kLog>
Tensor softmax_ag(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  auto& op = kLog ? log_softmax_op() : softmax_op();
  Tensor r;
  {
    autograd::BelowAutograd below;
    r = op.call(self, dim, dtype);
  }
  if (!autograd::any_requires_grad({&self})) return r;
  const int64_t d = self.dim() == 0 ? 0 : detail::wrap_dim(dim, self.dim(), op.name().c_str());
  autograd::record_unary(kLog ? "LogSoftmaxBackward0" : "SoftmaxBackward0", op.name().c_str(), self,
                         r, false, true, [d](const Tensor& g, const Tensor&, const Tensor& y) {
                           if constexpr (kLog) {
                             return g - y.exp() * sum_line(g, d);
                           } else {
                             return y * (g - sum_line(g * y, d));
                           }
                         });
  return r;
}

}  // namespace

BRASA_REGISTER_KERNEL(softmax_op, softmax_ag<false>, Autograd)
BRASA_REGISTER_KERNEL(log_softmax_op, softmax_ag<true>, Autograd)

}  // namespace brasa::ops
