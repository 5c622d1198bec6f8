#pragma once
// The small MLP of the optimizer equivalence tests, built from brasa ops (same formulas as
// generate_reference.py): 8 -> 16 (relu) -> 4, fixed weights sin(a*i+b)*s, four fixed batches.

#include <torch/torch.h>

#include <string>
#include <vector>

namespace optim_test {

inline brasa::Tensor formula(int64_t n, double a, double b, double scale) {
  return brasa::arange(n, brasa::kDouble).mul(a).add(b).sin().mul(scale);
}

inline std::vector<brasa::Tensor> init_params() {
  std::vector<brasa::Tensor> p = {
      formula(16 * 8, 0.7, 1.0, 0.3).to(brasa::kFloat).reshape({16, 8}),
      formula(16, 1.1, 0.5, 0.1).to(brasa::kFloat),
      formula(4 * 16, 1.3, 2.0, 0.25).to(brasa::kFloat).reshape({4, 16}),
      formula(4, 0.9, 0.2, 0.05).to(brasa::kFloat)};
  for (auto& t : p) t.requires_grad_();
  return p;
}

inline brasa::Tensor model_loss(const std::vector<brasa::Tensor>& p, int64_t step,
                                const std::string& kind) {
  namespace F = brasa::nn::functional;
  const auto k = static_cast<double>(step % 4);
  brasa::Tensor x = formula(16 * 8, 0.5, 1.7 * k, 1.0).to(brasa::kFloat).reshape({16, 8});
  brasa::Tensor out = brasa::linear(F::relu(brasa::linear(x, p[0], p[1])), p[2], p[3]);
  if (kind == "ce") {
    brasa::Tensor cls = brasa::arange(16, brasa::kLong).mul(3).add(step % 4).remainder(4);
    return F::cross_entropy(out, cls);
  }
  brasa::Tensor y = formula(16 * 4, 0.3, k + 0.25, 1.0).to(brasa::kFloat).reshape({16, 4});
  return F::mse_loss(out, y);
}

}  // namespace optim_test
