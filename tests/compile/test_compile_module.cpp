// compile(module): parameters are graph inputs (optimizer steps and replaced tensors are seen),
// gradients equal eager's, and inference under no_grad runs the fused kernels. Float linear layers
// run as oneDNN matmuls with their epilogues (Note [Matmul epilogues]), whose products may round
// differently from eager's: Float results agree within 1e-5 of their magnitude, Double bit for bit.
#include <algorithm>

#include "brasa/compile/module.h"
#include "brasa/optim.h"
#include "compile/compile_test_util.h"

namespace brasa::compile_test {
namespace {

using CompileModule = CompileTest;

/// Within 1e-5 of the larger of 1 and b's largest magnitude (a matmul's summation order).
bool close(const Tensor& a, const Tensor& b) {
  if (a.sizes() != b.sizes() || a.dtype() != b.dtype()) return false;
  const double scale = std::max(1.0, b.abs().max().item<double>());
  return (a - b).abs().max().item<double>() <= 1e-5 * scale;
}

struct MlpImpl : nn::Module {
  MlpImpl() {
    fc1 = register_module("fc1", nn::Linear(6, 16));
    fc2 = register_module("fc2", nn::Linear(16, 3));
  }
  Tensor forward(const Tensor& x) { return fc2(((fc1(x) * 0.5 + 0.1).relu() - 0.05) * 2.0); }
  nn::Linear fc1{nullptr}, fc2{nullptr};
};
BRASA_MODULE(Mlp);

TEST_F(CompileModule, TrainingStepsEqualEager) {
  manual_seed(3);
  Mlp eager_model;
  Mlp compiled_model;
  {
    NoGradGuard no_grad;
    auto src = eager_model->parameters();
    auto dst = compiled_model->parameters();
    for (size_t i = 0; i < src.size(); ++i) dst[i].copy_(src[i]);
  }
  auto compiled = compile(compiled_model);
  optim::SGD opt_eager(eager_model->parameters(), optim::SGDOptions(0.1));
  optim::SGD opt_compiled(compiled_model->parameters(), optim::SGDOptions(0.1));
  Tensor x = randn({8, 6}), target = randn({8, 3});
  for (int step = 0; step < 4; ++step) {
    opt_eager.zero_grad();
    opt_compiled.zero_grad();
    Tensor le = (eager_model->forward(x) - target).pow(2).mean();
    Tensor lc = (compiled(x) - target).pow(2).mean();
    le.backward();
    lc.backward();
    EXPECT_TRUE(close(lc, le)) << "step " << step;
    auto pe = eager_model->parameters(), pc = compiled_model->parameters();
    for (size_t i = 0; i < pe.size(); ++i)
      EXPECT_TRUE(close(pc[i].grad(), pe[i].grad())) << "step " << step << " param " << i;
    opt_eager.step();
    opt_compiled.step();
  }
  EXPECT_EQ(compile_stats().traces, 1);
}

TEST_F(CompileModule, InferenceFusesAndSeesReplacedParameters) {
  Mlp model;
  auto compiled = compile(model);
  model->eval();
  NoGradGuard no_grad;
  Tensor x = randn({5, 6});
  compiled(x);
  EXPECT_TRUE(close(compiled(x), model->forward(x)));
  model->fc1->weight.mul_(2);  // in place: the same graph reads it
  EXPECT_TRUE(close(compiled(x), model->forward(x)));
  EXPECT_GE(compile_stats().matmul_epilogues, 1);
  EXPECT_GE(compile_stats().compiled_calls, 2);
  model->to(kDouble);  // new parameter tensors: the guards see their dtype, a new graph is traced
  Tensor xd = x.to(kDouble);
  compiled(xd);
  EXPECT_TRUE(bitwise_equal(compiled(xd), model->forward(xd)));
  EXPECT_EQ(compile_stats().traces, 2);
}

}  // namespace
}  // namespace brasa::compile_test
