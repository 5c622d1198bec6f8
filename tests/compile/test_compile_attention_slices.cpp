// Attention's gradients written into the slices of the QKV gradient (Note [Attention gradients
// into slices] in src/ops/attention/attention.cpp): char_gpt's model (q, k, v out of one
// projection), its loss compiled, has eager's gradients (== on every element: only the sign of a
// zero may differ, Note [Zero slices]), and its backward copies no attention gradient. The
// kernel's strided writes against the op, causal or not, are tests/nn/test_attention.cpp's.
#include <sstream>

#include "brasa/profiler/profiler.h"
#include "char_gpt/model.h"
#include "compile/compile_test_util.h"

namespace brasa::compile_test {
namespace {

using AttentionSlices = CompileTest;

TEST_F(AttentionSlices, GradientsEqualEagerWithoutCopies) {
  struct Case {
    int64_t B, T, heads, dim;
  };
  // The bench's layer shape (head size 32: rows written in place) and a ragged length. (The
  // padded head sizes, written through the kernel's buffer, are the op test's: in small models
  // the engine sums the three slice buffers out of place, so Note [Zero slices] leaves them.)
  for (const Case c : {Case{4, 64, 4, 128}, Case{3, 50, 4, 128}}) {
    manual_seed(1);
    Gpt model(GptConfig{11, c.T, 4, c.heads, c.dim, 0.0});
    model->train();
    auto loss_fn = [&model](const Tensor& idx, const Tensor& y) {
      const Tensor logits = model->forward(idx);
      return nn::functional::cross_entropy(logits.view({-1, logits.size(-1)}), y.reshape({-1}));
    };
    auto f = brasa::compile(loss_fn);
    const Tensor idx = randint(0, 11, {c.B, c.T}), y = randint(0, 11, {c.B, c.T});
    std::ostringstream slice;
    slice << IntArrayRef({c.B, c.heads, c.T, c.dim / c.heads});
    f(idx, y);
    for (int call = 0; call < 2; ++call) {
      model->zero_grad();
      loss_fn(idx, y).backward();
      std::vector<Tensor> eager;
      for (const Tensor& p : model->parameters()) eager.push_back(p.grad().clone());
      model->zero_grad();
      const Tensor loss = f(idx, y);
      profiler::Profiler prof(profiler::ProfilerOptions().record_shapes(true));
      if (call == 1) prof.start();
      loss.backward();
      if (call == 1) {
        prof.stop();
        for (const profiler::KeyAverage& k : prof.key_averages(true))
          EXPECT_FALSE(k.name == "copy_" && k.input_shapes.find(slice.str()) != std::string::npos)
              << k.input_shapes;
      }
      const std::vector<Tensor> params = model->parameters();
      for (size_t i = 0; i < params.size(); ++i)
        EXPECT_TRUE(allclose(params[i].grad(), eager[i], 1e-4, 1e-6)) << c.dim << " " << i;
    }
  }
  EXPECT_EQ(compile_stats().graph_breaks, 0);
}

}  // namespace
}  // namespace brasa::compile_test
