// Joining ops: cat (with dtype promotion), stack, hstack, vstack, atleast_1d/2d, meshgrid.
// cat copies each input into a narrowed view of its result; the others are built from cat and
// views.
#include "backends/cpu/new_tensor_writes.h"
#include "brasa/core/empty.h"
#include "brasa/core/error.h"
#include "brasa/core/type_promotion.h"
#include "brasa/dispatch/dispatcher.h"
#include "brasa/ops/indexing_ops.h"
#include "ops/rearrange/rearrange_ops.h"

namespace brasa::ops {
namespace {

/// PyTorch still skips 1-d tensors of shape [0] in cat, whatever the other shapes.
bool skipped_in_cat(const Tensor& t) { return t.dim() == 1 && t.sizes()[0] == 0; }

// The meta function of cat: its checks, result shape and dtype.
Tensor cat_meta(TensorList tensors, int64_t dim) {
  BRASA_CHECK(!tensors.empty(), "cat: expected a non-empty list of Tensors");
  const Tensor* first = nullptr;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& t = tensors[i];
    BRASA_CHECK(t.defined(), "cat: tensor number ", i, " in the list is undefined");
    BRASA_CHECK(t.dim() > 0, "cat: zero-dimensional tensor (at position ", i,
                ") cannot be concatenated");
    if (first == nullptr && !skipped_in_cat(t)) first = &t;
  }
  const ScalarType dtype = result_type(tensors);
  if (first == nullptr) return detail::empty_generic({0}, dtype, tensors[0].device());
  const int64_t d = detail::wrap_dim(dim, first->dim(), "cat");
  DimVector sizes(first->sizes());
  sizes[d] = 0;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& t = tensors[i];
    if (skipped_in_cat(t)) continue;
    BRASA_CHECK(t.dim() == first->dim(),
                "cat: tensors must have the same number of dimensions: ", "got ", first->dim(),
                " and ", t.dim(), " (tensor number ", i, ")");
    BRASA_CHECK(t.device() == first->device(), "cat: expected all tensors on device ",
                first->device(), ", got ", t.device(), " for tensor number ", i);
    for (int64_t k = 0; k < t.dim(); ++k) {
      BRASA_CHECK(k == d || t.sizes()[k] == first->sizes()[k],
                  "cat: sizes of tensors must match except in dimension ", d, ". Expected size ",
                  first->sizes()[k], " but got size ", t.sizes()[k], " for tensor number ", i,
                  " in the list");
    }
    sizes[d] += t.sizes()[d];
  }
  return detail::empty_generic(sizes, dtype, first->device());
}

Tensor cat_kernel(TensorList tensors, int64_t dim) {
  Tensor out = cat_meta(tensors, dim);
  if (out.numel() == 0) return out;
  const int64_t d = detail::wrap_dim(dim, out.dim(), "cat");
  cpu::NewTensorWrites new_tensor;  // Note [Version of new tensors]
  int64_t offset = 0;
  for (const Tensor& t : tensors) {
    if (skipped_in_cat(t)) continue;
    out.narrow(d, offset, t.sizes()[d]).copy_(t);
    offset += t.sizes()[d];
  }
  return out;
}

Tensor stack_kernel(TensorList tensors, int64_t dim) {
  BRASA_CHECK(!tensors.empty(), "stack: expected a non-empty list of Tensors");
  for (size_t i = 0; i < tensors.size(); ++i) {
    BRASA_CHECK(tensors[i].defined(), "stack: tensor number ", i, " in the list is undefined");
    BRASA_CHECK(tensors[i].sizes() == tensors[0].sizes(),
                "stack: expects each tensor to be equal size, but got ", tensors[0].sizes(),
                " at entry 0 and ", tensors[i].sizes(), " at entry ", i);
  }
  const int64_t d = detail::wrap_dim(dim, tensors[0].dim() + 1, "stack");
  std::vector<Tensor> parts;
  parts.reserve(tensors.size());
  for (const Tensor& t : tensors) parts.push_back(t.unsqueeze(d));
  return cat(parts, d);
}

