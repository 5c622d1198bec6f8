// Views that change the shape: view, reshape, flatten, unflatten, squeeze, unsqueeze, expand,
// alias, as_strided; and resize_ (which changes the tensor itself).
#include <cstring>

#include "brasa/backend/backend.h"
#include "brasa/core/empty.h"
#include "brasa/core/error.h"
#include "brasa/dispatch/dispatcher.h"
#include "brasa/ops/view.h"
#include "dispatch/node_name.h"
#include "ops/view/view_ops.h"
#include "ops/view/view_utils.h"

namespace brasa::ops {

BRASA_DEFINE_OP(view_op)
BRASA_DEFINE_OP(view_dtype_op)
BRASA_DEFINE_OP(squeeze_op)
BRASA_DEFINE_OP(squeeze_dims_op)
BRASA_DEFINE_OP(unsqueeze_op)
BRASA_DEFINE_OP(expand_op)
BRASA_DEFINE_OP(alias_op)
BRASA_DEFINE_OP(as_strided_op)
BRASA_DEFINE_OP(resize_op)

namespace {

Tensor view_kernel(const Tensor& self, IntArrayRef sizes) {
  DimVector shape = infer_size(sizes, self.numel(), "view");
  std::optional<DimVector> strides = view_strides(self.sizes(), self.strides(), shape);
  BRASA_CHECK(strides.has_value(),
              "view: size is not compatible with input tensor's size and stride (at least one "
              "dimension spans across two contiguous subspaces). Use .reshape(...) instead. (input "
              "sizes ",
              self.sizes(), ", strides ", self.strides(), ", requested ", sizes, ")");
  return detail::make_view(self, shape, *strides, self.storage_offset());
}

// Note [Dtype views]
// view(dtype) reads the same bytes as another dtype, as libtorch's view(ScalarType) does: with
// equal element sizes only the dtype changes; otherwise the last dim (which must have stride 1)
// holds size(-1) * old / new elements, and every other stride and the storage offset are rescaled,
// so they must divide evenly when the new element is wider. Not differentiable (as in libtorch):
// the result shares the storage (and its version counter) but not the base's autograd view link, so
// it never requires grad.
Tensor view_dtype_kernel(const Tensor& self, ScalarType dtype) {
  const int64_t from = int64_t(self.itemsize()), to = int64_t(element_size(dtype));
  DimVector sizes(self.sizes()), strides(self.strides());
  int64_t offset = self.storage_offset();
  if (from != to) {
    const std::string as =
        detail::str_cat(" to view ", self.dtype(), " as ", dtype, " (different element sizes)");
    BRASA_CHECK(self.dim() > 0, "view.dtype: self.dim() cannot be 0", as);
    BRASA_CHECK(strides.back() == 1, "view.dtype: self.stride(-1) must be 1", as, ", but got ",
                strides.back());
    const bool widen = to > from;
    const int64_t ratio = widen ? to / from : from / to;
    if (widen) {
      BRASA_CHECK(sizes.back() % ratio == 0, "view.dtype: self.size(-1) must be divisible by ",
                  ratio, as, ", but got ", sizes.back());
      BRASA_CHECK(offset % ratio == 0, "view.dtype: self.storage_offset() must be divisible by ",
                  ratio, as, ", but got ", offset);
      for (int64_t d = 0; d + 1 < self.dim(); ++d)
        BRASA_CHECK(strides[d] % ratio == 0, "view.dtype: self.stride(", d,
                    ") must be divisible by ", ratio, as, ", but got ", strides[d]);
    }
    auto scale = [&](int64_t v) { return widen ? v / ratio : v * ratio; };
    for (int64_t d = 0; d + 1 < self.dim(); ++d) strides[d] = scale(strides[d]);
    sizes.back() = scale(sizes.back());
    offset = scale(offset);
  }
  Tensor r = detail::make_view(self, self.sizes(), self.strides(), self.storage_offset());
  r.unsafeGetTensorImpl()->set_dtype(dtype);
  r.unsafeGetTensorImpl()->set_sizes_and_strides(sizes, strides, offset);
  r.unsafeGetTensorImpl()->set_view_base({});
  return r;
}

Tensor squeeze_mask(const Tensor& self, uint64_t mask) {
  DimVector sizes, strides;
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (self.sizes()[d] == 1 && (mask >> d & 1)) continue;
    sizes.push_back(self.sizes()[d]);
    strides.push_back(self.strides()[d]);
  }
  return detail::make_view(self, sizes, strides, self.storage_offset());
}

Tensor squeeze_kernel(const Tensor& self) { return squeeze_mask(self, ~uint64_t(0)); }

Tensor squeeze_dims_kernel(const Tensor& self, IntArrayRef dims) {
  return squeeze_mask(self, dims_to_bitset(dims, self.dim(), "squeeze"));
}

Tensor unsqueeze_kernel(const Tensor& self, int64_t dim) {
  int64_t d = detail::wrap_dim(dim, self.dim() + 1, "unsqueeze");
  DimVector sizes(self.sizes());
  DimVector strides(self.strides());
  int64_t stride = d >= self.dim() ? 1 : sizes[d] * strides[d];
  sizes.insert(d, 1);
  strides.insert(d, stride);
  return detail::make_view(self, sizes, strides, self.storage_offset());
}

Tensor expand_kernel(const Tensor& self, IntArrayRef target, bool) {
  int64_t ndim = static_cast<int64_t>(target.size());
  int64_t self_dim = self.dim();
  BRASA_CHECK(ndim >= self_dim, "expand: the number of sizes provided (", ndim,
              ") must be greater or equal to the number of dimensions in the tensor (", self_dim,
              "); tensor sizes ", self.sizes(), ", target ", target);
  DimVector sizes(ndim), strides(ndim);
  for (int64_t i = ndim - 1; i >= 0; --i) {
    int64_t d = self_dim - (ndim - i);
    int64_t size = d >= 0 ? self.sizes()[d] : 1;
    int64_t stride =
        d >= 0 ? self.strides()[d] : (i + 1 < ndim ? sizes[i + 1] * strides[i + 1] : 1);
    int64_t want = target[i];
    if (want == -1) {
      BRASA_CHECK(d >= 0,
                  "expand: the expanded size of the tensor (-1) isn't allowed in a leading, "
                  "non-existing dimension ",
                  i);
      want = size;
    }
    BRASA_CHECK(want >= 0, "expand: invalid size ", want, " at dim ", i, " in ", target);
    if (size != want) {
      BRASA_CHECK(size == 1, "expand: the expanded size of the tensor (", want,
                  ") must match the existing size (", size, ") at non-singleton dimension ", i,
                  ".  Target sizes: ", target, ".  Tensor sizes: ", self.sizes());
      size = want;
      stride = 0;
    }
    sizes[i] = size;
    strides[i] = stride;
  }
  return detail::make_view(self, sizes, strides, self.storage_offset());
}

Tensor alias_kernel(const Tensor& self) {
  return detail::make_view(self, self.sizes(), self.strides(), self.storage_offset());
}

Tensor as_strided_kernel(const Tensor& self, IntArrayRef sizes, IntArrayRef strides,
                         std::optional<int64_t> storage_offset) {
  BRASA_CHECK(sizes.size() == strides.size(),
              "as_strided: mismatch in length of strides and shape (", sizes, " vs ", strides, ")");
  int64_t offset = storage_offset.value_or(self.storage_offset());
  BRASA_CHECK(offset >= 0, "as_strided: storage offset must be non-negative, got ", offset);
  size_t needed = detail::storage_nbytes(sizes, strides, self.itemsize(), "as_strided");
  if (needed > 0) needed += offset * self.itemsize();
  BRASA_CHECK(needed <= self.storage()->nbytes(), "as_strided: sizes ", sizes, ", strides ",
              strides, ", storage offset ", offset, " and itemsize ", self.itemsize(),
              " require a storage of ", needed, " bytes, out of bounds for a storage of ",
              self.storage()->nbytes(), " bytes");
  return detail::make_view(self, sizes, strides, offset);
}

Tensor resize_kernel(const Tensor& self, IntArrayRef sizes) {
  DimVector strides = detail::contiguous_strides(sizes);
  size_t needed = detail::storage_nbytes(sizes, strides, self.itemsize(), "resize_");
  if (needed > 0) needed += self.storage_offset() * self.itemsize();
  StorageImpl* storage = self.storage().get();
  if (needed > storage->nbytes()) {
    if (self.is_meta()) {
      storage->set_data(DataPtr(), needed);
    } else {
      BRASA_CHECK(storage->resizable(),
                  "resize_: trying to resize storage that is not resizable "
                  "(external memory) from ",
                  storage->nbytes(), " to ", needed, " bytes");
      DataPtr data = storage->allocator()->allocate(needed);
      backend::copy_bytes(storage->device(), data.get(), storage->device(), storage->data(),
                          storage->nbytes());
      storage->set_data(std::move(data), needed);
    }
  }
  self.unsafeGetTensorImpl()->set_sizes_contiguous(sizes);
  return self;
}

}  // namespace

