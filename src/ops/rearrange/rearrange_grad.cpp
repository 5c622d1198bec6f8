// Derivatives of the rearrange family: cat (slices of the gradient), flip, roll, tril, triu and
// repeat. stack and meshgrid are composites of differentiable ops (registered in join_ops.cpp).
#include <vector>

#include "autograd/function_node.h"
#include "brasa/core/empty.h"
#include "brasa/core/error.h"
#include "brasa/dispatch/dispatcher.h"
#include "brasa/ops/reduce.h"
#include "brasa/ops/view.h"
#include "ops/rearrange/rearrange_ops.h"

namespace brasa::ops {

namespace {

using autograd::BackwardContext;
using autograd::BelowAutograd;
using autograd::variable_list;

Tensor cat_autograd(TensorList tensors, int64_t dim) {
  bool any = false;
  if (GradMode::is_enabled())
    for (const Tensor& t : tensors) any = any || (t.defined() && t.requires_grad());
  Tensor r;
  {
    BelowAutograd below;
    r = cat_op().call(tensors, dim);
  }
  if (!any) return r;
  // Legacy empty 1-d inputs are skipped by cat and get no gradient.
  std::vector<DimVector> sizes;
  for (const Tensor& t : tensors) sizes.emplace_back(t.sizes());
  const int64_t d = detail::wrap_dim(dim, r.dim(), "cat");
  auto fn = [sizes = std::move(sizes), d, rank = r.dim()](BackwardContext& ctx) -> variable_list {
    variable_list out(sizes.size());
    int64_t offset = 0;
    for (size_t i = 0; i < sizes.size(); ++i) {
      const DimVector& s = sizes[i];
      if (static_cast<int64_t>(s.size()) != rank) continue;
      if (ctx.needs(i)) out[i] = ctx.grad(0).narrow(d, offset, s[d]);
      offset += s[d];
    }
    return out;
  };
  auto node =
      std::make_shared<autograd::FunctionNode<decltype(fn)>>("CatBackward0", std::move(fn), false);
  node->set_next_edges(autograd::collect_next_edges(tensors));
  node->set_forward_op("cat");
  autograd::set_history(r, node);
  return r;
}

Tensor flip_autograd(const Tensor& self, IntArrayRef dims) {
  if (!autograd::any_requires_grad({&self})) {
    BelowAutograd below;
    return flip_op().call(self, dims);
  }
  auto fn = [dims = DimVector(dims)](BackwardContext& ctx) -> variable_list {
    return {ctx.grad(0).flip(dims)};
  };
  return autograd::record(
             "FlipBackward0", "flip", {&self}, self, Tensor(), std::move(fn),
             [&] { return flip_op().call(self, dims); }, false)
      .first;
}

Tensor roll_autograd(const Tensor& self, IntArrayRef shifts, IntArrayRef dims) {
  if (!autograd::any_requires_grad({&self})) {
    BelowAutograd below;
    return roll_op().call(self, shifts, dims);
  }
  DimVector back;
  for (int64_t s : shifts) back.push_back(-s);
  auto fn = [back, dims = DimVector(dims)](BackwardContext& ctx) -> variable_list {
    return {ctx.grad(0).roll(back, dims)};
  };
  return autograd::record(
             "RollBackward0", "roll", {&self}, self, Tensor(), std::move(fn),
             [&] { return roll_op().call(self, shifts, dims); }, false)
      .first;
}

Tensor tril_autograd(const Tensor& self, int64_t diagonal) {
  if (!autograd::any_requires_grad({&self})) {
    BelowAutograd below;
    return tril_op().call(self, diagonal);
  }
  auto fn = [diagonal](BackwardContext& ctx) -> variable_list {
    return {ctx.grad(0).tril(diagonal)};
  };
  return autograd::record(
             "TrilBackward0", "tril", {&self}, self, Tensor(), std::move(fn),
             [&] { return tril_op().call(self, diagonal); }, false)
      .first;
}

Tensor triu_autograd(const Tensor& self, int64_t diagonal) {
  if (!autograd::any_requires_grad({&self})) {
    BelowAutograd below;
    return triu_op().call(self, diagonal);
  }
  auto fn = [diagonal](BackwardContext& ctx) -> variable_list {
    return {ctx.grad(0).triu(diagonal)};
  };
  return autograd::record(
             "TriuBackward0", "triu", {&self}, self, Tensor(), std::move(fn),
             [&] { return triu_op().call(self, diagonal); }, false)
      .first;
}

/// repeat's gradient: each output dim of size r*s splits into (r, s) and the r copies are summed
/// (new leading dims are summed whole).
Tensor repeat_backward(const Tensor& g, const DimVector& self_sizes, const DimVector& repeats) {
  const int64_t lead = static_cast<int64_t>(repeats.size() - self_sizes.size());
  DimVector split, sum_dims;
  for (int64_t i = 0; i < lead; ++i) {
    sum_dims.push_back(static_cast<int64_t>(split.size()));
    split.push_back(repeats[i]);
  }
  for (size_t i = 0; i < self_sizes.size(); ++i) {
    sum_dims.push_back(static_cast<int64_t>(split.size()));
    split.push_back(repeats[lead + i]);
    split.push_back(self_sizes[i]);
  }
  if (sum_dims.empty()) return g.reshape(self_sizes);
  return g.reshape(split).sum(sum_dims, false).reshape(self_sizes);
}

Tensor repeat_autograd(const Tensor& self, IntArrayRef repeats) {
  if (!autograd::any_requires_grad({&self})) {
    BelowAutograd below;
    return repeat_op().call(self, repeats);
  }
  auto fn = [sizes = DimVector(self.sizes()),
             reps = DimVector(repeats)](BackwardContext& ctx) -> variable_list {
    return {repeat_backward(ctx.grad(0), sizes, reps)};
  };
  return autograd::record(
             "RepeatBackward0", "repeat", {&self}, self, Tensor(), std::move(fn),
             [&] { return repeat_op().call(self, repeats); }, false)
      .first;
}

}  // namespace

BRASA_REGISTER_KERNEL(cat_op, cat_autograd, Autograd)
BRASA_REGISTER_KERNEL(flip_op, flip_autograd, Autograd)
BRASA_REGISTER_KERNEL(roll_op, roll_autograd, Autograd)
BRASA_REGISTER_KERNEL(tril_op, tril_autograd, Autograd)
BRASA_REGISTER_KERNEL(triu_op, triu_autograd, Autograd)
BRASA_REGISTER_KERNEL(repeat_op, repeat_autograd, Autograd)

}  // namespace brasa::ops
