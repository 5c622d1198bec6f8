// Derivatives of sort and topk: the values' gradient is scattered back to their indices (which
// have no history).

#include "ops/reduce/reduce_grad.h"
#include "ops/reduce/reduce_ops.h"

namespace brasa::ops {

using PairSig = std::tuple<Tensor, Tensor>;

namespace {

PairSig record_select(const char* node, const char* op, const Tensor& self, int64_t dim,
                      PairSig r) {
  if (!autograd::any_requires_grad({&self})) return r;
  const int64_t d = self.dim() == 0 ? 0 : detail::wrap_dim(dim, self.dim(), op);
  auto fn = autograd::make_function_node(
      node, op, {&self},
      [indices = autograd::SavedVariable(std::get<1>(r)), sizes = DimVector(self.sizes()),
       d](autograd::BackwardContext& ctx) -> autograd::variable_list {
        return {select_backward(ctx.grad(0), ctx.unpack(indices), sizes, d, true)};
      });
  autograd::set_history(std::get<0>(r), fn);
  return r;
}

PairSig sort_ag(const Tensor& self, int64_t dim, bool descending) {
  PairSig r;
  {
    autograd::BelowAutograd below;
    r = sort_op().call(self, dim, descending);
  }
  return record_select("SortBackward0", "sort", self, dim, std::move(r));
}

PairSig topk_ag(const Tensor& self, int64_t k, int64_t dim, bool largest, bool sorted) {
  PairSig r;
  {
    autograd::BelowAutograd below;
    r = topk_op().call(self, k, dim, largest, sorted);
  }
  return record_select("TopkBackward0", "topk", self, dim, std::move(r));
}

}  // namespace

BRASA_REGISTER_KERNEL(sort_op, sort_ag, Autograd)
BRASA_REGISTER_KERNEL(topk_op, topk_ag, Autograd)

}  // namespace brasa::ops
