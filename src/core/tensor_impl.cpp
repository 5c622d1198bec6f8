#include "brasa/core/tensor_impl.h"

#include "brasa/core/error.h"

namespace brasa {

AutogradMetaInterface::~AutogradMetaInterface() = default;

TensorImpl::TensorImpl(Storage storage, ScalarType dtype, Device device)
    : storage_(std::move(storage)),
      dtype_(dtype),
      device_(device),
      keys_(DispatchKeySet(backend_key(device.type()))) {}

TensorImpl::~TensorImpl() = default;

void TensorImpl::set_sizes_contiguous(IntArrayRef sizes) {
  if (sizes.size() <= 1) {  // the common small case, without the general loops
    sizes_.resize(sizes.size());
    strides_.resize(sizes.size());
    numel_ = 1;
    if (!sizes.empty()) {
      sizes_[0] = numel_ = sizes[0];
      strides_[0] = 1;
    }
    is_contiguous_ = true;
    return;
  }
  sizes_ = sizes;
  strides_.resize(sizes.size());
  int64_t stride = 1;
  for (int64_t d = static_cast<int64_t>(sizes.size()) - 1; d >= 0; --d) {
    strides_[d] = stride;
    stride *= std::max<int64_t>(sizes[d], 1);
  }
  refresh();
}

void TensorImpl::set_sizes_and_strides(IntArrayRef sizes, IntArrayRef strides,
                                       int64_t storage_offset) {
  BRASA_INTERNAL_ASSERT(sizes.size() == strides.size(), "sizes and strides differ in length");
  sizes_ = sizes;
  strides_ = strides;
  storage_offset_ = storage_offset;
  refresh();
}

void TensorImpl::refresh() {
  int64_t n = 1;
  for (int64_t s : sizes_) n *= s;
  numel_ = n;
  // Contiguous iff strides equal the row-major strides, ignoring dims of size 1.
  bool contiguous = true;
  if (n != 0) {
    int64_t expected = 1;
    for (int64_t d = static_cast<int64_t>(sizes_.size()) - 1; d >= 0; --d) {
      if (sizes_[d] == 1) continue;
      if (strides_[d] != expected) {
        contiguous = false;
        break;
      }
      expected *= sizes_[d];
    }
  }
  is_contiguous_ = contiguous;
}

void TensorImpl::set_autograd_meta(std::unique_ptr<AutogradMetaInterface> m) {
  autograd_meta_ = std::move(m);
}

}  // namespace brasa
