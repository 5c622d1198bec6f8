// at::nll_loss_nd and the _forward forms that also return the total weight (libtorch's kernels'
// second output, which their callers divide by).

#include "brasa/core/error.h"
#include "brasa/dispatch/grad_mode.h"
#include "brasa/nn/loss_functions.h"
#include "brasa/nn/margin_loss_functions.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/indexing_ops.h"
#include "brasa/ops/pointwise.h"
#include "brasa/ops/reduce.h"

namespace brasa {
namespace {

/// The sum of the weights of the targets other than ignore_index (their count without weights).
Tensor total_weight(const Tensor& self, const Tensor& target, const std::optional<Tensor>& weight,
                    int64_t reduction, int64_t ignore_index) {
  NoGradGuard no_grad;  // a count, not differentiated
  if (reduction == Reduction::None) return zeros({}, self.options());
  Tensor t = target.flatten();
  Tensor valid = t.ne(ignore_index);
  if (!weight || !weight->defined()) return valid.sum().to(self.scalar_type());
  Tensor w = weight->to(self.scalar_type()).index_select(0, t.masked_fill(valid.logical_not(), 0));
  return (w * valid).sum();
}

}  // namespace

Tensor nll_loss_nd(const Tensor& self, const Tensor& target, const std::optional<Tensor>& weight,
                   int64_t reduction, int64_t ignore_index) {
  return nll_loss(self, target, weight, reduction, ignore_index);
}

std::tuple<Tensor, Tensor> nll_loss_forward(const Tensor& self, const Tensor& target,
                                            const std::optional<Tensor>& weight, int64_t reduction,
                                            int64_t ignore_index) {
  BRASA_CHECK(self.defined() && self.dim() >= 1 && self.dim() <= 2,
              "nll_loss_forward: expected an input of 1 or 2 dims [C] or [N, C], got ",
              self.defined() ? self.sizes() : IntArrayRef{});
  Tensor out = nll_loss(self, target, weight, reduction, ignore_index);  // checks the target
  return {out, total_weight(self, target, weight, reduction, ignore_index)};
}

std::tuple<Tensor, Tensor> nll_loss2d_forward(const Tensor& self, const Tensor& target,
                                              const std::optional<Tensor>& weight,
                                              int64_t reduction, int64_t ignore_index) {
  Tensor out = nll_loss2d(self, target, weight, reduction, ignore_index);  // checks 4 dims
  return {out, total_weight(self, target, weight, reduction, ignore_index)};
}

}  // namespace brasa
