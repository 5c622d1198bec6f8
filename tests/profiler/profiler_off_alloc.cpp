// With no profiler recording, record scopes and dispatched ops allocate nothing for the profiler:
// this program counts every operator new while it runs user scopes (native and libtorch
// spellings) and in-place ops, and fails if any happened. A program of its own because it
// replaces the global operator new. Run by ctest as profiler_off_allocates_nothing.

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <new>

#include "ATen/record_function.h"
#include "brasa/brasa.h"

namespace {
std::atomic<bool> g_counting{false};
std::atomic<long> g_allocations{0};
}  // namespace

void* operator new(size_t n) {
  if (g_counting.load(std::memory_order_relaxed)) g_allocations.fetch_add(1);
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, size_t) noexcept { std::free(p); }

int main() {
  brasa::Tensor a = brasa::ones({1}), b = brasa::ones({1});
  auto work = [&] {
    for (int i = 0; i < 10000; ++i) {
      RECORD_USER_SCOPE("user");
      RECORD_FUNCTION("function", std::vector<c10::IValue>({a}));
      brasa::profiler::RecordScope scope("native");
      a.add_(b);
      a.mul_(0.5);
    }
  };
  work();  // warm up: first-use allocations (thread caches, registries) are not the profiler's
  g_counting = true;
  work();
  g_counting = false;
  const long n = g_allocations.load();
  std::printf("operator new calls while not profiling: %ld\n", n);
  return n == 0 ? 0 : 1;
}
