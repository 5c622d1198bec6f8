#pragma once
// The compile benchmarks' training step: zero the gradients (set to none), the loss through the
// compiled or the eager function, backward, one optimizer step.

#include <torch/torch.h>

#include <cstdio>

#include "brasa/compile.h"
#include "brasa/core/allocator.h"

namespace bench {

/// A callable `step(bool compiled)` over the given optimizer, loss functions and batch (all kept
/// by reference).
template <typename Optimizer, typename Eager, typename Compiled>
auto training_step(Optimizer& optimizer, Eager& eager, Compiled& compiled, const torch::Tensor& x,
                   const torch::Tensor& y) {
  return [&optimizer, &eager, &compiled, &x, &y](bool use_compiled) {
    optimizer.zero_grad(/*set_to_none=*/true);
    torch::Tensor loss = use_compiled ? compiled(x, y) : eager(x, y);
    loss.backward();
    optimizer.step();
  };
}

/// The memory one `step(compiled)` allocates beyond what was allocated before it, at its peak, in
/// MiB (the CPU caching allocator's count).
template <typename Step>
double step_peak_mib(Step& step, bool compiled) {
  const int64_t before = brasa::memory_stats().allocated_bytes;
  brasa::reset_peak_memory_stats();
  step(compiled);
  return double(brasa::memory_stats().peak_allocated_bytes - before) / (1 << 20);
}

/// The eager `step(false)` with fused eager on (Note [Fused eager]); runs it once and prints what
/// one step defers.
template <typename Step>
auto fused_eager_step(Step& step) {
  auto run = [&step] {
    brasa::FusedEagerGuard on;
    step(false);
  };
  const brasa::CompileStats before = brasa::compile_stats();
  run();
  const brasa::CompileStats after = brasa::compile_stats();
  std::printf("fused eager, one step: %lld ops deferred, %lld flushes\n",
              static_cast<long long>(after.fused_eager_ops - before.fused_eager_ops),
              static_cast<long long>(after.fused_eager_flushes - before.fused_eager_flushes));
  return run;
}

}  // namespace bench
