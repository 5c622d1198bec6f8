// Copies of transposed layouts (docs/benchmarks.md, "Tiled transpose copy"): contiguous() of a
// transposed [4096, 1024] matrix in every element width, the Float32 <-> BFloat16 casts of a
// transposed matrix (autocast's cast of a transposed weight), attention's head split and merge of a
// [32, 128, 8, 32] activation, and a small transposed matrix. Prints the best of --reps runs per
// workload in milliseconds. Public API only, so the same file builds against any brasa tree for an
// A/B (Note [Tiled transpose copy] in src/backends/cpu/kernels/transpose_copy.h).
//
// Usage: transpose_bench [--threads N] [--reps N]
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>

#include "best_of.h"
#include "brasa/brasa.h"

using namespace brasa;

int main(int argc, char** argv) {
  int threads = 1, reps = 15;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--threads") == 0) threads = std::atoi(argv[i + 1]);
    if (std::strcmp(argv[i], "--reps") == 0) reps = std::atoi(argv[i + 1]);
  }
  set_num_threads(threads);
  const Tensor big = rand({1024, 4096});  // its .t() is [4096, 1024], transposed
  const Tensor heads = rand({32, 128, 8, 32});
  const Tensor small = rand({96, 80});
  struct Workload {
    std::string name;
    std::function<void()> run;
  };
  const Workload workloads[] = {
      {"t().contiguous() f32 4096x1024", [&] { big.t().contiguous(); }},
      {"t().contiguous() f64 4096x1024", [t = big.to(kDouble)] { t.t().contiguous(); }},
      {"t().contiguous() bf16 4096x1024", [t = big.to(kBFloat16)] { t.t().contiguous(); }},
      {"t().contiguous() u8 4096x1024", [t = big.mul(200).to(kByte)] { t.t().contiguous(); }},
      {"copy_ f32 t() into bf16 4096x1024",
       [&] {
         empty({4096, 1024}, TensorOptions().dtype(kBFloat16)).copy_(big.t());
       }},
      {"copy_ bf16 t() into f32 4096x1024",
       [t = big.to(kBFloat16)] {
         empty({4096, 1024}).copy_(t.t());
       }},
      {"heads transpose(1,2).contiguous() f32", [&] { heads.transpose(1, 2).contiguous(); }},
      {"heads transpose(1,2).contiguous() bf16",
       [t = heads.to(kBFloat16)] { t.transpose(1, 2).contiguous(); }},
      {"t().contiguous() f32 96x80 (x100)",
       [&] {
         for (int i = 0; i < 100; ++i) small.t().contiguous();
       }},
  };
  std::printf("transpose_bench: %d thread(s), best of %d, ms\n", threads, reps);
  for (const auto& w : workloads) {
    w.run();
    std::printf("%-42s %9.3f\n", w.name.c_str(), bench::best_ms(w.run, reps));
  }
  return 0;
}
