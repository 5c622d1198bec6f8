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
  const DataPtr& data_ptr() const { return data_; }
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

/// A counted reference to a StorageImpl (`->` reaches it) with c10::Storage's accessors, so that
/// `tensor.storage().data()` reads as it does with libtorch.
class Storage : public IntrusivePtr<StorageImpl> {
 public:
  using IntrusivePtr<StorageImpl>::IntrusivePtr;
  Storage() = default;
  Storage(IntrusivePtr<StorageImpl> p) : IntrusivePtr<StorageImpl>(std::move(p)) {}  // NOLINT

  void* data() const { return get()->data(); }
  template <typename T>
  T* data() const {
    return static_cast<T*>(get()->data());
  }
  const DataPtr& data_ptr() const { return get()->data_ptr(); }
  size_t nbytes() const { return get()->nbytes(); }
  Device device() const { return get()->device(); }
  Allocator* allocator() const { return get()->allocator(); }
  bool resizable() const { return get()->resizable(); }
};

}  // namespace brasa
