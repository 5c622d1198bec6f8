// Activation checkpointing (brasa/utils/checkpoint.h, checkpoint_modules.h): gradients identical
// to the plain graph's, dropout included; the RNG stream left as the plain run leaves it; peak
// memory (the CPU allocator's statistics) lower; the error cases.

#include <gtest/gtest.h>

#include <cstdio>
#include <vector>

#include "brasa/brasa.h"
#include "brasa/utils/checkpoint.h"
#include "brasa/utils/checkpoint_modules.h"

using namespace brasa;
using brasa::utils::checkpoint;

namespace {

// A residual block with everything the recompute must reproduce: matmuls, GELU, LayerNorm and
// dropout (whose mask comes from the default generator).
struct BlockImpl : nn::Module {
  explicit BlockImpl(int64_t d)
      : norm(register_module("norm", nn::LayerNorm(nn::LayerNormOptions({d})))),
        up(register_module("up", nn::Linear(d, 4 * d))),
        down(register_module("down", nn::Linear(4 * d, d))),
        drop(register_module("drop", nn::Dropout(0.2))) {}
  Tensor forward(const Tensor& x) { return x + drop(down(gelu(up(norm(x))))); }
  nn::LayerNorm norm;
  nn::Linear up, down;
  nn::Dropout drop;
};
BRASA_MODULE(Block);

nn::Sequential make_stack(int64_t depth, int64_t d) {
  manual_seed(7);
  nn::Sequential s;
  for (int64_t i = 0; i < depth; ++i) s->push_back(Block(d));
  return s;
}

// The stack's forward on x, each block checkpointed or not.
Tensor run_stack(nn::Sequential& stack, const Tensor& x, bool checkpointed) {
  Tensor h = x;
  for (auto& m : *stack) {
    auto block = m.ptr<BlockImpl>();
    h = checkpointed ? checkpoint([block](const Tensor& in) { return block->forward(in); }, h)
                     : block->forward(h);
  }
  return h;
}

// Forward + backward of `stack` on a fixed input, with or without checkpointing each block.
// Returns the input's gradient followed by every parameter's.
std::vector<Tensor> gradients(nn::Sequential& stack, bool checkpointed, uint64_t seed = 11) {
  manual_seed(3);
  Tensor x = randn({4, 16, 32}).requires_grad_();
  for (auto& p : stack->parameters()) p.mutable_grad().reset();
  manual_seed(seed);
  run_stack(stack, x, checkpointed).pow(2).mean().backward();
  std::vector<Tensor> grads{x.grad()};
  for (auto& p : stack->parameters()) grads.push_back(p.grad());
  return grads;
}

void expect_identical(const std::vector<Tensor>& a, const std::vector<Tensor>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    ASSERT_TRUE(a[i].defined() && b[i].defined()) << "gradient " << i;
    EXPECT_TRUE(a[i].equal(b[i])) << "gradient " << i << " differs, max |diff| "
                                  << (a[i] - b[i]).abs().max().item<double>();
  }
}

}  // namespace

TEST(Checkpoint, GradientsIdenticalWithDropout) {
  auto stack = make_stack(3, 32);
  stack->train();
  expect_identical(gradients(stack, false), gradients(stack, true));
  // Another dropout seed gives other gradients: the comparison above could fail.
  EXPECT_FALSE(gradients(stack, false)[0].equal(gradients(stack, false, 12)[0]));
}

TEST(Checkpoint, RngStreamContinuesAsWithoutCheckpointing) {
  auto stack = make_stack(2, 32);
  stack->train();
  gradients(stack, false);
  Tensor after_plain = rand({8});
  gradients(stack, true);
  Tensor after_checkpointed = rand({8});
  EXPECT_TRUE(after_plain.equal(after_checkpointed));
}

TEST(Checkpoint, WithoutRngPreservationDropoutMasksDiffer) {
  auto stack = make_stack(1, 32);
  stack->train();
  auto block = stack->ptr<BlockImpl>(0);
  auto input_grad = [&](bool preserve) {
    manual_seed(3);
    Tensor x = randn({4, 16, 32}).requires_grad_();
    utils::CheckpointOptions options;
    options.preserve_rng_state = preserve;
    checkpoint([block](const Tensor& in) { return block->forward(in); }, x, options)
        .pow(2)
        .sum()
        .backward();
    return x.grad();
  };
  // The recompute draws a fresh mask, so the gradient belongs to another forward.
  EXPECT_FALSE(input_grad(true).equal(input_grad(false)));
}

