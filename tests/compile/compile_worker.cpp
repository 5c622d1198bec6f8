// One process of the compile tests that need fresh processes (tests/compile/test_cache.cpp):
// compiles a fixed pointwise chain into the cache named by BRASA_COMPILE_CACHE, checks the result
// against eager bit for bit, and prints the compile counters as "runs=R disk=D failures=F".
// Exit status 0 when the results match.
#include <cstdio>
#include <cstring>

#include "brasa/brasa.h"
#include "brasa/compile.h"

int main(int argc, char** argv) {
  const double scale = argc > 1 ? std::atof(argv[1]) : 1.25;
  auto fn = [scale](const brasa::Tensor& x) { return ((x * scale + 0.75).relu() - x) / 3.0; };
  auto compiled = brasa::compile(fn);
  brasa::Tensor x = brasa::linspace(-4, 4, 100000);
  bool same = true;
  for (int i = 0; i < 2; ++i) same = same && brasa::equal(compiled(x), fn(x));
  brasa::CompileStats s = brasa::compile_stats();
  std::printf("runs=%lld disk=%lld failures=%lld\n", static_cast<long long>(s.compiler_runs),
              static_cast<long long>(s.disk_cache_hits),
              static_cast<long long>(s.compiler_failures));
  return same ? 0 : 1;
}
