// The char_gpt model (examples/char_gpt/model.h) through brasa::compile: its forward over batch
// sizes 32, 17, 8, 33, 64 and sequence lengths 64, 37, 12 runs the compiler for the first shape
// only (Note [Size arguments]) and equals eager; a training step with the loss compiled (forward
// and backward graphs, cross-entropy included) gives eager's loss and gradients.
#include "char_gpt/model.h"
#include "compile/compile_test_util.h"

namespace brasa::compile_test {
namespace {

using CompiledGpt = CompileTest;

GptConfig small_config() {
  return GptConfig{/*vocab_size=*/23, /*block_size=*/64, /*layers=*/2,
                   /*heads=*/2,       /*dim=*/16,
                   /*dropout=*/0.0};
}

TEST_F(CompiledGpt, ForwardOverNewBatchSizesAndLengthsRunsNoCompiler) {
  manual_seed(1);
  Gpt model(small_config());
  model->eval();
  NoGradGuard no_grad;
  auto forward = [&model](const Tensor& idx) { return model->forward(idx); };
  auto f = compile(forward);
  const int64_t shapes[][2] = {{32, 64}, {17, 64}, {8, 64}, {33, 64}, {64, 64}, {32, 37}, {32, 12}};
  int64_t runs_after_first = -1;
  for (const auto& s : shapes) {
    const Tensor idx = randint(0, 23, {s[0], s[1]});
    const Tensor want = forward(idx);
    for (int call = 0; call < 2; ++call)
      EXPECT_TRUE(allclose(f(idx), want, 1e-4, 1e-5)) << s[0] << "x" << s[1] << " call " << call;
    if (runs_after_first < 0) runs_after_first = compile_stats().compiler_runs;
  }
  const CompileStats st = compile_stats();
  EXPECT_GE(runs_after_first, 0);
  EXPECT_EQ(st.compiler_runs, runs_after_first);
  EXPECT_EQ(st.graph_breaks, 0);
  EXPECT_EQ(st.eager_calls, 0);
  EXPECT_LE(st.traces, 3);  // the first shape, a new batch size, a new sequence length
}

TEST_F(CompiledGpt, TrainingStepLossAndGradientsEqualEager) {
  manual_seed(2);
  Gpt model(small_config());
  auto loss_fn = [&model](const Tensor& idx, const Tensor& targets) {
    Tensor logits = model->forward(idx);
    return nn::functional::cross_entropy(logits.view({-1, logits.size(-1)}), targets.reshape({-1}));
  };
  auto f = compile(loss_fn);
  const Tensor x = randint(0, 23, {4, 16}), y = randint(0, 23, {4, 16});
  for (int call = 0; call < 3; ++call) {
    model->zero_grad();
    Tensor want = loss_fn(x, y);
    want.backward();
    std::vector<Tensor> eager_grads;
    for (const Tensor& p : model->parameters()) eager_grads.push_back(p.grad().clone());
    model->zero_grad();
    Tensor got = f(x, y);
    got.backward();
    EXPECT_NEAR(got.item<double>(), want.item<double>(), 1e-5 * std::abs(want.item<double>()));
    size_t i = 0;
    for (const Tensor& p : model->parameters()) {
      ASSERT_TRUE(p.grad().defined()) << i;
      EXPECT_TRUE(allclose(p.grad(), eager_grads[i], 1e-4, 1e-6))
          << "call " << call << " parameter " << i << ": "
          << (p.grad() - eager_grads[i]).abs().max().item<double>();
      ++i;
    }
  }
  const CompileStats st = compile_stats();
  EXPECT_EQ(st.graph_breaks, 0);
  EXPECT_EQ(st.compiled_calls, 2);
  EXPECT_EQ(st.backward_graphs, 1);  // reshape's copies do not stop it (Note [Fresh copies])
  EXPECT_LE(st.saved_for_backward, st.saved_by_eager);
}

}  // namespace
}  // namespace brasa::compile_test
