// Note [CPU caching allocator]
// Fresh memory from the OS costs a page fault per 4 KiB on first touch; for a 64 MiB result that is
// most of the time of an elementwise op. So freed blocks are kept and reused:
//  - small blocks (<= kMaxSmall) come in size classes (4 per power of two, 64-byte multiples), with
//  a
//    lock-free thread-local cache in front of a mutex-guarded global free list per class;
//  - large blocks are mmap'ed, 2 MiB aligned and advised as huge pages, rounded up to 2 MiB, and
//    reused for any request within 25% below their size.
// empty_cache() returns every cached block (of the global pools and of the calling thread) to the
// OS.
#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <map>
#include <mutex>
#include <new>
#include <vector>

#include "brasa/core/allocator.h"
#include "brasa/core/error.h"

namespace brasa {
namespace {

constexpr size_t kAlign = 64;
constexpr size_t kMaxSmall = 1 << 20;  // 1 MiB
constexpr size_t kHuge = 2 << 20;      // 2 MiB
constexpr int kThreadCacheDepth = 8;
constexpr size_t kThreadCacheMaxBlock = 64 << 10;

// Size class of a small request: 64-byte granules up to 1 KiB, then 4 classes per power of two.
inline int size_class(size_t n, size_t* rounded) {
  if (n <= 1024) {
    size_t g = (std::max<size_t>(n, 1) + kAlign - 1) / kAlign;
    *rounded = g * kAlign;
    return static_cast<int>(g - 1);  // 0..15
  }
  int p = 63 - __builtin_clzll(n - 1);  // n in (2^p, 2^(p+1)]
  size_t step = size_t(1) << (p - 2);
  size_t q = (n - (size_t(1) << p) + step - 1) / step;  // 1..4
  *rounded = (size_t(1) << p) + q * step;
  return 16 + (p - 10) * 4 + static_cast<int>(q - 1);
}
constexpr int kNumClasses = 16 + (20 - 10) * 4 + 4;

struct Stats {
  std::atomic<int64_t> allocated{0}, reserved{0}, peak{0}, allocs{0}, frees{0}, hits{0}, sys{0};
  void on_alloc(size_t n, bool hit) {
    int64_t a = allocated.fetch_add(n, std::memory_order_relaxed) + int64_t(n);
    int64_t p = peak.load(std::memory_order_relaxed);
    while (a > p && !peak.compare_exchange_weak(p, a, std::memory_order_relaxed)) {
    }
    allocs.fetch_add(1, std::memory_order_relaxed);
    if (hit) hits.fetch_add(1, std::memory_order_relaxed);
  }
};

class CpuCachingAllocator final : public Allocator {
 public:
  DataPtr allocate(size_t nbytes) override {
    if (nbytes > kMaxSmall) return allocate_large(nbytes);
    size_t rounded;
    int c = size_class(nbytes, &rounded);
    void* p = nullptr;
    ThreadCache* tc = thread_cache();
    if (rounded <= kThreadCacheMaxBlock && tc != nullptr && tc->count[c] > 0) {
      p = tc->blocks[c][--tc->count[c]];
    } else {
      std::lock_guard<std::mutex> lock(mutex_);
      auto& fl = small_free_[c];
      if (!fl.empty()) {
        p = fl.back();
        fl.pop_back();
      }
    }
    bool hit = p != nullptr;
    if (!p) p = system_alloc_small(rounded);
    stats_.on_alloc(rounded, hit);
    return DataPtr(p, reinterpret_cast<void*>(rounded), &free_small);
  }

  MemoryStats stats() const {
    MemoryStats s;
    s.allocated_bytes = stats_.allocated.load();
    s.reserved_bytes = stats_.reserved.load();
    s.peak_allocated_bytes = stats_.peak.load();
    s.num_allocs = stats_.allocs.load();
    s.num_frees = stats_.frees.load();
    s.num_cache_hits = stats_.hits.load();
    s.num_system_allocs = stats_.sys.load();
    return s;
  }
  void reset_peak() { stats_.peak.store(stats_.allocated.load()); }

  void empty_cache() {
    if (ThreadCache* tc = thread_cache()) flush_thread_cache(*tc);
    std::lock_guard<std::mutex> lock(mutex_);
    for (int c = 0; c < kNumClasses; ++c) {
      for (void* p : small_free_[c]) {
        std::free(p);
        stats_.reserved.fetch_sub(class_size(c), std::memory_order_relaxed);
      }
      small_free_[c].clear();
    }
    for (auto& [size, p] : large_free_) {
      munmap(p, size);
      stats_.reserved.fetch_sub(size, std::memory_order_relaxed);
    }
    large_free_.clear();
  }

  static CpuCachingAllocator& get() {
    static CpuCachingAllocator* a = new CpuCachingAllocator();  // never destroyed: outlives tensors
    return *a;
  }