BRASA_REGISTER_KERNEL(view_op, view_kernel, CPU, Meta, PrivateUse1)
BRASA_REGISTER_KERNEL(view_dtype_op, view_dtype_kernel, CPU, Meta, PrivateUse1)
BRASA_REGISTER_KERNEL(squeeze_op, squeeze_kernel, CPU, Meta, PrivateUse1)
BRASA_REGISTER_KERNEL(squeeze_dims_op, squeeze_dims_kernel, CPU, Meta, PrivateUse1)
BRASA_REGISTER_KERNEL(unsqueeze_op, unsqueeze_kernel, CPU, Meta, PrivateUse1)
BRASA_REGISTER_KERNEL(expand_op, expand_kernel, CPU, Meta, PrivateUse1)
BRASA_REGISTER_KERNEL(alias_op, alias_kernel, CPU, Meta, PrivateUse1)
BRASA_REGISTER_KERNEL(as_strided_op, as_strided_kernel, CPU, Meta, PrivateUse1)
BRASA_REGISTER_KERNEL(resize_op, resize_kernel, CPU, Meta, PrivateUse1)

}  // namespace brasa::ops

namespace brasa {

Tensor reshape(const Tensor& self, IntArrayRef shape) {
  DimVector sizes = ops::infer_size(shape, self.numel(), "reshape");
  // libtorch's nodes: _reshape_alias's for a view, _unsafe_view's of the copy otherwise (Note
  // [Overload node names]).
  if (ops::view_strides(self.sizes(), self.strides(), sizes)) {
    autograd::NodeName node("ReshapeAliasBackward0");
    return ops::view_op().call(self, sizes);
  }
  Tensor out = self.clone(MemoryFormat::Contiguous);
  // With history, a view of the copy: resizing it in place would leave autograd the old shape.
  if (out.requires_grad()) {
    autograd::NodeName node("UnsafeViewBackward0");
    return ops::view_op().call(out, sizes);
  }
  // resize_ (same numel: no reallocation) rather than setting the sizes on the TensorImpl: a
  // dispatched op, so compile's tracer sees the new shape (it read the reshaped tensor as an
  // unknown, captured one: stale data on replay).
  out.resize_(sizes);
  return out;
}

Tensor flatten(const Tensor& self, int64_t start_dim, int64_t end_dim) {
  int64_t start = detail::wrap_dim(start_dim, self.dim(), "flatten");
  int64_t end = detail::wrap_dim(end_dim, self.dim(), "flatten");
  BRASA_CHECK(start <= end, "flatten: start_dim (", start_dim, ") cannot come after end_dim (",
              end_dim, ")");
  if (self.dim() == 0) return reshape(self, {1});
  if (start == end) return self;
  DimVector sizes(self.sizes().slice(0, start));
  int64_t merged = 1;
  for (int64_t d = start; d <= end; ++d) merged *= self.sizes()[d];
  sizes.push_back(merged);
  for (int64_t d = end + 1; d < self.dim(); ++d) sizes.push_back(self.sizes()[d]);
  return reshape(self, sizes);
}

Tensor unflatten(const Tensor& self, int64_t dim, IntArrayRef sizes) {
  int64_t d = detail::wrap_dim(dim, self.dim(), "unflatten");
  BRASA_CHECK(!sizes.empty(), "unflatten: sizes must be non-empty");
  int64_t size = self.dim() == 0 ? 1 : self.sizes()[d];
  int64_t known = 1, infer = -1;
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] == -1 && infer < 0) {
      infer = static_cast<int64_t>(i);
      continue;
    }
    BRASA_CHECK(sizes[i] >= 0, "unflatten: invalid size ", sizes[i], " in ", sizes);
    known *= sizes[i];
  }
  bool ok = infer >= 0 ? known != 0 && size % known == 0 : known == size;
  BRASA_CHECK(ok, "unflatten: provided sizes ", sizes, " don't multiply up to the size of dim ", d,
              " (", size, ") in the input tensor");
  DimVector shape(self.sizes().slice(0, d));
  for (size_t i = 0; i < sizes.size(); ++i)
    shape.push_back(static_cast<int64_t>(i) == infer ? size / known : sizes[i]);
  for (int64_t i = d + 1; i < self.dim(); ++i) shape.push_back(self.sizes()[i]);
  return ops::view_op().call(self, shape);
}

