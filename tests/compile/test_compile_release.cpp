// A compiled graph lets go of each value after the step that last reads it, and a compiled
// backward of the saved values it is done with (Note [Values released after their last use] in
// src/compile/release.cpp): the memory a compiled call holds at its peak is eager's, not the sum of
// its intermediates. Measured with the CPU caching allocator's counts.
#include "compile/compile_test_util.h"

namespace brasa::compile_test {
namespace {

using Release = CompileTest;

constexpr int kLayers = 8;
constexpr double kBuffer = 128.0 * 256 * 4;  // one [128, 256] Float intermediate

// Bytes allocated at the peak of f() beyond what was allocated before it.
template <typename F>
double peak_of(F&& f) {
  const int64_t before = memory_stats().allocated_bytes;
  reset_peak_memory_stats();
  f();
  return double(memory_stats().peak_allocated_bytes - before);
}

Tensor chain(const Tensor& x, const std::vector<Tensor>& w) {
  Tensor y = x;
  for (const Tensor& wi : w) y = y.mm(wi).tanh();
  return y;
}

std::vector<Tensor> weights(bool grad) {
  std::vector<Tensor> w;
  for (int i = 0; i < kLayers; ++i) w.push_back(randn({256, 256}).mul_(0.05).requires_grad_(grad));
  return w;
}

TEST_F(Release, AForwardHoldsAboutTwoIntermediatesNotAll) {
  NoGradGuard no_grad;
  const std::vector<Tensor> w = weights(false);
  auto fn = [&w](const Tensor& x) { return chain(x, w); };
  auto f = brasa::compile(fn);
  const Tensor x = randn({128, 256});
  const Tensor want = fn(x);
  EXPECT_TRUE(bitwise_equal(f(x), want));  // traced and built
  Tensor got;
  const double compiled = peak_of([&] { got = f(x); });
  const double eager = peak_of([&] { fn(x); });
  EXPECT_TRUE(bitwise_equal(got, want));
  // Eager holds an operand and a result at a time; all eight would be 8 buffers.
  EXPECT_LE(compiled, eager + kBuffer) << "compiled " << compiled << " B, eager " << eager << " B";
  EXPECT_LT(compiled, 4 * kBuffer);
}

TEST_F(Release, ABackwardFreesWhatItIsDoneWith) {
  const std::vector<Tensor> w = weights(true);
  auto fn = [&w](const Tensor& x) { return chain(x, w).sum(); };
  auto f = brasa::compile(fn);
  const Tensor x = randn({128, 256});
  f(x).backward();  // traced and built
  auto backward_peak = [&](auto&& loss_fn) {
    for (const Tensor& wi : w) wi.mutable_grad() = Tensor();
    Tensor loss = loss_fn(x);
    return peak_of([&] { loss.backward(); });
  };
  const double compiled = backward_peak(f), eager = backward_peak(fn);
  // The gradients of the 8 weights stay (8 [256, 256] buffers, as in eager); the intermediate
  // gradients and the saved activations go as the backward passes them.
  EXPECT_LE(compiled, eager + 2 * kBuffer)
      << "compiled " << compiled << " B, eager " << eager << " B";
  std::vector<Tensor> want;
  for (const Tensor& wi : w) want.push_back(wi.grad().clone());
  // retain_graph keeps the saved values for a second backward, which gives the same gradients.
  for (const Tensor& wi : w) wi.mutable_grad() = Tensor();
  Tensor loss = f(x);
  loss.backward({}, /*retain_graph=*/true);
  for (const Tensor& wi : w) wi.mutable_grad() = Tensor();
  loss.backward();
  for (int i = 0; i < kLayers; ++i)
    EXPECT_TRUE(allclose(w[i].grad(), want[i], 1e-5, 1e-6)) << "weight " << i;
  EXPECT_THROW(loss.backward(), ValueError);  // the graph was freed by the second backward
}

}  // namespace
}  // namespace brasa::compile_test
