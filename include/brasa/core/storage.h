#pragma once
// Storage: refcounted bytes on a device, shared by a tensor and all its views. The version counter
// lives here because every view of the bytes must see in-place writes (autograd checks it).

#include <atomic>
#include <cstddef>

#include "brasa/core/allocator.h"
#include "brasa/core/intrusive_ptr.h"
#include "brasa/core/object_pool.h"

namespace brasa {

class BRASA_API StorageImpl : public RefCounted, public detail::PooledObject<StorageImpl> {
 public:
  StorageImpl(DataPtr data, size_t nbytes, Device device, Allocator* allocator)
      : data_(std::move(data)), nbytes_(nbytes), device_(device), allocator_(allocator) {}

  void* data() const { return data_.get(); }
  size_t nbytes() const { return nbytes_; }
  Device device() const { return device_; }
  Allocator* allocator() const { return allocator_; }
  /// Replaces the bytes (used by resize_); throws if the storage came from external memory.
  void set_data(DataPtr data, size_t nbytes) {
    data_ = std::move(data);
    nbytes_ = nbytes;
  }
  bool resizable() const { return allocator_ != nullptr; }

  uint32_t version() const { return version_.load(std::memory_order_relaxed); }
  void bump_version() { version_.fetch_add(1, std::memory_order_relaxed); }

 private:
  DataPtr data_;
  size_t nbytes_;
  Device device_;
  Allocator* allocator_;  // null for from_blob memory
  std::atomic<uint32_t> version_{0};
};

using Storage = IntrusivePtr<StorageImpl>;

}  // namespace brasa
