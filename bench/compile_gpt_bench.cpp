// The char_gpt model (examples/char_gpt/model.h) eager and through brasa::compile: a training
// step (4 layers, d = 128, 4 heads, T = 64, batch 32, dropout 0: forward, cross-entropy, backward,
// AdamW) with the loss compiled (forward and backward graphs), and the compiled forward (no grad)
// over batch sizes 32, 17, 8, 33, 64 at T = 64 and sequence lengths 64, 37, 12 at batch 32, with
// the compiler runs each new shape cost. docs/benchmarks.md, "Compile: GPT". Times are the best of
// interleaved rounds. Usage: compile_gpt_bench [threads] [rounds]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "best_of.h"
#include "brasa/compile.h"
#include "brasa/profiler/profiler.h"
#include "char_gpt/model.h"
#include "train_step.h"

using bench::best_ms;
namespace F = torch::nn::functional;

int main(int argc, char** argv) {
  if (argc > 1) torch::set_num_threads(std::atoi(argv[1]));
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 5;
  torch::manual_seed(0);
  GptConfig config{/*vocab_size=*/96, /*block_size=*/64, /*layers=*/4,
                   /*heads=*/4,       /*dim=*/128,
                   /*dropout=*/0.0};
  Gpt model(config);
  model->train();
  const int64_t B = 32, T = 64;
  const torch::Tensor x = torch::randint(0, config.vocab_size, {B, T});
  const torch::Tensor y = torch::randint(0, config.vocab_size, {B, T});
  auto loss_fn = [&model](const torch::Tensor& idx, const torch::Tensor& targets) {
    torch::Tensor logits = model->forward(idx);
    return F::cross_entropy(logits.view({-1, logits.size(-1)}), targets.reshape({-1}));
  };
  auto compiled_loss = brasa::compile(loss_fn);
  torch::optim::AdamW optimizer(model->parameters(), torch::optim::AdamWOptions(1e-4));
  auto step = bench::training_step(optimizer, loss_fn, compiled_loss, x, y);
  // The compiled loss equals eager's at the same parameters.
  const double eager_loss = loss_fn(x, y).item<double>();
  const double compiled_first = compiled_loss(x, y).item<double>();  // trace + build
  const double compiled_loss_value = compiled_loss(x, y).item<double>();
  auto fused_eager_step = bench::fused_eager_step(step);
  step(true), step(false);
  double eager_ms = 1e300, compiled_ms = 1e300, fused_eager_ms = 1e300;
  for (int r = 0; r < rounds; ++r) {
    eager_ms = std::min(eager_ms, best_ms([&] { step(false); }, 2));
    compiled_ms = std::min(compiled_ms, best_ms([&] { step(true); }, 2));
    fused_eager_ms = std::min(fused_eager_ms, best_ms(fused_eager_step, 2));
  }
  // The parts: forward + backward alone, and the optimizer step alone (eager in both columns).
  auto fwd_bwd = [&](bool compiled) {
    optimizer.zero_grad(/*set_to_none=*/true);
    (compiled ? compiled_loss(x, y) : loss_fn(x, y)).backward();
  };
  double eager_fb = 1e300, compiled_fb = 1e300, opt_ms = 1e300;
  for (int r = 0; r < rounds; ++r) {
    eager_fb = std::min(eager_fb, best_ms([&] { fwd_bwd(false); }, 2));
    compiled_fb = std::min(compiled_fb, best_ms([&] { fwd_bwd(true); }, 2));
    opt_ms = std::min(opt_ms, best_ms([&] { optimizer.step(); }, 2));
  }
  if (const char* profile = std::getenv("BENCH_PROFILE")) {  // where the time of BENCH_PROFILE
    const int steps = std::max(1, std::atoi(profile));       // steps goes, eager then compiled
    const bool shapes = std::getenv("BENCH_PROFILE_SHAPES") != nullptr;  // grouped by input shapes
    for (bool compiled : {false, true}) {
      brasa::profiler::Profiler p(brasa::profiler::ProfilerOptions().record_shapes(shapes));
      p.start();
      for (int i = 0; i < steps; ++i) step(compiled);
      p.stop();
      std::printf(
          "%s step:\n%s\n", compiled ? "compiled" : "eager",
          p.table(brasa::profiler::SortBy::SelfCpuTimeTotal, shapes ? 60 : 24, shapes).c_str());
    }
  }
  const double eager_mib = bench::step_peak_mib(step, false);
  const double compiled_mib = bench::step_peak_mib(step, true);
  const brasa::CompileStats train_stats = brasa::compile_stats();
  std::printf("threads %d; loss eager %.6f, compiled %.6f (first call %.6f)\n",
              torch::get_num_threads(), eager_loss, compiled_loss_value, compiled_first);
  std::printf(
      "GPT training step (4 layers, d 128, T 64, batch 32): eager %.2f ms, compiled %.2f "
      "ms, compiled/eager %.2f; fused eager %.2f ms (%.2f)\n",
      eager_ms, compiled_ms, compiled_ms / eager_ms, fused_eager_ms, fused_eager_ms / eager_ms);
  std::printf(
      "  forward + backward: eager %.2f ms, compiled %.2f ms (%.2f); AdamW step alone %.2f "
      "ms\n",
      eager_fb, compiled_fb, compiled_fb / eager_fb, opt_ms);
  std::printf("  a step's peak memory beyond the model's: eager %.1f MiB, compiled %.1f MiB\n",
              eager_mib, compiled_mib);
  std::printf(
      "  graph breaks %lld, graphs %lld, backward graphs %lld, fused kernels %lld (row %lld), "
      "forward values kept %lld (eager's nodes %lld), eager calls %lld\n",
      static_cast<long long>(train_stats.graph_breaks), static_cast<long long>(train_stats.graphs),
      static_cast<long long>(train_stats.backward_graphs),
      static_cast<long long>(train_stats.fused_kernels),
      static_cast<long long>(train_stats.row_kernels),
      static_cast<long long>(train_stats.saved_for_backward),
      static_cast<long long>(train_stats.saved_by_eager),
      static_cast<long long>(train_stats.eager_calls));

  // The compiled forward over new shapes (eval, no grad).
  model->eval();
  torch::NoGradGuard no_grad;
  auto forward = [&model](const torch::Tensor& idx) { return model->forward(idx); };
  auto compiled_forward = brasa::compile(forward);
  brasa::reset_compile_stats();
  struct Shape {
    int64_t b, t;
  };
  const std::vector<Shape> shapes = {{32, 64}, {17, 64}, {8, 64}, {33, 64},
                                     {64, 64}, {32, 37}, {32, 12}};
  std::printf("%-10s %10s %10s %8s %10s %14s %9s\n", "shape", "eager ms", "compiled", "ratio",
              "max |diff|", "compiler runs", "traces");
  int64_t runs_before = 0, traces_before = 0;
  for (const Shape& s : shapes) {
    const torch::Tensor idx = torch::randint(0, config.vocab_size, {s.b, s.t});
    const torch::Tensor want = forward(idx), got = compiled_forward(idx);
    const brasa::CompileStats st = brasa::compile_stats();
    double e = 1e300, c = 1e300;
    for (int r = 0; r < rounds; ++r) {
      e = std::min(e, best_ms([&] { forward(idx); }, 2));
      c = std::min(c, best_ms([&] { compiled_forward(idx); }, 2));
    }
    std::printf("%3lldx%-6lld %10.2f %10.2f %8.2f %10.2e %14lld %9lld\n",
                static_cast<long long>(s.b), static_cast<long long>(s.t), e, c, c / e,
                (got - want).abs().max().item<double>(),
                static_cast<long long>(st.compiler_runs - runs_before),
                static_cast<long long>(st.traces - traces_before));
    runs_before = st.compiler_runs;
    traces_before = st.traces;
  }
  const brasa::CompileStats fs = brasa::compile_stats();
  std::printf(
      "forward: %lld compiler runs in all, %lld traces, %lld graphs, %lld recompiles, "
      "%lld graph breaks, %lld eager calls\n",
      static_cast<long long>(fs.compiler_runs), static_cast<long long>(fs.traces),
      static_cast<long long>(fs.graphs), static_cast<long long>(fs.recompiles),
      static_cast<long long>(fs.graph_breaks), static_cast<long long>(fs.eager_calls));
  return 0;
}