Tensor squeeze(const Tensor& self) { return ops::squeeze_op().call(self); }
Tensor squeeze(const Tensor& self, int64_t dim) { return ops::squeeze_dims_op().call(self, {dim}); }
Tensor squeeze(const Tensor& self, IntArrayRef dims) {
  return ops::squeeze_dims_op().call(self, dims);
}
Tensor unsqueeze(const Tensor& self, int64_t dim) { return ops::unsqueeze_op().call(self, dim); }
Tensor expand(const Tensor& self, IntArrayRef sizes, bool implicit) {
  return ops::expand_op().call(self, sizes, implicit);
}
Tensor broadcast_to(const Tensor& self, IntArrayRef sizes) { return expand(self, sizes); }
Tensor alias(const Tensor& self) { return ops::alias_op().call(self); }
Tensor as_strided(const Tensor& self, IntArrayRef sizes, IntArrayRef strides,
                  std::optional<int64_t> storage_offset) {
  return ops::as_strided_op().call(self, sizes, strides, storage_offset);
}

Tensor Tensor::view(IntArrayRef sizes) const { return ops::view_op().call(*this, sizes); }
Tensor Tensor::view(ScalarType dtype) const { return ops::view_dtype_op().call(*this, dtype); }
Tensor Tensor::reshape(IntArrayRef sizes) const { return brasa::reshape(*this, sizes); }
Tensor Tensor::flatten(int64_t start_dim, int64_t end_dim) const {
  return brasa::flatten(*this, start_dim, end_dim);
}
Tensor Tensor::unflatten(int64_t dim, IntArrayRef sizes) const {
  return brasa::unflatten(*this, dim, sizes);
}
Tensor Tensor::squeeze() const { return brasa::squeeze(*this); }
Tensor Tensor::squeeze(int64_t dim) const { return brasa::squeeze(*this, dim); }
Tensor Tensor::squeeze(IntArrayRef dims) const { return brasa::squeeze(*this, dims); }
Tensor Tensor::unsqueeze(int64_t dim) const { return brasa::unsqueeze(*this, dim); }
Tensor Tensor::expand(IntArrayRef sizes, bool implicit) const {
  return brasa::expand(*this, sizes, implicit);
}
Tensor Tensor::alias() const { return brasa::alias(*this); }
Tensor Tensor::as_strided(IntArrayRef sizes, IntArrayRef strides,
                          std::optional<int64_t> storage_offset) const {
  return brasa::as_strided(*this, sizes, strides, storage_offset);
}
const Tensor& Tensor::resize_(IntArrayRef sizes) const {
  ops::resize_op().call(*this, sizes);
  return *this;
}

}  // namespace brasa
