// L-BFGS against PyTorch (run by the test, kPython): Rosenbrock with the strong Wolfe line
// search, a quadratic with a fixed step and a short history.
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <cmath>

#include "support/torch_oracle.h"

namespace {

namespace O = torch::optim;

// PyTorch's half of both cases: the losses of each step() and the final x.
const char* const kPython = R"PY(
torch.set_default_dtype(torch.float32)  # torch's default; the prelude's float64 is for modules

def rosenbrock(x):
    return (1 - x[0]) ** 2 + 100 * (x[1] - x[0] ** 2) ** 2

A = torch.tensor([[4.0, 1.0, 0.5, 0.0], [1.0, 3.0, 0.2, 0.1], [0.5, 0.2, 2.0, 0.3],
                  [0.0, 0.1, 0.3, 1.0]], dtype=torch.float64)
B = torch.tensor([1.0, -2.0, 0.5, 3.0], dtype=torch.float64)

def quadratic(x):
    return 0.5 * x @ A @ x - B @ x

def run(key, fn, x0, steps, **kw):
    x = torch.tensor(x0, dtype=torch.float64, requires_grad=True)
    opt = torch.optim.LBFGS([x], **kw)
    def closure():
        opt.zero_grad()
        loss = fn(x)
        loss.backward()
        return loss
    losses = [opt.step(closure).item() for _ in range(steps)]
    print(key + ":loss", " ".join(repr(v) for v in losses))
    print(key + ":x", " ".join(repr(v) for v in x.detach().tolist()))

run("rosenbrock", rosenbrock, [-1.5, 2.0], 5, line_search_fn="strong_wolfe")
run("quadratic", quadratic, [0.0, 0.0, 0.0, 0.0], 3, max_iter=5, history_size=3)
)PY";

torch::Tensor rosenbrock(const torch::Tensor& x) {
  torch::Tensor a = 1 - x[0];
  torch::Tensor b = x[1] - x[0] * x[0];
  return a * a + 100 * b * b;
}

torch::Tensor quadratic(const torch::Tensor& x) {
  torch::Tensor A = torch::tensor({4.0, 1.0, 0.5, 0.0, 1.0, 3.0, 0.2, 0.1, 0.5, 0.2, 2.0, 0.3, 0.0,
                                   0.1, 0.3, 1.0},
                                  torch::kDouble)
                        .reshape({4, 4});
  torch::Tensor B = torch::tensor({1.0, -2.0, 0.5, 3.0}, torch::kDouble);
  return 0.5 * x.matmul(A).dot(x) - B.dot(x);
}

template <typename Fn>
void run_and_compare(Fn fn, torch::Tensor x, O::LBFGSOptions options, const std::string& key) {
  const auto& pytorch = brasa::testing_oracle::run_python_shared(kPython);
  ASSERT_TRUE(pytorch.count(key + ":loss") && pytorch.count(key + ":x"))
      << "PyTorch has no " << key;
  const std::vector<double>& want_loss = pytorch.at(key + ":loss");
  const std::vector<double>& want_x = pytorch.at(key + ":x");
  ASSERT_EQ(want_x.size(), static_cast<size_t>(x.numel()));
  x.requires_grad_();
  O::LBFGS opt({x}, options);
  auto closure = [&] {
    opt.zero_grad();
    torch::Tensor loss = fn(x);
    loss.backward();
    return loss;
  };
  for (size_t i = 0; i < want_loss.size(); ++i) {
    const torch::Tensor loss = opt.step(closure);
    const double got = loss.item<double>();
    EXPECT_NEAR(got, want_loss[i], 1e-6 * std::max(1.0, std::abs(want_loss[i]))) << "step " << i;
  }
  for (size_t i = 0; i < want_x.size(); ++i) {
    EXPECT_NEAR(x[static_cast<int64_t>(i)].item<double>(), want_x[i], 1e-6) << "x[" << i << "]";
  }
}

TEST(LBFGS, RosenbrockStrongWolfeMatchesPyTorch) {
  run_and_compare(rosenbrock, torch::tensor({-1.5, 2.0}, torch::kDouble),
                  O::LBFGSOptions().line_search_fn("strong_wolfe"), "rosenbrock");
}

TEST(LBFGS, QuadraticFixedStepShortHistoryMatchesPyTorch) {
  run_and_compare(quadratic, torch::zeros({4}, torch::kDouble),
                  O::LBFGSOptions().max_iter(5).history_size(3), "quadratic");
}

TEST(LBFGS, OptionsAndErrors) {
  torch::Tensor x = torch::zeros({2}).requires_grad_();
  O::LBFGS opt({x}, O::LBFGSOptions(0.5).max_iter(8));
  EXPECT_EQ(static_cast<const O::LBFGSOptions&>(opt.defaults()).max_eval(), 10);
  EXPECT_THROW(opt.step(nullptr), torch::ValueError);
  O::LBFGS bad({x}, O::LBFGSOptions().line_search_fn("backtracking"));
  EXPECT_THROW(bad.step([&] { return (x * x).sum(); }), torch::ValueError);
  torch::Tensor y = torch::zeros({2}).requires_grad_();
  std::vector<O::OptimizerParamGroup> groups = {O::OptimizerParamGroup({x}),
                                                O::OptimizerParamGroup({y})};
  EXPECT_THROW(O::LBFGS(groups, O::LBFGSOptions()), torch::ValueError);
}

}  // namespace
