#pragma once
// Helpers of the layer-vs-PyTorch tests: deterministic float64 tensors both sides can build
// (scale * sin(a * i + b)), and a two-number signature (sum, sum * sin(0.7 i + 0.3)) whose values
// the tests take from /usr/bin/python3 torch 1.13 running the same recipe.

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <string>

#include "brasa/brasa.h"

namespace brasa::layer_test {

inline Tensor det(IntArrayRef shape, double a, double b, double scale = 1.0) {
  int64_t n = 1;
  for (int64_t s : shape) n *= s;
  return (arange(n, TensorOptions(kDouble)).mul(a).add(b).sin() * scale).reshape(shape);
}

inline std::array<double, 2> sig(const Tensor& t) {
  Tensor flat = t.detach().reshape({-1}).to(kDouble);
  Tensor p = arange(flat.numel(), TensorOptions(kDouble)).mul(0.7).add(0.3).sin();
  return {flat.sum().item<double>(), (flat * p).sum().item<double>()};
}

inline void expect_sig(const Tensor& t, std::array<double, 2> want, const std::string& what) {
  const auto got = sig(t);
  for (int i = 0; i < 2; ++i)
    EXPECT_NEAR(got[i], want[i], 1e-7 + 1e-7 * std::abs(want[i])) << what << " signature " << i;
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

}  // namespace brasa::layer_test
