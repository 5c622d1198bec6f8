// Attention's output written in merged-head layout (Note [Attention output in merged heads] in
// src/ops/attention/attention.cpp; src/compile/head_merge.cpp): char_gpt's model compiled, forward
// without grad equal to the unmerged compiled forward bit for bit, the training loss equal to
// eager's and the gradients as eager's,
// with no copy of the head merge in either compiled graph; a merged result written in place
// afterwards keeps the copy.
#include <stdlib.h>

#include <sstream>

#include "brasa/profiler/profiler.h"
#include "char_gpt/model.h"
#include "compile/compile_test_util.h"

namespace brasa::compile_test {
namespace {

using HeadMerge = CompileTest;

// Whether the profile of `run` has a copy_ of `shape`.
template <typename F>
bool copies(F run, IntArrayRef shape) {
  std::ostringstream s;
  s << shape;
  profiler::Profiler prof(profiler::ProfilerOptions().record_shapes(true));
  prof.start();
  run();
  prof.stop();
  for (const profiler::KeyAverage& k : prof.key_averages(true))
    if (k.name == "copy_" && k.input_shapes.find(s.str()) != std::string::npos) return true;
  return false;
}

TEST_F(HeadMerge, GptEqualsEagerWithoutMergeCopies) {
  const int64_t B = 3, T = 40, heads = 4, dim = 64;
  manual_seed(2);
  Gpt model(GptConfig{13, T, 2, heads, dim, 0.0});
  const Tensor idx = randint(0, 13, {B, T}), y = randint(0, 13, {B, T});
  const std::vector<int64_t> merged = {B, T, heads, dim / heads};
  {
    // Without grad (reshape resizes its copy in place): the same bits as the graph compiled with
    // the merge switched off (whose products already differ from eager's in the last bits at this
    // shape, as on main).
    model->eval();
    NoGradGuard no_grad;
    auto forward = [&model](const Tensor& i) { return model->forward(i); };
    auto f = brasa::compile(forward), plain = brasa::compile(forward);
    setenv("BRASA_COMPILE_HEAD_MERGE", "0", 1);
    plain(idx);
    const Tensor want = plain(idx);
    unsetenv("BRASA_COMPILE_HEAD_MERGE");
    EXPECT_TRUE(copies([&] { plain(idx); }, merged));
    f(idx);
    Tensor got;
    EXPECT_FALSE(copies([&] { got = f(idx); }, merged));
    EXPECT_TRUE(bitwise_equal(got, want));
    EXPECT_TRUE(allclose(got, forward(idx), 1e-5, 1e-6));
  }
  model->train();
  auto loss_fn = [&model](const Tensor& i, const Tensor& t) {
    const Tensor logits = model->forward(i);
    return nn::functional::cross_entropy(logits.view({-1, logits.size(-1)}), t.reshape({-1}));
  };
  auto f = brasa::compile(loss_fn);
  f(idx, y);
  model->zero_grad();
  const Tensor eager_loss = loss_fn(idx, y);
  eager_loss.backward();
  std::vector<Tensor> eager;
  for (const Tensor& p : model->parameters()) eager.push_back(p.grad().clone());
  model->zero_grad();
  Tensor loss;
  EXPECT_FALSE(copies(
      [&] {
        loss = f(idx, y);
        loss.backward();
      },
      merged));
  EXPECT_TRUE(bitwise_equal(loss, eager_loss));
  const std::vector<Tensor> params = model->parameters();
  for (size_t i = 0; i < params.size(); ++i)
    EXPECT_TRUE(allclose(params[i].grad(), eager[i], 1e-4, 1e-6)) << i;
  EXPECT_EQ(compile_stats().graph_breaks, 0);
}

TEST_F(HeadMerge, ResultWrittenInPlaceKeepsTheCopy) {
  // The merged result is written in place later: it must not share the attention's output.
  manual_seed(4);
  const Tensor q = randn({2, 3, 16, 8}), k = randn({2, 3, 16, 8}), v = randn({2, 3, 16, 8});
  auto fn = [](const Tensor& a, const Tensor& b, const Tensor& c) {
    const Tensor y = scaled_dot_product_attention(a, b, c, {}, 0.0, true);
    Tensor m = y.transpose(1, 2).reshape({2, 16, 24});
    m.mul_(2.0);
    return std::vector<Tensor>{y, m};
  };
  auto f = brasa::compile(fn);
  for (int call = 0; call < 2; ++call) {
    const std::vector<Tensor> want = fn(q, k, v), got = f(q, k, v);
    ASSERT_EQ(got.size(), 2u);
    EXPECT_TRUE(bitwise_equal(got[0], want[0]));
    EXPECT_TRUE(bitwise_equal(got[1], want[1]));
  }
}

}  // namespace
}  // namespace brasa::compile_test
