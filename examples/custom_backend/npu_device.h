#pragma once
// The example "npu": an emulated device whose memory is a separate arena. The addresses its
// allocator hands out lie in a reserved range the host cannot read or write (PROT_NONE), so a
// framework bug that dereferences a device pointer on the CPU crashes at once instead of
// silently working; the bytes live in a second mapping that only this backend's copies and kernels
// reach, through Arena::host().

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>

namespace npu {

constexpr int kMaxDevices = 4;

class Arena {
 public:
  /// The arena of device `index` (made on first use; NPU_ARENA_MB sets its size, default 2048).
  static Arena& of(int index);

  void* allocate(size_t nbytes);
  void release(void* device_ptr);
  /// The host address of `nbytes` of device memory at `device_ptr`; throws std::runtime_error
  /// when the range is not inside this arena (a stray pointer).
  void* host(const void* device_ptr, size_t nbytes) const;
  bool contains(const void* device_ptr) const;

  int index() const { return index_; }
  int64_t allocated_bytes() const;
  int64_t peak_bytes() const;

 private:
  explicit Arena(int index);
  int index_;
  char* device_base_ = nullptr;  // PROT_NONE: what tensors point at
  char* host_base_ = nullptr;    // the bytes
  size_t size_ = 0;
  mutable std::mutex mutex_;
  std::map<size_t, size_t> free_;  // offset -> size, coalesced
  std::map<size_t, size_t> used_;  // offset -> size
  int64_t allocated_ = 0, peak_ = 0;
};

/// The arena that holds `device_ptr`, or null.
Arena* arena_of(const void* device_ptr);
/// The calling thread's current npu.
int current_device();
int device_count();
/// Number of synchronize() calls (tests check that the accelerator API reaches the backend).
int64_t synchronize_count();

}  // namespace npu
