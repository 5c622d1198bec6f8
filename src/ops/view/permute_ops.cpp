// Views that reorder dims: transpose, t, permute, movedim; and diagonal.
#include "brasa/core/empty.h"
#include "brasa/core/error.h"
#include "brasa/dispatch/dispatcher.h"
#include "brasa/ops/view.h"
#include "dispatch/node_name.h"
#include "ops/view/view_ops.h"
#include "ops/view/view_utils.h"

namespace brasa::ops {

BRASA_DEFINE_OP(transpose_op)
BRASA_DEFINE_OP(permute_op)
BRASA_DEFINE_OP(diagonal_op)

namespace {

Tensor transpose_kernel(const Tensor& self, int64_t dim0, int64_t dim1) {
  int64_t a = detail::wrap_dim(dim0, self.dim(), "transpose");
  int64_t b = detail::wrap_dim(dim1, self.dim(), "transpose");
  DimVector sizes(self.sizes());
  DimVector strides(self.strides());
  if (self.dim() > 0) {
    std::swap(sizes[a], sizes[b]);
    std::swap(strides[a], strides[b]);
  }
  return detail::make_view(self, sizes, strides, self.storage_offset());
}

Tensor permute_kernel(const Tensor& self, IntArrayRef dims) {
  int64_t ndim = self.dim();
  BRASA_CHECK(
      static_cast<int64_t>(dims.size()) == ndim,
      "permute: number of dims in the tensor input does not match the length of the desired "
      "ordering of dims i.e. input.dim() = ",
      ndim, " is not equal to len(dims) = ", dims.size());
  dims_to_bitset(dims, ndim, "permute");
  DimVector sizes(ndim), strides(ndim);
  for (int64_t i = 0; i < ndim; ++i) {
    int64_t d = detail::wrap_dim(dims[i], ndim, "permute");
    sizes[i] = self.sizes()[d];
    strides[i] = self.strides()[d];
  }
  return detail::make_view(self, sizes, strides, self.storage_offset());
}

Tensor diagonal_kernel(const Tensor& self, int64_t offset, int64_t dim1, int64_t dim2) {
  BRASA_CHECK_INDEX(self.dim() >= 2, "diagonal: expected a tensor with at least 2 dims, got ",
                    self.dim());
  int64_t a = detail::wrap_dim(dim1, self.dim(), "diagonal");
  int64_t b = detail::wrap_dim(dim2, self.dim(), "diagonal");
  BRASA_CHECK(a != b, "diagonal: dimensions cannot be identical ", dim1, ", ", dim2);
  int64_t size_a = self.sizes()[a], size_b = self.sizes()[b];
  int64_t length =
      offset >= 0 ? std::min(size_a, size_b - offset) : std::min(size_a + offset, size_b);
  length = std::max<int64_t>(length, 0);
  int64_t storage_offset = self.storage_offset();
  if (length > 0)
    storage_offset += offset >= 0 ? offset * self.strides()[b] : -offset * self.strides()[a];
  DimVector sizes, strides;
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (d == a || d == b) continue;
    sizes.push_back(self.sizes()[d]);
    strides.push_back(self.strides()[d]);
  }
  sizes.push_back(length);
  strides.push_back(self.strides()[a] + self.strides()[b]);
  return detail::make_view(self, sizes, strides, storage_offset);
}

}  // namespace

BRASA_REGISTER_KERNEL(transpose_op, transpose_kernel, CPU, Meta, PrivateUse1)
BRASA_REGISTER_KERNEL(permute_op, permute_kernel, CPU, Meta, PrivateUse1)
BRASA_REGISTER_KERNEL(diagonal_op, diagonal_kernel, CPU, Meta, PrivateUse1)

}  // namespace brasa::ops

namespace brasa {

Tensor transpose(const Tensor& self, int64_t dim0, int64_t dim1) {
  return ops::transpose_op().call(self, dim0, dim1);
}
Tensor swapaxes(const Tensor& self, int64_t dim0, int64_t dim1) {
  return transpose(self, dim0, dim1);
}
Tensor swapdims(const Tensor& self, int64_t dim0, int64_t dim1) {
  return transpose(self, dim0, dim1);
}

Tensor t(const Tensor& self) {
  BRASA_CHECK(self.dim() <= 2, "t: expects a tensor with <= 2 dimensions, but self is ", self.dim(),
              "D");
  autograd::NodeName node("TBackward0");  // Note [Overload node names]
  return transpose(self, 0, self.dim() < 2 ? 0 : 1);
}

Tensor permute(const Tensor& self, IntArrayRef dims) { return ops::permute_op().call(self, dims); }

Tensor movedim(const Tensor& self, IntArrayRef source, IntArrayRef destination) {
  BRASA_CHECK(source.size() == destination.size(),
              "movedim: invalid source or destination dims: ", "source (", source,
              ") should contain the same number of dims as destination (", destination, ")");
  int64_t ndim = self.dim();
  uint64_t used_src = ops::dims_to_bitset(source, ndim, "movedim");
  uint64_t used_dst = ops::dims_to_bitset(destination, ndim, "movedim");
  DimVector order(std::max<int64_t>(ndim, 0), -1);
  for (size_t i = 0; i < source.size() && ndim > 0; ++i)
    order[detail::wrap_dim(destination[i], ndim, "movedim")] =
        detail::wrap_dim(source[i], ndim, "movedim");
  int64_t next_src = 0;
  for (int64_t pos = 0; pos < ndim; ++pos) {
    if (used_dst >> pos & 1) continue;
    while (used_src >> next_src & 1) ++next_src;
    order[pos] = next_src++;
  }
  return permute(self, order);
}
Tensor movedim(const Tensor& self, int64_t source, int64_t destination) {
  return movedim(self, IntArrayRef(source), IntArrayRef(destination));
}
Tensor moveaxis(const Tensor& self, IntArrayRef source, IntArrayRef destination) {
  return movedim(self, source, destination);
}
Tensor moveaxis(const Tensor& self, int64_t source, int64_t destination) {
  return movedim(self, source, destination);
}

Tensor diagonal(const Tensor& self, int64_t offset, int64_t dim1, int64_t dim2) {
  return ops::diagonal_op().call(self, offset, dim1, dim2);
}

Tensor Tensor::transpose(int64_t dim0, int64_t dim1) const {
  return brasa::transpose(*this, dim0, dim1);
}
Tensor Tensor::t() const { return brasa::t(*this); }
Tensor Tensor::permute(IntArrayRef dims) const { return brasa::permute(*this, dims); }
Tensor Tensor::movedim(IntArrayRef source, IntArrayRef destination) const {
  return brasa::movedim(*this, source, destination);
}
Tensor Tensor::movedim(int64_t source, int64_t destination) const {
  return brasa::movedim(*this, source, destination);
}
Tensor Tensor::diagonal(int64_t offset, int64_t dim1, int64_t dim2) const {
  return brasa::diagonal(*this, offset, dim1, dim2);
}

}  // namespace brasa