TEST(Checkpoint, SequentialAndWrapperMatchPlainGradients) {
  auto stack = make_stack(4, 32);
  stack->train();
  const auto plain = gradients(stack, false);
  for (int64_t segments : {1, 2, 3, 4}) {
    manual_seed(3);
    Tensor x = randn({4, 16, 32}).requires_grad_();
    stack->zero_grad(/*set_to_none=*/true);  // plain holds the previous .grad tensors
    for (auto& p : stack->parameters()) p.mutable_grad().reset();
    manual_seed(11);
    utils::checkpoint_sequential(stack, segments, x).pow(2).mean().backward();
    std::vector<Tensor> got{x.grad()};
    for (auto& p : stack->parameters()) got.push_back(p.grad());
    expect_identical(plain, got);
  }
  EXPECT_THROW(utils::checkpoint_sequential(stack, 0, randn({1, 32})), ValueError);
  EXPECT_THROW(utils::checkpoint_sequential(stack, 5, randn({1, 32})), ValueError);

  auto block = make_stack(1, 8)->ptr<BlockImpl>(0);
  utils::CheckpointWrapper wrapped{Block{block}};
  EXPECT_EQ(wrapped->named_parameters().keys().front(), "module.norm.weight");
  block->eval();
  Tensor x = randn({2, 8}, TensorOptions().requires_grad(true));
  EXPECT_TRUE(wrapped(x).equal(block->forward(x)));
}

TEST(Checkpoint, PeakMemoryLower) {
  auto stack = make_stack(8, 256);
  stack->train();
  auto peak = [&](bool checkpointed) {
    manual_seed(3);
    Tensor x = randn({4, 64, 256}).requires_grad_();
    for (auto& p : stack->parameters()) p.mutable_grad() = zeros_like(p);  // same in both runs
    reset_peak_memory_stats();
    const int64_t before = memory_stats().allocated_bytes;
    run_stack(stack, x, checkpointed).pow(2).mean().backward();
    return memory_stats().peak_allocated_bytes - before;
  };
  const double plain = static_cast<double>(peak(false));
  const double checkpointed = static_cast<double>(peak(true));
  std::printf("peak memory above the start: plain %.1f MiB, checkpointed %.1f MiB (ratio %.3f)\n",
              plain / (1 << 20), checkpointed / (1 << 20), checkpointed / plain);
  // Plain keeps 8 blocks of activations; checkpointed the 8 block inputs and one block's.
  EXPECT_LT(checkpointed, 0.4 * plain);
}

TEST(Checkpoint, AutocastStateReplayed) {
  auto stack = make_stack(1, 32);
  stack->eval();
  auto block = stack->ptr<BlockImpl>(0);
  manual_seed(3);
  Tensor x = randn({4, 32}).requires_grad_();
  Tensor plain_grad;
  {
    AutocastGuard autocast(kBFloat16);
    Tensor y = block->forward(x);
    EXPECT_EQ(y.scalar_type(), kFloat);  // the residual promotes the bf16 branch to float
    y.sum().backward();
  }
  plain_grad = x.grad().clone();
  x.mutable_grad().reset();
  stack->zero_grad();
  Tensor y;
  {
    AutocastGuard autocast(kBFloat16);
    y = checkpoint([block](const Tensor& in) { return block->forward(in); }, x);
  }
  y.sum().backward();  // outside the region: the recompute must turn autocast back on
  EXPECT_TRUE(plain_grad.equal(x.grad()));
}

TEST(Checkpoint, NoInputRequiringGradRunsPlainly) {
  nn::Linear lin(3, 2);
  Tensor x = randn({5, 3});
  Tensor y = checkpoint([lin](const Tensor& in) mutable { return lin(in); }, x);
  y.sum().backward();
  ASSERT_TRUE(lin->weight.grad().defined());  // the parameters still get their gradient
  NoGradGuard no_grad;
  EXPECT_FALSE(
      checkpoint([](const Tensor& in) { return in * 2; }, x.requires_grad_()).requires_grad());
}

TEST(Checkpoint, Errors) {
  Tensor x = randn({3}, TensorOptions().requires_grad(true));
  Tensor y = checkpoint([](const Tensor& in) { return in.exp(); }, x);
  Tensor z = y.sum();
  z.backward({}, /*retain_graph=*/true);
  Tensor first = x.grad().clone();
  z.backward();  // retained: a second backward works and accumulates
  EXPECT_TRUE(x.grad().allclose(2 * first));
  EXPECT_THROW(z.backward(), RuntimeError);  // freed now

  Tensor a = randn({3}, TensorOptions().requires_grad(true));
  Tensor b = a * 1;
  Tensor out = checkpoint([](const Tensor& in) { return in.sin(); }, b);
  {
    NoGradGuard no_grad;
    b.add_(1);
  }
  EXPECT_THROW(out.sum().backward(), ValueError);  // input changed in place before the recompute

  EXPECT_THROW(checkpoint(std::function<Tensor(const Tensor&)>(), x), ValueError);
  // An identity keeps the input untouched: its output is a new tensor with the checkpoint's node.
  Tensor same = checkpoint([](const Tensor& in) { return in; }, x);
  EXPECT_TRUE(x.is_leaf());
  EXPECT_EQ(same.grad_fn()->name(), "CheckpointBackward");
}
