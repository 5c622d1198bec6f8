#pragma once
// Helpers of the layer-vs-PyTorch tests: deterministic float64 tensors both sides can build
// (scale * sin(a * i + b)), parameters set from them, one forward and backward; kPython is the
// same recipe for torch 1.13, which each test file runs once for all its cases
// (run_python_shared in support/torch_oracle.h) to compare whole tensors.

#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "brasa/brasa.h"

namespace brasa::layer_test {

inline Tensor det(IntArrayRef shape, double a, double b, double scale = 1.0) {
  int64_t n = 1;
  for (int64_t s : shape) n *= s;
  return (arange(n, TensorOptions(kDouble)).mul(a).add(b).sin() * scale).reshape(shape);
}

/// Copies det(p.shape, a, b, scale) into parameter `name` of `m`.
inline void set_param(nn::Module& m, const std::string& name, double a, double b, double scale) {
  NoGradGuard no_grad;
  Tensor p = m.named_parameters()[name];
  p.copy_(det(p.sizes(), a, b, scale));
}

/// Runs y = m(x), backward of sum(y * det(y.shape, 0.05, 0.2)); returns (y, x.grad).
template <typename M>
std::pair<Tensor, Tensor> forward_backward(M& m, Tensor x) {
  x = x.detach().requires_grad_(true);
  Tensor y = m->forward(x);
  (y * det(y.sizes(), 0.05, 0.2)).sum().backward();
  return {y, x.grad()};
}

/// det, set_param and forward_backward in Python (after torch_oracle.h's prelude, which gives
/// pr(key, tensor) to print a result).
inline const char* const kPython = R"PY(
def det(shape, a, b, scale=1.0):
    n = math.prod(shape)
    return ((torch.arange(n, dtype=torch.float64) * a + b).sin() * scale).reshape(shape)

def set_param(m, name, a, b, scale):
    p = dict(m.named_parameters())[name]
    with torch.no_grad():
        p.copy_(det(p.shape, a, b, scale))

def forward_backward(m, x):
    x = x.detach().requires_grad_(True)
    y = m(x)
    (y * det(y.shape, 0.05, 0.2)).sum().backward()
    return y, x.grad
)PY";

}  // namespace brasa::layer_test
