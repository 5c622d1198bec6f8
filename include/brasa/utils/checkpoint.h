#pragma once
// Activation checkpointing (torch.utils.checkpoint): run a piece of the forward without keeping
// its intermediate tensors, and run it again during backward to get them back. Memory drops from
// the activations of every checkpointed piece to those of one piece at a time, for the price of a
// second forward. Note [Activation checkpointing] in src/utils/checkpoint/checkpoint.cpp.

#include <functional>
#include <vector>

#include "brasa/core/macros.h"
#include "brasa/core/tensor.h"

namespace brasa::utils {

/// The checkpointed piece: tensors in, tensors out. It is called twice (forward, then again in
/// backward), so it must compute the same thing both times from the same inputs: the CPU RNG
/// state and the autocast state of the first call are restored for the second.
using CheckpointFunction = std::function<std::vector<Tensor>(const std::vector<Tensor>&)>;

struct CheckpointOptions {
  /// Save the default CPU generator's state before the forward and replay it in the recompute,
  /// so dropout draws the same mask (torch's preserve_rng_state). The generator's stream outside
  /// the recompute is left where it was.
  bool preserve_rng_state = true;
};

/// Runs `fn(inputs)` without recording its graph; backward recomputes it with grad mode on and
/// back-propagates through the recomputed graph: parameters `fn` uses get their .grad as usual,
/// inputs get theirs through the returned tensors' grad_fn. When grad mode is off or no input
/// requires grad, `fn` runs plainly (checkpointing would lose the parameters' gradients).
/// Throws what `fn` throws; backward twice through one checkpoint throws RuntimeError. As with
/// PyTorch's reentrant checkpoint, the recompute's backward writes the parameters' .grad even under
/// autograd::grad() or backward(inputs=), and create_graph does not reach inside the checkpoint.
BRASA_API std::vector<Tensor> checkpoint(const CheckpointFunction& fn,
                                         const std::vector<Tensor>& inputs,
                                         CheckpointOptions options = {});

/// One tensor in, one out: checkpoint([&](const Tensor& x) { return block->forward(x); }, x).
BRASA_API Tensor checkpoint(const std::function<Tensor(const Tensor&)>& fn, const Tensor& input,
                            CheckpointOptions options = {});

}  // namespace brasa::utils
