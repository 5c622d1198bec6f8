// Autograd kernels of the LDL ops (factor_ldl.cpp): like PyTorch 1.13, their results record a node
// whose backward raises NotImplementedError.
#include "autograd/function_node.h"
#include "autograd/no_derivative.h"
#include "ops/linalg/decomp_ops.h"

namespace brasa::ops {
namespace {

using autograd::BackwardContext;
using autograd::BelowAutograd;
using autograd::variable_list;

using autograd::NoDerivative;

std::tuple<Tensor, Tensor, Tensor> ldl_factor_autograd(const Tensor& A, bool hermitian,
                                                       bool check_errors) {
  std::tuple<Tensor, Tensor, Tensor> r;
  {
    BelowAutograd below;
    r = linalg_ldl_factor_ex_op().call(A, hermitian, check_errors);
  }
  if (!autograd::any_requires_grad({&A})) return r;
  auto node = autograd::make_function_node("NotImplemented", "linalg_ldl_factor_ex", {&A},
                                           NoDerivative{"linalg_ldl_factor_ex"}, false);
  autograd::set_history(std::get<0>(r), node);
  return r;
}

Tensor ldl_solve_autograd(const Tensor& LD, const Tensor& pivots, const Tensor& B, bool hermitian) {
  auto run = [&] { return linalg_ldl_solve_op().call(LD, pivots, B, hermitian); };
  if (!autograd::any_requires_grad({&LD, &B})) {
    BelowAutograd below;
    return run();
  }
  return autograd::record("NotImplemented", "linalg_ldl_solve", {&LD, &B}, LD, Tensor(),
                          NoDerivative{"linalg_ldl_solve"}, run, false)
      .first;
}

}  // namespace

BRASA_REGISTER_KERNEL(linalg_ldl_factor_ex_op, ldl_factor_autograd, Autograd)
BRASA_REGISTER_KERNEL(linalg_ldl_solve_op, ldl_solve_autograd, Autograd)

}  // namespace brasa::ops
