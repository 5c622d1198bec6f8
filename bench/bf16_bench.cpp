// BFloat16 against Float32 on one thread: products (oneDNN's bf16 matmul and convolution where the
// CPU has AVX-512 BF16), elementwise kernels, and an MLP training step under autocast. Prints one
// line per workload: name, float32 and bfloat16 medians (microseconds) and their ratio, then the
// same for the minimums.
// bench/bf16_bench.py runs this and PyTorch's side and prints both with their ratios.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "brasa/brasa.h"
#include "brasa/dispatch/autocast_mode.h"

using namespace brasa;

namespace {

struct Timing {
  double median_us, min_us;
};

// Median and minimum over `reps` repetitions of `inner` calls, in microseconds per call, after one
// warm-up. The minimum is the steadier figure on a shared machine.
Timing time_us(int inner, int reps, const std::function<void()>& f) {
  f();
  std::vector<double> t;
  for (int r = 0; r < reps; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < inner; ++i) f();
    auto t1 = std::chrono::steady_clock::now();
    t.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() / inner);
  }
  std::sort(t.begin(), t.end());
  return {t[t.size() / 2], t.front()};
}

Tensor uniform(IntArrayRef shape, ScalarType dtype) { return rand(shape).sub(0.5).to(dtype); }

struct Workload {
  const char* name;
  int inner, reps;
  std::function<std::function<void()>(ScalarType)> make;  // the timed call for a dtype
};

// The MLP of bench_common.h's mlp_step (784-512-512-10, batch 128) with SGD; bf16 runs its step
// under autocast with float32 parameters, as mixed-precision training does.
std::function<void()> mlp_step(ScalarType dtype) {
  auto model = nn::Sequential(nn::Linear(784, 512), nn::ReLU(), nn::Linear(512, 512), nn::ReLU(),
                              nn::Linear(512, 10));
  auto opt = std::make_shared<optim::SGD>(model->parameters(), optim::SGDOptions(0.01));
  Tensor x = rand({128, 784}), y = randint(0, 10, {128});
  return [=]() mutable {
    opt->zero_grad(/*set_to_none=*/true);
    Tensor loss;
    {
      AutocastGuard guard(kBFloat16, dtype == kBFloat16);
      loss = cross_entropy_loss(model->forward(x), y);
    }
    loss.backward();
    opt->step();
  };
}

}  // namespace

int main(int argc, char** argv) {
  set_num_threads(1);
  manual_seed(0);
  const std::string only = argc > 1 ? argv[1] : "";
  const std::vector<Workload> workloads = {
      {"matmul_1024", 1, 7,
       [](ScalarType dt) {
         Tensor a = uniform({1024, 1024}, dt), b = uniform({1024, 1024}, dt);
         return [=] { a.matmul(b); };
       }},
      {"matmul_256", 50, 7,
       [](ScalarType dt) {
         Tensor a = uniform({256, 256}, dt), b = uniform({256, 256}, dt);
         return [=] { a.matmul(b); };
       }},
      {"linear_4096x1024x1024", 1, 5,
       [](ScalarType dt) {
         Tensor x = uniform({4096, 1024}, dt), w = uniform({1024, 1024}, dt),
                b = uniform({1024}, dt);
         return [=] { linear(x, w, b); };
       }},
      {"bmm_32x256x256", 2, 7,
       [](ScalarType dt) {
         Tensor a = uniform({32, 256, 256}, dt), b = uniform({32, 256, 256}, dt);
         return [=] { bmm(a, b); };
       }},
      {"conv2d_64x32x28", 2, 7,
       [](ScalarType dt) {
         Tensor x = uniform({64, 32, 28, 28}, dt), w = uniform({64, 32, 3, 3}, dt),
                b = uniform({64}, dt);
         return [=] { conv2d(x, w, b, 1, 1); };
       }},
      {"add_4M", 5, 9,
       [](ScalarType dt) {
         Tensor a = uniform({1 << 22}, dt), b = uniform({1 << 22}, dt);
         return [=] { a.add(b); };
       }},
      {"mul_scalar_add_4M", 5, 9,
       [](ScalarType dt) {
         Tensor a = uniform({1 << 22}, dt), b = uniform({1 << 22}, dt);
         return [=] { a.add(b, 0.5); };
       }},
      {"exp_4M", 5, 9,
       [](ScalarType dt) {
         Tensor a = uniform({1 << 22}, dt);
         return [=] { a.exp(); };
       }},
      {"gelu_4M", 2, 7,
       [](ScalarType dt) {
         Tensor a = uniform({1 << 22}, dt);
         return [=] { nn::functional::gelu(a); };
       }},
      {"sum_4M", 5, 9,
       [](ScalarType dt) {
         Tensor a = uniform({1 << 22}, dt);
         return [=] { a.sum(); };
       }},
      // char_gpt's attention (batch 32, 8 heads, T = 128, head dim 32, causal): bf16 runs the
      // AVX-512 BF16 kernel where the CPU has it (Note [BFloat16 attention]).
      {"sdpa_gpt_forward", 2, 7,
       [](ScalarType dt) {
         Tensor q = uniform({32, 8, 128, 32}, dt), k = uniform({32, 8, 128, 32}, dt),
                v = uniform({32, 8, 128, 32}, dt);
         return [=] { scaled_dot_product_attention(q, k, v, {}, 0.0, true); };
       }},
      {"sdpa_gpt_backward", 2, 7,
       [](ScalarType dt) {
         Tensor q = uniform({32, 8, 128, 32}, dt), k = uniform({32, 8, 128, 32}, dt),
                v = uniform({32, 8, 128, 32}, dt), go = uniform({32, 8, 128, 32}, dt);
         auto [out, lse, philox] =
             _scaled_dot_product_attention_forward(q, k, v, {}, 0.0, true, std::nullopt, {});
         return [=] {
           scaled_dot_product_attention_backward(go, q, k, v, {}, out, lse, philox, 0.0, true, {});
         };
       }},
      {"mlp_step_autocast", 5, 7, mlp_step},
  };
  std::printf("%-24s %12s %12s %8s %12s %12s %8s\n", "workload", "f32_us", "bf16_us", "f32/bf16",
              "f32_min_us", "bf16_min_us", "min_ratio");
  for (const Workload& w : workloads) {
    if (!only.empty() && only != w.name) continue;
    const Timing f = time_us(w.inner, w.reps, w.make(kFloat));
    const Timing b = time_us(w.inner, w.reps, w.make(kBFloat16));
    std::printf("%-24s %12.1f %12.1f %8.2f %12.1f %12.1f %8.2f\n", w.name, f.median_us, b.median_us,
                f.median_us / b.median_us, f.min_us, b.min_us, f.min_us / b.min_us);
  }
  return 0;
}
