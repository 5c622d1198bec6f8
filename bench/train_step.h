#pragma once
// The compile benchmarks' training step: zero the gradients (set to none), the loss through the
// compiled or the eager function, backward, one optimizer step.

#include <torch/torch.h>

#include <cstdio>

#include "brasa/compile.h"

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
