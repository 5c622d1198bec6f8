// The CPU caching allocator: statistics, reuse, peak, empty_cache, alignment, concurrent use.
// The counters are process-wide, so each test reasons about differences.
#include <gtest/gtest.h>

#include <cstdint>
#include <thread>
#include <vector>

#include "brasa/brasa.h"

using namespace brasa;

namespace {
Allocator* cpu() { return get_allocator(kCPU); }
}  // namespace

TEST(Allocator, CountsAllocationsAndFrees) {
  MemoryStats before = memory_stats();
  {
    DataPtr a = cpu()->allocate(1000);
    DataPtr b = cpu()->allocate(3000);
    MemoryStats mid = memory_stats();
    EXPECT_EQ(mid.num_allocs - before.num_allocs, 2);
    EXPECT_EQ(mid.num_frees - before.num_frees, 0);
    // Sizes are rounded up to their class (64-byte granules, then quarter powers of two).
    EXPECT_EQ(mid.allocated_bytes - before.allocated_bytes, 1024 + 3072);
    EXPECT_GE(mid.reserved_bytes, mid.allocated_bytes);
  }
  MemoryStats after = memory_stats();
  EXPECT_EQ(after.num_frees - before.num_frees, 2);
  EXPECT_EQ(after.allocated_bytes, before.allocated_bytes);
}

TEST(Allocator, FreedBlockIsReusedFromCache) {
  void* first;
  {
    DataPtr a = cpu()->allocate(4096);
    first = a.get();
  }
  MemoryStats before = memory_stats();
  DataPtr b = cpu()->allocate(4096);
  MemoryStats after = memory_stats();
  EXPECT_EQ(b.get(), first);
  EXPECT_EQ(after.num_cache_hits - before.num_cache_hits, 1);
  EXPECT_EQ(after.num_system_allocs, before.num_system_allocs);
  EXPECT_EQ(after.reserved_bytes, before.reserved_bytes);
  // Tensors go through the same allocator.
  void* data;
  { data = empty({1024}).data_ptr(); }
  MemoryStats t0 = memory_stats();
  EXPECT_EQ(empty({1024}).data_ptr(), data);
  EXPECT_EQ(memory_stats().num_cache_hits - t0.num_cache_hits, 1);
}

TEST(Allocator, LargeBlocksAreCachedAndReused) {
  empty_cache();  // so the block freed below is the only cached one of its size
  void* first;
  {
    DataPtr a = cpu()->allocate(5 << 20);
    first = a.get();
  }
  MemoryStats before = memory_stats();
  DataPtr b = cpu()->allocate((5 << 20) - 1000);  // within the 25% reuse window
  EXPECT_EQ(b.get(), first);
  EXPECT_EQ(memory_stats().num_cache_hits - before.num_cache_hits, 1);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(b.get()) % (2 << 20), 0u);  // huge-page aligned
}

TEST(Allocator, PeakTracksHighWaterMark) {
  reset_peak_memory_stats();
  MemoryStats base = memory_stats();
  EXPECT_EQ(base.peak_allocated_bytes, base.allocated_bytes);
  {
    DataPtr a = cpu()->allocate(3 << 20);
    DataPtr b = cpu()->allocate(3 << 20);
  }
  MemoryStats after = memory_stats();
  EXPECT_EQ(after.allocated_bytes, base.allocated_bytes);
  EXPECT_GE(after.peak_allocated_bytes - base.allocated_bytes, int64_t(8) << 20);  // 2 x 4 MiB
  reset_peak_memory_stats();
  EXPECT_EQ(memory_stats().peak_allocated_bytes, memory_stats().allocated_bytes);
}

TEST(Allocator, EmptyCacheReleasesReservedBytes) {
  { DataPtr a = cpu()->allocate(7 << 20); }
  { DataPtr s = cpu()->allocate(200 << 10); }  // a small block (global pool)
  MemoryStats before = memory_stats();
  EXPECT_GE(before.reserved_bytes - before.allocated_bytes, int64_t(8) << 20);
  empty_cache();
  MemoryStats after = memory_stats();
  EXPECT_LE(after.reserved_bytes, before.reserved_bytes - (int64_t(8) << 20));
  EXPECT_EQ(after.allocated_bytes, before.allocated_bytes);
  // The next allocation of that size goes to the system again.
  DataPtr c = cpu()->allocate(7 << 20);
  EXPECT_EQ(memory_stats().num_system_allocs - after.num_system_allocs, 1);
}

TEST(Allocator, BlocksAre64ByteAligned) {
  std::vector<DataPtr> blocks;
  for (size_t n : {size_t(1), size_t(7), size_t(63), size_t(65), size_t(1000), size_t(4097),
                   size_t(100000), size_t(1 << 20), size_t(3 << 20)})
    blocks.push_back(cpu()->allocate(n));
  for (const DataPtr& p : blocks) EXPECT_EQ(reinterpret_cast<uintptr_t>(p.get()) % 64, 0u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(empty({3}, kChar).data_ptr()) % 64, 0u);
}

TEST(Allocator, ConcurrentAllocFreeStress) {
  // Threads allocate, write, and free (some blocks freed on another thread); nothing leaks.
  MemoryStats before = memory_stats();
  constexpr int kThreads = 4, kIters = 2000;
  std::vector<std::vector<DataPtr>> handoff(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      std::vector<DataPtr> live;
      for (int i = 0; i < kIters; ++i) {
        size_t n = 64 + size_t((i * 7919 + t * 104729) % 20000);
        DataPtr p = cpu()->allocate(n);
        static_cast<unsigned char*>(p.get())[0] = static_cast<unsigned char>(i);
        static_cast<unsigned char*>(p.get())[n - 1] = static_cast<unsigned char>(t);
        live.push_back(std::move(p));
        if (live.size() > 16) live.erase(live.begin(), live.begin() + 8);
      }
      for (int i = 0; i < 8 && !live.empty(); ++i) {
        handoff[t].push_back(std::move(live.back()));
        live.pop_back();
      }
    });
  for (auto& th : threads) th.join();
  // Free the handed-off blocks here, on another thread than the one that allocated them.
  handoff.clear();
  MemoryStats after = memory_stats();
  EXPECT_EQ(after.allocated_bytes, before.allocated_bytes);
  EXPECT_EQ(after.num_allocs - before.num_allocs, kThreads * kIters);
  EXPECT_EQ(after.num_frees - before.num_frees, kThreads * kIters);
}

namespace {
// Frees its block when its thread ends. Constructed before the thread's first allocation, so its
// destructor runs after the allocator's thread cache has been destroyed.
struct FreedAtThreadEnd {
  DataPtr block;
  void** where = nullptr;
  ~FreedAtThreadEnd() {
    if (where) *where = block.get();
    block.clear();
  }
};
}  // namespace

TEST(Allocator, BlockFreedAfterTheThreadCacheEndsGoesToTheSharedLists) {
  // Note [Thread cache after its thread's end]: before the fix this free went into the deleted
  // cache (a use-after-free under asan-ubsan; here the block was lost).
  constexpr size_t kSize = 3000;  // a thread-cached class no other test here uses
  void* freed = nullptr;
  std::thread([&] {
    static thread_local FreedAtThreadEnd late;
    late.where = &freed;
    late.block = cpu()->allocate(kSize);
  }).join();
  ASSERT_NE(freed, nullptr);
  // A new thread's cache starts empty, so its allocation of the class comes from the shared list,
  // where the late free put the block.
  void* reused = nullptr;
  std::thread([&] { reused = cpu()->allocate(kSize).get(); }).join();
  EXPECT_EQ(reused, freed);
}