std::vector<Tensor> meshgrid_kernel(TensorList tensors, std::string indexing) {
  BRASA_CHECK(!tensors.empty(), "meshgrid: expects a non-empty TensorList");
  BRASA_CHECK(indexing == "ij" || indexing == "xy",
              "meshgrid: indexing must be one of \"xy\" or \"ij\", but received: ", indexing);
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& t = tensors[i];
    BRASA_CHECK(t.defined(), "meshgrid: tensor number ", i, " in the list is undefined");
    BRASA_CHECK(t.dim() <= 1, "meshgrid: expected 0D or 1D tensor in the tensor list but got ",
                t.sizes(), " at position ", i);
    BRASA_CHECK_TYPE(t.dtype() == tensors[0].dtype(),
                     "meshgrid: expects all tensors to have the same dtype (", tensors[0].dtype(),
                     " vs ", t.dtype(), ")");
    BRASA_CHECK(t.device() == tensors[0].device(),
                "meshgrid: expects all tensors to have the same device");
  }
  // "xy" is "ij" with the first two inputs (and so the first two output dims) swapped.
  const bool swap = indexing == "xy" && tensors.size() >= 2;
  std::vector<Tensor> in(tensors.begin(), tensors.end());
  if (swap) std::swap(in[0], in[1]);
  const int64_t n = static_cast<int64_t>(in.size());
  DimVector shape;
  for (const Tensor& t : in) shape.push_back(t.numel());
  std::vector<Tensor> grids;
  for (int64_t i = 0; i < n; ++i) {
    DimVector view_shape(static_cast<size_t>(n), 1);
    view_shape[i] = -1;
    grids.push_back(in[i].reshape(view_shape).expand(shape));
  }
  if (swap) std::swap(grids[0], grids[1]);
  return grids;
}

}  // namespace

BRASA_DEFINE_OP(cat_op)
BRASA_DEFINE_OP(stack_op)
BRASA_DEFINE_OP(meshgrid_op)
BRASA_REGISTER_KERNEL(cat_op, cat_kernel, CPU)
BRASA_REGISTER_KERNEL(cat_op, cat_meta, Meta)
BRASA_REGISTER_KERNEL(stack_op, stack_kernel, CPU, Meta, Autograd)
BRASA_REGISTER_KERNEL(meshgrid_op, meshgrid_kernel, CPU, Meta, Autograd)

}  // namespace brasa::ops

namespace brasa {

Tensor cat(TensorList tensors, int64_t dim) {
  BRASA_CHECK(!tensors.empty(), "cat: expected a non-empty list of Tensors");
  return ops::cat_op().call(tensors, dim);
}
Tensor concat(TensorList tensors, int64_t dim) { return cat(tensors, dim); }
Tensor stack(TensorList tensors, int64_t dim) {
  BRASA_CHECK(!tensors.empty(), "stack: expected a non-empty list of Tensors");
  return ops::stack_op().call(tensors, dim);
}

Tensor atleast_1d(const Tensor& self) { return self.dim() == 0 ? self.reshape({1}) : self; }
Tensor atleast_2d(const Tensor& self) {
  if (self.dim() == 0) return self.reshape({1, 1});
  return self.dim() == 1 ? self.unsqueeze(0) : self;
}

Tensor hstack(TensorList tensors) {
  BRASA_CHECK(!tensors.empty(), "hstack: expects a non-empty TensorList");
  std::vector<Tensor> parts;
  for (const Tensor& t : tensors) parts.push_back(atleast_1d(t));
  return cat(parts, parts[0].dim() == 1 ? 0 : 1);
}
Tensor vstack(TensorList tensors) {
  BRASA_CHECK(!tensors.empty(), "vstack: expects a non-empty TensorList");
  std::vector<Tensor> parts;
  for (const Tensor& t : tensors) parts.push_back(atleast_2d(t));
  return cat(parts, 0);
}

std::vector<Tensor> meshgrid(TensorList tensors, const std::string& indexing) {
  BRASA_CHECK(!tensors.empty(), "meshgrid: expects a non-empty TensorList");
  return ops::meshgrid_op().call(tensors, indexing);
}

}  // namespace brasa
