// Per-thread free lists for the small, fixed-size objects every tensor needs (TensorImpl,
// StorageImpl). Sizes are rounded up to 64 bytes; up to kDepth blocks per size class are kept per
// thread.
#include "brasa/core/object_pool.h"

#include <cstdlib>

namespace brasa::detail {
namespace {

constexpr size_t kGranule = 64;
constexpr int kClasses = 8;  // objects up to 512 bytes are pooled
constexpr int kDepth = 64;

struct FreeBlock {
  FreeBlock* next;
};

struct ThreadPool {
  FreeBlock* head[kClasses] = {};
  int count[kClasses] = {};
  ~ThreadPool() {
    for (int c = 0; c < kClasses; ++c) {
      while (head[c]) {
        FreeBlock* b = head[c];
        head[c] = b->next;
        ::operator delete(static_cast<void*>(b));
      }
    }
  }
};

ThreadPool& pool() {
  static thread_local ThreadPool p __attribute__((tls_model("initial-exec")));
  return p;
}

inline int size_class(size_t size) {
  return static_cast<int>((size + kGranule - 1) / kGranule) - 1;
}

}  // namespace

void* pool_allocate(size_t size) {
  int c = size_class(size);
  if (c < kClasses) {
    ThreadPool& p = pool();
    if (FreeBlock* b = p.head[c]) {
      p.head[c] = b->next;
      --p.count[c];
      return b;
    }
    return ::operator new(size_t(c + 1) * kGranule);
  }
  return ::operator new(size);
}

void pool_free(void* ptr, size_t size) {
  int c = size_class(size);
  if (c < kClasses) {
    ThreadPool& p = pool();
    if (p.count[c] < kDepth) {
      auto* b = static_cast<FreeBlock*>(ptr);
      b->next = p.head[c];
      p.head[c] = b;
      ++p.count[c];
      return;
    }
  }
  ::operator delete(ptr);
}

}  // namespace brasa::detail
