#pragma once
// The small MLP of the optimizer equivalence tests: 8 -> 16 (relu) -> 4, fixed weights
// sin(a*i+b)*s, four fixed batches; built from brasa ops, and from torch ops by kPythonModel (the
// PyTorch half, for run_python_shared in support/torch_oracle.h).

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

/// The same model in Python: init_params(), loss_fn(params, step, kind), and out(key, values),
/// which prints a line that run_python reads back.
inline const char* const kPythonModel = R"PY(
import torch.nn.functional as F
torch.set_default_dtype(torch.float32)  # torch's default; the prelude's float64 is for modules
O = torch.optim
S = torch.optim.lr_scheduler

def mlp_formula(n, a, b, scale):
    return (torch.arange(n, dtype=torch.float64) * a + b).sin() * scale

def init_params():
    w1 = mlp_formula(16 * 8, 0.7, 1.0, 0.3).float().reshape(16, 8)
    b1 = mlp_formula(16, 1.1, 0.5, 0.1).float()
    w2 = mlp_formula(4 * 16, 1.3, 2.0, 0.25).float().reshape(4, 16)
    b2 = mlp_formula(4, 0.9, 0.2, 0.05).float()
    return [p.requires_grad_() for p in (w1, b1, w2, b2)]

def loss_fn(params, step, kind):
    w1, b1, w2, b2 = params
    k = step % 4
    x = mlp_formula(16 * 8, 0.5, 1.7 * k, 1.0).float().reshape(16, 8)
    out = F.linear(F.relu(F.linear(x, w1, b1)), w2, b2)
    if kind == "ce":
        return F.cross_entropy(out, (torch.arange(16) * 3 + k) % 4)
    return F.mse_loss(out, mlp_formula(16 * 4, 0.3, k + 0.25, 1.0).float().reshape(16, 4))

def out(key, values):
    print(key, ' '.join(repr(float(v)) for v in values))
)PY";

}  // namespace optim_test
