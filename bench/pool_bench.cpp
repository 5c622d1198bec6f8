// Max pooling forward (with indices), backward and the float64 forward on the shapes of the
// Fashion-MNIST CNN and a ResNet stem: one thread, best of 9 in thread CPU time, one "name µs" line
// each. bench/pool_bench.py runs it next to PyTorch on the same shapes and prints the ratios.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "best_of.h"
#include "brasa/brasa.h"

using namespace brasa;

int main() {
  set_num_threads(1);
  manual_seed(0);
  // name, input shape, kernel, stride, padding; the CNN's inputs are relu outputs (half zeros).
  struct Case {
    const char* name;
    std::vector<int64_t> shape;
    int64_t k, s, p;
    bool relu;
  };
  const std::vector<Case> cases = {{"cnn1_64x32x28x28_k2", {64, 32, 28, 28}, 2, 2, 0, true},
                                   {"cnn2_64x64x14x14_k2", {64, 64, 14, 14}, 2, 2, 0, true},
                                   {"randn_64x32x28x28_k2", {64, 32, 28, 28}, 2, 2, 0, false},
                                   {"stem_16x64x56x56_k3s2p1", {16, 64, 56, 56}, 3, 2, 1, false},
                                   {"s1_16x64x56x56_k3s1p1", {16, 64, 56, 56}, 3, 1, 1, false}};
  for (const Case& c : cases) {
    Tensor x = randn(c.shape);
    if (c.relu) x = x.relu();
    const auto [y, ix] = max_pool2d_with_indices(x, {c.k, c.k}, {c.s, c.s}, {c.p, c.p});
    const Tensor g = randn(y.sizes());
    const Tensor xd = x.to(kDouble);
    std::printf("%s_fwd %.1f\n", c.name, bench::best_thread_us([&] {
                  (void)max_pool2d_with_indices(x, {c.k, c.k}, {c.s, c.s}, {c.p, c.p});
                }));
    std::printf("%s_bwd %.1f\n", c.name, bench::best_thread_us([&] {
                  (void)max_pool2d_with_indices_backward(g, x, {c.k, c.k}, {c.s, c.s}, {c.p, c.p},
                                                         {1, 1}, false, ix);
                }));
    std::printf("%s_f64 %.1f\n", c.name, bench::best_thread_us([&] {
                  (void)max_pool2d_with_indices(xd, {c.k, c.k}, {c.s, c.s}, {c.p, c.p});
                }));
  }
  return 0;
}
