// Derivatives of the gather family: gather / scatter* / scatter_reduce / index_* / take /
// masked_select / embedding (formulas as PyTorch's derivatives). The in-place ops (scatter_,
// index_add_, ...) rebase self's history. Index-producing ops are non-differentiable;
// repeat_interleave, masked_scatter and embedding_bag are composites of differentiable ops.
#include <string>
#include <tuple>

#include "autograd/function_node.h"
#include "brasa/dispatch/dispatcher.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/indexing_ops.h"
#include "brasa/ops/pointwise.h"
#include "ops/index/gather_ops.h"

namespace brasa::ops {

namespace {

using autograd::BackwardContext;
using autograd::BelowAutograd;
using autograd::saved_input;
using autograd::SavedVariable;
using autograd::variable_list;

/// g where keep holds, 0 elsewhere.
Tensor keep(const Tensor& mask, const Tensor& g) { return where(mask, g, Scalar(0)); }

/// Gradient of an input of shape `sizes` that received g through index along dim: zeros with g
/// added at the indexed positions.
Tensor scatter_back(const Tensor& g, const DimVector& sizes, int64_t dim, const Tensor& index) {
  return zeros(sizes, g.options()).scatter_add(dim, index, g);
}

Tensor gather_autograd(const Tensor& self, int64_t dim, const Tensor& index, bool sparse) {
  if (!autograd::any_requires_grad({&self})) {
    BelowAutograd below;
    return gather_op().call(self, dim, index, sparse);
  }
  auto fn = [sizes = DimVector(self.sizes()), dim,
             i = SavedVariable(index)](BackwardContext& ctx) -> variable_list {
    return {scatter_back(ctx.grad(0), sizes, dim, ctx.unpack(i))};
  };
  return autograd::record("GatherBackward0", "gather", {&self}, self, Tensor(), std::move(fn),
                          [&] { return gather_op().call(self, dim, index, sparse); })
      .first;
}

Tensor scatter_src_autograd(const Tensor& self, int64_t dim, const Tensor& index,
                            const Tensor& src) {
  if (!autograd::any_requires_grad({&self, &src})) {
    BelowAutograd below;
    return scatter_src_op().call(self, dim, index, src);
  }
  auto fn = [dim,
             i = SavedVariable(saved_input(index, self))](BackwardContext& ctx) -> variable_list {
    const Tensor& g = ctx.grad(0);
    Tensor idx = ctx.unpack(i);
    return {ctx.needs(0) ? g.scatter(dim, idx, Scalar(0)) : Tensor(),
            ctx.needs(1) ? g.gather(dim, idx) : Tensor()};
  };
  return autograd::record("ScatterBackward0", "scatter_.src", {&self, &src}, self, self,
                          std::move(fn),
                          [&] { return scatter_src_op().call(self, dim, index, src); })
      .first;
}

Tensor scatter_value_autograd(const Tensor& self, int64_t dim, const Tensor& index,
                              const Scalar& value) {
  if (!autograd::any_requires_grad({&self})) {
    BelowAutograd below;
    return scatter_value_op().call(self, dim, index, value);
  }
  auto fn = [dim,
             i = SavedVariable(saved_input(index, self))](BackwardContext& ctx) -> variable_list {
    return {ctx.grad(0).scatter(dim, ctx.unpack(i), Scalar(0))};
  };
  return autograd::record("ScatterBackward1", "scatter_.value", {&self}, self, self, std::move(fn),
                          [&] { return scatter_value_op().call(self, dim, index, value); })
      .first;
}

Tensor scatter_add_autograd(const Tensor& self, int64_t dim, const Tensor& index,
                            const Tensor& src) {
  if (!autograd::any_requires_grad({&self, &src})) {
    BelowAutograd below;
    return scatter_add_op().call(self, dim, index, src);
  }
  auto fn = [dim,
             i = SavedVariable(saved_input(index, self))](BackwardContext& ctx) -> variable_list {
    const Tensor& g = ctx.grad(0);
    return {g, ctx.needs(1) ? g.gather(dim, ctx.unpack(i)) : Tensor()};
  };
  return autograd::record("ScatterAddBackward0", "scatter_add_", {&self, &src}, self, self,
                          std::move(fn),
                          [&] { return scatter_add_op().call(self, dim, index, src); })
      .first;
}

/// PyTorch's scatter_reduce_backward (sum, prod, mean, amax, amin); ties of amax/amin share the
/// gradient evenly.
std::pair<Tensor, Tensor> scatter_reduce_backward(const Tensor& g, const Tensor& self, int64_t dim,
                                                  const Tensor& index, const Tensor& src,
                                                  const std::string& reduce, bool include_self,
                                                  const Tensor& result) {
  Tensor gs, gsrc;
  if (reduce == "sum") {
    gs = g;
    gsrc = g.gather(dim, index);
  } else if (reduce == "mean") {
    Tensor n = include_self ? ones_like(g) : zeros_like(g);
    n = n.scatter_add(dim, index, ones_like(src));
    n = n.masked_fill(n.eq(0), Scalar(1));
    gs = g / n;
    gsrc = g.gather(dim, index) / n.gather(dim, index);
  } else if (reduce == "prod") {
    Tensor masked_self = self.masked_fill(self.eq(0), Scalar(1));
    Tensor masked_self_result = scatter_reduce(masked_self, dim, index, src, reduce, include_self);
    gs = g * masked_self_result / masked_self;
    Tensor src_zero = src.eq(0);
    Tensor src_num_zeros =
        zeros_like(self).scatter_add(dim, index, src_zero.to(self.dtype())).gather(dim, index);
    Tensor src_single_zero = src_zero.logical_and(src_num_zeros.eq(1));
    Tensor masked_src = src.masked_fill(src_single_zero, Scalar(1));
    Tensor masked_src_result = scatter_reduce(self, dim, index, masked_src, reduce, include_self);
    gsrc = where(src_single_zero, (g * masked_src_result).gather(dim, index),
                 (g * result).gather(dim, index) / src.masked_fill(src_zero, Scalar(1)));
  } else {
    Tensor value = result.gather(dim, index);
    Tensor self_is = self.eq(result);
    Tensor src_is = src.eq(value);
    Tensor count = self_is.to(self.dtype()).scatter_add(dim, index, src_is.to(self.dtype()));
    Tensor share = g / count;
    gs = keep(self_is, share);
    gsrc = keep(src_is, share.gather(dim, index));
  }
  if (!include_self) gs = gs.scatter(dim, index, Scalar(0));
  return {gs, gsrc};
}

struct ScatterReduceClosure {
  SavedVariable self, index, src, result;
  int64_t dim;
  std::string reduce;
  bool include_self;
  variable_list operator()(BackwardContext& ctx) const {
    auto [gs, gsrc] =
        scatter_reduce_backward(ctx.grad(0), ctx.unpack(self), dim, ctx.unpack(index),
                                ctx.unpack(src), reduce, include_self, ctx.unpack(result));
    return {ctx.needs(0) ? gs : Tensor(), ctx.needs(1) ? gsrc : Tensor()};
  }
};

Tensor scatter_reduce_autograd(const Tensor& self, int64_t dim, const Tensor& index,
                               const Tensor& src, std::string reduce, bool include_self) {
  if (!autograd::any_requires_grad({&self, &src})) {
    BelowAutograd below;
    return scatter_reduce_op().call(self, dim, index, src, reduce, include_self);
  }
  auto fn = ScatterReduceClosure{
      SavedVariable(self), SavedVariable(index), SavedVariable(src), SavedVariable(), dim, reduce,
      include_self};
  auto [r, node] = autograd::record(
      "ScatterReduceBackward0", "scatter_reduce.two", {&self, &src}, self, Tensor(), std::move(fn),
      [&] { return scatter_reduce_op().call(self, dim, index, src, reduce, include_self); });
  node->closure().result = SavedVariable(r, true);
  return r;
}

Tensor index_select_autograd(const Tensor& self, int64_t dim, const Tensor& index) {
  if (!autograd::any_requires_grad({&self})) {
    BelowAutograd below;
    return index_select_op().call(self, dim, index);
  }
  auto fn = [sizes = DimVector(self.sizes()), dim,
             i = SavedVariable(index)](BackwardContext& ctx) -> variable_list {
    const Tensor& g = ctx.grad(0);
    if (sizes.empty()) return {g.reshape({})};
    return {zeros(sizes, g.options()).index_add(dim, ctx.unpack(i).reshape({-1}), g)};
  };
  return autograd::record("IndexSelectBackward0", "index_select", {&self}, self, Tensor(),
                          std::move(fn), [&] { return index_select_op().call(self, dim, index); })
      .first;
}

/// The rows of g that index (along dim) selected, in source's shape.
Tensor selected(const Tensor& g, int64_t dim, const Tensor& index, const DimVector& source) {
  if (g.dim() == 0) return g.reshape(source);
  return g.index_select(dim, index.reshape({-1})).reshape(source);
}

Tensor index_add_autograd(const Tensor& self, int64_t dim, const Tensor& index,
                          const Tensor& source, const Scalar& alpha) {
  if (!autograd::any_requires_grad({&self, &source})) {
    BelowAutograd below;
    return index_add_op().call(self, dim, index, source, alpha);
  }
  auto fn = [dim, i = SavedVariable(saved_input(index, self)), sizes = DimVector(source.sizes()),
             alpha](BackwardContext& ctx) -> variable_list {
    const Tensor& g = ctx.grad(0);
    Tensor gsrc;
    if (ctx.needs(1)) {
      gsrc = selected(g, dim, ctx.unpack(i), sizes);
      if (alpha.toDouble() != 1.0) gsrc = gsrc * alpha;
    }
    return {g, gsrc};
  };
  return autograd::record("IndexAddBackward0", "index_add_", {&self, &source}, self, self,
                          std::move(fn),
                          [&] { return index_add_op().call(self, dim, index, source, alpha); })
      .first;
}

Tensor index_copy_autograd(const Tensor& self, int64_t dim, const Tensor& index,
                           const Tensor& source) {
  if (!autograd::any_requires_grad({&self, &source})) {
    BelowAutograd below;
    return index_copy_op().call(self, dim, index, source);
  }
  auto fn = [dim, i = SavedVariable(saved_input(index, self)),
             sizes = DimVector(source.sizes())](BackwardContext& ctx) -> variable_list {
    const Tensor& g = ctx.grad(0);
    Tensor idx = ctx.unpack(i);
    return {ctx.needs(0) ? g.index_fill(dim, idx, Scalar(0)) : Tensor(),
            ctx.needs(1) ? selected(g, dim, idx, sizes) : Tensor()};
  };
  return autograd::record("IndexCopyBackward0", "index_copy_", {&self, &source}, self, self,
                          std::move(fn),
                          [&] { return index_copy_op().call(self, dim, index, source); })
      .first;
}

Tensor index_fill_autograd(const Tensor& self, int64_t dim, const Tensor& index,
                           const Scalar& value) {
  if (!autograd::any_requires_grad({&self})) {
    BelowAutograd below;
    return index_fill_op().call(self, dim, index, value);
  }
  auto fn = [dim,
             i = SavedVariable(saved_input(index, self))](BackwardContext& ctx) -> variable_list {
    return {ctx.grad(0).index_fill(dim, ctx.unpack(i), Scalar(0))};
  };
  return autograd::record("IndexFillBackward0", "index_fill_", {&self}, self, self, std::move(fn),
                          [&] { return index_fill_op().call(self, dim, index, value); })
      .first;
}

Tensor take_autograd(const Tensor& self, const Tensor& index) {
  if (!autograd::any_requires_grad({&self})) {
    BelowAutograd below;
    return take_op().call(self, index);
  }
  auto fn = [sizes = DimVector(self.sizes()),
             i = SavedVariable(index)](BackwardContext& ctx) -> variable_list {
    const Tensor& g = ctx.grad(0);
    int64_t n = 1;
    for (int64_t s : sizes) n *= s;
    Tensor flat = zeros({n}, g.options());
    if (n == 0 || g.numel() == 0) return {flat.reshape(sizes)};
    Tensor idx = ctx.unpack(i).reshape({-1}).remainder(n);
    return {flat.scatter_add(0, idx, g.reshape({-1})).reshape(sizes)};
  };
  return autograd::record("TakeBackward0", "take", {&self}, self, Tensor(), std::move(fn),
                          [&] { return take_op().call(self, index); })
      .first;
}

DimVector broadcast_sizes(IntArrayRef a, IntArrayRef b) {
  DimVector out(std::max(a.size(), b.size()), 1);
  for (size_t k = 0; k < out.size(); ++k) {
    int64_t x = k < a.size() ? a[a.size() - 1 - k] : 1;
    int64_t y = k < b.size() ? b[b.size() - 1 - k] : 1;
    out[out.size() - 1 - k] = x == 1 ? y : x;
  }
  return out;
}

Tensor masked_select_autograd(const Tensor& self, const Tensor& mask) {
  if (!autograd::any_requires_grad({&self})) {
    BelowAutograd below;
    return masked_select_op().call(self, mask);
  }
  auto fn = [sizes = broadcast_sizes(self.sizes(), mask.sizes()),
             m = SavedVariable(mask)](BackwardContext& ctx) -> variable_list {
    const Tensor& g = ctx.grad(0);
    return {masked_scatter(zeros(sizes, g.options()), ctx.unpack(m).expand(sizes), g)};
  };
  return autograd::record("MaskedSelectBackward0", "masked_select", {&self}, self, Tensor(),
                          std::move(fn), [&] { return masked_select_op().call(self, mask); })
      .first;
}

/// embedding's weight gradient: rows of g added into their index's row; padding_idx's row gets
/// none, and with scale_grad_by_freq each row is divided by its index's count in the batch.
Tensor embedding_backward(const Tensor& g, const Tensor& indices, int64_t rows, int64_t padding_idx,
                          bool scale_grad_by_freq) {
  const int64_t width = g.dim() == 0 ? 1 : g.sizes()[g.dim() - 1];
  Tensor idx = indices.reshape({-1}).to(kLong);
  Tensor g2 = g.reshape({idx.numel(), width});
  if (scale_grad_by_freq) {
    const TensorOptions longs = TensorOptions(kLong).device(g.device());
    Tensor counts = zeros({rows}, longs).index_add(0, idx, ones({idx.numel()}, longs));
    g2 = g2 / counts.index_select(0, idx).unsqueeze(1).to(g.dtype());
  }
  if (padding_idx >= 0) g2 = g2.masked_fill(idx.eq(padding_idx).unsqueeze(1), Scalar(0));
  return zeros({rows, width}, g.options()).index_add(0, idx, g2);
}

Tensor embedding_autograd(const Tensor& weight, const Tensor& indices, int64_t padding_idx,
                          bool scale_grad_by_freq, bool sparse) {
  if (!autograd::any_requires_grad({&weight})) {
    BelowAutograd below;
    return embedding_op().call(weight, indices, padding_idx, scale_grad_by_freq, sparse);
  }
  auto fn = [i = SavedVariable(indices), rows = weight.dim() > 0 ? weight.sizes()[0] : 0,
             padding_idx, scale_grad_by_freq](BackwardContext& ctx) -> variable_list {
    return {embedding_backward(ctx.grad(0), ctx.unpack(i), rows, padding_idx, scale_grad_by_freq)};
  };
  return autograd::record(
             "EmbeddingBackward0", "embedding", {&weight}, weight, Tensor(), std::move(fn),
             [&] {
               return embedding_op().call(weight, indices, padding_idx, scale_grad_by_freq, sparse);
             })
      .first;
}

}  // namespace

BRASA_REGISTER_KERNEL(gather_op, gather_autograd, Autograd)
BRASA_REGISTER_KERNEL(scatter_src_op, scatter_src_autograd, Autograd)
BRASA_REGISTER_KERNEL(scatter_value_op, scatter_value_autograd, Autograd)
BRASA_REGISTER_KERNEL(scatter_add_op, scatter_add_autograd, Autograd)
BRASA_REGISTER_KERNEL(scatter_reduce_op, scatter_reduce_autograd, Autograd)
BRASA_REGISTER_KERNEL(index_select_op, index_select_autograd, Autograd)
BRASA_REGISTER_KERNEL(index_add_op, index_add_autograd, Autograd)
BRASA_REGISTER_KERNEL(index_copy_op, index_copy_autograd, Autograd)
BRASA_REGISTER_KERNEL(index_fill_op, index_fill_autograd, Autograd)
BRASA_REGISTER_KERNEL(take_op, take_autograd, Autograd)
BRASA_REGISTER_KERNEL(masked_select_op, masked_select_autograd, Autograd)
BRASA_REGISTER_KERNEL(embedding_op, embedding_autograd, Autograd)

BRASA_NON_DIFFERENTIABLE(nonzero_op)
BRASA_NON_DIFFERENTIABLE(repeat_interleave_counts_op)
BRASA_NON_DIFFERENTIABLE(one_hot_op)
BRASA_NON_DIFFERENTIABLE(searchsorted_op)
BRASA_NON_DIFFERENTIABLE(embedding_renorm_op)
BRASA_NON_DIFFERENTIABLE(unique_op)

}  // namespace brasa::ops
