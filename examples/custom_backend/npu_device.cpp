// The npu's memory (Arena), and its registration with brasa: allocator, copier and runtime.
#include "npu_device.h"

#include <sys/mman.h>

#include <array>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>

#include "brasa/backend.h"

namespace npu {
namespace {
constexpr size_t kAlign = 64;

size_t arena_bytes() {
  const char* mb = std::getenv("NPU_ARENA_MB");
  size_t n = mb ? std::strtoull(mb, nullptr, 10) : 2048;
  return (n ? n : 2048) << 20;
}

std::array<std::atomic<Arena*>, kMaxDevices> g_arenas{};
std::mutex g_arenas_mutex;
thread_local int t_current = 0;
std::atomic<int64_t> g_syncs{0};
}  // namespace

Arena::Arena(int index) : index_(index), size_(arena_bytes()) {
  void* dev = ::mmap(nullptr, size_, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  void* host = ::mmap(nullptr, size_, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (dev == MAP_FAILED || host == MAP_FAILED)
    throw std::runtime_error("npu: cannot reserve " + std::to_string(size_ >> 20) +
                             " MiB for the arena of npu:" + std::to_string(index));
  device_base_ = static_cast<char*>(dev);
  host_base_ = static_cast<char*>(host);
  free_[0] = size_;
}

Arena& Arena::of(int index) {
  if (index < 0 || index >= device_count())
    throw std::runtime_error("npu: no device npu:" + std::to_string(index));
  Arena* a = g_arenas[index].load(std::memory_order_acquire);
  if (a) return *a;
  std::lock_guard<std::mutex> lock(g_arenas_mutex);
  a = g_arenas[index].load();
  if (!a) {
    a = new Arena(index);  // lives as long as the process: tensors may outlive static objects
    g_arenas[index].store(a, std::memory_order_release);
  }
  return *a;
}

void* Arena::allocate(size_t nbytes) {
  const size_t n = (std::max<size_t>(nbytes, 1) + kAlign - 1) / kAlign * kAlign;
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto it = free_.begin(); it != free_.end(); ++it) {
    if (it->second < n) continue;
    const size_t offset = it->first, left = it->second - n;
    free_.erase(it);
    if (left) free_[offset + n] = left;
    used_[offset] = n;
    allocated_ += static_cast<int64_t>(n);
    peak_ = std::max(peak_, allocated_);
    return device_base_ + offset;
  }
  throw std::runtime_error("npu:" + std::to_string(index_) + ": out of memory allocating " +
                           std::to_string(nbytes) + " bytes (" + std::to_string(allocated_) +
                           " of " + std::to_string(size_) + " in use; NPU_ARENA_MB sets the size)");
}

void Arena::release(void* device_ptr) {
  std::lock_guard<std::mutex> lock(mutex_);
  const size_t offset = static_cast<size_t>(static_cast<char*>(device_ptr) - device_base_);
  auto used = used_.find(offset);
  if (used == used_.end()) std::abort();  // a double free: nothing sane is left to do
  size_t start = offset, size = used->second;
  allocated_ -= static_cast<int64_t>(size);
  used_.erase(used);
  auto next = free_.lower_bound(start);
  if (next != free_.end() && next->first == start + size) {
    size += next->second;
    next = free_.erase(next);
  }
  if (next != free_.begin()) {
    auto prev = std::prev(next);
    if (prev->first + prev->second == start) {
      start = prev->first;
      size += prev->second;
      free_.erase(prev);
    }
  }
  free_[start] = size;
}

bool Arena::contains(const void* p) const {
  const char* c = static_cast<const char*>(p);
  return c >= device_base_ && c < device_base_ + size_;
}

void* Arena::host(const void* device_ptr, size_t nbytes) const {
  const char* c = static_cast<const char*>(device_ptr);
  if (nbytes == 0) return host_base_;
  if (!contains(c) || static_cast<size_t>(c - device_base_) + nbytes > size_)
    throw std::runtime_error("npu:" + std::to_string(index_) + ": address " +
                             std::to_string(reinterpret_cast<uintptr_t>(c)) + " (+" +
                             std::to_string(nbytes) + " bytes) is not memory of this device");
  return host_base_ + (c - device_base_);
}

int64_t Arena::allocated_bytes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return allocated_;
}
int64_t Arena::peak_bytes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return peak_;
}

Arena* arena_of(const void* p) {
  for (auto& slot : g_arenas) {
    Arena* a = slot.load(std::memory_order_acquire);
    if (a && a->contains(p)) return a;
  }
  return nullptr;
}

int current_device() { return t_current; }
int device_count() {
  static const int n = [] {
    const char* v = std::getenv("NPU_DEVICE_COUNT");
    int k = v ? std::atoi(v) : 2;
    return k < 0 ? 0 : (k > kMaxDevices ? kMaxDevices : k);
  }();
  return n;
}
int64_t synchronize_count() { return g_syncs.load(); }

namespace {

class Allocator final : public brasa::Allocator {
 public:
  brasa::DataPtr allocate(size_t nbytes) override {
    Arena& a = Arena::of(current_device());
    return brasa::DataPtr(a.allocate(nbytes), &a,
                          [](void* ctx, void* p) { static_cast<Arena*>(ctx)->release(p); });
  }
};

class Copier final : public brasa::backend::DeviceCopier {
 public:
  void copy_to_device(void* dst, const void* src, size_t n, int index) override {
    std::memcpy(Arena::of(index).host(dst, n), src, n);
  }
  void copy_to_host(void* dst, const void* src, size_t n, int index) override {
    std::memcpy(dst, Arena::of(index).host(src, n), n);
  }
  void copy_on_device(void* dst, const void* src, size_t n, int index) override {
    Arena& a = Arena::of(index);
    std::memmove(a.host(dst, n), a.host(src, n), n);
  }
};

class Runtime final : public brasa::backend::DeviceRuntime {
 public:
  int device_count() const noexcept override { return npu::device_count(); }
  int current_device() const override { return t_current; }
  void set_device(int index) override {
    if (index < 0 || index >= npu::device_count())
      throw std::runtime_error("npu: set_device: no device npu:" + std::to_string(index));
    t_current = index;
  }
  void synchronize(int) override { g_syncs.fetch_add(1); }  // the emulated device is synchronous
};

Allocator g_allocator;
Copier g_copier;
Runtime g_runtime;

// Runs when the library is loaded (brasa::backend::load_backend, BRASA_BACKENDS, or linking it).
const bool registered = brasa::backend::detail::run_registration(
    [] {
      brasa::rename_privateuse1_backend("npu");
      brasa::backend::register_allocator(brasa::kPrivateUse1, &g_allocator, "libbrasa_npu");
      brasa::backend::register_copier(brasa::kPrivateUse1, &g_copier, "libbrasa_npu");
      brasa::backend::register_runtime(brasa::kPrivateUse1, &g_runtime, "libbrasa_npu");
    },
    __FILE__, __LINE__);

}  // namespace
}  // namespace npu
