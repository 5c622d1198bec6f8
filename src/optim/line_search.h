#pragma once
// The strong Wolfe line search of PyTorch's L-BFGS (bracketing then cubic-interpolation zoom).

#include <functional>
#include <utility>

#include "brasa/core/tensor.h"

namespace brasa::optim::detail {

/// f(t) and its gradient at x + t * d.
using DirectionalObjective = std::function<std::pair<double, Tensor>(double t)>;

struct LineSearchResult {
  double loss = 0;
  Tensor flat_grad;
  double t = 0;
  int64_t func_evals = 0;
};

/// Minimiser of the cubic through (x1, f1, g1), (x2, f2, g2), clamped to bounds (default [x1, x2]).
double cubic_interpolate(double x1, double f1, double g1, double x2, double f2, double g2,
                         std::optional<std::pair<double, double>> bounds = std::nullopt);

LineSearchResult strong_wolfe(const DirectionalObjective& obj, double t, const Tensor& d, double f,
                              const Tensor& g, double gtd, double c1 = 1e-4, double c2 = 0.9,
                              double tolerance_change = 1e-9, int64_t max_ls = 25);

}  // namespace brasa::optim::detail
