#pragma once
// The compile benchmarks' training step: zero the gradients (set to none), the loss through the
// compiled or the eager function, backward, one optimizer step.

#include <torch/torch.h>

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

}  // namespace bench
