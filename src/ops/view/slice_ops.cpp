// Views of parts of a tensor: select, slice, narrow, and the list forms split/chunk/unbind.
#include "brasa/core/empty.h"
#include "brasa/core/error.h"
#include "brasa/dispatch/dispatcher.h"
#include "brasa/ops/view.h"
#include "dispatch/node_name.h"
#include "ops/view/view_ops.h"

namespace brasa::ops {

BRASA_DEFINE_OP(select_op)
BRASA_DEFINE_OP(slice_op)
BRASA_DEFINE_OP(split_with_sizes_op)
BRASA_DEFINE_OP(unbind_op)

namespace {

Tensor select_kernel(const Tensor& self, int64_t dim, int64_t index) {
  BRASA_CHECK_INDEX(self.dim() > 0, "select: cannot be applied to a 0-dim tensor");
  int64_t d = detail::wrap_dim(dim, self.dim(), "select");
  int64_t size = self.sizes()[d];
  BRASA_CHECK_INDEX(index >= -size && index < size, "select: index ", index,
                    " out of range for tensor of size ", self.sizes(), " at dimension ", d);
  if (index < 0) index += size;
  DimVector sizes(self.sizes());
  DimVector strides(self.strides());
  int64_t offset = self.storage_offset() + index * strides[d];
  sizes.erase(d);
  strides.erase(d);
  return detail::make_view(self, sizes, strides, offset);
}

Tensor slice_kernel(const Tensor& self, int64_t dim, std::optional<int64_t> start_opt,
                    std::optional<int64_t> end_opt, int64_t step) {
  BRASA_CHECK_INDEX(self.dim() > 0, "slice: cannot be applied to a 0-dim tensor");
  int64_t d = detail::wrap_dim(dim, self.dim(), "slice");
  BRASA_CHECK(step > 0, "slice: step must be greater than zero, got ", step);
  int64_t size = self.sizes()[d];
  auto clamp_bound = [size](int64_t v) {
    if (v < 0) v = v < -size ? 0 : v + size;
    return std::min(v, size);
  };
  int64_t start = clamp_bound(start_opt.value_or(0));
  int64_t end = std::max(clamp_bound(end_opt.value_or(size)), start);
  DimVector sizes(self.sizes());
  DimVector strides(self.strides());
  int64_t offset = self.storage_offset() + start * strides[d];
  sizes[d] = (end - start + step - 1) / step;
  strides[d] *= step;
  return detail::make_view(self, sizes, strides, offset);
}

// Note [Multi-output views]
// libtorch forbids writing in place into an output of a view op that returns several views
// (split, split_with_sizes, chunk, unbind) made in grad mode: the write's history would have to
// replace the one node that all the outputs share. Such outputs record the kind MULTI_OUTPUT_NODE
// (one made in InferenceMode keeps its stricter kind), whether or not their base requires grad, and
// autograd refuses the write when it would record it (Note [View creation meta]). Views of integer
// tensors are no autograd views in libtorch and keep their kind. The unsafe_* forms
// (split_more_ops.cpp) drop the kind again: libtorch's outputs of those are no views.
std::vector<Tensor> multi_output_views(std::vector<Tensor> out) {
  if (!detail::grad_mode_enabled() || detail::inference_mode_enabled()) return out;
  for (Tensor& t : out) {
    TensorImpl* impl = t.unsafeGetTensorImpl();
    if (!impl->view_base() || impl->creation_meta() == CreationMeta::INFERENCE_MODE ||
        !(is_floating_type(impl->dtype()) || is_complex_type(impl->dtype())))
      continue;
    impl->set_creation_meta(CreationMeta::MULTI_OUTPUT_NODE, impl->version());
  }
  return out;
}

std::vector<Tensor> split_with_sizes_kernel(const Tensor& self, IntArrayRef split_sizes,
                                            int64_t dim) {
  BRASA_CHECK(self.dim() > 0, "split_with_sizes: expects a tensor with at least 1 dimension");
  int64_t d = detail::wrap_dim(dim, self.dim(), "split_with_sizes");
  int64_t total = 0;
  for (int64_t s : split_sizes) {
    BRASA_CHECK(s >= 0, "split_with_sizes: expects split_sizes to be non-negative, got ",
                split_sizes);
    total += s;
  }
  BRASA_CHECK(total == self.sizes()[d], "split_with_sizes: expects split_sizes to sum exactly to ",
              self.sizes()[d], " (input tensor's size at dimension ", d,
              "), but got split_sizes=", split_sizes);
  std::vector<Tensor> out;
  out.reserve(split_sizes.size());
  int64_t start = 0;
  for (int64_t s : split_sizes) {
    out.push_back(slice_kernel(self, d, start, start + s, 1));
    start += s;
  }
  return multi_output_views(std::move(out));
}

std::vector<Tensor> unbind_kernel(const Tensor& self, int64_t dim) {
  BRASA_CHECK_INDEX(self.dim() > 0, "unbind: dimension specified as ", dim,
                    " but tensor has no dimensions");
  int64_t d = detail::wrap_dim(dim, self.dim(), "unbind");
  std::vector<Tensor> out;
  out.reserve(self.sizes()[d]);
  for (int64_t i = 0; i < self.sizes()[d]; ++i) out.push_back(select_kernel(self, d, i));
  return multi_output_views(std::move(out));
}

}  // namespace

BRASA_REGISTER_KERNEL(select_op, select_kernel, CPU, Meta, PrivateUse1)
BRASA_REGISTER_KERNEL(slice_op, slice_kernel, CPU, Meta, PrivateUse1)
BRASA_REGISTER_KERNEL(split_with_sizes_op, split_with_sizes_kernel, CPU, Meta, PrivateUse1)
BRASA_REGISTER_KERNEL(unbind_op, unbind_kernel, CPU, Meta, PrivateUse1)

}  // namespace brasa::ops

