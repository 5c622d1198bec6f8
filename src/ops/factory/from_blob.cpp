// from_blob: a tensor over memory the caller owns (not dispatched: it produces no data).
#include <functional>

#include "brasa/core/empty.h"
#include "brasa/core/error.h"
#include "brasa/ops/factory.h"

namespace brasa {
namespace {

void call_deleter(void* ctx, void* data) {
  auto* fn = static_cast<std::function<void(void*)>*>(ctx);
  (*fn)(data);
  delete fn;
}

size_t blob_nbytes(IntArrayRef sizes, IntArrayRef strides, const TensorOptions& o) {
  BRASA_CHECK(sizes.size() == strides.size(), "from_blob: got ", sizes.size(), " sizes but ",
              strides.size(), " strides");
  return detail::storage_nbytes(sizes, strides, element_size(o.dtype()), "from_blob");
}

// The storage has no allocator, so it cannot be resized; `data` is freed (if at all) by the
// DataPtr. Checks run before the DataPtr takes ownership: on error the caller still owns `data`.
Tensor wrap_blob(DataPtr data, size_t nbytes, IntArrayRef sizes, IntArrayRef strides,
                 const TensorOptions& o) {
  auto storage = make_intrusive<StorageImpl>(std::move(data), nbytes, o.device(), nullptr);
  auto impl = make_intrusive<TensorImpl>(std::move(storage), o.dtype(), o.device());
  impl->set_sizes_and_strides(sizes, strides, 0);
  Tensor t(std::move(impl));
  if (o.requires_grad()) t.set_requires_grad(true);
  return t;
}

DataPtr owning(void* data, const std::function<void(void*)>& deleter) {
  if (!deleter) return DataPtr(data, nullptr, nullptr);
  return DataPtr(data, new std::function<void(void*)>(deleter), &call_deleter);
}

}  // namespace

Tensor from_blob(void* data, IntArrayRef sizes, IntArrayRef strides,
                 const std::function<void(void*)>& deleter, const TensorOptions& o) {
  const size_t nbytes = blob_nbytes(sizes, strides, o);
  return wrap_blob(owning(data, deleter), nbytes, sizes, strides, o);
}
Tensor from_blob(void* data, IntArrayRef sizes, const std::function<void(void*)>& deleter,
                 const TensorOptions& o) {
  return from_blob(data, sizes, detail::contiguous_strides(sizes), deleter, o);
}
Tensor from_blob(void* data, IntArrayRef sizes, IntArrayRef strides, const TensorOptions& o) {
  return from_blob(data, sizes, strides, nullptr, o);
}
Tensor from_blob(void* data, IntArrayRef sizes, const TensorOptions& o) {
  return from_blob(data, sizes, detail::contiguous_strides(sizes), nullptr, o);
}

}  // namespace brasa
