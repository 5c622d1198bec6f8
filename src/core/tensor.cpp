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
  return BRASA_DISPATCH_ALL_TYPES_AND_COMPLEX(dtype(), "item", [&]() -> Scalar {
    scalar_t v = *static_cast<const scalar_t*>(t.data_ptr());
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
