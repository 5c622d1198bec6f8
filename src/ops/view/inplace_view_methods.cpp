// The in-place view methods (squeeze_, unsqueeze_, transpose_, t_, swapaxes_, swapdims_,
// as_strided_): the tensor takes the sizes, strides and offset of the out-of-place view, keeping
// its storage.
//
// Note [In-place views and autograd]
// Changing a tensor's geometry in place would invalidate what autograd recorded about it (the
// shapes its graph expects), so these methods refuse a tensor that requires grad
// (NotImplementedError naming the op and the out-of-place form to use), rather than record
// something wrong.

#include "brasa/core/error.h"
#include "brasa/core/tensor.h"

namespace brasa {
namespace {

const Tensor& take_geometry(const Tensor& self, const Tensor& view) {
  self.unsafeGetTensorImpl()->set_sizes_and_strides(view.sizes(), view.strides(),
                                                    view.storage_offset());
  return self;
}

void check_no_grad(const Tensor& self, const char* op, const char* instead) {
  BRASA_CHECK(self.defined(), op, ": called on an undefined tensor");
  BRASA_CHECK_NOT_IMPLEMENTED(!self.requires_grad(), op,
                              ": in place on a tensor that requires grad", " (sizes ", self.sizes(),
                              ") is not supported; use ", instead,
                              " instead (Note [In-place views and autograd])");
}

}  // namespace

const Tensor& Tensor::squeeze_() const {
  check_no_grad(*this, "squeeze_", "squeeze()");
  return take_geometry(*this, squeeze());
}
const Tensor& Tensor::squeeze_(int64_t dim) const {
  check_no_grad(*this, "squeeze_", "squeeze(dim)");
  return take_geometry(*this, squeeze(dim));
}
const Tensor& Tensor::unsqueeze_(int64_t dim) const {
  check_no_grad(*this, "unsqueeze_", "unsqueeze(dim)");
  return take_geometry(*this, unsqueeze(dim));
}
const Tensor& Tensor::transpose_(int64_t dim0, int64_t dim1) const {
  check_no_grad(*this, "transpose_", "transpose(dim0, dim1)");
  return take_geometry(*this, transpose(dim0, dim1));
}
const Tensor& Tensor::t_() const {
  check_no_grad(*this, "t_", "t()");
  return take_geometry(*this, t());
}
const Tensor& Tensor::swapaxes_(int64_t axis0, int64_t axis1) const {
  return transpose_(axis0, axis1);
}
const Tensor& Tensor::swapdims_(int64_t dim0, int64_t dim1) const { return transpose_(dim0, dim1); }
const Tensor& Tensor::as_strided_(IntArrayRef sizes, IntArrayRef strides,
                                  std::optional<int64_t> storage_offset) const {
  check_no_grad(*this, "as_strided_", "as_strided(sizes, strides)");
  return take_geometry(*this, as_strided(sizes, strides, storage_offset));
}

const Tensor& Tensor::set_(const Tensor& source) const {
  check_no_grad(*this, "set_", "source itself (or a view of it)");
  BRASA_CHECK(source.defined(), "set_: the source tensor is undefined");
  BRASA_CHECK_TYPE(source.scalar_type() == scalar_type(), "set_: the source's dtype ",
                   source.scalar_type(), " differs from this tensor's ", scalar_type());
  BRASA_CHECK(source.device() == device(), "set_: the source is on ", source.device(),
              ", this tensor on ", device());
  unsafeGetTensorImpl()->set_storage(source.storage());
  return take_geometry(*this, source);
}

bool Tensor::is_set_to(const Tensor& other) const {
  return defined() && other.defined() && storage().get() == other.storage().get() &&
         storage_offset() == other.storage_offset() && sizes() == other.sizes() &&
         strides() == other.strides();
}

}  // namespace brasa
