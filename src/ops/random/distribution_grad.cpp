// Derivatives of poisson, binomial and normal_functional (distribution_ops.cpp), as in PyTorch
// 1.13: poisson's gradient is zero (PoissonBackward0); binomial and normal_functional record a node
// whose backward raises NotImplementedError.
#include "autograd/function_node.h"
#include "autograd/no_derivative.h"
#include "brasa/ops/factory.h"
#include "ops/random/random_ops.h"

namespace brasa::ops {
namespace {

using autograd::BackwardContext;
using autograd::BelowAutograd;
using autograd::variable_list;

Tensor poisson_autograd(const Tensor& self, std::optional<Generator> gen) {
  return autograd::record_one_input(
      "PoissonBackward0", "poisson", self, [&] { return poisson_op().call(self, gen); },
      [](const Tensor& g) { return zeros_like(g); });
}

using autograd::NoDerivative;

Tensor binomial_autograd(const Tensor& count, const Tensor& prob, std::optional<Generator> gen) {
  auto run = [&] { return binomial_op().call(count, prob, gen); };
  if (!autograd::any_requires_grad({&count, &prob})) {
    BelowAutograd below;
    return run();
  }
  return autograd::record("NotImplemented", "binomial", {&count, &prob}, count, Tensor(),
                          NoDerivative{"binomial"}, run, false)
      .first;
}

Tensor normal_functional_autograd(const Tensor& self, double mean, double std,
                                  std::optional<Generator> gen) {
  auto run = [&] { return normal_functional_op().call(self, mean, std, gen); };
  if (!autograd::any_requires_grad({&self})) {
    BelowAutograd below;
    return run();
  }
  return autograd::record("NotImplemented", "normal_functional", {&self}, self, Tensor(),
                          NoDerivative{"normal_functional"}, run, false)
      .first;
}

}  // namespace

BRASA_REGISTER_KERNEL(poisson_op, poisson_autograd, Autograd)
BRASA_REGISTER_KERNEL(binomial_op, binomial_autograd, Autograd)
BRASA_REGISTER_KERNEL(normal_functional_op, normal_functional_autograd, Autograd)

}  // namespace brasa::ops
