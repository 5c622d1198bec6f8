// Derivatives of sum, mean and prod, and the helpers the family's derivatives share.

#include "ops/reduce/reduce_grad.h"

#include "brasa/core/empty.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/pointwise.h"
#include "brasa/ops/reduce.h"
#include "ops/reduce/reduce_ops.h"

namespace brasa::ops {

using ReduceOp =
    Op<Tensor(const Tensor&, IntArrayRef, bool, std::optional<ScalarType>, const Tensor&)>;

Tensor unsqueeze_reduced(const Tensor& t, int64_t ndim, IntArrayRef dims, bool keepdim) {
  if (keepdim || ndim == 0) return t;
  uint64_t mask = 0;
  if (dims.empty()) {
    mask = ~uint64_t{0};
  } else {
    for (int64_t d : dims) mask |= uint64_t{1} << detail::wrap_dim(d, ndim, "reduce backward");
  }
  Tensor r = t;
  for (int64_t d = 0; d < ndim; ++d)
    if (mask >> d & 1) r = r.unsqueeze(d);
  return r;
}

Tensor expand_reduced(const Tensor& g, IntArrayRef sizes, IntArrayRef dims, bool keepdim) {
  if (g.dim() == 0) return g.expand(sizes);  // a full reduction: no dims to re-insert
  return unsqueeze_reduced(g, static_cast<int64_t>(sizes.size()), dims, keepdim).expand(sizes);
}

int64_t reduced_count(IntArrayRef sizes, IntArrayRef dims) {
  int64_t n = 1;
  if (dims.empty()) {
    for (int64_t s : sizes) n *= s;
    return n;
  }
  for (int64_t d : dims) n *= sizes[detail::wrap_dim(d, static_cast<int64_t>(sizes.size()), "")];
  return n;
}

namespace {

using autograd::BackwardContext;
using autograd::BelowAutograd;
using autograd::SavedVariable;
using autograd::variable_list;

enum class Kind { Sum, Mean, Prod };

Tensor reduce_ag(ReduceOp& op, Kind kind, const char* node, const Tensor& self, IntArrayRef dim,
                 bool keepdim, std::optional<ScalarType> dtype, const Tensor& out) {
  Tensor r;
  {
    BelowAutograd below;
    r = op.call(self, dim, keepdim, dtype, out);
  }
  if (!autograd::any_requires_grad({&self})) return r;
  if (out.defined()) autograd::throw_out_with_grad(op.name().c_str());
  DimVector dims(dim);
  auto fn = autograd::make_function_node(
      node, op.name().c_str(), {&self},
      [kind, dims, keepdim, sizes = DimVector(self.sizes()),
       saved_self = kind == Kind::Prod ? SavedVariable(self) : SavedVariable(),
       saved_result = SavedVariable()](BackwardContext& ctx) mutable -> variable_list {
        Tensor g = expand_reduced(ctx.grad(0), sizes, dims, keepdim);
        if (kind == Kind::Sum) return {g};
        if (kind == Kind::Mean) return {g / static_cast<double>(reduced_count(sizes, dims))};
        // prod: d/dx_i = prod of the others. Exact with zeros: product with x_i replaced by 1.
        Tensor x = ctx.unpack(saved_self);
        Tensor is_zero = x.eq(0);
        Tensor x1 = where(is_zero, ones_like(x), x);
        Tensor p1 =
            expand_reduced(dims.empty() ? x1.prod() : x1.prod(dims[0], true), sizes, {}, true);
        Tensor zero_count =
            expand_reduced(dims.empty() ? is_zero.sum() : is_zero.sum(dims, true), sizes, {}, true);
        // no zeros: p1 / x; one zero: p1 at the zero, 0 elsewhere; more: 0.
        Tensor others = where(zero_count.eq(0), p1 / x1,
                              where(zero_count.eq(1).logical_and(is_zero), p1, zeros_like(p1)));
        return {g * others};
      },
      kind == Kind::Prod);
  autograd::set_history(r, fn);
  return r;
}

Tensor sum_ag(const Tensor& self, IntArrayRef dim, bool keepdim, std::optional<ScalarType> dtype,
              const Tensor& out) {
  return reduce_ag(sum_op(), Kind::Sum, dim.empty() ? "SumBackward0" : "SumBackward1", self, dim,
                   keepdim, dtype, out);
}
Tensor mean_ag(const Tensor& self, IntArrayRef dim, bool keepdim, std::optional<ScalarType> dtype,
               const Tensor& out) {
  return reduce_ag(mean_op(), Kind::Mean, dim.empty() ? "MeanBackward0" : "MeanBackward1", self,
                   dim, keepdim, dtype, out);
}
Tensor prod_ag(const Tensor& self, IntArrayRef dim, bool keepdim, std::optional<ScalarType> dtype,
               const Tensor& out) {
  return reduce_ag(prod_op(), Kind::Prod, dim.empty() ? "ProdBackward0" : "ProdBackward1", self,
                   dim, keepdim, dtype, out);
}

}  // namespace

BRASA_REGISTER_KERNEL(sum_op, sum_ag, Autograd)
BRASA_REGISTER_KERNEL(mean_op, mean_ag, Autograd)
BRASA_REGISTER_KERNEL(prod_op, prod_ag, Autograd)

}  // namespace brasa::ops
