#pragma once
// Helpers of the matrix-function derivatives (lu_grad.cpp, factor_grad.cpp, spectral_grad.cpp).

#include "autograd/function_node.h"
#include "brasa/core/empty.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/linalg.h"
#include "brasa/ops/linalg_decomp.h"
#include "brasa/ops/pointwise.h"

namespace brasa::ops::linalg_grad {

using autograd::BackwardContext;
using autograd::BelowAutograd;
using autograd::SavedVariable;
using autograd::variable_list;

/// The batch of transposed matrices.
inline Tensor mT(const Tensor& t) { return t.transpose(-2, -1); }
/// n x n identity of t's dtype and device.
inline Tensor eye_like(const Tensor& t, int64_t n) { return eye(n, t.options()); }
/// A batch of vectors [..., k] as diagonal matrices [..., k, k].
inline Tensor diag_matrix(const Tensor& v) { return v.unsqueeze(-1) * eye_like(v, v.size(-1)); }
/// X R^{-T} for upper-triangular (or any invertible) R.
inline Tensor times_inverse_transpose(const Tensor& X, const Tensor& R) {
  return linalg_solve(mT(R), X, /*left=*/false);
}

/// Runs `run` below autograd and, when an input requires grad, makes a node running `closure`
/// the grad_fn of `outputs` (their indices in the node are their positions in the tuple).
template <class Closure, class Run>
auto record_outputs(const char* node_name, const char* op,
                    std::initializer_list<const Tensor*> inputs, bool needed, Run run,
                    Closure make_closure) {
  decltype(run()) r;
  {
    BelowAutograd below;
    r = run();
  }
  if (!needed) return r;
  auto node = autograd::make_function_node(node_name, op, inputs, make_closure(r));
  if constexpr (std::is_same_v<decltype(r), Tensor>) {
    autograd::set_history(r, node);
  } else {
    std::apply([&](auto&... t) { (autograd::set_history(t, node), ...); }, r);
  }
  return r;
}

}  // namespace brasa::ops::linalg_grad