 private:
  struct ThreadCache {
    void* blocks[kNumClasses][kThreadCacheDepth];
    int count[kNumClasses] = {};
    ~ThreadCache() { get().flush_thread_cache(*this); }
  };
  static inline thread_local ThreadCache* t_cache __attribute__((tls_model("initial-exec"))) =
      nullptr;
  static inline thread_local bool t_cache_gone __attribute__((tls_model("initial-exec"))) = false;
  // Note [Thread cache on the heap]
  // The cache (4 KB) is allocated at a thread's first use; only the pointer is thread_local. Held
  // in the static TLS block itself (initial-exec, Note [Initial-exec TLS]), it made libbrasa's
  // block 4.4 KB, more than glibc's surplus for libraries loaded with dlopen, and Python's
  // `import brasa` failed ("cannot allocate memory in static TLS block"); now about 370 bytes.
  //
  // Note [Thread cache after its thread's end]
  // A thread's thread_local destructors run in the reverse order of their construction, and the
  // main thread's run before the static destructors of exit(): a tensor freed by a later one (a
  // static RNG-state tracker's tensors, found by asan-ubsan) came after the cache was deleted and
  // was pushed into freed memory. The cache pointer and a "gone" flag are plain thread_locals
  // (trivially destructible, so readable to the thread's very end); once the cache is gone, the
  // thread allocates and frees through the shared lists.
  struct ThreadCacheHolder {
    ~ThreadCacheHolder() {
      ThreadCache* c = t_cache;
      t_cache = nullptr;
      t_cache_gone = true;
      delete c;
    }
  };
  static ThreadCache* thread_cache() {
    if (BRASA_LIKELY(t_cache != nullptr)) return t_cache;
    if (t_cache_gone) return nullptr;
    // Its construction registers the destructor above for this thread.
    static thread_local ThreadCacheHolder holder __attribute__((tls_model("initial-exec")));
    (void)holder;
    t_cache = new ThreadCache();
    return t_cache;
  }
  static size_t class_size(int c) {
    if (c < 16) return size_t(c + 1) * kAlign;
    int p = 10 + (c - 16) / 4, q = (c - 16) % 4 + 1;
    return (size_t(1) << p) + size_t(q) * (size_t(1) << (p - 2));
  }
  void flush_thread_cache(ThreadCache& tc) {
    std::lock_guard<std::mutex> lock(mutex_);
    for (int c = 0; c < kNumClasses; ++c) {
      for (int i = 0; i < tc.count[c]; ++i) small_free_[c].push_back(tc.blocks[c][i]);
      tc.count[c] = 0;
    }
  }

  void* system_alloc_small(size_t rounded) {
    void* p = std::aligned_alloc(kAlign, rounded);
    if (!p) throw std::bad_alloc();
    stats_.sys.fetch_add(1, std::memory_order_relaxed);
    stats_.reserved.fetch_add(rounded, std::memory_order_relaxed);
    return p;
  }

  static void free_small(void* ctx, void* p) {
    auto& a = get();
    size_t rounded = reinterpret_cast<size_t>(ctx);
    size_t r2;
    int c = size_class(rounded, &r2);
    a.stats_.allocated.fetch_sub(rounded, std::memory_order_relaxed);
    a.stats_.frees.fetch_add(1, std::memory_order_relaxed);
    ThreadCache* tc = thread_cache();
    if (rounded <= kThreadCacheMaxBlock && tc != nullptr && tc->count[c] < kThreadCacheDepth) {
      tc->blocks[c][tc->count[c]++] = p;
      return;
    }
    std::lock_guard<std::mutex> lock(a.mutex_);
    a.small_free_[c].push_back(p);
  }

  DataPtr allocate_large(size_t nbytes) {
    size_t rounded = (nbytes + kHuge - 1) / kHuge * kHuge;
    void* p = nullptr;
    size_t size = rounded;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      auto it = large_free_.lower_bound(rounded);
      if (it != large_free_.end() && it->first - rounded <= it->first / 4) {
        size = it->first;
        p = it->second;
        large_free_.erase(it);
      }
    }
    bool hit = p != nullptr;
    if (!p) p = map_huge(size);
    stats_.on_alloc(size, hit);
    return DataPtr(p, reinterpret_cast<void*>(size), &free_large);
  }

  void* map_huge(size_t size) {
    // Over-map by 2 MiB so the block can start on a huge-page boundary, then trim.
    size_t total = size + kHuge;
    void* raw = mmap(nullptr, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED) {
      empty_cache();
      raw = mmap(nullptr, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (raw == MAP_FAILED) throw std::bad_alloc();
    }
    uintptr_t start = (reinterpret_cast<uintptr_t>(raw) + kHuge - 1) & ~(kHuge - 1);
    size_t head = start - reinterpret_cast<uintptr_t>(raw);
    if (head) munmap(raw, head);
    size_t tail = total - head - size;
    if (tail) munmap(reinterpret_cast<char*>(start) + size, tail);
    madvise(reinterpret_cast<void*>(start), size, MADV_HUGEPAGE);
    stats_.sys.fetch_add(1, std::memory_order_relaxed);
    stats_.reserved.fetch_add(size, std::memory_order_relaxed);
    return reinterpret_cast<void*>(start);
  }

  static void free_large(void* ctx, void* p) {
    auto& a = get();
    size_t size = reinterpret_cast<size_t>(ctx);
    a.stats_.allocated.fetch_sub(size, std::memory_order_relaxed);
    a.stats_.frees.fetch_add(1, std::memory_order_relaxed);
    std::lock_guard<std::mutex> lock(a.mutex_);
    a.large_free_.emplace(size, p);
  }

  std::mutex mutex_;
  std::vector<void*> small_free_[kNumClasses];
  std::multimap<size_t, void*> large_free_;
  Stats stats_;
};

// The CPU's allocator, registered before any CPU tensor can exist (libbrasa's static initialisers
// make none).
const bool registered = (set_allocator(kCPU, &CpuCachingAllocator::get()), true);

}  // namespace

MemoryStats memory_stats() { return CpuCachingAllocator::get().stats(); }
void empty_cache() { CpuCachingAllocator::get().empty_cache(); }
void reset_peak_memory_stats() { CpuCachingAllocator::get().reset_peak(); }

}  // namespace brasa
