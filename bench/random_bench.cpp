// rand, randn and dropout on 1M elements, at 1 and 2 threads (best of 7); random_bench.py prints
// PyTorch's figures for the same calls. The default generator draws libtorch's streams serially
// (Note [Generator kinds]); Philox is printed for comparison.
#include <algorithm>
#include <chrono>
#include <cstdio>

#include "brasa/brasa.h"

using namespace brasa;

namespace {
template <typename F>
double best_ms(const F& f) {
  double best = 1e30;
  for (int r = 0; r < 7; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    const std::chrono::duration<double, std::milli> d = std::chrono::steady_clock::now() - t0;
    best = std::min(best, d.count());
  }
  return best;
}
}  // namespace

int main() {
  const int64_t n = 1 << 20;
  const Tensor x = ones({n});
  namespace F = nn::functional;
  for (GeneratorKind kind : {GeneratorKind::MT19937, GeneratorKind::Philox}) {
    Generator g = make_generator(0, kind);
    const char* name = kind == GeneratorKind::MT19937 ? "mt19937" : "philox";
    for (int threads : {1, 2}) {
      set_num_threads(threads);
      std::printf("%s threads=%d rand f32 %.3f ms\n", name, threads,
                  best_ms([&] { (void)rand({n}, g); }));
      std::printf("%s threads=%d randn f32 %.3f ms\n", name, threads,
                  best_ms([&] { (void)randn({n}, g); }));
      std::printf("%s threads=%d rand f64 %.3f ms\n", name, threads,
                  best_ms([&] { (void)rand({n}, g, kDouble); }));
      std::printf("%s threads=%d randn f64 %.3f ms\n", name, threads,
                  best_ms([&] { (void)randn({n}, g, kDouble); }));
      std::printf("%s threads=%d dropout(0.5) f32 %.3f ms\n", name, threads, best_ms([&] {
                    (void)F::dropout(x, F::DropoutFuncOptions().p(0.5).training(true), g);
                  }));
    }
  }
}
