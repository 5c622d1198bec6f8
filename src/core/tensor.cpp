// Tensor's metadata accessors, raw data access and item().
#include "brasa/core/tensor.h"

#include <sstream>

#include "brasa/core/dispatch_type.h"
#include "brasa/core/empty.h"
#include "brasa/core/error.h"
#include "core/device_hooks.h"

namespace brasa {

int64_t Tensor::size(int64_t d) const {
  BRASA_CHECK(defined(), "size: called on an undefined tensor");
  BRASA_CHECK_INDEX(dim() > 0, "size: dimension specified as ", d, " but tensor has no dimensions");
  return impl_->sizes()[detail::wrap_dim(d, dim(), "size")];
}
int64_t Tensor::stride(int64_t d) const {
  BRASA_CHECK_INDEX(dim() > 0, "stride: dimension specified as ", d,
                    " but tensor has no dimensions");
  return impl_->strides()[detail::wrap_dim(d, dim(), "stride")];
}

// Note [Raw reads of pending tensors]
// A fused-eager result that is still pending (Note [Fused eager] in src/compile/fused_eager.cpp)
// is a CPU tensor whose storage has its size but no memory yet. Typed data_ptr<T>() flushes the
// thread's pending work before it reads; the untyped data_ptr() (and mutable_/const_data_ptr())
// flushes only when the storage has no memory, so its fast path is the one null test the pointer
// always had: a storage with bytes on a real device is computed by the flush, meta and empty
// storage stay null. Out of line, so that its many callers each pay a call, not the branch and
// the slow path. TensorImpl::data() does not flush: kernels read through it, and a kernel never
// sees a pending tensor.
void* Tensor::data_ptr() const {
  void* data = impl_->data();
  if (BRASA_LIKELY(data != nullptr) || impl_->storage().nbytes() == 0 || is_meta()) return data;
  detail::flush_pending();
  return impl_->data();
}

template <typename T>
T* Tensor::data_ptr() const {
  BRASA_CHECK(defined(), "data_ptr: called on an undefined tensor");
  BRASA_CHECK_TYPE(dtype() == dtype_of<T>, "data_ptr: expected scalar type ", dtype_of<T>,
                   " but found ", dtype());
  detail::flush_pending();
  return static_cast<T*>(impl_->data());
}
#define BRASA_INSTANTIATE_DATA_PTR(T, name) template BRASA_API T* Tensor::data_ptr<T>() const;
BRASA_FORALL_SCALAR_TYPES(BRASA_INSTANTIATE_DATA_PTR)
#undef BRASA_INSTANTIATE_DATA_PTR

Scalar Tensor::item() const {
  BRASA_CHECK(defined(), "item: called on an undefined tensor");
  BRASA_CHECK(numel() == 1, "item: a Tensor with ", numel(),
              " elements cannot be converted to Scalar (shape ", sizes(), ")");
  BRASA_CHECK_NOT_IMPLEMENTED(!is_meta(), "item: meta tensors have no data");
  detail::observe_data("item");
  detail::flush_pending();
  Tensor t = is_cpu() ? *this : to(Device(kCPU));
  const void* data = t.data_ptr();
  return BRASA_DISPATCH_ALL_TYPES_AND_COMPLEX(dtype(), "item", [&]() -> Scalar {
    scalar_t v = *static_cast<const scalar_t*>(data);
    return Scalar(v);
  });
}

std::string Tensor::toString() const {
  if (!defined()) return "UndefinedType";
  std::string dev = device().is_cpu()    ? "CPU"
                    : device().is_meta() ? "Meta"
                                         : device_type_name(device().type());
  return dev + to_string(dtype()) + "Type";
}

}  // namespace brasa
