// Derivatives of the view family: each gradient is put back into the shape (and place) of the
// viewed tensor. The outputs stay views, so in-place ops on them rebase their base's history.

#include "autograd/function_node.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/indexing_ops.h"
#include "brasa/ops/unfold.h"
#include "brasa/ops/view.h"
#include "ops/view/view_ops.h"

namespace brasa::ops {

namespace {

using autograd::BackwardContext;
using autograd::BelowAutograd;
using autograd::variable_list;

// Records a single-output view: backward(g, self_sizes) gives self's gradient.
template <class Forward, class Backward>
Tensor record_view(const char* node, const char* op, const Tensor& self, Forward forward,
                   Backward backward) {
  return autograd::record_one_input(node, op, self, forward,
                                    [sizes = DimVector(self.sizes()), backward](const Tensor& g) {
                                      return backward(g, IntArrayRef(sizes));
                                    });
}

Tensor reshape_back(const Tensor& g, IntArrayRef sizes) { return g.reshape(sizes); }

// A zero gradient of `sizes` with g written into the region `place` selects.
template <class Place>
Tensor scatter_into_zeros(const Tensor& g, IntArrayRef sizes, Place place) {
  Tensor full = zeros(sizes, g.options());
  place(full).copy_(g);
  return full;
}

Tensor view_ag(const Tensor& self, IntArrayRef size) {
  return record_view(
      "ViewBackward0", "view", self, [&] { return view_op().call(self, size); }, reshape_back);
}
Tensor squeeze_ag(const Tensor& self) {
  return record_view(
      "SqueezeBackward0", "squeeze", self, [&] { return squeeze_op().call(self); }, reshape_back);
}
Tensor squeeze_dims_ag(const Tensor& self, IntArrayRef dims) {
  return record_view(
      "SqueezeBackward1", "squeeze", self, [&] { return squeeze_dims_op().call(self, dims); },
      reshape_back);
}
Tensor unsqueeze_ag(const Tensor& self, int64_t dim) {
  return record_view(
      "UnsqueezeBackward0", "unsqueeze", self, [&] { return unsqueeze_op().call(self, dim); },
      reshape_back);
}
Tensor expand_ag(const Tensor& self, IntArrayRef size, bool implicit) {
  // The engine sums a broadcast gradient back to the input's shape.
  return record_view(
      "ExpandBackward0", "expand", self, [&] { return expand_op().call(self, size, implicit); },
      [](const Tensor& g, IntArrayRef) { return g; });
}
Tensor alias_ag(const Tensor& self) {
  return record_view(
      "AliasBackward0", "alias", self, [&] { return alias_op().call(self); },
      [](const Tensor& g, IntArrayRef) { return g; });
}
// as_strided addresses the storage directly: the gradient is laid out over a zero copy of the
// whole storage, then read back at self's own geometry.
Tensor as_strided_ag(const Tensor& self, IntArrayRef size, IntArrayRef stride,
                     std::optional<int64_t> offset) {
  const int64_t storage_numel =
      static_cast<int64_t>(self.storage()->nbytes() / std::max<size_t>(self.itemsize(), 1));
  DimVector self_strides(self.strides()), sz(size), st(stride);
  const int64_t self_offset = self.storage_offset();
  const int64_t out_offset = offset.value_or(self_offset);
  return record_view(
      "AsStridedBackward0", "as_strided", self,
      [&] { return as_strided_op().call(self, size, stride, offset); },
      [=](const Tensor& g, IntArrayRef sizes) {
        Tensor flat = zeros({storage_numel}, g.options());
        flat.as_strided(sz, st, out_offset).copy_(g);
        return flat.as_strided(sizes, self_strides, self_offset).clone();
      });
}
Tensor transpose_ag(const Tensor& self, int64_t d0, int64_t d1) {
  return record_view(
      "TransposeBackward0", "transpose", self, [&] { return transpose_op().call(self, d0, d1); },
      [d0, d1](const Tensor& g, IntArrayRef) { return g.transpose(d0, d1); });
}
Tensor permute_ag(const Tensor& self, IntArrayRef dims) {
  DimVector inverse(dims.size());
  for (size_t i = 0; i < dims.size(); ++i) {
    int64_t d = dims[i] < 0 ? dims[i] + static_cast<int64_t>(dims.size()) : dims[i];
    if (d >= 0 && d < static_cast<int64_t>(dims.size())) inverse[d] = static_cast<int64_t>(i);
  }
  return record_view(
      "PermuteBackward0", "permute", self, [&] { return permute_op().call(self, dims); },
      [inverse](const Tensor& g, IntArrayRef) { return g.permute(inverse); });
}
Tensor diagonal_ag(const Tensor& self, int64_t offset, int64_t d1, int64_t d2) {
  return record_view(
      "DiagonalBackward0", "diagonal", self,
      [&] { return diagonal_op().call(self, offset, d1, d2); },
      [=](const Tensor& g, IntArrayRef sizes) {
        return scatter_into_zeros(g, sizes,
                                  [&](const Tensor& f) { return f.diagonal(offset, d1, d2); });
      });
}
Tensor select_ag(const Tensor& self, int64_t dim, int64_t index) {
  return record_view(
      "SelectBackward0", "select", self, [&] { return select_op().call(self, dim, index); },
      [=](const Tensor& g, IntArrayRef sizes) {
        return scatter_into_zeros(g, sizes, [&](const Tensor& f) { return f.select(dim, index); });
      });
}
Tensor slice_ag(const Tensor& self, int64_t dim, std::optional<int64_t> start,
                std::optional<int64_t> end, int64_t step) {
  return record_view(
      "SliceBackward0", "slice", self, [&] { return slice_op().call(self, dim, start, end, step); },
      [=](const Tensor& g, IntArrayRef sizes) {
        return scatter_into_zeros(g, sizes,
                                  [&](const Tensor& f) { return slice(f, dim, start, end, step); });
      });
}

Tensor unfold_ag(const Tensor& self, int64_t dim, int64_t size, int64_t step) {
  return record_view(
      "UnfoldBackward0", "unfold", self, [&] { return unfold_op().call(self, dim, size, step); },
      [=](const Tensor& g, IntArrayRef sizes) {
        return unfold_backward(g, sizes, dim, size, step);
      });
}

// Multi-output views: the gradient is the outputs' gradients joined back along `dim`.
std::vector<Tensor> record_split(const char* node, const char* op, const Tensor& self,
                                 std::vector<Tensor> outs, int64_t dim, bool stacked) {
  if (!autograd::any_requires_grad({&self})) return outs;
  auto fn = autograd::make_function_node(
      node, op, {&self},
      [dim, stacked](BackwardContext& ctx) -> variable_list {
        std::vector<Tensor> gs;
        for (size_t i = 0; i < ctx.num_grads(); ++i) gs.push_back(ctx.grad(i));
        return {stacked ? stack(gs, dim) : cat(gs, dim)};
      },
      false);
  for (const Tensor& o : outs) autograd::set_history(o, fn);
  return outs;
}
std::vector<Tensor> split_with_sizes_ag(const Tensor& self, IntArrayRef sizes, int64_t dim) {
  std::vector<Tensor> outs;
  {
    BelowAutograd below;
    outs = split_with_sizes_op().call(self, sizes, dim);
  }
  return record_split("SplitWithSizesBackward0", "split_with_sizes", self, std::move(outs), dim,
                      false);
}
std::vector<Tensor> unbind_ag(const Tensor& self, int64_t dim) {
  std::vector<Tensor> outs;
  {
    BelowAutograd below;
    outs = unbind_op().call(self, dim);
  }
  return record_split("UnbindBackward0", "unbind", self, std::move(outs), dim, true);
}

}  // namespace

BRASA_REGISTER_KERNEL(view_op, view_ag, Autograd)
BRASA_NON_DIFFERENTIABLE(view_dtype_op)  // Note [Dtype views]
BRASA_REGISTER_KERNEL(squeeze_op, squeeze_ag, Autograd)
BRASA_REGISTER_KERNEL(squeeze_dims_op, squeeze_dims_ag, Autograd)
BRASA_REGISTER_KERNEL(unsqueeze_op, unsqueeze_ag, Autograd)
BRASA_REGISTER_KERNEL(expand_op, expand_ag, Autograd)
BRASA_REGISTER_KERNEL(alias_op, alias_ag, Autograd)
BRASA_REGISTER_KERNEL(as_strided_op, as_strided_ag, Autograd)
BRASA_REGISTER_KERNEL(transpose_op, transpose_ag, Autograd)
BRASA_REGISTER_KERNEL(permute_op, permute_ag, Autograd)
BRASA_REGISTER_KERNEL(diagonal_op, diagonal_ag, Autograd)
BRASA_REGISTER_KERNEL(select_op, select_ag, Autograd)
BRASA_REGISTER_KERNEL(slice_op, slice_ag, Autograd)
BRASA_REGISTER_KERNEL(unfold_op, unfold_ag, Autograd)
BRASA_REGISTER_KERNEL(split_with_sizes_op, split_with_sizes_ag, Autograd)
BRASA_REGISTER_KERNEL(unbind_op, unbind_ag, Autograd)

}  // namespace brasa::ops
