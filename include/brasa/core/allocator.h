#pragma once
// DataPtr (owned bytes with their deleter) and the Allocator interface every device provides.

#include <cstddef>
#include <cstdint>
#include <utility>

#include "brasa/core/device.h"
#include "brasa/core/macros.h"

namespace brasa {

/// Owns a block of bytes: `deleter(ctx, data)` is called exactly once when the DataPtr dies.
class DataPtr {
 public:
  using Deleter = void (*)(void* ctx, void* data);
  DataPtr() = default;
  DataPtr(void* data, void* ctx, Deleter deleter) : data_(data), ctx_(ctx), deleter_(deleter) {}
  DataPtr(const DataPtr&) = delete;
  DataPtr& operator=(const DataPtr&) = delete;
  DataPtr(DataPtr&& o) noexcept { *this = std::move(o); }
  DataPtr& operator=(DataPtr&& o) noexcept {
    if (this != &o) {
      clear();
      data_ = std::exchange(o.data_, nullptr);
      ctx_ = std::exchange(o.ctx_, nullptr);
      deleter_ = std::exchange(o.deleter_, nullptr);
    }
    return *this;
  }
  ~DataPtr() { clear(); }
  void clear() {
    if (deleter_) deleter_(ctx_, data_);
    data_ = ctx_ = nullptr;
    deleter_ = nullptr;
  }
  void* get() const { return data_; }
  void* context() const { return ctx_; }
  void* get_context() const { return ctx_; }  // libtorch's spelling
  Deleter deleter() const { return deleter_; }

 private:
  void* data_ = nullptr;
  void* ctx_ = nullptr;
  Deleter deleter_ = nullptr;
};

class BRASA_API Allocator {
 public:
  virtual ~Allocator() = default;
  virtual DataPtr allocate(size_t nbytes) = 0;
};

/// The allocator registered for a device type (CPU's caching allocator, a plugin's, ...).
BRASA_API Allocator* get_allocator(DeviceType t);
BRASA_API void set_allocator(DeviceType t, Allocator* allocator);

/// Counters of the CPU caching allocator, in bytes and calls.
struct MemoryStats {
  int64_t allocated_bytes = 0;       ///< handed out to tensors now
  int64_t reserved_bytes = 0;        ///< allocated + cached for reuse
  int64_t peak_allocated_bytes = 0;  ///< high-water mark of allocated_bytes
  int64_t num_allocs = 0;            ///< allocate() calls
  int64_t num_frees = 0;             ///< blocks given back
  int64_t num_cache_hits = 0;        ///< allocations served from the cache
  int64_t num_system_allocs = 0;     ///< allocations that went to the OS
};
/// Statistics of the CPU caching allocator.
BRASA_API MemoryStats memory_stats();
/// Returns cached, unused CPU blocks to the OS.
BRASA_API void empty_cache();
/// Resets peak_allocated_bytes to the current allocated_bytes.
BRASA_API void reset_peak_memory_stats();

}  // namespace brasa