namespace brasa {

Tensor select(const Tensor& self, int64_t dim, int64_t index) {
  return ops::select_op().call(self, dim, index);
}
Tensor slice(const Tensor& self, int64_t dim, std::optional<int64_t> start,
             std::optional<int64_t> end, int64_t step) {
  return ops::slice_op().call(self, dim, start, end, step);
}

Tensor narrow(const Tensor& self, int64_t dim, int64_t start, int64_t length) {
  BRASA_CHECK_INDEX(self.dim() > 0, "narrow: cannot be applied to a 0-dim tensor");
  int64_t d = detail::wrap_dim(dim, self.dim(), "narrow");
  int64_t size = self.sizes()[d];
  BRASA_CHECK_INDEX(start >= -size && start <= size, "narrow: start (", start,
                    ") out of range (expected to be in range of [", -size, ", ", size, "])");
  if (start < 0) start += size;
  BRASA_CHECK(length >= 0, "narrow: length must be non-negative, got ", length);
  BRASA_CHECK(start <= size - length, "narrow: start (", start, ") + length (", length,
              ") exceeds dimension size (", size, ")");
  return slice(self, d, start, start + length, 1);
}

std::vector<Tensor> split_with_sizes(const Tensor& self, IntArrayRef split_sizes, int64_t dim) {
  return ops::split_with_sizes_op().call(self, split_sizes, dim);
}
std::vector<Tensor> split(const Tensor& self, IntArrayRef split_sizes, int64_t dim) {
  return split_with_sizes(self, split_sizes, dim);
}
std::vector<Tensor> split(const Tensor& self, int64_t split_size, int64_t dim) {
  BRASA_CHECK(self.dim() > 0, "split: expects a tensor with at least 1 dimension");
  int64_t d = detail::wrap_dim(dim, self.dim(), "split");
  int64_t size = self.sizes()[d];
  BRASA_CHECK(split_size >= 0, "split: expects split_size to be non-negative, got ", split_size);
  BRASA_CHECK(split_size > 0 || size == 0,
              "split: split_size can only be 0 if dimension size is 0, but got dimension size of ",
              size);
  int64_t pieces = split_size == 0 ? 1 : std::max<int64_t>((size + split_size - 1) / split_size, 1);
  DimVector sizes(pieces, split_size);
  sizes.back() = size - split_size * (pieces - 1);
  autograd::NodeName node("SplitBackward0");  // split.Tensor (Note [Overload node names])
  return split_with_sizes(self, sizes, d);
}

std::vector<Tensor> chunk(const Tensor& self, int64_t chunks, int64_t dim) {
  BRASA_CHECK(self.dim() > 0, "chunk: expects at least a 1-dimensional tensor");
  BRASA_CHECK(chunks > 0, "chunk: expects `chunks` to be greater than 0, got ", chunks);
  int64_t d = detail::wrap_dim(dim, self.dim(), "chunk");
  int64_t size = self.sizes()[d];
  if (size == 0) return split_with_sizes(self, DimVector(chunks, 0), d);
  return split(self, (size + chunks - 1) / chunks, d);
}

std::vector<Tensor> unbind(const Tensor& self, int64_t dim) {
  return ops::unbind_op().call(self, dim);
}

Tensor Tensor::select(int64_t dim, int64_t index) const { return brasa::select(*this, dim, index); }
Tensor Tensor::slice(int64_t dim, std::optional<int64_t> start, std::optional<int64_t> end,
                     int64_t step) const {
  return brasa::slice(*this, dim, start, end, step);
}
Tensor Tensor::narrow(int64_t dim, int64_t start, int64_t length) const {
  return brasa::narrow(*this, dim, start, length);
}
std::vector<Tensor> Tensor::chunk(int64_t chunks, int64_t dim) const {
  return brasa::chunk(*this, chunks, dim);
}
std::vector<Tensor> Tensor::split(int64_t split_size, int64_t dim) const {
  return brasa::split(*this, split_size, dim);
}
std::vector<Tensor> Tensor::split(IntArrayRef split_sizes, int64_t dim) const {
  return brasa::split(*this, split_sizes, dim);
}
std::vector<Tensor> Tensor::split_with_sizes(IntArrayRef split_sizes, int64_t dim) const {
  return brasa::split_with_sizes(*this, split_sizes, dim);
}
std::vector<Tensor> Tensor::unbind(int64_t dim) const { return brasa::unbind(*this, dim); }

}  // namespace brasa
